"""Heap buffers of compiled code: allocation, the per-call list of live buffers, release.

Every ``memref.alloc`` of a call goes on one intrusive, doubly linked list whose head lives in
the entry wrapper's stack frame (the "arena"). A buffer is
``base = aligned_alloc(64, 64 + round_up(max(bytes, 64), 64))``; its first 64 bytes hold the
list links ``{ptr next, ptr pprev}`` and the data starts at ``aligned = base + 64``, so the
memref's ``allocated`` pointer is ``base`` and the caller releases a returned buffer with
``free(allocated)``. ``memref.dealloc`` unlinks in O(1); when the entry returns, every buffer
still listed except the returned ones is freed (on an error exit all of them), so repeated calls
do not grow memory. Buffers of 4 MiB or more get ``madvise(MADV_HUGEPAGE)``, as NumPy gives its
own arrays (numpy/core/src/multiarray/alloc.c), to avoid a page fault per 4 KiB. The header
also holds the block's size and a tag at ``pool.SIZE_OFFSET``/``pool.MAGIC_OFFSET``: when the
module is bound to the buffer pool (``pool.py``), large blocks come from it and go back to it
instead of ``aligned_alloc``/``free``.
"""

from __future__ import annotations

from llvmlite import ir

from .pool import MAGIC, MAGIC_OFFSET, MIN_BYTES, SIZE_OFFSET, TABLE, header_word, pool_global
from .support import internal_function
from .types import I1, I32, I64, PTR

HEADER = 64
ALIGN = 64
HUGE_PAGE_THRESHOLD = 1 << 22
MADV_HUGEPAGE = 14
PAGE = 4096
MAX_BYTES = 1 << 62   # larger requests fail like an out-of-memory aligned_alloc


def libc(m: ir.Module, name: str) -> ir.Function:
    """Declaration of a C library function used by generated code."""
    sigs = {"aligned_alloc": (PTR, [I64, I64]), "free": (ir.VoidType(), [PTR]),
            "madvise": (I32, [PTR, I64, I32])}
    if name in m.globals:
        return m.globals[name]
    ret, args = sigs[name]
    return ir.Function(m, ir.FunctionType(ret, args), name)


def _i64(n: int) -> ir.Constant:
    return ir.Constant(I64, n)


def _i32(n: int) -> ir.Constant:
    return ir.Constant(I32, n)


def _null() -> ir.Constant:
    return ir.Constant(PTR, None)


def alloc_function(m: ir.Module) -> ir.Function:
    """``ptr grafo.rt.alloc(ptr arena, i64 bytes)``: a listed buffer's base, null when out of
    memory. The data starts ``HEADER`` bytes after the base."""
    fn, new = internal_function(m, "grafo.rt.alloc", ir.FunctionType(PTR, [PTR, I64]))
    if not new:
        return fn
    arena, nbytes = fn.args
    entry, pool, fresh, fail, ok, link = (fn.append_basic_block(n) for n in (
        "entry", "pool", "fresh", "fail", "ok", "link"))
    b = ir.IRBuilder(entry)
    too_big = b.icmp_unsigned(">", nbytes, _i64(MAX_BYTES))
    at_least = b.select(b.icmp_unsigned("<", nbytes, _i64(ALIGN)), _i64(ALIGN), nbytes)
    rounded = b.and_(b.add(at_least, _i64(ALIGN - 1)), _i64(-ALIGN))
    total = b.add(rounded, _i64(HEADER))
    table = b.load(pool_global(m), typ=PTR)
    b.cbranch(b.and_(b.icmp_unsigned("!=", table, _null()),
                     b.and_(b.icmp_unsigned(">=", total, _i64(MIN_BYTES)), b.not_(too_big))),
              pool, fresh)
    b.position_at_end(pool)
    take = b.load(b.gep(table, [_i32(0), _i32(0)], inbounds=True, source_etype=TABLE),
                  typ=ir.FunctionType(PTR, [I64]).as_pointer())
    reused = b.call(take, [total])
    b.cbranch(b.icmp_unsigned("!=", reused, _null()), link, fresh)
    b.position_at_end(fresh)
    new = b.call(libc(m, "aligned_alloc"), [_i64(ALIGN), total])
    b.cbranch(b.or_(too_big, b.icmp_unsigned("==", new, _null())), fail, ok)
    b.position_at_end(fail)
    b.ret(_null())
    b.position_at_end(ok)
    b.store(total, header_word(b, new, SIZE_OFFSET))
    b.store(_i64(MAGIC), header_word(b, new, MAGIC_OFFSET))
    with b.if_then(b.icmp_unsigned(">=", total, _i64(HUGE_PAGE_THRESHOLD))):
        addr = b.ptrtoint(new, I64)
        skip = b.sub(_i64(PAGE), b.urem(addr, _i64(PAGE)))
        start = b.gep(new, [skip], inbounds=True, source_etype=ir.IntType(8))
        b.call(libc(m, "madvise"), [start, b.sub(total, skip), ir.Constant(I32, MADV_HUGEPAGE)])
    fresh_end = b.block
    b.branch(link)
    b.position_at_end(link)
    base = b.phi(PTR)
    base.add_incoming(reused, pool)
    base.add_incoming(new, fresh_end)
    nxt = b.load(arena, typ=PTR)
    b.store(nxt, base)
    b.store(arena, b.gep(base, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)))
    b.store(base, arena)
    with b.if_then(b.icmp_unsigned("!=", nxt, _null())):
        b.store(base, b.gep(nxt, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)))
    b.ret(base)
    return fn


def release_function(m: ir.Module) -> ir.Function:
    """``void grafo.rt.free(ptr base)``: give a block back to the buffer pool when the module
    is bound to one, else ``free`` it."""
    fn, new = internal_function(m, "grafo.rt.free", ir.FunctionType(ir.VoidType(), [PTR]))
    if not new:
        return fn
    (base,) = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    table = b.load(pool_global(m), typ=PTR)
    with b.if_else(b.icmp_unsigned("!=", table, _null())) as (pooled, plain):
        with pooled:
            give = b.load(b.gep(table, [_i32(0), _i32(1)], inbounds=True, source_etype=TABLE),
                          typ=ir.FunctionType(ir.VoidType(), [PTR]).as_pointer())
            b.call(give, [base])
        with plain:
            b.call(libc(m, "free"), [base])
    b.ret_void()
    return fn


def dealloc_function(m: ir.Module) -> ir.Function:
    """``void grafo.rt.dealloc(ptr base)``: unlink a listed buffer and free it."""
    fn, new = internal_function(m, "grafo.rt.dealloc", ir.FunctionType(ir.VoidType(), [PTR]))
    if not new:
        return fn
    (base,) = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    nxt = b.load(base, typ=PTR)
    pprev = b.load(b.gep(base, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)), typ=PTR)
    b.store(nxt, pprev)
    with b.if_then(b.icmp_unsigned("!=", nxt, ir.Constant(PTR, None))):
        b.store(pprev, b.gep(nxt, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)))
    b.call(release_function(m), [base])
    b.ret_void()
    return fn


def emit_release(b: ir.IRBuilder, arena: ir.Value, keep: list) -> None:
    """Free every buffer on the list at ``arena`` whose base is not in ``keep`` (LLVM ptr
    values); ``b`` continues after the loop."""
    fn = b.function
    head, body, drop, nxt, done = (fn.append_basic_block(n) for n in (
        "release.head", "release.body", "release.free", "release.next", "release.done"))
    start = b.block
    first = b.load(arena, typ=PTR)
    b.branch(head)
    b.position_at_end(head)
    cur = b.phi(PTR)
    cur.add_incoming(first, start)
    b.cbranch(b.icmp_unsigned("==", cur, ir.Constant(PTR, None)), done, body)
    b.position_at_end(body)
    following = b.load(cur, typ=PTR)
    kept = ir.Constant(I1, 0)
    for k in keep:
        kept = b.or_(kept, b.icmp_unsigned("==", cur, k))
    b.cbranch(kept, nxt, drop)
    b.position_at_end(drop)
    b.call(release_function(b.module), [cur])
    b.branch(nxt)
    b.position_at_end(nxt)
    cur.add_incoming(following, nxt)
    b.branch(head)
    b.position_at_end(done)
