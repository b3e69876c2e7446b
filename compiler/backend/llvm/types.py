"""IR types -> llvmlite types, and the memref descriptor struct of the C ABI.

Scalars: ``iN``/``uiN`` -> ``iN`` (signless), ``index`` -> ``i64``, ``f32``/``f64`` ->
``float``/``double``, ``complex<f32>``/``complex<f64>`` -> ``{float, float}``/``{double,
double}`` (in memory NumPy's interleaved (re, im) pair); weak Python scalars take their lowered
type (``!py.int`` -> ``i64``, ``!py.float`` -> ``double``, ``!py.complex`` -> ``{double,
double}``, ``!py.bool`` -> ``i1``). ``i1`` is a register type only: in memory and across the C
ABI a bool is one byte (``i8``, 0 or 1), as NumPy stores it. A complex scalar input crosses the
C ABI by pointer (``const double _Complex *``): C compilers pass ``_Complex`` values by value in
registers that differ between targets and from LLVM's struct arguments.

A rank-r memref crosses function boundaries as MLIR's descriptor
``{ptr allocated, ptr aligned, i64 offset, [r x i64] sizes, [r x i64] strides}`` (strides in
elements). The ABI's status block is ``{i32 code, i32 reserved, [4 x i64] params}``.
"""

from __future__ import annotations

import functools

from llvmlite import ir

from ... import types as T

PTR = ir.PointerType()
I1, I8, I32, I64 = ir.IntType(1), ir.IntType(8), ir.IntType(32), ir.IntType(64)
STATUS = ir.LiteralStructType([I32, I32, ir.ArrayType(I64, 4)])
STATUS_PARAMS = 4


def scalar(t: T.Type) -> ir.Type:
    """The register type of scalar IR type ``t``. Raises TypeError for non-scalars."""
    t = T.lowered(t)
    if isinstance(t, T.IntegerType):
        return ir.IntType(t.width)
    if isinstance(t, T.IndexType):
        return I64
    if t == T.f32:
        return ir.FloatType()
    if t == T.f64:
        return ir.DoubleType()
    if isinstance(t, T.ComplexType):
        part = scalar(t.element)
        return ir.LiteralStructType([part, part])
    raise TypeError(f"the LLVM backend has no scalar type for {t}")


def storage(t: T.Type) -> ir.Type:
    """The in-memory type of element type ``t`` (``i1`` is stored as one byte)."""
    s = scalar(t)
    return I8 if s == I1 else s


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
    return 4 if isinstance(s, ir.FloatType) else 8 if isinstance(s, ir.DoubleType) \
        else s.width // 8


def element_align(t: T.Type) -> int:
    """The alignment NumPy guarantees an aligned array of element type ``t``: its size, a
    complex's part size."""
    lt = T.lowered(t)
    return element_bytes(lt.element if isinstance(lt, T.ComplexType) else lt)
