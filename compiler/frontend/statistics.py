"""NumPy's NaN-aware reductions, variance, cumulative sums, rounding, written with
the ``np`` ops of ``arrays`` plus ``np.scan`` / ``np.argreduce``.

Each rule follows the NumPy 2 source of the function it names (``numpy/lib/_nanfunctions_impl``,
``numpy/_core/_methods._var``, ``PyArray_Round``) so dtypes and special values match: e.g.
``nanmax`` of an all-NaN slice is NaN, ``var`` of integers is float64, ``round`` rounds half to
even after scaling by ``10**decimals`` in the input's float type (so huge ``decimals``
overflow to inf or NaN as NumPy's do).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..dialects import np_data as nd
from . import arrays as A
from .ops import apply_ufunc, cast, dim, materialize, product
from .values import Constant


def no_out(cx, out) -> None:
    if not A.is_none(out):
        cx.fail("the 'out' argument is not supported", "use the returned array instead")


def _is_float(cx, x) -> bool:
    return T.is_float(materialize(cx, x).type)


def _nan_to(cx, x, fill):
    return A.where(cx, apply_ufunc(cx, np.isnan, [x]), fill, x)


def _by_count(cx, total, count, el: T.Type):
    """``total / count`` in ``el``; a float16 ``total`` is divided in float64 and rounded
    to float16 once, as NumPy's ``true_divide(total, count, out=total)`` with an intp
    count does (``_methods._var``, ``nanfunctions._divide_by_count``)."""
    if el == T.f16:
        wide = apply_ufunc(cx, np.divide, [cast(cx, total, T.f64), cast(cx, count, T.f64)])
        return cast(cx, wide, T.f16)
    return apply_ufunc(cx, np.divide, [total, cast(cx, count, el)])


def _rank(x) -> int:
    return len(T.shape_of(x.type))


def nansum(cx, x, axis=None, dtype=None, out=None, keepdims=None):
    """``np.nansum``: NaNs count as zero."""
    no_out(cx, out)
    x = materialize(cx, x)
    if _is_float(cx, x):
        x = _nan_to(cx, x, Constant(0))
    return A.reduce(cx, "sum", x, axis, keepdims, dtype)


def nanprod(cx, x, axis=None, dtype=None, out=None, keepdims=None):
    """``np.nanprod``: NaNs count as one."""
    no_out(cx, out)
    x = materialize(cx, x)
    if _is_float(cx, x):
        x = _nan_to(cx, x, Constant(1))
    return A.reduce(cx, "prod", x, axis, keepdims, dtype)


def nanmean(cx, x, axis=None, dtype=None, out=None, keepdims=None):
    """``np.nanmean``: the mean of the non-NaN values in the sum's dtype (NaN when none)."""
    no_out(cx, out)
    x = materialize(cx, x)
    if not _is_float(cx, x):
        return A.mean(cx, x, axis, keepdims, dtype)
    total = nansum(cx, x, axis, dtype, None, keepdims)
    valid = apply_ufunc(cx, np.logical_not, [apply_ufunc(cx, np.isnan, [x])])
    count = A.reduce(cx, "sum", valid, axis, keepdims)
    return _by_count(cx, total, count, T.strong(materialize(cx, total).type))


def _nan_extreme(kind):
    def impl(cx, x, axis=None, out=None, keepdims=None):
        """``np.nanmax`` / ``np.nanmin``: NaNs ignored; an all-NaN slice gives NaN."""
        no_out(cx, out)
        x = materialize(cx, x)
        if not _is_float(cx, x):
            return A.reduce(cx, kind, x, axis, keepdims)
        fill = Constant(-np.inf if kind == "max" else np.inf)
        best = A.reduce(cx, kind, _nan_to(cx, x, fill), axis, keepdims)
        none = A.reduce(cx, "all", apply_ufunc(cx, np.isnan, [x]), axis, keepdims)
        return A.where(cx, none, Constant(np.nan), best)
    return impl


def nanarg(kind):
    def impl(cx, x, axis=None, out=None, keepdims=None):
        """``np.nanargmax`` / ``np.nanargmin``: NaNs skipped; an all-NaN slice raises
        ValueError("All-NaN slice encountered")."""
        no_out(cx, out)
        x = materialize(cx, x)
        if not _is_float(cx, x):
            return A.argreduce(cx, kind, x, axis, keepdims)
        return A.argreduce(cx, "nan" + kind, x, axis, keepdims)
    return impl


def var(cx, x, axis=None, dtype=None, out=None, ddof=None, keepdims=None, sqrt=False):
    """``np.var`` (``np.std`` with ``sqrt``): ``sum(|x - mean|**2) / max(n - ddof, 0)``,
    float64 for integer input, the input's float type otherwise."""
    no_out(cx, out)
    x = materialize(cx, x)
    el = T.strong(x.type)
    acc = A.resolve_dtype(cx, dtype) if not A.is_none(dtype) else (
        el if T.is_float(el) else T.f64)
    count = product(cx, [dim(cx, x, k) for k in A.axes_of(cx, axis, _rank(x))])
    mean = _by_count(cx, A.reduce(cx, "sum", cast(cx, x, acc), axis, Constant(True)), count,
                     acc)
    d = apply_ufunc(cx, np.subtract, [cast(cx, x, acc), mean])
    total = A.reduce(cx, "sum", apply_ufunc(cx, np.multiply, [d, d]), axis, keepdims)
    ddof = Constant(0) if A.is_none(ddof) else ddof
    rcount = apply_ufunc(cx, np.maximum, [apply_ufunc(cx, np.subtract, [count, ddof],
                                                      operator.sub), Constant(0)], max)
    out = _by_count(cx, total, rcount, acc)
    return apply_ufunc(cx, np.sqrt, [out]) if sqrt else out


def std(cx, x, axis=None, dtype=None, out=None, ddof=None, keepdims=None):
    """``np.std``: the square root of ``np.var``."""
    return var(cx, x, axis, dtype, out, ddof, keepdims, sqrt=True)


def scan(kind):
    def impl(cx, x, axis=None, dtype=None, out=None):
        """``np.cumsum`` / ``np.cumprod``: flattened when ``axis`` is None; small integers
        and bool accumulate in int64 (uint64 for unsigned), as ``np.sum`` does."""
        no_out(cx, out)
        x = materialize(cx, x)
        if A.is_none(axis) or _rank(x) == 0:
            x, ax = A.reshape(cx, x, Constant(-1)), 0
        else:
            ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), _rank(x))
        el = A.resolve_dtype(cx, dtype) if not A.is_none(dtype) else A.accumulator(
            T.strong(x.type))
        return cx.emit(nd.ScanOp, [cast(cx, x, el)], {"kind": kind, "axis": ax})
    return impl


def _power_of_ten(n: int) -> float:
    """NumPy's ``power_of_ten`` (multiarray/calculation.c): exact table, then repeated * 10."""
    if n < 9:
        return (1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8)[n]
    out = 1e9
    for _ in range(n - 9):
        out *= 10.0
    return out


def round_(cx, x, decimals=None, out=None):
    """``np.round`` / ``np.around``: round half to even at ``decimals`` (a compile-time int;
    negative rounds to tens, hundreds ...). Integers stay integers (computed in float64 and
    cast back for negative ``decimals``)."""
    no_out(cx, out)
    x = materialize(cx, x)
    d = 0 if A.is_none(decimals) else A.int_constant(cx, decimals, "decimals")
    el = T.strong(x.type)
    if T.is_bool(el):
        cx.fail("np.round of a bool array is not supported", "cast it to an integer first")
    if not T.is_float(el):
        if d >= 0:
            return x
        y = round_(cx, cast(cx, x, T.f64), Constant(d))
        return cast(cx, y, el)
    if d == 0:
        return apply_ufunc(cx, np.rint, [x])
    f = Constant(_power_of_ten(abs(d)))
    first, then = (np.multiply, np.divide) if d > 0 else (np.divide, np.multiply)
    return apply_ufunc(cx, then, [apply_ufunc(cx, np.rint, [apply_ufunc(cx, first, [x, f])]),
                                  f])


_R = ["a", "axis=", "dtype=", "out=", "keepdims="]
_L = ["a", "axis=", "out=", "keepdims="]
_V = ["a", "axis=", "dtype=", "out=", "ddof=", "keepdims="]

RULES = {
    np.nansum: ("np.nansum", nansum, _R),
    np.nanprod: ("np.nanprod", nanprod, _R),
    np.nanmean: ("np.nanmean", nanmean, _R),
    np.nanmax: ("np.nanmax", _nan_extreme("max"), _L),
    np.nanmin: ("np.nanmin", _nan_extreme("min"), _L),
    np.nanargmax: ("np.nanargmax", nanarg("argmax"), _L),
    np.nanargmin: ("np.nanargmin", nanarg("argmin"), _L),
    np.var: ("np.var", var, _V),
    np.std: ("np.std", std, _V),
    np.cumsum: ("np.cumsum", scan("sum"), ["a", "axis=", "dtype=", "out="]),
    np.cumprod: ("np.cumprod", scan("prod"), ["a", "axis=", "dtype=", "out="]),
    np.round: ("np.round", round_, ["a", "decimals=", "out="]),
    np.around: ("np.around", round_, ["a", "decimals=", "out="]),
}

METHODS = {
    "var": ("ndarray.var", var, _V),
    "std": ("ndarray.std", std, _V),
    "cumsum": ("ndarray.cumsum", scan("sum"), ["a", "axis=", "dtype=", "out="]),
    "cumprod": ("ndarray.cumprod", scan("prod"), ["a", "axis=", "dtype=", "out="]),
    "round": ("ndarray.round", round_, ["a", "decimals=", "out="]),
}
