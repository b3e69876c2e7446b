"""Interrupt polls: long loops stop with status ``INTERRUPTED`` after a Ctrl-C.

A loop marked ``grafo.poll = N`` (``passes/interrupt_polls.py``) checks the process's
interrupt state (``runtime/interrupt.py``) once every N iterations: an ``scf.for`` with
N > 1 runs as chunks of N iterations (``strip_mined``), the loop as it was emitted inside,
with a poll between chunks, so its inner loop is vectorized as before; with N = 1 it polls
at the start of each iteration; an ``scf.while`` (``rules/scf.py``) counts down. Each
``grafo.print`` polls too. A poll (``emit_poll``) loads the module's
``ptr @grafo.rt.interrupt`` (null until the loader binds it: C callers that leave it null
pay this test only), then the flag with a monotonic atomic load; when the flag is set it
compares ``pthread_self()`` with the state's thread and, for that thread, leaves through the
emitter's error exit (``fail_if``), which frees the call's buffers.

The flag is set by ``void handler(int sig)`` (``define_handler``), which stores 1 and calls
the state's ``previous`` handler: in the JIT it lives in a support engine that is never freed
(``install_handler``); an artifact's library exports it as ``grafo_interrupt_handler``.
"""

from __future__ import annotations

import llvmlite.binding as llvm
from llvmlite import ir

from runtime import interrupt as state
from runtime.manifest import INTERRUPT_HANDLER

from .atomics import store_atomic
from .bound import pointer_global
from .errors import INTERRUPTED
from .target import new_host_target_machine, triple
from .types import I32, I64, PTR

INTERRUPT_GLOBAL = "grafo.rt.interrupt"
HANDLER = INTERRUPT_HANDLER   # the C symbol artifacts export too
# runtime.interrupt.InterruptState: {i32 flag, i32 reserved, i64 thread, ptr previous}
STATE = ir.LiteralStructType([I32, I32, I64, PTR])
SIGNAL_HANDLER = ir.FunctionType(ir.VoidType(), [I32])


def interrupt_global(m: ir.Module) -> ir.GlobalVariable:
    """The module's ``ptr @grafo.rt.interrupt`` (null until ``runtime.interrupt.bind``)."""
    return pointer_global(m, INTERRUPT_GLOBAL)


def _field(b: ir.IRBuilder, ptr, k: int) -> ir.Value:
    return b.gep(ptr, [ir.Constant(I32, 0), ir.Constant(I32, k)], inbounds=True,
                 source_etype=STATE)


def pthread_self(m: ir.Module) -> ir.Function:
    """The declaration of ``pthread_t pthread_self(void)`` (an ``i64``)."""
    fn = m.globals.get("pthread_self")
    return fn if fn is not None else ir.Function(m, ir.FunctionType(I64, []), "pthread_self")


def emit_poll(fe, thread=None) -> None:
    """At ``fe``'s position: stop with ``INTERRUPTED`` (``fe.fail_if``) when the bound
    interrupt state's flag is set for ``thread()`` (emits the ``i64`` thread id that the
    state's is compared with; default: this thread's ``pthread_self()``)."""
    b = fe.b
    # Atomic, so that LLVM neither hoists the test out of the loop nor unswitches the loop
    # on it (which would copy the whole loop nest).
    s = b.load_atomic(interrupt_global(b.module), "monotonic", 8, typ=PTR)
    check, slow, done = (fe.new_block(n) for n in ("poll", "poll.set", "poll.end"))
    b.cbranch(b.icmp_unsigned("!=", s, ir.Constant(PTR, None)), check, done)
    b.position_at_end(check)
    flag = b.load_atomic(_field(b, s, 0), "monotonic", 4, typ=I32)
    b.cbranch(b.icmp_unsigned("!=", flag, ir.Constant(I32, 0)), slow, done).set_weights(
        [1, 1 << 20])
    b.position_at_end(slow)
    me = b.call(pthread_self(b.module), []) if thread is None else thread()
    mine = b.icmp_unsigned("==", me, b.load(_field(b, s, 2), typ=I64))
    fe.fail_if(mine, INTERRUPTED, [])
    b.branch(done)
    b.position_at_end(done)


def strip_mined(fe, lb, ub, step, values: list, every: int, emit_chunk, poll) -> list:
    """``for c = lb; c < ub; c += every * step``: ``emit_chunk(c, min(c + every * step, ub),
    carried)`` (returns the carried values after the chunk; ``values`` are their initial
    LLVM values), and ``poll(c)`` (emits the poll) before each chunk but the first: the
    loop around polls before it, or the function has just started. Returns the final
    carried values.

    The first chunk's end is computed before the loop, so that it is hoisted out of the
    loops around when ``lb`` and ``ub`` are invariant in them (a loop over short rows then
    pays a branch per row); the next ones' after a poll. A chunk's end is
    ``c + min(ub - c, every * step)``, the difference exact as an unsigned number since
    ``c < ub``. ``c`` steps by a ``nsw`` add, taken only while more than a chunk remains (so
    it cannot overflow): LLVM's scalar evolution then sees ``c`` as the recurrence
    ``{lb, +, every * step}`` and knows the range of the chunk's induction variable (a
    ``select`` of the end would hide it and keep index checks from being vectorized)."""
    b = fe.b
    ty = lb.type
    span = _chunk_span(b, step, every)

    def bounds(c):
        left = b.sub(ub, c)
        return b.add(c, _umin(b, left, span)), b.icmp_unsigned(">", left, span)

    pre = b.block
    first_end, first_full = bounds(lb)
    head, more, done = (fe.new_block(n) for n in ("strip.head", "strip.next", "strip.end"))
    b.cbranch(b.icmp_signed("<", lb, ub), head, done)
    b.position_at_end(head)
    c, end, full = (b.phi(t) for t in (ty, ty, ir.IntType(1)))
    c.add_incoming(lb, pre)
    end.add_incoming(first_end, pre)
    full.add_incoming(first_full, pre)
    carried = []
    for v in values:
        p = b.phi(v.type)
        p.add_incoming(v, pre)
        carried.append(p)
    out = emit_chunk(c, end, carried)
    latch = b.block
    b.cbranch(full, more, done)
    b.position_at_end(more)
    stepped = b.add(c, span, flags=("nsw",))
    poll(stepped)
    next_end, next_full = bounds(stepped)
    c.add_incoming(stepped, b.block)
    end.add_incoming(next_end, b.block)
    full.add_incoming(next_full, b.block)
    for p, v in zip(carried, out, strict=True):
        p.add_incoming(v, b.block)
    b.branch(head)
    b.position_at_end(done)
    results = []
    for v, o in zip(values, out, strict=True):
        p = b.phi(v.type)
        p.add_incoming(v, pre)
        p.add_incoming(o, latch)
        results.append(p)
    return results


def _chunk_span(b: ir.IRBuilder, step, every: int):
    """``every * step`` (``step`` > 0), capped at a quarter of the type's range so that it
    cannot overflow."""
    cap = 1 << (step.type.width - 2)
    if isinstance(step, ir.Constant):
        return ir.Constant(step.type, min(every * step.constant, cap))
    limit = ir.Constant(step.type, cap // every)
    return b.select(b.icmp_unsigned(">", step, limit), ir.Constant(step.type, cap),
                    b.mul(step, ir.Constant(step.type, every)))


def _umin(b: ir.IRBuilder, x, y):
    return b.select(b.icmp_unsigned("<", x, y), x, y)


def define_handler(m: ir.Module, name: str, global_: ir.GlobalVariable) -> ir.Function:
    """``void name(int sig)``: set the flag of the state ``global_`` points at (when bound)
    and call its ``previous`` handler (when not null). Async-signal-safe: one atomic store
    and a call."""
    fn = ir.Function(m, SIGNAL_HANDLER, name)
    entry, mark, chain, done = (fn.append_basic_block(n) for n in (
        "entry", "mark", "chain", "done"))
    b = ir.IRBuilder(entry)
    s = b.load(global_, typ=PTR)
    b.cbranch(b.icmp_unsigned("!=", s, ir.Constant(PTR, None)), mark, done)
    b.position_at_end(mark)
    store_atomic(b, ir.Constant(I32, 1), _field(b, s, 0), "monotonic")
    previous = b.load(_field(b, s, 3), typ=SIGNAL_HANDLER.as_pointer())
    b.cbranch(b.icmp_unsigned("!=", previous, ir.Constant(previous.type, None)), chain, done)
    b.position_at_end(chain)
    b.call(previous, [fn.args[0]])
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()
    return fn


_support: list = []   # the handler's engine, kept for the process's lifetime


def install_handler() -> None:
    """Put the JIT's SIGINT handler in place (``runtime.interrupt.install``). It is built on
    first use in an engine that is never freed, since it stays installed after every
    compiled module is gone, with its global bound to the process's interrupt state."""
    if not _support:
        m = ir.Module("grafo.interrupt")
        m.triple = triple()
        define_handler(m, HANDLER, interrupt_global(m))
        ref = llvm.parse_assembly(str(m))
        ref.verify()
        engine = llvm.create_mcjit_compiler(ref, new_host_target_machine())
        engine.finalize_object()
        state.bind(engine.get_global_value_address(INTERRUPT_GLOBAL))
        _support.append(engine)
    engine = _support[0]
    state.install(engine.get_function_address(HANDLER), engine)
