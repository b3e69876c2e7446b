"""Heap buffers of compiled code: allocation, the per-call list of live buffers, release.

Every ``memref.alloc`` of a call goes on one intrusive, doubly linked list whose head lives in
the entry wrapper's stack frame (the "arena"). A buffer is
``base = aligned_alloc(64, 64 + round_up(max(bytes, 64), 64))``; its first 64 bytes hold the
list links ``{ptr next, ptr pprev}`` and the data starts at ``aligned = base + 64``, so the
memref's ``allocated`` pointer is ``base`` and the caller releases a returned buffer with
``free(allocated)``. ``memref.dealloc`` unlinks in O(1); when the entry returns, every buffer
still listed except the returned ones is freed (on an error exit all of them), so repeated calls
do not grow memory. Buffers of 4 MiB or more get ``madvise(MADV_HUGEPAGE)``, as NumPy gives its
own arrays (numpy/core/src/multiarray/alloc.c), to avoid a page fault per 4 KiB.
"""

from __future__ import annotations

from llvmlite import ir

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


def alloc_function(m: ir.Module) -> ir.Function:
    """``ptr grafo.rt.alloc(ptr arena, i64 bytes)``: a listed buffer's base, null when out of
    memory. The data starts ``HEADER`` bytes after the base."""
    name = "grafo.rt.alloc"
    if name in m.globals:
        return m.globals[name]
    fn = ir.Function(m, ir.FunctionType(PTR, [PTR, I64]), name)
    fn.linkage = "internal"
    arena, nbytes = fn.args
    entry, fail, ok, advise, done = (fn.append_basic_block(n) for n in (
        "entry", "fail", "ok", "advise", "done"))
    b = ir.IRBuilder(entry)
    too_big = b.icmp_unsigned(">", nbytes, _i64(MAX_BYTES))
    at_least = b.select(b.icmp_unsigned("<", nbytes, _i64(ALIGN)), _i64(ALIGN), nbytes)
    rounded = b.and_(b.add(at_least, _i64(ALIGN - 1)), _i64(-ALIGN))
    total = b.add(rounded, _i64(HEADER))
    base = b.call(libc(m, "aligned_alloc"), [_i64(ALIGN), total])
    b.cbranch(b.or_(too_big, b.icmp_unsigned("==", base, ir.Constant(PTR, None))), fail, ok)
    b.position_at_end(fail)
    b.ret(ir.Constant(PTR, None))
    b.position_at_end(ok)
    nxt = b.load(arena, typ=PTR)
    b.store(nxt, base)
    b.store(arena, b.gep(base, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)))
    b.store(base, arena)
    has_next = b.icmp_unsigned("!=", nxt, ir.Constant(PTR, None))
    with b.if_then(has_next):
        b.store(base, b.gep(nxt, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)))
    b.cbranch(b.icmp_unsigned(">=", total, _i64(HUGE_PAGE_THRESHOLD)), advise, done)
    b.position_at_end(advise)
    addr = b.ptrtoint(base, I64)
    skip = b.sub(_i64(PAGE), b.urem(addr, _i64(PAGE)))
    start = b.gep(base, [skip], inbounds=True, source_etype=ir.IntType(8))
    b.call(libc(m, "madvise"), [start, b.sub(total, skip), ir.Constant(I32, MADV_HUGEPAGE)])
    b.branch(done)
    b.position_at_end(done)
    b.ret(base)
    return fn


def dealloc_function(m: ir.Module) -> ir.Function:
    """``void grafo.rt.dealloc(ptr base)``: unlink a listed buffer and free it."""
    name = "grafo.rt.dealloc"
    if name in m.globals:
        return m.globals[name]
    fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [PTR]), name)
    fn.linkage = "internal"
    (base,) = fn.args
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    nxt = b.load(base, typ=PTR)
    pprev = b.load(b.gep(base, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)), typ=PTR)
    b.store(nxt, pprev)
    with b.if_then(b.icmp_unsigned("!=", nxt, ir.Constant(PTR, None))):
        b.store(pprev, b.gep(nxt, [_i64(8)], inbounds=True, source_etype=ir.IntType(8)))
    b.call(libc(m, "free"), [base])
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
    b.call(libc(b.module, "free"), [cur])
    b.branch(nxt)
    b.position_at_end(nxt)
    cur.add_incoming(following, nxt)
    b.branch(head)
    b.position_at_end(done)
