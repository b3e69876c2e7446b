"""NumPy's complex parts: ``np.real``/``np.imag`` (and the ``.real``/``.imag`` attributes),
``np.conj``/``np.conjugate``, ``np.angle`` and Python's ``complex(real, imag)``.

Semantics source: NumPy 2 (``numpy/lib/_type_check_impl.py``, ``_function_base_impl.py``):
the real part of a real array is the array itself, its imaginary part zeros of its dtype;
``np.angle(z, deg)`` is ``arctan2(z.imag, z.real)`` (``arctan2(0, x)`` for a real ``x``),
times ``180/pi`` for degrees. ``complex(re, im)`` of scalars is ``re + im*1j`` computed
exactly (``np.complex``), a Python complex; a complex ``re``/``im`` contributes as Python
does (``complex(a, b) == a + b*1j``).
"""

from __future__ import annotations

import math
import operator

import numpy as np

from .. import types as T
from ..dialects import np as npd
from . import arrays as A
from .creation import full_like
from .ops import apply_ufunc, cast, materialize, value_type
from .values import Constant


def real(cx, x):
    """``np.real(x)`` / ``x.real``: a float array of ``x``'s part type, or ``x`` itself."""
    t = value_type(cx, x)
    if not T.is_complex(t):
        return x
    return cx.emit(npd.RealOp, [materialize(cx, x)])


def imag(cx, x):
    """``np.imag(x)`` / ``x.imag``: a float array of ``x``'s part type, or zeros of ``x``'s
    dtype (a read-only array in NumPy)."""
    t = value_type(cx, x)
    if not T.is_complex(t):
        if not T.shape_of(t) and not isinstance(t, T.TensorType):
            return Constant(T.to_dtype(t).type(0)) if not T.is_weak(t) else Constant(
                {"int": 0, "float": 0.0, "bool": 0}[T.element_type(t).kind])
        zeros = materialize(cx, full_like(cx, x, Constant(0)))
        cx.frozen[zeros] = ("assignment destination is read-only: the imaginary part of a "
                            "real array is a read-only array of zeros",
                            "make the array complex first (z = x.astype(np.complex128))")
        return zeros
    return cx.emit(npd.ImagOp, [materialize(cx, x)])


def conjugate(cx, x):
    """``np.conjugate(x)`` / ``x.conj()``: a new array (the values of a real ``x``)."""
    return apply_ufunc(cx, np.conjugate, [x])


def angle(cx, z, deg=None):
    """``np.angle(z, deg=False)``: float64 for real and complex128 input, float32 for
    complex64 (NumPy computes ``arctan2`` in the promoted dtype)."""
    deg = Constant(False) if deg is None else deg
    if not isinstance(deg, Constant):
        cx.fail("np.angle's deg must be known at compile time")
    t = value_type(cx, z)
    if T.is_complex(t):
        a = apply_ufunc(cx, np.arctan2, [imag(cx, z), real(cx, z)])
    else:
        a = apply_ufunc(cx, np.arctan2, [Constant(0), z])
    if deg.value:
        a = apply_ufunc(cx, np.multiply, [a, Constant(180 / math.pi)])
    return a


def python_complex(cx, real_part=None, imag_part=None):
    """Python's ``complex(real=0, imag=0)`` of numbers (a Python complex)."""
    real_part = Constant(0) if real_part is None else real_part
    imag_part = Constant(0) if imag_part is None else imag_part
    for v in (real_part, imag_part):
        t = value_type(cx, v)
        if isinstance(t, T.TensorType):
            cx.fail("complex() of an array is not supported",
                    "index or reduce the array to one element first, or write a + b * 1j")
    if any(T.is_complex(value_type(cx, v)) for v in (real_part, imag_part)):
        scaled = apply_ufunc(cx, np.multiply, [imag_part, Constant(1j)], operator.mul)
        return cast(cx, apply_ufunc(cx, np.add, [real_part, scaled], operator.add),
                    T.py_complex)
    re, im = (cast(cx, v, T.py_float) for v in (real_part, imag_part))
    return cx.emit(npd.ComplexOp, [re, im])
