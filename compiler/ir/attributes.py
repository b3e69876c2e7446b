"""IR attributes: compile-time constants attached to operations.

Frozen, hashable dataclasses whose ``str`` is the MLIR text form: ``3 : i64``,
``1.500000e+00 : f32`` (printed with full precision), ``"text"``, ``[1, 2]``, ``true``,
``unit``, ``f32`` (a type), ``dense<[1, 2]> : tensor<2xi64>`` (``dense<"0x0100...">`` over
100 elements), ``array<i32: 1, 0>``, and other dialects' attributes as their text
(``#arith.fastmath<fast>``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from .. import types as T


class Attribute:
    """Base of all attributes."""


@dataclass(frozen=True)
class IntegerAttr(Attribute):
    value: int
    type: T.Type = T.i64

    def __str__(self) -> str:
        if self.type == T.i1:
            return "true" if self.value else "false"
        return f"{self.value} : {self.type}"


@dataclass(frozen=True)
class FloatAttr(Attribute):
    """A float constant; non-finite values print as MLIR's hexadecimal bit patterns."""

    value: float
    type: T.Type = T.f64

    def __eq__(self, other):  # NaN constants are equal to themselves (for CSE and hashing)
        return (isinstance(other, FloatAttr) and self.type == other.type
                and _float_bits(self.value, self.type) == _float_bits(other.value, other.type))

    def __hash__(self):
        return hash((_float_bits(self.value, self.type), self.type))

    def __str__(self) -> str:
        return f"{format_float(self.value, self.type)} : {self.type}"


@dataclass(frozen=True)
class StringAttr(Attribute):
    value: str

    def __str__(self) -> str:
        return '"' + escape_string(self.value) + '"'


@dataclass(frozen=True)
class ArrayAttr(Attribute):
    """A list of attributes: ``[1 : i64, "s"]``."""

    value: tuple

    def __str__(self) -> str:
        return "[" + ", ".join(map(str, self.value)) + "]"


@dataclass(frozen=True)
class TypeAttr(Attribute):
    value: T.Type

    def __str__(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class UnitAttr(Attribute):
    def __str__(self) -> str:
        return "unit"


# Larger dense constants print as MLIR does by default: their raw little-endian bytes in hex.
HEX_ELEMENTS = 100


@dataclass(frozen=True, eq=False)
class DenseAttr(Attribute):
    """An array constant ``dense<...> : tensor<...>`` holding a read-only NumPy array."""

    value: np.ndarray
    type: T.TensorType

    def __eq__(self, other):
        return (isinstance(other, DenseAttr) and self.type == other.type
                and self.value.tobytes() == other.value.tobytes())

    def __hash__(self):
        return hash((self.type, self.value.tobytes()))

    def __str__(self) -> str:
        el = self.type.element
        flat = self.value.reshape(-1)
        if isinstance(el, T.ComplexType):  # MLIR's hex form: (re, im) pairs of raw bytes
            return f'dense<"0x{dense_bytes(self.value).hex().upper()}"> : {self.type}'
        bits = flat.view(f"u{flat.dtype.itemsize}") if flat.dtype.kind == "f" else flat
        if flat.size and (bits == bits[0]).all():  # bitwise, so -0.0 and NaNs are kept
            body = _scalar_text(flat[0], el)
        elif flat.size > HEX_ELEMENTS and el != T.i1:
            body = f'"0x{dense_bytes(self.value).hex().upper()}"'
        else:
            body = _nested(self.value, el)
        return f"dense<{body}> : {self.type}"


def dense_bytes(a: np.ndarray) -> bytes:
    """The elements of ``a`` as packed little-endian bytes, row-major."""
    return np.ascontiguousarray(a, dtype=a.dtype.newbyteorder("<")).tobytes()


def _nested(a: np.ndarray, el) -> str:
    if a.ndim == 0:
        return _scalar_text(a[()], el)
    return "[" + ", ".join(_nested(x, el) for x in a) + "]"


def _scalar_text(v, el) -> str:
    if isinstance(el, T.FloatType):
        return format_float(float(v), el)
    if el == T.i1:
        return "true" if v else "false"
    return str(int(v))


# float type -> (NumPy float, unsigned integer of the same width)
_FLOAT_NP = {T.f16: (np.float16, np.uint16), T.f32: (np.float32, np.uint32),
             T.f64: (np.float64, np.uint64)}


def _float_bits(v: float, t) -> int:
    ftype, utype = _FLOAT_NP.get(t, _FLOAT_NP[T.f64])
    with np.errstate(over="ignore"):
        return int(np.array(v, ftype).view(utype))


def format_float(v: float, t=T.f64) -> str:
    """MLIR float literal text that parses back to the same bits."""
    if math.isnan(v) or math.isinf(v):
        width = {T.f16: 4, T.f32: 8}.get(t, 16)
        return f"0x{_float_bits(v, t):0{width}X}"
    text = repr(float(_FLOAT_NP[t][0](v))) if t in (T.f16, T.f32) else repr(float(v))
    if "." not in text:  # MLIR float literals need a decimal point: 1e+20 -> 1.0e+20
        mant, _, exp = text.partition("e")
        text = mant + ".0" + ("e" + exp if exp else "")
    return text


def float_from_bits(bits: int, t) -> float:
    ftype, utype = _FLOAT_NP.get(t, _FLOAT_NP[T.f64])
    return float(np.array(bits, utype).view(ftype))


def escape_string(s: str) -> str:
    out = []
    for ch in s:
        if ch == '"' or ch == "\\":
            out.append("\\" + ch)
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\t":
            out.append("\\t")
        elif ord(ch) < 32 or ord(ch) > 126:
            out.append("".join(f"\\{b:02X}" for b in ch.encode("utf-8")))
        else:
            out.append(ch)
    return "".join(out)


def unescape_string(s: str) -> str:
    out = bytearray()
    i = 0
    while i < len(s):
        ch = s[i]
        if ch == "\\":
            nxt = s[i + 1]
            if nxt in '"\\':
                out += nxt.encode()
                i += 2
            elif nxt == "n":
                out += b"\n"
                i += 2
            elif nxt == "t":
                out += b"\t"
                i += 2
            else:
                out.append(int(s[i + 1:i + 3], 16))
                i += 3
        else:
            out += ch.encode("utf-8")
            i += 1
    return out.decode("utf-8", errors="replace")


def complex_attr(value, t: T.Type) -> ArrayAttr:
    """A complex constant as MLIR's ``complex.constant`` holds it: ``[re : f64, im : f64]``
    (``t`` is the complex type, or a weak complex, whose parts are f64)."""
    part = T.strong(T.real_type(t))
    value = complex(value)
    return ArrayAttr((FloatAttr(value.real, part), FloatAttr(value.imag, part)))


def is_complex_attr(a: Attribute, t: T.Type) -> bool:
    """Whether ``a`` is :func:`complex_attr`'s form for the complex type ``t``."""
    part = T.strong(T.real_type(t))
    return (isinstance(a, ArrayAttr) and len(a.value) == 2
            and all(isinstance(x, FloatAttr) and x.type == part for x in a.value))


def complex_value(a: ArrayAttr) -> complex:
    """The Python complex held by a :func:`complex_attr`."""
    return complex(a.value[0].value, a.value[1].value)


def scalar_attr(value, t: T.Type) -> Attribute:
    """An attribute holding the Python/NumPy scalar ``value`` as type ``t``."""
    t = T.strong(t) if isinstance(t, T.WeakType) else t
    if isinstance(t, T.ComplexType):
        return complex_attr(value, t)
    if isinstance(t, T.FloatType):
        return FloatAttr(float(value), t)
    return IntegerAttr(int(value), t)


def integer_bounds(t: T.Type, signless: bool) -> tuple[int, int]:
    """Inclusive bounds of the integer values that an attribute of type ``t`` may hold.

    ``signless`` (loop level, as MLIR): any value representable as a signed or an unsigned
    N-bit integer, -2**(N-1) .. 2**N - 1. Otherwise (tensor level) the range of the NumPy
    dtype: ``iN`` signed, ``uiN`` unsigned, ``i1`` 0..1. ``index`` is 64 bits wide."""
    width = 64 if isinstance(t, T.IndexType) else t.width
    if getattr(t, "unsigned", False):
        return 0, 2 ** width - 1
    if signless:
        return -2 ** (width - 1), 2 ** width - 1
    if width == 1:
        return 0, 1
    return -2 ** (width - 1), 2 ** (width - 1) - 1


def attr_value(a: Attribute):
    """The Python value of a simple attribute (ints, floats, strings, arrays, types)."""
    if isinstance(a, ArrayAttr):
        return tuple(attr_value(x) for x in a.value)
    if isinstance(a, UnitAttr):
        return True
    return a.value


def to_attr(v) -> Attribute:
    """Wrap a Python value (int, float, bool, str, tuple, Type) as an attribute."""
    if isinstance(v, Attribute):
        return v
    if isinstance(v, bool):
        return IntegerAttr(int(v), T.i1)
    if isinstance(v, int):
        return IntegerAttr(v, T.i64)
    if isinstance(v, float):
        return FloatAttr(v, T.f64)
    if isinstance(v, str):
        return StringAttr(v)
    if isinstance(v, (tuple, list)):
        return ArrayAttr(tuple(to_attr(x) for x in v))
    if isinstance(v, T.Type):
        return TypeAttr(v)
    raise TypeError(f"cannot make an attribute of {v!r}")


@dataclass(frozen=True)
class DenseArrayAttr(Attribute):
    """MLIR's dense array of integers, ``array<i32: 1, 0>`` (``element`` is the integer
    type, ``value`` a tuple of ints)."""

    element: T.Type
    value: tuple

    def __str__(self) -> str:
        items = ": " + ", ".join(map(str, self.value)) if self.value else ""
        return f"array<{self.element}{items}>"


@dataclass(frozen=True)
class SymbolRefAttr(Attribute):
    """A reference to a symbol (a function) by name: ``@name``."""

    value: str

    def __str__(self) -> str:
        return "@" + self.value


@dataclass(frozen=True)
class DialectAttr(Attribute):
    """An attribute of a dialect grafo does not model (``#arith.fastmath<fast>``), read from
    upstream MLIR's output and kept as its text; nothing in grafo interprets it."""

    text: str

    def __str__(self) -> str:
        return self.text
