"""IR types -> llvmlite types, and the memref descriptor struct of the C ABI.

Scalars: ``iN``/``uiN`` -> ``iN`` (signless), ``index`` -> ``i64``, ``f16``/``f32``/``f64`` ->
``half``/``float``/``double``, ``complex<f32>``/``complex<f64>`` -> ``{float, float}``/``{double,
double}`` (in memory NumPy's interleaved (re, im) pair); weak Python scalars take their lowered
type (``!py.int`` -> ``i64``, ``!py.float`` -> ``double``, ``!py.complex`` -> ``{double,
double}``, ``!py.bool`` -> ``i1``). ``i1`` and ``half`` are register types only: in memory and
across the C ABI a bool is one byte (``i8``, 0 or 1), as NumPy stores it, and a half its 16 bits
(``i16``); ``half`` values are only moved, selected and converted (``half.py``), never computed
with. A complex scalar input crosses the C ABI by pointer (``const double _Complex *``): C
compilers pass ``_Complex`` values by value in registers that differ between targets and from
LLVM's struct arguments.

A rank-r memref crosses function boundaries as MLIR's descriptor
``{ptr allocated, ptr aligned, i64 offset, [r x i64] sizes, [r x i64] strides}`` (strides in
elements). The ABI's status block is ``{i32 code, i32 reserved, [4 x i64] params}``.
"""

from __future__ import annotations

import functools

from llvmlite import ir

from ... import types as T

PTR = ir.PointerType()
I1, I8, I16, I32, I64 = (ir.IntType(w) for w in (1, 8, 16, 32, 64))
HALF = ir.HalfType()
STATUS = ir.LiteralStructType([I32, I32, ir.ArrayType(I64, 4)])
STATUS_PARAMS = 4


def scalar(t: T.Type) -> ir.Type:
    """The register type of scalar IR type ``t``. Raises TypeError for non-scalars."""
    t = T.lowered(t)
    if isinstance(t, T.IntegerType):
        return ir.IntType(t.width)
    if isinstance(t, T.IndexType):
        return I64
    if t == T.f16:
        return HALF
    if t == T.f32:
        return ir.FloatType()
    if t == T.f64:
        return ir.DoubleType()
    if isinstance(t, T.ComplexType):
        part = scalar(t.element)
        return ir.LiteralStructType([part, part])
    raise TypeError(f"the LLVM backend has no scalar type for {t}")


def storage(t: T.Type) -> ir.Type:
    """The in-memory type of element type ``t``: ``i1`` is stored as one byte, ``half`` as
    its 16 bits (an ``i16``: ``uint16_t`` in the C ABI, which has no portable half type)."""
    s = scalar(t)
    return {I1: I8, HALF: I16}.get(s, s)


def to_storage(b: ir.IRBuilder, v):
    """Register value ``v`` as its storage type (``i1`` -> ``i8`` 0/1, ``half`` -> bits)."""
    if v.type == I1:
        return b.zext(v, I8)
    return b.bitcast(v, I16) if v.type == HALF else v


def from_storage(b: ir.IRBuilder, v, t: T.Type):
    """Stored value ``v`` of element type ``t`` as a register value (any nonzero byte is
    True, as NumPy reads bools)."""
    s = scalar(t)
    if s == I1:
        return b.icmp_unsigned("!=", v, ir.Constant(I8, 0))
    return b.bitcast(v, HALF) if s == HALF else v


@functools.cache
def descriptor(rank: int) -> ir.LiteralStructType:
    """MLIR's memref descriptor struct for ``rank`` dims."""
    return ir.LiteralStructType([PTR, PTR, I64, ir.ArrayType(I64, rank),
                                 ir.ArrayType(I64, rank)])


def abi_param(t: T.Type) -> ir.Type:
    """The C ABI type of an input: a pointer for memrefs (to the descriptor) and complex
    scalars (to the value), else the storage type."""
    return PTR if isinstance(T.lowered(t), (T.MemRefType, T.ComplexType)) else storage(t)


def element_bytes(t: T.Type) -> int:
    """The size in bytes of one stored element of type ``t``."""
    if isinstance(T.lowered(t), T.ComplexType):
        return 2 * element_bytes(T.lowered(t).element)
    s = storage(t)
    return {ir.HalfType: 2, ir.FloatType: 4, ir.DoubleType: 8}.get(type(s)) or s.width // 8


def element_align(t: T.Type) -> int:
    """The alignment NumPy guarantees an aligned array of element type ``t``: its size, a
    complex's part size."""
    lt = T.lowered(t)
    return element_bytes(lt.element if isinstance(lt, T.ComplexType) else lt)
