"""``scf.for`` loops marked ``grafo.parallel`` on libgomp's threads.

The loop body is outlined into ``void @"<fn>.parN"(ptr closure)``; the closure (a struct on
the caller's stack) carries the loop bounds and every value the body uses from outside. Each
thread computes its chunk of the iteration space from ``omp_get_thread_num()`` and
``omp_get_num_threads()`` (contiguous, sizes differing by at most one) and runs it; the caller
runs ``GOMP_parallel(body, closure, threads, 0)``, which returns when every thread is done.

At run time the loop runs serially (the body emitted inline as a plain loop) unless it has
several iterations and its work (trip count times its ``grafo.work`` attribute, or else the
trip counts of nested loops whose bounds are known before it) reaches
``PARALLEL_MIN_WORK``, the module's ``grafo.rt.threads`` global points at a thread state with
libgomp's functions (``runtime/parallel.py``) and that state asks for more than one thread.
A loop marked ``grafo.serial_outlined`` runs serially by calling its outlined body on the
whole range (the closure's ``SINGLE`` field makes the body take thread 0 of 1 without asking
libgomp), so its body is compiled once: lowering marks large bodies whose serial copy would
double the module (the matmul kernel's row blocks, which sit in a parallel loop's serial
path themselves), and every loop of a function with more than ``SERIAL_COPIES_UP_TO``
parallel loops (straight-line array code) runs so.

Failures in a body (``grafo.check``, out of memory, a failing ``func.call``) do not leave the
outlined function by a branch: the thread records ``(iteration, code, params)`` in the closure
under a spin lock, keeping the failure of the lowest iteration, and returns; every thread skips
iterations above a recorded failure. After the join the caller reports the recorded failure,
so the error is the one a serial run raises. Each thread keeps its own buffer list for
``memref.alloc`` in the body and frees it when its chunk ends.

Interrupt polls (``interrupt.py``) in a body compare the interrupted thread with the thread
that started the region (the closure's ``CALLER`` field), so every thread of a region the
main thread started records ``INTERRUPTED`` like a failure at its next poll, and also ends
its chunk when a failure below its current iteration is recorded: a Ctrl-C ends the region
within a chunk of polls on every thread.

Loops with iteration arguments and loops nested in a parallel body run serially; lowering
splits large reductions into a parallel loop over fixed chunks (``lowering/reduction.py``).
"""

from __future__ import annotations

from llvmlite import ir

from ...dialects import arith, func, grafo, memref, scf
from .alloc import emit_release
from .atomics import locked, store_atomic
from .bound import pointer_global
from .descriptor import MemRef, flatten
from .emitter import Emitter
from .interrupt import emit_poll, pthread_self, strip_mined
from .rules import RULES
from .rules.scf import poll_every
from .support import internal_function
from .types import I32, I64, PTR, STATUS, STATUS_PARAMS

PARALLEL_MIN_WORK = 1 << 15
# Above this many parallel loops in one function every one is compiled once (as if marked
# ``grafo.serial_outlined``): a serial copy per loop doubles the code of straight-line
# array code, and LLVM's optimizer time grows with it.
SERIAL_COPIES_UP_TO = 4
THREADS_GLOBAL = "grafo.rt.threads"
# runtime.parallel.ThreadState: {ptr parallel, ptr thread_num, ptr num_threads, i32 threads}
THREAD_STATE = ir.LiteralStructType([PTR, PTR, PTR, I32])
# The closure's failure record, then {lb, step, trip, state, single} and the captured values.
FAILURE = ir.LiteralStructType([I64, I32, I32, ir.ArrayType(I64, STATUS_PARAMS)])
NO_FAILURE = (1 << 63) - 1
SINGLE = 5   # closure field: nonzero when the serial path calls the body on the whole range
CALLER = 6   # closure field: pthread_self() of the thread that runs the loop (when it polls)
GOMP_PARALLEL = ir.FunctionType(ir.VoidType(), [PTR, PTR, I32, I32])
OMP_QUERY = ir.FunctionType(I32, [])
_FAILING_OPS = (grafo.CheckOp, memref.AllocOp, func.CallOp)


def wanted(fe: Emitter, op) -> bool:
    """Whether ``op`` (an ``scf.for``) gets a parallel version in ``fe``."""
    return fe.parallel_ok and scf.PARALLEL in op.attributes and not op.iter_inits


def threads_global(m: ir.Module) -> ir.GlobalVariable:
    """The module's ``ptr @grafo.rt.threads`` (null until ``runtime.parallel.bind``)."""
    return pointer_global(m, THREADS_GLOBAL)


def _i32(n: int) -> ir.Constant:
    return ir.Constant(I32, n)


def _i64(n: int) -> ir.Constant:
    return ir.Constant(I64, n)


def _field(b: ir.IRBuilder, ptr, ty: ir.Type, *idx) -> ir.Value:
    return b.gep(ptr, [_i32(i) for i in (0, *idx)], inbounds=True, source_etype=ty)


def trip_count(b: ir.IRBuilder, lb, ub, step) -> ir.Value:
    """Iterations of ``for iv = lb; iv < ub; iv += step`` (step > 0) as ``i64``."""
    span = b.sub(ub, lb)
    n = b.udiv(b.add(span, b.sub(step, ir.Constant(step.type, 1))), step)
    n = b.select(b.icmp_signed(">", ub, lb), n, ir.Constant(step.type, 0))
    return n if n.type == I64 else b.sext(n, I64)


def _known(fe: Emitter, v):
    """The generated value of ``v`` if it is available before the loop (or a constant)."""
    if v in fe.values:
        return fe.values[v]
    op = v.owner_op()
    return RULES[arith.ConstantOp](fe, op)[0] if isinstance(op, arith.ConstantOp) else None


def _inner_work(fe: Emitter, block) -> ir.Value:
    """Iterations of the loops nested in ``block`` whose bounds are known outside it."""
    total = None
    for op in block.ops:
        if not isinstance(op, scf.ForOp):
            continue
        bounds = [_known(fe, v) for v in op.operands[:3]]
        if any(x is None for x in bounds):
            continue
        lb, ub, step = bounds
        work = fe.b.mul(trip_count(fe.b, lb, ub, step), _inner_work(fe, op.body))
        total = work if total is None else fe.b.add(total, work)
    return _i64(1) if total is None else total


def _task_work(fe: Emitter, block) -> ir.Value:
    """The work of a task group's body (``passes/task_groups.py``): the loops of every task,
    found in the then regions of its ``scf.if`` dispatch chain and in the last else."""
    total = _inner_work(fe, block)
    for op in block.ops:
        if isinstance(op, scf.IfOp):
            total = fe.b.add(total, _inner_work(fe, op.then_block))
            total = fe.b.add(total, _task_work(fe, op.else_block))
    return total


def emit_parallel(fe: Emitter, op, emit_loop) -> None:
    """Emit ``op`` as a run-time choice between ``emit_loop(fe, op, lb, ub, step)`` (the
    serial loop) and the outlined body on libgomp's threads. A loop marked
    ``grafo.serial_outlined`` has no serial copy: its serial path calls the outlined body on
    the whole range (one copy of a large body instead of two)."""
    b = fe.b
    lb, ub, step = fe.operands(op)[:3]
    trip = trip_count(b, lb, ub, step)
    given = op.attributes.get(scf.WORK)
    if scf.TASKS in op.attributes:
        work = _task_work(fe, op.body)
    else:
        work = b.mul(trip, _i64(given.value) if given is not None else _inner_work(fe, op.body))
    state = b.load(threads_global(b.module), typ=PTR)
    outlined = (scf.SERIAL_OUTLINED in op.attributes
                or getattr(fe, "parallel_loops", 0) > SERIAL_COPIES_UP_TO)
    if outlined:
        closure, closure_t, body = _closure(fe, op, lb, step, trip, state)
        body.attributes.add("noinline")   # the one copy: LLVM would inline the direct call
    check, start, serial, done = (fe.new_block(n) for n in (
        "par.check", "par.start", "par.serial", "par.done"))
    big = b.and_(b.icmp_signed(">=", work, _i64(PARALLEL_MIN_WORK)),
                 b.icmp_signed(">", trip, _i64(1)))
    b.cbranch(b.and_(big, b.icmp_unsigned("!=", state, ir.Constant(PTR, None))), check, serial)

    b.position_at_end(check)
    gomp = b.load(_field(b, state, THREAD_STATE, 0), typ=GOMP_PARALLEL.as_pointer())
    threads = b.load_atomic(_field(b, state, THREAD_STATE, 3), "monotonic", 4, typ=I32)
    go = b.and_(b.icmp_unsigned("!=", gomp, ir.Constant(PTR, None)),
                b.icmp_signed(">", threads, _i32(1)))
    b.cbranch(go, start, serial)

    b.position_at_end(start)
    if not outlined:
        closure, closure_t, body = _closure(fe, op, lb, step, trip, state)
    b.store(_i64(0), _field(b, closure, closure_t, SINGLE))
    if scf.TASKS in op.attributes:   # no more threads than tasks
        few = b.trunc(trip, I32)
        threads = b.select(b.icmp_signed("<", few, threads), few, threads)
    b.call(gomp, [body, closure, threads, _i32(0)])
    _report(fe, closure, closure_t)
    b.branch(done)

    b.position_at_end(serial)
    if outlined:
        b.store(_i64(1), _field(b, closure, closure_t, SINGLE))
        b.call(body, [closure])
        _report(fe, closure, closure_t)
    else:
        emit_loop(fe, op, lb, ub, step)
    b.branch(done)
    b.position_at_end(done)


def _closure(fe: Emitter, op, lb, step, trip, state) -> tuple:
    """``(closure, its type, the outlined body)`` for ``op``, at the builder's position: the
    closure (on the stack) holds a clear failure record, the loop bounds, ``state``, the
    calling thread (0 when the body does not poll) and the captured values; its ``SINGLE``
    field is left for the caller."""
    b = fe.b
    captured = _captured(fe, op)
    polls = fe.polls and any(scf.POLL in o.attributes for o in op.walk())
    caller = b.call(pthread_self(b.module), []) if polls else _i64(0)
    shared = [_sext64(b, lb), _sext64(b, step), trip, state, _i64(0), caller]
    fields = [v for c in captured for v in flatten(fe.values[c])
              if not isinstance(v, ir.Constant)]
    closure_t = ir.LiteralStructType([FAILURE] + [v.type for v in shared + fields])
    closure = fe.entry_alloca(closure_t)
    b.store(_i64(NO_FAILURE), _field(b, closure, closure_t, 0, 0))
    b.store(_i32(0), _field(b, closure, closure_t, 0, 1))
    b.store(_i32(0), _field(b, closure, closure_t, 0, 2))
    for k, v in enumerate(shared + fields, 1):
        b.store(v, _field(b, closure, closure_t, k))
    body = _outline(fe, op, captured, closure_t, lb.type,
                    {k: v for k, v in (("lb", lb), ("step", step)) if isinstance(v, ir.Constant)})
    return closure, closure_t, body


def _report(fe: Emitter, closure, closure_t) -> None:
    """After the body ran: raise the failure of the lowest iteration it recorded, if any."""
    b = fe.b
    code = b.load(_field(b, closure, closure_t, 0, 2), typ=I32)
    params = [b.load(_field(b, closure, closure_t, 0, 3, i), typ=I64)
              for i in range(STATUS_PARAMS)]
    fe.fail_if(b.icmp_unsigned("!=", code, _i32(0)), code, params)


def _captured(fe: Emitter, op) -> list:
    """The IR values the body of ``op`` uses from outside it, in first-use order."""
    seen: dict = {}
    for inner in op.walk():
        if inner is op:
            continue
        for v in inner.operands:
            if v in fe.values:
                seen.setdefault(v, None)
    return list(seen)


def _outline(fe: Emitter, op, captured: list, closure_t, iv_type, constants: dict) -> ir.Function:
    name = fe.mod.outlined_name(fe.fn)
    fn = ir.Function(fe.mod.ll, ir.FunctionType(ir.VoidType(), [PTR]), name)
    fn.linkage = "internal"
    body = BodyEmitter(fe.mod, fn, can_fail=any(isinstance(o, _FAILING_OPS) for o in op.walk()))
    body.emit(op, captured, fe.values, closure_t, iv_type, constants)
    return fn


class BodyEmitter(Emitter):
    """Emits an outlined parallel loop body: one thread's chunk of the iterations."""

    parallel_ok = False

    def __init__(self, mod, fn: ir.Function, can_fail: bool):
        super().__init__(mod, fn)
        self.can_fail = can_fail
        self.closure = fn.args[0]
        self.status = self.entry_alloca(STATUS)   # filled by failing callees
        self.arena = self.entry_alloca(PTR)
        self._allocas.store(ir.Constant(PTR, None), self.arena)
        self.exit = self.new_block("exit")
        self.iteration = None
        self.closure_t = None

    def emit(self, op, captured: list, outer: dict, closure_t, iv_type, constants) -> None:
        """``constants``: ``lb``/``step`` known at compile time, used as constants so that
        the chunk loop has a constant step (which LLVM's vectorizer needs)."""
        b = self.b
        c = self.closure
        lb, step, trip, state, single = (
            b.load(_field(b, c, closure_t, k), typ=closure_t.elements[k]) for k in range(1, 6))
        lb, step = (_sext64(b, constants[k]) if k in constants else v
                    for k, v in (("lb", lb), ("step", step)))
        self.closure_t = closure_t
        k = CALLER + 1
        for v in captured:
            gen = outer[v]
            values = []
            for f in flatten(gen):
                if isinstance(f, ir.Constant):
                    values.append(f)
                else:
                    values.append(b.load(_field(b, c, closure_t, k), typ=f.type))
                    k += 1
            self.values[v] = (MemRef.unflatten(gen.type, values) if isinstance(gen, MemRef)
                              else values[0])
        tid, nth = self._team(state, single)
        q, r = b.udiv(trip, nth), b.urem(trip, nth)
        begin = b.add(b.mul(tid, q), b.select(b.icmp_unsigned("<", tid, r), tid, r))
        end = b.add(b.add(begin, q), b.zext(b.icmp_unsigned("<", tid, r), I64))
        lo, hi = (b.add(lb, b.mul(i, step)) for i in (begin, end))
        self._loop(op, lo, hi, step, iv_type)
        b.position_at_end(self.exit)
        emit_release(b, self.arena, [])
        b.ret_void()
        self.finish()

    def _team(self, state, single) -> tuple:
        """``(thread number, thread count)`` as i64: libgomp's, or (0, 1) when the closure's
        ``SINGLE`` field is set (the serial path called the body; ``state`` may be null)."""
        b = self.b
        pre = b.block
        team, joined = self.new_block("team"), self.new_block("team.end")
        b.cbranch(b.icmp_unsigned("!=", single, _i64(0)), joined, team)
        b.position_at_end(team)
        query = OMP_QUERY.as_pointer()
        tid = b.sext(b.call(b.load(_field(b, state, THREAD_STATE, 1), typ=query), []), I64)
        nth = b.sext(b.call(b.load(_field(b, state, THREAD_STATE, 2), typ=query), []), I64)
        b.branch(joined)
        b.position_at_end(joined)
        out = []
        for v, alone in ((tid, 0), (nth, 1)):
            phi = b.phi(I64)
            phi.add_incoming(_i64(alone), pre)
            phi.add_incoming(v, team)
            out.append(phi)
        return tuple(out)

    def _loop(self, op, lo, hi, step, iv_type) -> None:
        every = poll_every(self, op)
        if every is not None and every > 1:
            def chunk(c, end, carried):
                self._chunk(op, c, end, step, iv_type, None)
                return carried

            strip_mined(self, lo, hi, step, [], every, chunk, self._poll_at)
        else:
            self._chunk(op, lo, hi, step, iv_type, every)
        self.b.branch(self.exit)

    def _poll_at(self, iteration) -> None:
        self.iteration = iteration   # the failure record's iteration: the next chunk's first
        self.poll()

    def _chunk(self, op, lo, hi, step, iv_type, every) -> None:
        """The iterations ``lo, lo + step, ...`` below ``hi``, polling before each when
        ``every`` is 1; ``b`` continues after them."""
        b = self.b
        pre = b.block
        head, body, done = (self.new_block(n) for n in ("for.head", "for.body", "for.end"))
        b.branch(head)
        b.position_at_end(head)
        iv = b.phi(I64)
        iv.add_incoming(lo, pre)
        b.cbranch(b.icmp_signed("<", iv, hi), body, done)
        b.position_at_end(body)
        if self.can_fail:   # stop above a failure another thread recorded
            self._skip_failed(iv)
        self.iteration = iv
        if every == 1:
            self.poll()
        self.bind(op.body.args[:1], [iv if iv_type == I64 else b.trunc(iv, iv_type)])
        self.emit_ops(op.body)
        iv.add_incoming(b.add(iv, step, flags=("nsw",)), b.block)
        b.branch(head)
        b.position_at_end(done)

    def _skip_failed(self, iteration) -> None:
        """End the chunk when another thread recorded a failure below ``iteration``."""
        b = self.b
        failed = b.load_atomic(_field(b, self.closure, FAILURE, 0), "monotonic", 8, typ=I64)
        run = self.new_block("for.run")
        b.cbranch(b.icmp_signed("<", failed, iteration), self.exit, run)
        b.position_at_end(run)

    def poll(self) -> None:
        """Record ``INTERRUPTED`` when the interrupt is for the thread that started the
        region; end the chunk when a failure below the current iteration is recorded."""
        b = self.b
        emit_poll(self, lambda: b.load(_field(b, self.closure, self.closure_t, CALLER),
                                       typ=I64))
        self._skip_failed(self.iteration)

    def fail_if(self, cond: ir.Value, code, params: list) -> None:
        """When ``cond`` holds: record the failure of this iteration, end the chunk."""
        out, cont = self.new_block("fail"), self.new_block("ok")
        self.b.cbranch(cond, out, cont).set_weights([1, 1 << 20])
        self.b.position_at_end(out)
        code = _i32(code) if isinstance(code, int) else code
        params = list(params) + [_i64(0)] * (STATUS_PARAMS - len(params))
        self.b.call(_record_function(self.mod.ll), [self.closure, self.iteration, code, *params])
        self.b.branch(self.exit)
        self.b.position_at_end(cont)

    def return_if(self, cond: ir.Value, code: ir.Value) -> None:
        """When ``cond`` holds (a callee failed): record its status, end the chunk."""
        out, cont = self.new_block("fail"), self.new_block("ok")
        self.b.cbranch(cond, out, cont).set_weights([1, 1 << 20])
        self.b.position_at_end(out)
        params = [self.b.load(self.status_field(2, i), typ=I64) for i in range(STATUS_PARAMS)]
        self.b.call(_record_function(self.mod.ll), [self.closure, self.iteration, code, *params])
        self.b.branch(self.exit)
        self.b.position_at_end(cont)


def _sext64(b: ir.IRBuilder, v: ir.Value) -> ir.Value:
    return v if v.type == I64 else b.sext(v, I64)


def _record_function(m: ir.Module) -> ir.Function:
    """``void grafo.rt.record_failure(ptr failure, i64 iteration, i32 code, i64 p0..p3)``:
    under the record's spin lock, keep this failure if its iteration is the lowest so far."""
    fn, new = internal_function(m, "grafo.rt.record_failure", ir.FunctionType(
        ir.VoidType(), [PTR, I64, I32] + [I64] * STATUS_PARAMS))
    if not new:
        return fn
    rec, iteration, code, *params = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def keep_lowest():
        first = _field(b, rec, FAILURE, 0)
        write, skip = fn.append_basic_block("write"), fn.append_basic_block("unlock")
        b.cbranch(b.icmp_signed("<", iteration, b.load(first, typ=I64)), write, skip)
        b.position_at_end(write)
        b.store(code, _field(b, rec, FAILURE, 2))
        for i, p in enumerate(params):
            b.store(p, _field(b, rec, FAILURE, 3, i))
        store_atomic(b, iteration, first, "monotonic")
        b.branch(skip)
        b.position_at_end(skip)

    locked(b, _field(b, rec, FAILURE, 1), keep_lowest)
    b.ret_void()
    return fn
