"""Counting and binning: ``np.bincount``, ``np.histogram``, ``np.digitize`` and ``np.interp``,
written with ``np.bincount`` (``dialects/np_data.py``), ``np.searchsorted``, gathers and
the ``np`` ops of ``arrays``.

Each follows the NumPy 2 source of the function it names: ``numpy/lib/_histograms_impl.py``
for ``histogram`` (a uniform bin's index is ``(x - first_edge) / norm * bins`` in NumPy's
dtypes, then corrected against the edges, as NumPy computes it), ``arr_bincount``,
``arr_interp`` and ``_monotonicity`` of ``numpy/_core/src/multiarray/compiled_base.c``.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..dialects import np_data as nd
from . import arrays as A
from . import sorting
from .indexing import subscript
from .manipulation import axis_slice
from .ops import apply_ufunc, cast, check, dim, materialize, value_type
from .shape_functions import concatenate, linspace
from .values import Constant, SliceValue, TupleValue

# NumPy's histogram adds weights per block of this many elements.
BLOCK = 65536


def _rank(x) -> int:
    return len(T.shape_of(x.type))


def _u(cx, ufunc, *args):
    return apply_ufunc(cx, ufunc, list(args))


def _at(cx, x, i):
    """``x[i]`` of a 1-D array for a compile-time or run-time index."""
    return subscript(cx, x, i if isinstance(i, Constant) else cast(cx, i, T.i64))


def _one_d(cx, x, what: str):
    x = materialize(cx, x)
    rank = _rank(x)
    if rank != 1:
        cx.fail("object too deep for desired array" if rank > 1 else
                "object of too small depth for desired array", kind=ValueError,
                hint=f"{what} must be 1-D")
    return x


def _no_complex(cx, v, what: str) -> None:
    if T.is_complex(T.strong(v.type)):
        cx.fail(f"{what} of complex values is not supported")


def _count(cx, idx, weights, minlength: int):
    w = [] if weights is None else [cast(cx, weights, T.f64)]
    return cx.emit(nd.BinCountOp, [cast(cx, idx, T.i64), *w], {"minlength": minlength})


def bincount(cx, x, weights=None, minlength=None):
    """``np.bincount``: int64 counts (float64 sums of ``weights``) of the values of the 1-D
    non-negative integer array ``x``, of length ``max(x.max() + 1, minlength)``. Errors:
    TypeError for a float ``x`` (NumPy's 'safe' cast to intp), ValueError for a negative
    ``minlength``, a negative value or weights of another length (at run time). An empty
    ``x`` gives int64 zeros in NumPy even with weights; here only when its length is known
    at compile time (float64 zeros otherwise)."""
    x = _one_d(cx, x, "np.bincount")
    el = T.strong(x.type)
    if T.is_float(el):
        cx.fail(f"Cannot cast array data from dtype('{T.to_dtype(el)}') to dtype('int64') "
                "according to the rule 'safe'", kind=TypeError)
    n = 0 if A.is_none(minlength) else A.int_constant(cx, minlength, "minlength")
    if n < 0:
        cx.fail("'minlength' must not be negative", kind=ValueError)
    if not A.is_none(weights):
        weights = _one_d(cx, weights, "np.bincount weights")
        wel = T.strong(weights.type)
        if T.is_complex(wel):
            cx.fail(f"Cannot cast array data from dtype('{T.to_dtype(wel)}') to "
                    "dtype('float64') according to the rule 'safe'", kind=TypeError)
        if x.type.shape[0] == 0:
            weights = None
    return _count(cx, x, None if A.is_none(weights) else weights, n)


# histogram ----------------------------------------------------------------------------------

def _outer_edges(cx, a, range_):
    """NumPy's ``_get_outer_edges``: ``(first, last)`` as Constants (from ``range`` or an
    empty ``a``) or run-time scalars of ``a``'s dtype (its min and max), widened by 0.5 each
    way when equal; the ValueErrors of an unordered or non-finite range."""
    if not A.is_none(range_):
        items = A.items_of(cx, range_, "range")
        if len(items) != 2 or not all(isinstance(v, Constant) for v in items):
            cx.fail("range must be a pair of numbers known at compile time")
        first, last = (v.value for v in items)
        if first > last:
            cx.fail("max must be larger than min in range parameter.", kind=ValueError)
        if not (np.isfinite(first) and np.isfinite(last)):
            cx.fail(f"supplied range of [{first}, {last}] is not finite", kind=ValueError)
    elif a.type.shape[0] == 0:
        first, last = 0, 1
    else:
        return _data_edges(cx, a)
    if first == last:
        first, last = first - 0.5, last + 0.5
    return Constant(first), Constant(last)


def _data_edges(cx, a):
    """The min and max of ``a`` (0 and 1 when it is empty at run time), checked finite."""
    n = dim(cx, a, 0)
    zero = A.full(cx, Constant(1), Constant(0), Constant(T.to_dtype(T.strong(a.type))))
    head = axis_slice(cx, concatenate(cx, TupleValue((axis_slice(cx, a, 0, None, Constant(1)),
                                                      zero))), 0, None, Constant(1))
    padded = concatenate(cx, TupleValue((a, head)))
    empty = _u(cx, np.equal, n, Constant(0))
    first = A.reduce(cx, "min", padded)
    last = A.where(cx, empty, Constant(1), A.reduce(cx, "max", padded))
    if T.is_float(T.strong(a.type)):
        finite = _u(cx, np.logical_and, _u(cx, np.isfinite, first), _u(cx, np.isfinite, last))
        check(cx, finite, "ValueError", "autodetected range of [first, last] is not finite")
    same = _u(cx, np.equal, first, last)
    wide = T.strong(T.promote(T.strong(a.type), T.py_float))
    first = A.where(cx, same, _u(cx, np.subtract, cast(cx, first, wide), Constant(0.5)),
                    cast(cx, first, wide))
    last = A.where(cx, same, _u(cx, np.add, cast(cx, last, wide), Constant(0.5)),
                   cast(cx, last, wide))
    return first, last


def _norm(cx, first, last, el: T.Type):
    """NumPy's ``_unsigned_subtract(last, first)``: the width of the range in
    ``result_type(first, last)``, signed integers subtracted as their unsigned type."""
    if isinstance(first, Constant) and isinstance(last, Constant):
        from numpy.lib._histograms_impl import _unsigned_subtract
        return Constant(_unsigned_subtract(last.value, first.value))
    if T.is_integer(el):
        u = T.IntegerType(el.width, signed=False) if T.is_signed(el) else el
        return _u(cx, np.subtract, cast(cx, last, u), cast(cx, first, u))
    return _u(cx, np.subtract, last, first)


def _uniform_indices(cx, a, first, last, edges, bins: int):
    """The bin of each element of ``a`` for ``bins`` equal bins between ``first`` and
    ``last`` (``bins`` where it lies outside), by NumPy's arithmetic and corrections."""
    el = T.strong(edges.type)
    keep = _u(cx, np.logical_and, _u(cx, np.greater_equal, a, first),
              _u(cx, np.less_equal, a, last))
    x = A.where(cx, keep, cast(cx, a, el), cast(cx, first, el))
    norm = _norm(cx, first, last, T.strong(value_type(cx, first)))
    f = _u(cx, np.multiply, _u(cx, np.divide, _u(cx, np.subtract, x, first), norm),
           Constant(bins))
    idx = cast(cx, f, T.i64)
    idx = A.where(cx, _u(cx, np.equal, idx, Constant(bins)), Constant(bins - 1), idx)
    idx = A.where(cx, _u(cx, np.less, x, subscript(cx, edges, idx)),
                  _u(cx, np.subtract, idx, Constant(1)), idx)
    up = _u(cx, np.logical_and,
            _u(cx, np.greater_equal, x, subscript(cx, edges, _u(cx, np.add, idx, Constant(1)))),
            _u(cx, np.not_equal, idx, Constant(bins - 1)))
    idx = A.where(cx, up, _u(cx, np.add, idx, Constant(1)), idx)
    return A.where(cx, keep, idx, Constant(bins))


def _uniform_counts(cx, a, first, last, edges, bins: int):
    """The counts of equal bins in one fused loop (``np.uniform_histogram``) when NumPy's
    arithmetic runs in ``a``'s float dtype throughout (the edges and the range's width of that
    dtype too); None otherwise, for ``_uniform_indices``."""
    el = T.strong(a.type)
    norm = _norm(cx, first, last, T.strong(value_type(cx, first)))
    if not (T.is_float(el) and T.strong(edges.type) == el
            and T.strong(value_type(cx, norm)) == el):
        return None
    first, last, norm = (cast(cx, v, el) for v in (first, last, norm))
    return cx.emit(nd.UniformHistogramOp, [a, first, last, norm, edges], {"bins": bins})


def _edge_indices(cx, a, edges, bins):
    """The bin of each element of ``a`` among the sorted ``edges`` (the last bin holds the
    last edge), ``bins`` where it lies outside: the counts NumPy's searches give."""
    idx = _u(cx, np.subtract, sorting.searchsorted(cx, edges, a, Constant("right")),
             Constant(1))
    top = _u(cx, np.equal, a, _at(cx, edges, Constant(-1)))
    idx = A.where(cx, top, _u(cx, np.subtract, bins, Constant(1)), idx)
    keep = _u(cx, np.logical_and, _u(cx, np.greater_equal, idx, Constant(0)),
              _u(cx, np.less, idx, bins))
    return A.where(cx, keep, idx, bins)


def _bin_counts(cx, idx, weights, bins, ntype: T.Type):
    """Counts (or ``ntype`` sums of ``weights``) of the bins ``0..bins-1`` of ``idx``;
    weights are summed per ``BLOCK`` elements, the block sums cast to ``ntype`` and added in
    order, as NumPy's loop."""
    first = Constant(0)
    if weights is None and isinstance(bins, Constant):
        return cx.emit(nd.BinCountsOp, [cast(cx, idx, T.i64)], {"bins": bins.value})
    if weights is None:
        whole = _count(cx, concatenate(cx, TupleValue((cast(cx, idx, T.i64),
                                                       _scalar_array(cx, bins)))), None, 0)
        return axis_slice(cx, whole, 0, first, bins)
    n = dim(cx, idx, 0)
    block = _u(cx, np.floor_divide, A.arange(cx, cast(cx, n, T.i64)), Constant(BLOCK))
    blocks = _u(cx, np.maximum, _u(cx, np.floor_divide,
                                   _u(cx, np.add, cast(cx, n, T.i64), Constant(BLOCK - 1)),
                                   Constant(BLOCK)), Constant(1))
    width = _u(cx, np.add, bins, Constant(1))
    where = _u(cx, np.add, _u(cx, np.multiply, block, width), idx)
    last = _u(cx, np.subtract, _u(cx, np.multiply, blocks, width), Constant(1))
    where = concatenate(cx, TupleValue((cast(cx, where, T.i64), _scalar_array(cx, last))))
    weights = concatenate(cx, TupleValue((cast(cx, weights, T.f64),
                                          _scalar_array(cx, Constant(0.0)))))
    sums = A.reshape(cx, _count(cx, where, weights, 0), TupleValue((blocks, width)))
    sums = cast(cx, axis_slice(cx, sums, 1, first, bins), ntype)
    total = cx.emit(nd.ScanOp, [sums], {"kind": "sum", "axis": 0})
    return subscript(cx, total, Constant(-1))


def _scalar_array(cx, v):
    """A one-element int64 or float64 array holding ``v``."""
    el = T.f64 if isinstance(v, Constant) and isinstance(v.value, float) else T.i64
    return A.reshape(cx, cast(cx, v, el), Constant((1,)))


def histogram(cx, a, bins=None, range=None, density=None, weights=None):
    """``np.histogram`` of the flattened ``a``: ``(hist, bin_edges)``. ``bins``: a
    compile-time int (equal bins between ``range``, a compile-time pair, or ``a``'s min and
    max; edges of NumPy's ``linspace`` in ``result_type(first, last, a)``, float64 for
    integers) or a 1-D array of increasing edges (returned as given). ``hist``: int64 counts,
    ``weights``' dtype sums with ``weights`` (``a``'s shape), float64 densities with
    ``density``. The last bin includes its right edge; values outside (and NaN) are not
    counted. Errors: NumPy's ValueErrors (bins not positive, range unordered or not finite,
    edges decreasing, too many bins, weights of another shape)."""
    a = materialize(cx, a)
    _no_complex(cx, a, "np.histogram")
    shape = T.shape_of(a.type)
    if T.is_bool(T.strong(a.type)):
        a = cast(cx, a, T.u8)
    a = A.reshape(cx, a, Constant(-1))
    if not A.is_none(weights):
        weights = materialize(cx, weights)
        _no_complex(cx, weights, "np.histogram with weights")
        wshape = T.shape_of(weights.type)
        if len(wshape) != len(shape) or any(p is not None and q is not None and p != q
                                            for p, q in zip(wshape, shape, strict=True)):
            cx.fail("weights should have the same shape as a.", kind=ValueError)
        if T.is_bool(T.strong(weights.type)):
            cx.fail("np.histogram with bool weights is not supported")
        weights = A.reshape(cx, weights, Constant(-1))
        check(cx, _u(cx, np.equal, dim(cx, weights, 0), dim(cx, a, 0)), "ValueError",
              "weights should have the same shape as a.")
    ntype = T.i64 if A.is_none(weights) else T.strong(weights.type)
    bins = Constant(10) if A.is_none(bins) else bins
    if isinstance(bins, Constant) and np.ndim(bins.value) == 0:
        if isinstance(bins.value, str):
            cx.fail("np.histogram with a bin estimator name is not supported",
                    "pass the number of bins or the edges")
        try:
            count = operator.index(bins.value)
        except TypeError:
            cx.fail("`bins` must be an integer, a string, or an array", kind=TypeError)
        if count < 1:
            cx.fail("`bins` must be positive, when an integer", kind=ValueError)
        first, last = _outer_edges(cx, a, range)
        edges = _uniform_edges(cx, a, first, last, count)
        if A.is_none(weights) and (fast := _uniform_counts(cx, a, first, last, edges, count)):
            return _finish(cx, fast, edges, density)
        idx = _uniform_indices(cx, a, first, last, edges, count)
        count = Constant(count)
    else:
        edges = materialize(cx, bins)
        if _rank(edges) != 1:
            cx.fail("`bins` must be 1d, when an array", kind=ValueError)
        lower = axis_slice(cx, edges, 0, None, Constant(-1))
        upper = axis_slice(cx, edges, 0, Constant(1))
        check(cx, A.reduce(cx, "all", _u(cx, np.less_equal, lower, upper)), "ValueError",
              "`bins` must increase monotonically, when an array")
        size = T.shape_of(edges.type)[0]
        count = (Constant(max(size - 1, 0)) if size is not None else
                 _u(cx, np.maximum, _u(cx, np.subtract, dim(cx, edges, 0), Constant(1)),
                    Constant(0)))
        if isinstance(count, Constant) and count.value == 0:
            return TupleValue((A.full(cx, Constant(0), Constant(0), Constant(T.to_dtype(
                ntype))), edges))
        idx = _edge_indices(cx, a, edges, count)
    hist = _bin_counts(cx, idx, None if A.is_none(weights) else weights, count, ntype)
    return _finish(cx, hist, edges, density)


def _finish(cx, hist, edges, density):
    """``(hist, edges)``, ``hist`` turned into densities when ``density`` is true."""
    if not A.is_none(density) and A.bool_of(cx, density, "density"):
        upper = axis_slice(cx, edges, 0, Constant(1))
        lower = axis_slice(cx, edges, 0, None, Constant(-1))
        widths = cast(cx, _u(cx, np.subtract, upper, lower), T.f64)
        hist = _u(cx, np.divide, _u(cx, np.divide, hist, widths), A.reduce(cx, "sum", hist))
    return TupleValue((hist, edges))


def _uniform_edges(cx, a, first, last, count: int):
    """NumPy's ``linspace(first, last, count + 1, dtype=bin_type)`` and its "Too many bins"
    check."""
    el = T.strong(a.type)
    if isinstance(first, Constant):
        bin_type = np.result_type(first.value, last.value, np.empty(0, T.to_dtype(el)))
        if np.issubdtype(bin_type, np.integer):
            bin_type = np.result_type(bin_type, float)
        values = np.linspace(first.value, last.value, count + 1, dtype=bin_type)
        if np.any(values[:-1] >= values[1:]):
            cx.fail(f"Too many bins for data range. Cannot create {count} finite-sized bins.",
                    kind=ValueError)
        return materialize(cx, Constant(values))
    bin_type = T.strong(value_type(cx, first))
    edges = cast(cx, linspace(cx, first, last, Constant(count + 1)), bin_type)
    lower = axis_slice(cx, edges, 0, None, Constant(-1))
    upper = axis_slice(cx, edges, 0, Constant(1))
    check(cx, A.reduce(cx, "all", _u(cx, np.less, lower, upper)), "ValueError",
          f"Too many bins for data range. Cannot create {count} finite-sized bins.")
    return edges


# digitize and interp ------------------------------------------------------------------------

def _monotonicity(cx, bins):
    """NumPy's ``_monotonicity`` of the float64 ``bins``: 1 (increasing, also for equal or
    fewer than two edges), -1 (decreasing: the first edge that differs from the first one is
    smaller) or 0, as an int64 value."""
    b = cast(cx, bins, T.f64)
    zeros = A.full(cx, Constant(2), Constant(0.0))
    pad = concatenate(cx, TupleValue((b, zeros)))
    head = _at(cx, pad, Constant(0))
    differs = axis_slice(cx, _u(cx, np.not_equal, pad, head), 0, Constant(1))
    inner = _u(cx, np.subtract, dim(cx, b, 0), Constant(1))
    level = A.reduce(cx, "all", _u(cx, np.logical_not, axis_slice(cx, differs, 0, None, inner)))
    k = _u(cx, np.add, A.argreduce(cx, "argmax", differs), Constant(1))
    rising = _u(cx, np.less, head, _at(cx, pad, k))
    lower = axis_slice(cx, b, 0, None, Constant(-1))
    upper = axis_slice(cx, b, 0, Constant(1))
    up = A.reduce(cx, "any", _u(cx, np.less, lower, upper))
    down = A.reduce(cx, "any", _u(cx, np.greater, lower, upper))
    one = Constant(np.int64(1))
    zero = Constant(np.int64(0))
    sloped = A.where(cx, rising, A.where(cx, down, zero, one),
                     A.where(cx, up, zero, Constant(np.int64(-1))))
    return A.where(cx, level, one, sloped)


def digitize(cx, x, bins, right=None):
    """``np.digitize``: int64 bin indices of ``x`` (an array or a scalar) in the 1-D
    ``bins``, increasing or decreasing (decided at run time as NumPy's ``_monotonicity``
    does, in float64); ``right`` (compile-time) includes the right edge instead of the
    left. ValueError("bins must be monotonically increasing or decreasing") at run time."""
    bins = _one_d(cx, bins, "np.digitize bins")
    x = materialize(cx, x)
    if T.is_complex(T.strong(x.type)):
        cx.fail("x may not be complex", kind=TypeError)
    _no_complex(cx, bins, "np.digitize bins")
    at_right = not A.is_none(right) and A.bool_of(cx, right, "right")
    side = Constant("left" if at_right else "right")
    mono = _monotonicity(cx, bins)
    check(cx, _u(cx, np.not_equal, mono, Constant(0)), "ValueError",
          "bins must be monotonically increasing or decreasing")
    rising = sorting.searchsorted(cx, bins, x, side)
    flipped = subscript(cx, bins, SliceValue(Constant(None), Constant(None), Constant(-1)))
    falling = _u(cx, np.subtract, cast(cx, dim(cx, bins, 0), T.i64),
                 sorting.searchsorted(cx, flipped, x, side))
    return A.where(cx, _u(cx, np.equal, mono, Constant(-1)), falling, rising)


def interp(cx, x, xp, fp, left=None, right=None, period=None):
    """``np.interp``: float64 piecewise-linear interpolation of the increasing 1-D ``xp``
    / ``fp`` at ``x`` (an array, or a scalar giving a float64 scalar), by NumPy's C loop
    (``arr_interp``): NaN ``x`` stays NaN (``fp[0]`` for one sample point), ``left`` /
    ``right`` (default ``fp[0]`` / ``fp[-1]``) outside, ``fp[j]`` where ``x`` equals
    ``xp[j]``, the slope taken from the other end when one end gives NaN. ``period``
    (compile-time, non-zero) wraps ``x`` and ``xp`` as NumPy does. ValueErrors: "array of
    sample points is empty", "fp and xp are not of the same length.", "period must be a
    non-zero value"."""
    xp, fp, x = (materialize(cx, v) for v in (xp, fp, x))
    for v, what in ((xp, "xp"), (fp, "fp"), (x, "x")):
        _no_complex(cx, v, f"np.interp {what}")
    xp = cast(cx, _one_d(cx, xp, "np.interp xp"), T.f64)
    fp = cast(cx, _one_d(cx, fp, "np.interp fp"), T.f64)
    x = cast(cx, x, T.f64)
    n = dim(cx, xp, 0)
    if isinstance(n, Constant) and n.value == 0:
        cx.fail("array of sample points is empty", kind=ValueError)
    check(cx, _u(cx, np.not_equal, n, Constant(0)), "ValueError",
          "array of sample points is empty")
    check(cx, _u(cx, np.equal, dim(cx, fp, 0), n), "ValueError",
          "fp and xp are not of the same length.")
    if not A.is_none(period):
        if not isinstance(period, Constant):
            cx.fail("period must be known at compile time")
        if period.value == 0:
            cx.fail("period must be a non-zero value", kind=ValueError)
        p = Constant(float(abs(period.value)))
        x = _u(cx, np.remainder, x, p)
        xp = _u(cx, np.remainder, xp, p)
        order, _ = sorting.sorted_along(cx, xp, Constant(0), True)
        xp, fp = subscript(cx, xp, order), subscript(cx, fp, order)
        xp = concatenate(cx, TupleValue((
            _u(cx, np.subtract, axis_slice(cx, xp, 0, Constant(-1)), p), xp,
            _u(cx, np.add, axis_slice(cx, xp, 0, Constant(0), Constant(1)), p))))
        fp = concatenate(cx, TupleValue((axis_slice(cx, fp, 0, Constant(-1)), fp,
                                         axis_slice(cx, fp, 0, Constant(0), Constant(1)))))
        n = dim(cx, xp, 0)
        left = right = None
    lval = _at(cx, fp, Constant(0)) if A.is_none(left) else cast(cx, left, T.f64)
    rval = _at(cx, fp, Constant(-1)) if A.is_none(right) else cast(cx, right, T.f64)
    last = _u(cx, np.subtract, cast(cx, n, T.i64), Constant(1))
    j = _u(cx, np.subtract, sorting.searchsorted(cx, xp, x, Constant("right")), Constant(1))
    lo = A.clip(cx, j, Constant(0), _u(cx, np.maximum, _u(cx, np.subtract, last, Constant(1)),
                                       Constant(0)))
    hi = _u(cx, np.minimum, _u(cx, np.add, lo, Constant(1)), last)
    x0, x1 = subscript(cx, xp, lo), subscript(cx, xp, hi)
    f0, f1 = subscript(cx, fp, lo), subscript(cx, fp, hi)
    slope = _u(cx, np.divide, _u(cx, np.subtract, f1, f0), _u(cx, np.subtract, x1, x0))
    y = _u(cx, np.add, _u(cx, np.multiply, slope, _u(cx, np.subtract, x, x0)), f0)
    y1 = _u(cx, np.add, _u(cx, np.multiply, slope, _u(cx, np.subtract, x, x1)), f1)
    y1 = A.where(cx, _u(cx, np.logical_and, _u(cx, np.isnan, y1), _u(cx, np.equal, f0, f1)),
                 f0, y1)
    y = A.where(cx, _u(cx, np.isnan, y), y1, y)
    y = A.where(cx, _u(cx, np.equal, x, x0), f0, y)
    y = A.where(cx, _u(cx, np.equal, j, last), _at(cx, fp, last), y)
    y = A.where(cx, _u(cx, np.less, x, _at(cx, xp, Constant(0))), lval, y)
    y = A.where(cx, _u(cx, np.greater, x, _at(cx, xp, last)), rval, y)
    nan = _u(cx, np.logical_and, _u(cx, np.isnan, x), _u(cx, np.not_equal, n, Constant(1)))
    return A.where(cx, nan, x, y)


RULES = {
    np.bincount: ("np.bincount", bincount, ["x", "weights=", "minlength="]),
    np.histogram: ("np.histogram", histogram, ["a", "bins=", "range=", "density=",
                                               "weights="]),
    np.digitize: ("np.digitize", digitize, ["x", "bins", "right="]),
    np.interp: ("np.interp", interp, ["x", "xp", "fp", "left=", "right=", "period="]),
}
