"""Lowering of ``memref`` ops: heap buffers (see ``alloc.py``), element access, sizes.

``memref.alloc`` makes a row-major buffer of ``prod(sizes) * sizeof(element)`` bytes (bool:
one byte per element) and fails the call with status code ``OUT_OF_MEMORY`` (the runtime
raises ``MemoryError``) when the C library cannot provide it or the byte count overflows 64
bits. ``memref.load``/``memref.store`` use MLIR's strided addressing (``descriptor.py``);
subscripts are assumed in bounds (the lowering guards them with ``grafo.check``).
"""

from __future__ import annotations

from llvmlite import ir

from ..alloc import HEADER, alloc_function, dealloc_function
from ..descriptor import MemRef, mul_i64
from ..errors import OUT_OF_MEMORY
from ..types import I1, I8, I64, PTR, element_bytes, scalar, storage
from .registry import rule


@rule("memref.alloc")
def alloc(fe, op):
    t = op.result.type
    dynamic = iter(fe.operands(op))
    sizes = [ir.Constant(I64, d) if d is not None else next(dynamic) for d in t.shape]
    b = fe.b
    nbytes = ir.Constant(I64, element_bytes(t.element))
    overflow = ir.Constant(I1, 0)
    for s in sizes:
        if isinstance(s, ir.Constant) and isinstance(nbytes, ir.Constant):
            nbytes = mul_i64(b, nbytes, s)
        else:   # sizes of huge broadcast views must fail cleanly, not wrap to a small buffer
            product = b.umul_with_overflow(nbytes, s)
            nbytes = b.extract_value(product, 0)
            overflow = b.or_(overflow, b.extract_value(product, 1))
    if not isinstance(overflow, ir.Constant):
        nbytes = b.select(overflow, ir.Constant(I64, (1 << 63) - 1), nbytes)
    base = b.call(alloc_function(fe.mod.ll), [fe.arena, nbytes])
    fe.fail_if(fe.b.icmp_unsigned("==", base, ir.Constant(PTR, None)), OUT_OF_MEMORY,
               [nbytes])
    aligned = fe.b.gep(base, [ir.Constant(I64, HEADER)], inbounds=True, source_etype=I8)
    return [MemRef.contiguous(fe.b, t, base, aligned, sizes)]


@rule("memref.dealloc")
def dealloc(fe, op):
    fe.b.call(dealloc_function(fe.mod.ll), [fe.operand(op, 0).allocated])


@rule("memref.load")
def load(fe, op):
    m, *idx = fe.operands(op)
    t = op.result.type
    v = fe.b.load(m.address(fe.b, idx), typ=storage(t), align=element_bytes(t))
    if scalar(t) == I1:   # any nonzero byte is True, as NumPy reads bools
        v = fe.b.icmp_unsigned("!=", v, ir.Constant(I8, 0))
    return [v]


@rule("memref.store")
def store(fe, op):
    v, m, *idx = fe.operands(op)
    if v.type == I1:
        v = fe.b.zext(v, I8)
    fe.b.store(v, m.address(fe.b, idx), align=element_bytes(op.operands[0].type))


@rule("memref.dim")
def dim(fe, op):
    m, k = fe.operands(op)
    if isinstance(k, ir.Constant):
        return [m.sizes[k.constant]]
    size = m.sizes[-1]
    for j in range(m.type.rank - 2, -1, -1):
        size = fe.b.select(fe.b.icmp_unsigned("==", k, ir.Constant(I64, j)), m.sizes[j], size)
    return [size]

