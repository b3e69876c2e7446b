"""Elementwise arithmetic NumPy and Python define as compositions of ufuncs: ``np.divmod``,
``np.heaviside`` and the builtin ``round()``.

Semantics: NumPy 2's ``divmod`` ufunc (``npy_divmod``: the quotient and remainder of
``floor_divide`` and ``remainder``, which NumPy computes by the same function) and
``heaviside`` (``npy_heaviside``); CPython's ``round`` (``float.__round__``: half to even,
``round(x, n)`` the float nearest to the decimal ``x`` rounded to ``n`` digits, as its
dtoa-based ``double_round``; ``int.__round__``) and NumPy's ``__round__`` of its scalars
(a Python int without ``ndigits``, else ``np.round``).
"""

from __future__ import annotations

import builtins
import operator

import numpy as np

from .. import types as T
from ..errors import PY_INT_OVERFLOW
from . import arrays as A
from .ops import apply_ufunc, cast, check, materialize, value_type
from .statistics import round_
from .values import Constant, TupleValue

# CPython's ``float.__round__`` bounds: beyond them the result is ``x`` or a signed zero.
_NDIGITS_MAX = int((53 - (-1021)) * 0.30103)
_NDIGITS_MIN = -int((1024 + 1) * 0.30103)
# 10**k is an exact float64 up to here, which the exact rounding below needs.
_EXACT_POWER = 22
_TWO_53 = 2.0 ** 53
_SPLIT = 2.0 ** 27 + 1


def np_divmod(cx, x1, x2):
    """``np.divmod(x1, x2)``: ``(np.floor_divide(x1, x2), np.remainder(x1, x2))``, each of the
    operands' broadcast shape and promoted dtype (integers: ``x // 0 == x % 0 == 0``; floats:
    NumPy's signs and NaN/inf)."""
    return TupleValue((apply_ufunc(cx, np.floor_divide, [x1, x2]),
                       apply_ufunc(cx, np.remainder, [x1, x2])))


def heaviside(cx, x1, x2):
    """``np.heaviside(x1, x2)``: 0 where ``x1 < 0``, ``x2`` where ``x1 == 0``, 1 where
    ``x1 > 0``, NaN where ``x1`` is NaN; float dtypes only (integers compute in float64),
    shapes broadcast."""
    el = T.strong(T.promote(value_type(cx, x1), value_type(cx, x2)))
    if T.is_bool(el) or T.is_integer(el):
        el = T.f16 if el in (T.i1, T.i8, T.u8) else (T.f32 if el in (T.i16, T.u16) else T.f64)
    if not T.is_float(el):
        cx.fail(f"np.heaviside of {el} is not supported", kind=TypeError)
    x, h0 = cast(cx, x1, el), cast(cx, x2, el)
    step = A.where(cx, apply_ufunc(cx, np.less, [x, Constant(0)]), Constant(0.0),
                   Constant(1.0))
    out = A.where(cx, apply_ufunc(cx, np.equal, [x, Constant(0)]), h0, cast(cx, step, el))
    return A.where(cx, apply_ufunc(cx, np.isnan, [x]), cast(cx, Constant(np.nan), el), out)


def round_builtin(cx, number, ndigits=None):
    """Python's ``round(number, ndigits)`` of a scalar: Python ints and bools give an int, a
    Python float half to even (an int without ``ndigits``, else a float: the nearest to the
    exact decimal rounding, ``ndigits`` a compile-time int), NumPy scalars NumPy's
    ``__round__``. Errors: Python's (OverflowError/ValueError for an infinite or NaN float
    without ``ndigits``, "rounded value too large to represent"); an array is a TypeError."""
    t = value_type(cx, number)
    if isinstance(t, T.TensorType):
        cx.fail("type numpy.ndarray doesn't define __round__ method",
                "use np.round(...) for arrays", TypeError)
    if T.is_bool(t) and not T.is_weak(t):
        cx.fail("type numpy.bool doesn't define __round__ method", kind=TypeError)
    if not A.is_none(ndigits) and not T.is_integer(value_type(cx, ndigits)):
        cx.fail(f"'{T.element_type(value_type(cx, ndigits)).kind}' object cannot be "
                "interpreted as an integer", kind=TypeError)
    x = materialize(cx, number)
    if A.is_none(ndigits):
        if not T.is_float(t):
            return cast(cx, x, T.py_int)
        return cast(cx, apply_ufunc(cx, np.rint, [x]), T.py_int)
    n = A.int_constant(cx, ndigits, "ndigits")
    if not T.is_weak(t):
        return round_(cx, x, Constant(n))
    if not T.is_float(t):
        return _round_int(cx, cast(cx, x, T.py_int), n)
    return _round_float(cx, x, n)


def _round_int(cx, x, n: int):
    """``int.__round__``: a multiple of ``10**-n`` for negative ``n``, ties to even."""
    if n >= 0:
        return x
    if -n >= 19:    # 10**19 exceeds int64: only |x| > 5 * 10**18 rounds away from zero
        big = apply_ufunc(cx, np.greater, [apply_ufunc(cx, np.absolute, [x], abs),
                                           Constant(5 * 10 ** 18)], operator.gt)
        check(cx, apply_ufunc(cx, np.logical_not, [big]), "OverflowError",
              PY_INT_OVERFLOW + "round() to a multiple of 10**19 does not fit in 64 bits")
        return apply_ufunc(cx, np.multiply, [x, Constant(0)], operator.mul)
    p = Constant(10 ** -n)
    q = apply_ufunc(cx, np.floor_divide, [x, p], operator.floordiv)
    r = apply_ufunc(cx, np.remainder, [x, p], operator.mod)
    twice = apply_ufunc(cx, np.multiply, [r, Constant(2)], operator.mul)
    odd = apply_ufunc(cx, np.equal, [apply_ufunc(cx, np.bitwise_and, [q, Constant(1)]),
                                     Constant(1)])
    up = apply_ufunc(cx, np.logical_or, [
        apply_ufunc(cx, np.greater, [twice, p], operator.gt),
        apply_ufunc(cx, np.logical_and, [apply_ufunc(cx, np.equal, [twice, p], operator.eq),
                                         odd])])
    q = A.select(cx, up, apply_ufunc(cx, np.add, [q, Constant(1)], operator.add), q)
    return apply_ufunc(cx, np.multiply, [q, p], operator.mul)


def _f(cx, ufunc, *args):
    return apply_ufunc(cx, ufunc, list(args))


def _two_product(cx, a, b):
    """(hi, lo) with ``hi + lo == a * b`` exactly (Dekker's product, no FMA; finite, not
    overflowing operands)."""
    def split(v):
        c = _f(cx, np.multiply, v, Constant(_SPLIT))
        high = _f(cx, np.subtract, c, _f(cx, np.subtract, c, v))
        return high, _f(cx, np.subtract, v, high)
    hi = _f(cx, np.multiply, a, b)
    (ah, al), (bh, bl) = split(a), split(b)
    err = _f(cx, np.subtract, _f(cx, np.multiply, ah, bh), hi)
    err = _f(cx, np.add, err, _f(cx, np.multiply, ah, bl))
    err = _f(cx, np.add, err, _f(cx, np.multiply, al, bh))
    return hi, _f(cx, np.add, err, _f(cx, np.multiply, al, bl))


def _round_float(cx, x, n: int):
    """CPython's ``double_round``: ``N = round-half-even(x * 10**n)`` of the exact product
    (or quotient, for negative ``n``), then ``N / 10**n`` rounded once. ``hi`` is the rounded
    scaled value and the exact one is ``hi + residual``; where ``|hi| >= 2**53`` the result
    is ``x`` itself (the rounding moves ``x`` by less than half an ulp)."""
    x = cast(cx, x, T.f64)
    if n > _NDIGITS_MAX:
        return cast(cx, x, T.py_float)
    if n < _NDIGITS_MIN:
        return cast(cx, _f(cx, np.multiply, Constant(0.0), x), T.py_float)
    if abs(n) > _EXACT_POWER:
        cx.fail(f"round() of a float to {n} digits is not supported",
                f"use ndigits between -{_EXACT_POWER} and {_EXACT_POWER}")
    p = Constant(float(10 ** abs(n)))
    finite = _f(cx, np.isfinite, x)
    safe = A.select(cx, finite, x, cast(cx, Constant(0.0), T.f64))
    if n >= 0:
        hi, lo = _two_product(cx, safe, p)
        half = _f(cx, np.equal, _f(cx, np.absolute, lo), Constant(0.5))
    else:
        hi = _f(cx, np.divide, safe, p)
        ph, pl = _two_product(cx, hi, p)
        lo = _f(cx, np.subtract, _f(cx, np.subtract, safe, ph), pl)
        half = _f(cx, np.equal, _f(cx, np.absolute, lo), Constant(p.value / 2))
    big = _f(cx, np.greater_equal, _f(cx, np.absolute, hi), Constant(_TWO_53))
    hi = A.select(cx, big, cast(cx, Constant(0.0), T.f64), hi)
    up, down = _f(cx, np.greater, lo, Constant(0.0)), _f(cx, np.less, lo, Constant(0.0))
    r = _f(cx, np.rint, hi)
    t = _f(cx, np.subtract, hi, r)
    tie_up = _f(cx, np.logical_and, _f(cx, np.equal, t, Constant(0.5)), up)
    tie_down = _f(cx, np.logical_and, _f(cx, np.equal, t, Constant(-0.5)), down)
    # an integer ``hi`` with a residual of exactly one half: the float sum rounds to even
    on_half = _f(cx, np.logical_and, _f(cx, np.equal, t, Constant(0.0)), half)
    nearest = A.select(cx, on_half, _f(cx, np.add, hi, _f(cx, np.copysign, Constant(0.5), lo)),
                       r)
    nearest = A.select(cx, tie_down, _f(cx, np.subtract, r, Constant(1.0)), nearest)
    nearest = A.select(cx, tie_up, _f(cx, np.add, r, Constant(1.0)), nearest)
    scaled = _f(cx, np.divide if n >= 0 else np.multiply, nearest, p)
    out = A.select(cx, _f(cx, np.logical_or, big, _f(cx, np.logical_not, finite)), x,
                   _f(cx, np.copysign, scaled, x))
    check(cx, _f(cx, np.logical_not, _f(cx, np.logical_and, finite, _f(cx, np.isinf, out))),
          "OverflowError", "rounded value too large to represent")
    return cast(cx, out, T.py_float)


RULES = {
    np.divmod: ("np.divmod", np_divmod, ["x1", "x2"]),
    np.heaviside: ("np.heaviside", heaviside, ["x1", "x2"]),
}

BUILTINS = {
    builtins.round: ("round", round_builtin, ["number", "ndigits="]),
}
