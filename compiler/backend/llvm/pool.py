"""The buffer pool: large heap buffers recycled between calls instead of returned to the OS.

A fresh buffer of a MiB or more costs a page fault per page on first touch (the kernel zeroes
each page): for ``a * b + c * d - e`` on 10^7 float32 that is about a third of the call. So
buffers of at least ``MIN_BYTES`` (results whose arrays died, and temporaries at the end of a
call) go to a process-wide pool of ``SLOTS`` buffers holding at most ``limit`` bytes, and the
next allocation of a similar size (at most 25% larger) takes one back with its pages already
mapped. Like the caching allocators of PyTorch and CuPy, and glibc's own reuse of small
blocks; a buffer the pool cannot hold is freed.

The pool is native code in a support engine that lives as long as the process:

- ``ptr grafo.pool.take(i64 total)``: a pooled block of at least ``total`` bytes, or null;
- ``void grafo.pool.give(ptr base)``: keep a block (or ``free`` it);
- ``void grafo.pool.trim()``: free every pooled block.

Blocks are the ones of ``alloc.py``: ``base`` from ``aligned_alloc``, the header holding the
block size at ``SIZE_OFFSET`` and ``MAGIC`` at ``MAGIC_OFFSET`` (a block without them is freed,
never pooled), so ``free(base)`` stays valid for every block, pooled or not (the C ABI).
Compiled modules reach the pool through their ``grafo.rt.pool`` global, a pointer to
``{take, give}`` that ``bind`` sets when the module is loaded; left null (ahead-of-time
libraries called from C) they use ``aligned_alloc``/``free`` alone. A spin lock makes the pool
safe for parallel loop bodies and the result arrays' destructors alike.

The limit is ``GRAFO_BUFFER_POOL_BYTES`` (default 512 MiB; 0 turns pooling off).
"""

from __future__ import annotations

import ctypes
import os

import llvmlite.binding as llvm
from llvmlite import ir

from .atomics import locked
from .bound import pointer_global
from .target import new_host_target_machine, triple
from .types import I1, I32, I64, PTR

MIN_BYTES = 1 << 20
SLOTS = 8
SIZE_OFFSET, MAGIC_OFFSET = 16, 24
MAGIC = 0x67726166_6f706f6c   # "grafopol"
POOL_GLOBAL = "grafo.rt.pool"
DEFAULT_LIMIT = 512 << 20
# {i32 lock, i64 bytes held, i64 limit, [SLOTS x ptr] blocks, [SLOTS x i64] sizes (0: empty)}
STATE = ir.LiteralStructType([I32, I64, I64, ir.ArrayType(PTR, SLOTS), ir.ArrayType(I64, SLOTS)])
TABLE = ir.LiteralStructType([PTR, PTR])   # {take, give}


def _i32(n: int) -> ir.Constant:
    return ir.Constant(I32, n)


def _i64(n: int) -> ir.Constant:
    return ir.Constant(I64, n)


def pool_global(m: ir.Module) -> ir.GlobalVariable:
    """The module's ``ptr @grafo.rt.pool`` (null until ``bind``)."""
    return pointer_global(m, POOL_GLOBAL)


def header_word(b: ir.IRBuilder, base, offset: int) -> ir.Value:
    """Pointer to the ``i64`` at ``base + offset``."""
    return b.gep(base, [_i64(offset)], inbounds=True, source_etype=ir.IntType(8))


def _field(b, state, *idx):
    """Pointer to a field of the pool state (an opaque ``ptr``; ``idx`` ints or i64 values)."""
    p = b.gep(state, [_i32(0)] + [i if isinstance(i, ir.Value) else _i32(i) for i in idx],
              inbounds=True, source_etype=STATE)
    p.type = PTR
    return p


def _take(m: ir.Module, state) -> ir.Function:
    fn = ir.Function(m, ir.FunctionType(PTR, [I64]), "grafo.pool.take")
    (total,) = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    slot = b.alloca(I64)
    b.store(_i64(-1), slot)
    out = b.alloca(PTR)
    b.store(ir.Constant(PTR, None), out)

    def pick():
        best, best_size = _i64(-1), _i64(-1)
        for i in range(SLOTS):   # the smallest block that fits with at most 25% to spare
            size = b.load(_field(b, state, 4, i), typ=I64)
            fits = b.and_(b.icmp_unsigned(">=", size, total),
                          b.icmp_unsigned("<=", size, b.add(total, b.lshr(total, _i64(2)))))
            better = b.and_(fits, b.icmp_unsigned("<", size, best_size))
            best = b.select(better, _i64(i), best)
            best_size = b.select(better, size, best_size)
        found, keep = b.function.append_basic_block("found"), b.function.append_basic_block("end")
        b.cbranch(b.icmp_signed(">=", best, _i64(0)), found, keep)
        b.position_at_end(found)
        b.store(b.load(_field(b, state, 3, best), typ=PTR), out)
        b.store(ir.Constant(PTR, None), _field(b, state, 3, best))
        b.store(_i64(0), _field(b, state, 4, best))
        held = _field(b, state, 1)
        b.store(b.sub(b.load(held, typ=I64), best_size), held)
        b.branch(keep)
        b.position_at_end(keep)

    locked(b, _field(b, state, 0), pick)
    b.ret(b.load(out, typ=PTR))
    return fn


def _give(m: ir.Module, state, free: ir.Function) -> ir.Function:
    fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [PTR]), "grafo.pool.give")
    (base,) = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    release = fn.append_basic_block("free")
    pooled = b.icmp_unsigned("==", b.load(header_word(b, base, MAGIC_OFFSET), typ=I64),
                             _i64(MAGIC))
    size = b.load(header_word(b, base, SIZE_OFFSET), typ=I64)
    try_pool = fn.append_basic_block("pool")
    b.cbranch(b.and_(pooled, b.icmp_unsigned(">=", size, _i64(MIN_BYTES))), try_pool, release)
    b.position_at_end(try_pool)
    kept = b.alloca(I1)
    b.store(ir.Constant(I1, 0), kept)

    def put():
        empty = _i64(-1)
        for i in reversed(range(SLOTS)):
            is_empty = b.icmp_unsigned("==", b.load(_field(b, state, 4, i), typ=I64), _i64(0))
            empty = b.select(is_empty, _i64(i), empty)
        held = b.load(_field(b, state, 1), typ=I64)
        room = b.icmp_unsigned("<=", b.add(held, size), b.load(_field(b, state, 2), typ=I64))
        ok = b.and_(room, b.icmp_signed(">=", empty, _i64(0)))
        store, end = fn.append_basic_block("store"), fn.append_basic_block("stored")
        b.cbranch(ok, store, end)
        b.position_at_end(store)
        b.store(base, _field(b, state, 3, empty))
        b.store(size, _field(b, state, 4, empty))
        b.store(b.add(held, size), _field(b, state, 1))
        b.store(ir.Constant(I1, 1), kept)
        b.branch(end)
        b.position_at_end(end)

    locked(b, _field(b, state, 0), put)
    done = fn.append_basic_block("done")
    b.cbranch(b.load(kept, typ=I1), done, release)
    b.position_at_end(release)
    b.call(free, [base])
    b.branch(done)
    b.position_at_end(done)
    b.ret_void()
    return fn


def _trim(m: ir.Module, state, free: ir.Function) -> ir.Function:
    fn = ir.Function(m, ir.FunctionType(ir.VoidType(), []), "grafo.pool.trim")
    b = ir.IRBuilder(fn.append_basic_block("entry"))

    def clear():
        for i in range(SLOTS):
            block = b.load(_field(b, state, 3, i), typ=PTR)
            b.call(free, [block])   # free(NULL) does nothing
            b.store(ir.Constant(PTR, None), _field(b, state, 3, i))
            b.store(_i64(0), _field(b, state, 4, i))
        b.store(_i64(0), _field(b, state, 1))

    locked(b, _field(b, state, 0), clear)
    b.ret_void()
    return fn


def _limit_from_environment() -> int:
    text = os.environ.get("GRAFO_BUFFER_POOL_BYTES", "")
    try:
        return max(0, int(text)) if text else DEFAULT_LIMIT
    except ValueError:
        raise ValueError(f"GRAFO_BUFFER_POOL_BYTES must be a number of bytes, got {text!r}") \
            from None


class _Support:
    """The pool's engine and the addresses compiled code and Python use."""

    def __init__(self):
        m = ir.Module("grafo.pool")
        m.triple = triple()
        state = ir.GlobalVariable(m, STATE, "grafo.pool.state")
        state.initializer = ir.Constant(STATE, [
            _i32(0), _i64(0), _i64(_limit_from_environment()),
            ir.Constant(ir.ArrayType(PTR, SLOTS), [ir.Constant(PTR, None)] * SLOTS),
            ir.Constant(ir.ArrayType(I64, SLOTS), [_i64(0)] * SLOTS)])
        state.align = 64
        free = ir.Function(m, ir.FunctionType(ir.VoidType(), [PTR]), "free")
        take, give = _take(m, state), _give(m, state, free)
        _trim(m, state, free)
        table = ir.GlobalVariable(m, TABLE, "grafo.pool.table")
        table.initializer = ir.Constant(TABLE, [take, give])
        table.global_constant = True
        ref = llvm.parse_assembly(str(m))
        ref.verify()
        self.engine = llvm.create_mcjit_compiler(ref, new_host_target_machine())
        self.engine.finalize_object()
        self.table = self.engine.get_global_value_address("grafo.pool.table")
        self.give = self.engine.get_function_address("grafo.pool.give")
        self.trim = ctypes.CFUNCTYPE(None)(self.engine.get_function_address("grafo.pool.trim"))
        address = self.engine.get_global_value_address("grafo.pool.state")
        self.held = ctypes.c_int64.from_address(address + 8)
        self.limit = ctypes.c_int64.from_address(address + 16)


_support: list = []


def support() -> _Support:
    """The process's pool (built on first use, kept for the process's lifetime: arrays and
    modules holding its blocks can outlive every compiled function)."""
    if not _support:
        _support.append(_Support())
    return _support[0]


def bind(global_address: int) -> None:
    """Point a loaded module's ``grafo.rt.pool`` global (a ``void *`` at ``global_address``)
    at the process's pool."""
    ctypes.c_void_p.from_address(global_address).value = support().table


def release() -> int:
    """Free every pooled buffer; returns the bytes released."""
    s = support()
    held = s.held.value
    s.trim()
    return held


def pooled_bytes() -> int:
    """Bytes the pool holds now."""
    return support().held.value


def set_limit(nbytes: int) -> None:
    """Hold at most ``nbytes`` in the pool from now on (0: pool nothing); buffers already
    held beyond it stay until ``release``. Raises ValueError for a negative limit."""
    if nbytes < 0:
        raise ValueError(f"the buffer pool limit must be >= 0 bytes, got {nbytes}")
    support().limit.value = int(nbytes)
