"""Lowering of ``memref`` ops: heap buffers (see ``alloc.py``), element access, sizes.

``memref.alloc`` makes a row-major buffer of ``prod(sizes) * sizeof(element)`` bytes (bool:
one byte per element) and fails the call with status code ``OUT_OF_MEMORY`` (the runtime
raises ``MemoryError``) when the C library cannot provide it, or with ``ARRAY_TOO_BIG``
(``ValueError``, as NumPy) when the byte count does not fit an ``int64``.
``memref.load``/``memref.store`` use MLIR's strided addressing (``descriptor.py``); subscripts
are assumed in bounds (the lowering guards them with ``grafo.check``).
"""

from __future__ import annotations

from llvmlite import ir

from ....dialects import memref
from ..alloc import HEADER, alloc_function, dealloc_function
from ..descriptor import MemRef, mul_i64
from ..errors import ARRAY_TOO_BIG, MAX_NBYTES, OUT_OF_MEMORY
from ..types import (
    I1,
    I8,
    I64,
    PTR,
    element_align,
    element_bytes,
    from_storage,
    storage,
    to_storage,
)
from .registry import rule


@rule(memref.AllocOp)
def alloc(fe, op):
    t = op.result.type
    dynamic = iter(fe.operands(op))
    sizes = [ir.Constant(I64, d) if d is not None else next(dynamic) for d in t.shape]
    b = fe.b
    # NumPy's limit: itemsize times the nonzero dims must fit an intp ("array is too big").
    static = element_bytes(t.element)
    for d in t.shape:
        static *= max(d or 1, 1)
    too_big = ir.Constant(I1, static > MAX_NBYTES)
    checked = ir.Constant(I64, min(static, MAX_NBYTES))
    for s in sizes:
        if not isinstance(s, ir.Constant):
            nonzero = b.select(b.icmp_unsigned("==", s, ir.Constant(I64, 0)),
                               ir.Constant(I64, 1), s)
            product = b.umul_with_overflow(checked, nonzero)
            checked = b.extract_value(product, 0)
            too_big = b.or_(too_big, b.or_(b.extract_value(product, 1),
                                           b.icmp_signed("<", checked, ir.Constant(I64, 0))))
    if not (isinstance(too_big, ir.Constant) and not too_big.constant):
        fe.fail_if(too_big, ARRAY_TOO_BIG, [])
    nbytes = ir.Constant(I64, element_bytes(t.element))
    for s in sizes:   # at most ``checked`` once the check passed: no wraparound
        nbytes = mul_i64(b, nbytes, s)
    if static > MAX_NBYTES:   # the code below is unreachable; keep its constant in range
        nbytes = checked
    base = b.call(alloc_function(fe.mod.ll), [fe.arena, nbytes])
    fe.fail_if(fe.b.icmp_unsigned("==", base, ir.Constant(PTR, None)), OUT_OF_MEMORY,
               [nbytes])
    aligned = fe.b.gep(base, [ir.Constant(I64, HEADER)], inbounds=True, source_etype=I8)
    return [MemRef.contiguous(fe.b, t, base, aligned, sizes)]


@rule(memref.DeallocOp)
def dealloc(fe, op):
    fe.b.call(dealloc_function(fe.mod.ll), [fe.operand(op, 0).allocated])


@rule(memref.LoadOp)
def load(fe, op):
    m, *idx = fe.operands(op)
    t = op.result.type
    v = fe.b.load(m.address(fe.b, idx), typ=storage(t), align=element_align(t))
    return [from_storage(fe.b, v, t)]


@rule(memref.StoreOp)
def store(fe, op):
    v, m, *idx = fe.operands(op)
    fe.b.store(to_storage(fe.b, v), m.address(fe.b, idx), align=element_align(op.value.type))


@rule(memref.DimOp)
def dim(fe, op):
    m, k = fe.operands(op)
    return [field_at(fe.b, m.sizes, k)]


def field_at(b: ir.IRBuilder, fields: list, k):
    """``fields[k]`` (one ``i64`` per dim of a descriptor) for the ``index`` value ``k``: a
    select chain when ``k`` is not a constant."""
    if isinstance(k, ir.Constant):
        return fields[k.constant]
    out = fields[-1]
    for j in range(len(fields) - 2, -1, -1):
        out = b.select(b.icmp_unsigned("==", k, ir.Constant(I64, j)), fields[j], out)
    return out

