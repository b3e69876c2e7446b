"""How the interpreter holds loop-level values: integers as Python ints holding the signed
value of their width (``i1`` is 0 or 1, ``index`` is 64-bit), floats as NumPy
``float16``/``float32``/``float64`` scalars, complexes as ``complex64``/``complex128`` scalars,
memrefs as ``Buffer`` s over NumPy arrays of the signless storage dtype (int32 for i32, bool for
i1), possibly strided views."""

from __future__ import annotations

import numpy as np

from .. import types as T


class UndefinedBehavior(Exception):
    """The interpreted IR did something the loop level leaves undefined."""


class Buffer:
    """A memref value: a NumPy array (possibly a strided view) and whether it is live."""

    def __init__(self, array: np.ndarray, owned: bool):
        self.array = array
        self.owned = owned
        self.live = True


def width(t: T.Type) -> int:
    """The bit width of integer or index type ``t``."""
    return 64 if isinstance(t, T.IndexType) else t.width


def signed(v: int, w: int) -> int:
    """``v`` wrapped to ``w`` bits, read as signed (``i1``: 0 or 1)."""
    if w == 1:
        return v & 1
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def unsigned(v: int, w: int) -> int:
    """``v`` wrapped to ``w`` bits, read as unsigned."""
    return v & ((1 << w) - 1)


def float_type(t: T.Type):
    """The NumPy scalar type of float type ``t``."""
    return {16: np.float16, 32: np.float32}.get(t.width, np.float64)


def complex_type(t: T.Type):
    """The NumPy scalar type of complex type ``t``."""
    return np.complex64 if t.element.width == 32 else np.complex128


def storage_dtype(t: T.Type) -> np.dtype:
    """The NumPy dtype holding loop-level elements of type ``t``."""
    if isinstance(t, T.FloatType):
        return np.dtype(float_type(t))
    if isinstance(t, T.ComplexType):
        return np.dtype(complex_type(t))
    if t == T.i1:
        return np.dtype(np.bool_)
    return np.dtype(f"int{width(t)}")


def scalar(t: T.Type, x):
    """The interpreter's value of type ``t`` for the number ``x``."""
    if isinstance(t, T.ComplexType):
        return complex_type(t)(x)
    return float_type(t)(x) if isinstance(t, T.FloatType) else signed(int(x), width(t))
