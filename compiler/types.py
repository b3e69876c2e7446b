"""IR types: scalar dtypes, Python's weak scalars, tensors, memrefs and functions.

Types are frozen, hashable dataclasses whose ``str`` is their MLIR text form.

Scalar types carry a NumPy dtype at the tensor level: ``i1`` is ``bool``, ``i8``..``i64`` are
the signed integers, ``ui8``..``ui64`` the unsigned ones, ``f16``/``f32``/``f64`` the floats,
``complex<f32>``/``complex<f64>`` NumPy's complex64/complex128. Python scalars that flow at run
time (loop counters of ``range``, results of ``len``) are *weak* (NEP 50): ``!py.int``,
``!py.float``, ``!py.bool``, ``!py.complex``; they adopt the dtype of the array they meet.
After lowering to loops, integers are signless (``i32``), as in MLIR's ``arith`` dialect, and the
signedness lives in the choice of operation (``divsi`` / ``divui``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


class Type:
    """Base of all IR types."""


@dataclass(frozen=True)
class IntegerType(Type):
    """An integer of ``width`` bits; ``signedness`` is "signed", "unsigned" or "signless".

    The text form follows MLIR: ``i32`` (signless at loop level, NumPy's int32 at tensor level),
    ``ui32`` (unsigned). ``i1`` is NumPy's bool.
    """

    width: int
    unsigned: bool = False

    def __str__(self) -> str:
        return f"{'u' if self.unsigned else ''}i{self.width}"


@dataclass(frozen=True)
class FloatType(Type):
    """An IEEE binary float: ``f16`` (NumPy's float16), ``f32`` or ``f64``."""

    width: int

    def __str__(self) -> str:
        return f"f{self.width}"


@dataclass(frozen=True)
class ComplexType(Type):
    """MLIR's ``complex<f32>`` / ``complex<f64>``: NumPy's complex64 / complex128.

    A type of its own over a float ``element``, as MLIR's builtin complex type, rather than a
    pair of floats: a complex value is one SSA value at every level, its ops are the
    ``complex`` dialect's (MLIR's names), and a buffer of them is NumPy's memory layout, each
    element the two floats ``(re, im)`` side by side (LLVM's ``{float, float}``).
    """

    element: FloatType

    def __str__(self) -> str:
        return f"complex<{self.element}>"


@dataclass(frozen=True)
class IndexType(Type):
    """MLIR's ``index``: a machine-sized signed integer for sizes and loop counters."""

    def __str__(self) -> str:
        return "index"


@dataclass(frozen=True)
class WeakType(Type):
    """A Python scalar (``int``, ``float``, ``complex`` or ``bool``) known only at run time
    (NEP 50 weak)."""

    kind: str  # "int" | "float" | "complex" | "bool"

    def __str__(self) -> str:
        return f"!py.{self.kind}"


@dataclass(frozen=True)
class NoneType(Type):
    """Python's ``None``; only as a compile-time value."""

    def __str__(self) -> str:
        return "none"


@dataclass(frozen=True)
class TensorType(Type):
    """An immutable n-d array value: ``tensor<?x4xf32>``; ``None`` in ``shape`` is dynamic."""

    shape: tuple
    element: Type

    @property
    def rank(self) -> int:
        return len(self.shape)

    @property
    def is_static(self) -> bool:
        return all(d is not None for d in self.shape)

    def __str__(self) -> str:
        return f"tensor<{_dims(self.shape)}{self.element}>"


@dataclass(frozen=True)
class MemRefType(Type):
    """A buffer view: ``memref<?x4xf32>`` (contiguous) or with ``strided`` dynamic layout.

    Strided memrefs print MLIR's fully dynamic layout
    ``memref<?x4xf32, strided<[?, ?], offset: ?>>``; strides count elements, not bytes.
    """

    shape: tuple
    element: Type
    strided: bool = False

    @property
    def rank(self) -> int:
        return len(self.shape)

    def __str__(self) -> str:
        layout = ""
        if self.strided:
            layout = ", strided<[" + ", ".join("?" for _ in self.shape) + "], offset: ?>"
        return f"memref<{_dims(self.shape)}{self.element}{layout}>"


@dataclass(frozen=True)
class FunctionType(Type):
    """``(f32, i64) -> f32``."""

    inputs: tuple
    results: tuple

    def __str__(self) -> str:
        ins = ", ".join(map(str, self.inputs))
        if len(self.results) == 1 and not isinstance(self.results[0], FunctionType):
            return f"({ins}) -> {self.results[0]}"
        return f"({ins}) -> ({', '.join(map(str, self.results))})"


def _dims(shape) -> str:
    return "".join(("?" if d is None else str(d)) + "x" for d in shape)


i1 = IntegerType(1)
i8, i16, i32, i64 = (IntegerType(w) for w in (8, 16, 32, 64))
u8, u16, u32, u64 = (IntegerType(w, True) for w in (8, 16, 32, 64))
f16, f32, f64 = FloatType(16), FloatType(32), FloatType(64)
c64, c128 = ComplexType(f32), ComplexType(f64)
index = IndexType()
py_int, py_float, py_bool = WeakType("int"), WeakType("float"), WeakType("bool")
py_complex = WeakType("complex")
none = NoneType()

_BY_DTYPE = {
    np.dtype(np.bool_): i1,
    np.dtype(np.int8): i8, np.dtype(np.int16): i16, np.dtype(np.int32): i32,
    np.dtype(np.int64): i64,
    np.dtype(np.uint8): u8, np.dtype(np.uint16): u16, np.dtype(np.uint32): u32,
    np.dtype(np.uint64): u64,
    np.dtype(np.float16): f16, np.dtype(np.float32): f32, np.dtype(np.float64): f64,
    np.dtype(np.complex64): c64, np.dtype(np.complex128): c128,
}
_DTYPE_OF = {t: d for d, t in _BY_DTYPE.items()}
_WEAK_DTYPE = {py_int: np.dtype(np.int64), py_float: np.dtype(np.float64),
               py_complex: np.dtype(np.complex128), py_bool: np.dtype(np.bool_)}


SUPPORTED_DTYPES = ("bool, int8..int64, uint8..uint64, float16, float32, float64, complex64, "
                    "complex128")


def from_dtype(dtype) -> Type:
    """The scalar type of a NumPy dtype. Raises TypeError for unsupported dtypes."""
    dt = np.dtype(dtype)
    try:
        return _BY_DTYPE[dt]
    except KeyError:
        raise TypeError(f"{dt} is not supported yet (supported dtypes: {SUPPORTED_DTYPES})") \
            from None


def to_dtype(t: Type) -> np.dtype:
    """The NumPy dtype of a scalar type (weak types map to int64 / float64 / complex128 /
    bool)."""
    t = element_type(t)
    if t in _WEAK_DTYPE:
        return _WEAK_DTYPE[t]
    if isinstance(t, IndexType):
        return np.dtype(np.int64)
    return _DTYPE_OF[t]


def element_type(t: Type) -> Type:
    """The element type of a tensor or memref; a scalar type is its own element type."""
    return t.element if isinstance(t, (TensorType, MemRefType)) else t


def shape_of(t: Type) -> tuple:
    """The shape of a tensor/memref type; ``()`` for scalars."""
    return t.shape if isinstance(t, (TensorType, MemRefType)) else ()


def is_float(t: Type) -> bool:
    t = element_type(t)
    return isinstance(t, FloatType) or t == py_float


def is_complex(t: Type) -> bool:
    t = element_type(t)
    return isinstance(t, ComplexType) or t == py_complex


def real_type(t: Type) -> Type:
    """The float type of a complex type's parts (``t`` itself when not complex); a weak
    complex has weak float parts."""
    el = element_type(t)
    part = el.element if isinstance(el, ComplexType) else py_float if el == py_complex else el
    return with_element(t, part)


def complex_of(t: Type) -> Type:
    """The complex type whose parts are the float (or weak float) type ``t``."""
    el = element_type(t)
    return with_element(t, py_complex if el == py_float else ComplexType(el))


def python_type(t: Type) -> type:
    """The Python type of the weak scalar type ``t`` (``!py.float`` -> ``float``)."""
    return {"int": int, "float": float, "complex": complex, "bool": bool}[element_type(t).kind]


def is_bool(t: Type) -> bool:
    t = element_type(t)
    return t == i1 or t == py_bool


def is_integer(t: Type) -> bool:
    """True for signed/unsigned integers (not bool) and weak ints."""
    t = element_type(t)
    return (isinstance(t, IntegerType) and t.width > 1) or t == py_int or t == index


def is_unsigned(t: Type) -> bool:
    t = element_type(t)
    return isinstance(t, IntegerType) and t.unsigned


def is_weak(t: Type) -> bool:
    return isinstance(element_type(t), WeakType)


def with_element(t: Type, element: Type) -> Type:
    """``t`` with its element type replaced (a scalar becomes ``element``)."""
    if isinstance(t, TensorType):
        return TensorType(t.shape, element)
    if isinstance(t, MemRefType):
        return MemRefType(t.shape, element, t.strided)
    return element


def strong(t: Type) -> Type:
    """The NumPy dtype type a weak scalar becomes on its own (int64, float64, complex128,
    bool)."""
    t = element_type(t)
    return from_dtype(_WEAK_DTYPE[t]) if isinstance(t, WeakType) else t


def promote(*types: Type) -> Type:
    """The common element type of ``types`` under NumPy 2 (NEP 50) promotion.

    Strong (dtype) types promote with ``np.result_type``; weak Python scalars take the strong
    types' category: a weak int leaves any strong numeric type unchanged, a weak float turns an
    integer or bool type into float64 and leaves floats and complexes unchanged, a weak complex
    turns a float type into the complex type of its precision (float32 -> complex64) and an
    integer or bool type into complex128. Only weak types: the weak result of Python's own
    promotion (bool < int < float < complex).
    """
    elems = [element_type(t) for t in types]
    strongs = [t for t in elems if not isinstance(t, WeakType)]
    weaks = [t for t in elems if isinstance(t, WeakType)]
    if not strongs:
        kinds = {w.kind for w in weaks}
        for k in ("complex", "float", "int", "bool"):
            if k in kinds:
                return WeakType(k)
    res = strongs[0]
    if len(strongs) > 1:
        res = from_dtype(np.result_type(*[to_dtype(t) for t in strongs]))
    for w in weaks:
        if w.kind == "complex" and not isinstance(res, ComplexType):
            res = ComplexType(res) if isinstance(res, FloatType) else c128
        elif w.kind == "float" and not isinstance(res, (FloatType, ComplexType)):
            res = f64
        elif w.kind == "int" and res == i1:
            res = i64
    return res


def compatible(a: Type, b: Type) -> bool:
    """Whether ``a`` and ``b`` are the same type but for dims that one of them leaves
    dynamic (``tensor<?x4xf32>`` and ``tensor<3x4xf32>``)."""
    if type(a) is not type(b) or not isinstance(a, (TensorType, MemRefType)):
        return a == b
    return (a.element == b.element and a.rank == b.rank
            and getattr(a, "strided", False) == getattr(b, "strided", False)
            and all(x is None or y is None or x == y for x, y in zip(a.shape, b.shape,
                                                                     strict=True)))


def lowered(t: Type) -> Type:
    """The loop-level type: signless integers, weak scalars as i64/f64/complex<f64>/i1,
    tensors as memrefs."""
    if isinstance(t, (TensorType, MemRefType)):
        return MemRefType(t.shape, lowered(t.element), getattr(t, "strided", False))
    if isinstance(t, WeakType):
        return {"int": i64, "float": f64, "complex": c128, "bool": i1}[t.kind]
    if isinstance(t, IntegerType) and t.unsigned:
        return IntegerType(t.width)
    return t
