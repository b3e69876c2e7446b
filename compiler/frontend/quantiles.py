"""``np.quantile`` and ``np.percentile`` with NumPy's default method, "linear" (method 7 of
Hyndman and Fan, "Sample quantiles in statistical packages", 1996), as NumPy 2's
``_quantile`` computes it: the reduced axes are moved to the front and merged, the data
sorted along them (``sorting.sorted_along``: NaNs last), and each quantile ``q`` read at the
virtual index ``(n - 1) * q`` by NumPy's ``_lerp`` between the neighbouring elements.

The result has ``q``'s shape followed by the shape of the kept axes. Its dtype follows
NumPy's promotion of the data with the interpolation weights: float64 for integer data,
float32 data stays float32 when ``q`` is a Python number (NEP 50's weak scalar) and
becomes float64 with a float64 array ``q``. An integer ``q`` of ``np.quantile`` takes the
elements themselves, in the data's dtype. A slice holding a NaN gives NaN.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from . import arrays as A
from .ops import (
    apply_ufunc,
    as_array,
    cast,
    check,
    dim,
    materialize,
    product,
    scalar_of,
    value_type,
)
from .shape_functions import gather
from .sorting import sorted_along
from .values import Constant, TupleValue


def _options(cx, out, method, weights) -> None:
    if not A.is_none(out):
        cx.fail("the 'out' argument is not supported", "use the returned array instead")
    if not A.is_none(weights):
        cx.fail("the 'weights' argument is not supported",
                "weights need method='inverted_cdf', which grafo does not implement")
    if not A.is_none(method) and not (isinstance(method, Constant) and method.value == "linear"):
        cx.fail("only method='linear' (NumPy's default) is supported")


def _check_range(cx, q, message: str) -> None:
    """NumPy's ValueError unless every ``q`` is in [0, 1] (NaN is not)."""
    if isinstance(q, Constant):
        with np.errstate(invalid="ignore"):
            values = np.asarray(q.value, dtype=np.float64)
            if not np.all((values >= 0) & (values <= 1)):
                cx.fail(message, kind=ValueError)
        return
    inside = apply_ufunc(cx, np.logical_and, [apply_ufunc(cx, np.greater_equal, [q, Constant(0)]),
                                              apply_ufunc(cx, np.less_equal, [q, Constant(1)])])
    if T.shape_of(inside.type):
        inside = A.reduce(cx, "all", inside)
    check(cx, inside, "ValueError", message)


def _gathered(cx, x, axis):
    """``(x with the reduced axes merged into axis 0, their positions, the rank of x)``."""
    x = materialize(cx, x)
    rank = len(T.shape_of(x.type))
    if A.is_none(axis):
        return A.reshape(cx, x, Constant(-1)), tuple(range(rank)), rank
    axes = [A.normalize_axis(cx, A.int_constant(cx, k, "axis"), rank)
            for k in A.items_of(cx, axis, "axis")]
    if len(set(axes)) != len(axes):
        cx.fail("repeated axis", kind=ValueError)
    rest = [k for k in range(rank) if k not in axes]
    if len(axes) > 1:
        _check_reshape(cx, [dim(cx, x, k) for k in rest])
    x = A.transpose(cx, x, Constant(tuple(axes) + tuple(rest)))
    merged = product(cx, [dim(cx, x, k) for k in range(len(axes))])
    shape = (merged,) + tuple(dim(cx, x, k) for k in range(len(axes), rank))
    return A.reshape(cx, x, TupleValue(shape)), axes, rank


def _check_reshape(cx, kept: list) -> None:
    """NumPy's ``_ureduce`` merges several axes with ``reshape(kept + (-1,))``, which
    fails (ValueError) when a kept axis has size 0."""
    fields = "".join(f"{{{k}}}," for k in range(len(kept)))
    message = f"cannot reshape array of size 0 into shape ({fields}newaxis)"
    sizes = [d.value if isinstance(d, Constant) else None for d in kept]
    if None not in sizes:
        if 0 in sizes:
            cx.fail(message.format(*sizes), kind=ValueError)
        return
    total = product(cx, kept)
    check(cx, apply_ufunc(cx, np.not_equal, [total, Constant(0)], operator.ne), "ValueError",
          message, [cast(cx, d, T.i64) for d in kept])


def _lerp(cx, below, above, t, rt: T.Type):
    """NumPy's ``_lerp``: ``a + (b - a) * t``, or ``b - (b - a) * (1 - t)`` where
    ``t >= 0.5``; ``b - a`` in the data's dtype, the rest in ``rt``."""
    diff = cast(cx, apply_ufunc(cx, np.subtract, [above, below]), rt)
    u = apply_ufunc(cx, np.subtract, [Constant(1), t], operator.sub)
    upper = apply_ufunc(cx, np.greater_equal, [t, Constant(0.5)])
    lo = apply_ufunc(cx, np.add, [cast(cx, below, rt),
                                  apply_ufunc(cx, np.multiply, [diff, cast(cx, t, rt)])])
    hi = apply_ufunc(cx, np.subtract, [cast(cx, above, rt),
                                       apply_ufunc(cx, np.multiply, [diff, cast(cx, u, rt)])])
    return A.where(cx, upper, hi, lo)


def quantile_of(cx, a, q, axis, keepdims, weak: bool, message: str):
    """The "linear" quantiles ``q`` (fractions; an array or a number) of ``a`` along
    ``axis``; ``weak`` when ``q`` was a Python number. See the module text."""
    a = materialize(cx, a)
    el = T.strong(a.type)
    if T.is_complex(el):
        cx.fail("a must be an array of real numbers", kind=TypeError)
    q_t = value_type(cx, q)
    _check_range(cx, q, message)
    x, axes, rank = _gathered(cx, a, axis)
    s, _ = sorted_along(cx, x, Constant(0), False)
    n = dim(cx, s, 0)
    rest = [dim(cx, s, k) for k in range(1, len(T.shape_of(s.type)))]
    if T.is_float(el):  # NumPy reads the last element of each slice for its NaN check
        check(cx, apply_ufunc(cx, np.not_equal, [n, Constant(0)], operator.ne), "IndexError",
              "index -1 is out of bounds for axis 0 with size 0")
    q_shape = T.shape_of(q_t)
    if T.is_integer(T.element_type(q_t)) or T.is_bool(T.element_type(q_t)):
        # NumPy takes the elements at the integer virtual indices (n - 1) * q: 0 or n - 1
        index = apply_ufunc(cx, np.multiply, [cast(cx, q, T.i64), apply_ufunc(
            cx, np.subtract, [n, Constant(1)], operator.sub)])
        result, rt = gather(cx, s, index, 0), el
    else:
        if T.is_bool(el):
            cx.fail("numpy boolean subtract, the `-` operator, is not supported, use the "
                    "bitwise_xor, the `^` operator, or the logical_xor function instead.",
                    kind=TypeError)
        qt = T.f64 if T.is_weak(T.element_type(q_t)) else T.strong(q_t)
        q = cast(cx, q, qt)
        last = cast(cx, apply_ufunc(cx, np.subtract, [n, Constant(1)], operator.sub), qt)
        virtual = apply_ufunc(cx, np.multiply, [last, q])
        floor = apply_ufunc(cx, np.floor, [virtual])
        high = apply_ufunc(cx, np.greater_equal, [virtual, last])
        low = apply_ufunc(cx, np.less, [virtual, Constant(0)])
        prev = A.where(cx, low, Constant(0), A.where(cx, high, Constant(-1),
                                                     cast(cx, floor, T.i64)))
        succ = A.where(cx, low, Constant(0), A.where(cx, high, Constant(-1), cast(
            cx, apply_ufunc(cx, np.add, [floor, Constant(1)]), T.i64)))
        # NumPy's gamma: the virtual index less the adjusted lower index, in q's dtype
        gamma = cast(cx, apply_ufunc(cx, np.subtract, [cast(cx, virtual, T.f64),
                                                       cast(cx, prev, T.f64)]), qt)
        gamma = A.reshape(cx, gamma, TupleValue(
            tuple(Constant(d) for d in q_shape) + (Constant(1),) * len(rest)))
        dt = np.result_type(T.to_dtype(el), 0.0) if weak else np.result_type(
            T.to_dtype(el), T.to_dtype(qt))
        rt = T.from_dtype(dt)
        result = _lerp(cx, gather(cx, s, prev, 0), gather(cx, s, succ, 0), gamma, rt)
    if T.is_float(el):
        final = gather(cx, s, Constant(-1), 0)
        nan = apply_ufunc(cx, np.isnan, [final])
        result = A.where(cx, nan, cast(cx, final, rt), result)
    if keepdims is not None and not A.is_none(keepdims) and A.bool_of(cx, keepdims, "keepdims"):
        kept = iter(rest)
        shape = [Constant(1) if k in axes else next(kept) for k in range(rank)]
        result = A.reshape(cx, result, TupleValue(
            tuple(Constant(d) for d in q_shape) + tuple(shape)))
    result = materialize(cx, result)
    return scalar_of(cx, result) if not T.shape_of(result.type) else result


def _weak(cx, q) -> bool:
    """NumPy's ``weak_q``: ``q`` is a Python int or float."""
    return isinstance(q, Constant) and type(q.value) in (int, float)


def _q_array(cx, q):
    """``np.asanyarray(q)``: a constant array for compile-time numbers and sequences."""
    q = as_array(cx, q)
    return Constant(np.asarray(q.value)) if isinstance(q, Constant) else materialize(cx, q)


def quantile(cx, a, q, axis=None, out=None, overwrite_input=None, method=None, keepdims=None,
             weights=None, interpolation=None):
    """``np.quantile(a, q, axis, keepdims)``: ``q`` in [0, 1] (ValueError "Quantiles must be
    in the range [0, 1]" otherwise, at run time for a run-time ``q``); ``axis`` None, an int
    or a tuple; shapes and dtypes as the module text says. Complex ``a`` is NumPy's
    TypeError, an empty one its IndexError."""
    _options(cx, out, method, weights)
    weak = _weak(cx, q)
    q = _q_array(cx, q)
    return quantile_of(cx, a, q, axis, keepdims, weak, "Quantiles must be in the range [0, 1]")


def percentile(cx, a, q, axis=None, out=None, overwrite_input=None, method=None,
               keepdims=None, weights=None, interpolation=None):
    """``np.percentile(a, q, axis, keepdims)``: ``np.quantile(a, q / 100, ...)``, ``q`` in
    [0, 100] (ValueError "Percentiles must be in the range [0, 100]" otherwise)."""
    _options(cx, out, method, weights)
    weak = _weak(cx, q)
    q = _q_array(cx, q)
    if isinstance(q, Constant):
        q = Constant(np.true_divide(q.value, 100))
    else:
        q = apply_ufunc(cx, np.true_divide, [q, Constant(100)])
    return quantile_of(cx, a, q, axis, keepdims, weak,
                       "Percentiles must be in the range [0, 100]")


_Q = ["a", "q", "axis=", "out=", "overwrite_input=", "method=", "keepdims=", "weights=",
      "interpolation="]

RULES = {
    np.quantile: ("np.quantile", quantile, _Q),
    np.percentile: ("np.percentile", percentile, _Q),
}
