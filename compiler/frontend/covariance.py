"""Weighted means and covariance: ``np.average``, ``np.cov`` and ``np.corrcoef``, written with
the reductions, matmul and ``np`` ops of ``arrays``.

Each follows the NumPy 2 Python source of the function it names
(``numpy/lib/_function_base_impl.py``): its dtypes (``result_type(a, weights)``, float64 at
least for integers), its errors and its order of operations (``c *= 1 / fact``, the sum of
``w * aweights`` added one element after the other as Python's ``sum`` does). The products
of ``np.cov`` are grafo's matmul, not NumPy's BLAS call, so they may differ in the last bits.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import np_data as nd
from . import arrays as A
from .indexing import subscript
from .manipulation import diag
from .ops import apply_ufunc, cast, check, dim, materialize, product
from .shape_functions import broadcast_to, concatenate
from .values import Constant, TupleValue


def _rank(x) -> int:
    return len(T.shape_of(x.type))


def _u(cx, ufunc, *args):
    return apply_ufunc(cx, ufunc, list(args))


def _shape(cx, x) -> TupleValue:
    return TupleValue(tuple(dim(cx, x, k) for k in range(_rank(x))))


def _user_axes(cx, axis, rank: int):
    """The normalized axes of ``axis`` in the order given (None: None)."""
    if A.is_none(axis):
        return None
    axes = [A.normalize_axis(cx, A.int_constant(cx, a, "axis"), rank)
            for a in A.items_of(cx, axis, "axis")]
    if len(set(axes)) != len(axes):
        cx.fail("repeated axis", kind=ValueError)
    return axes


def _same_dims(cx, x, y, pairs, kind: str, message: str) -> None:
    """Static or run-time checks that dim ``p`` of ``x`` equals dim ``q`` of ``y``."""
    for p, q in pairs:
        d, e = dim(cx, x, p), dim(cx, y, q)
        if isinstance(d, Constant) and isinstance(e, Constant):
            if d.value != e.value:
                cx.fail(message, kind={"TypeError": TypeError, "ValueError": ValueError}[kind])
            continue
        check(cx, _u(cx, np.equal, d, e), kind, message)


def _weights(cx, a, w, axes):
    """NumPy's ``_weights_are_valid``: ``w`` with ``a``'s shape, or laid along ``axes``."""
    ra, rw = _rank(a), _rank(w)
    if rw == ra:
        kind, message = ("TypeError", _NO_AXIS) if axes is None else ("ValueError", _BAD_SHAPE)
        _same_dims(cx, a, w, [(k, k) for k in range(ra)], kind, message)
        return w
    if axes is None:
        cx.fail(_NO_AXIS, kind=TypeError)
    if rw != len(axes):
        cx.fail(_BAD_SHAPE, kind=ValueError)
    _same_dims(cx, a, w, [(ax, k) for k, ax in enumerate(axes)], "ValueError", _BAD_SHAPE)
    order = sorted(range(len(axes)), key=axes.__getitem__)
    w = A.transpose(cx, w, TupleValue(tuple(Constant(k) for k in order)))
    return A.reshape(cx, w, TupleValue(tuple(dim(cx, a, k) if k in axes else Constant(1)
                                             for k in range(ra))))


_NO_AXIS = "Axis must be specified when shapes of a and weights differ."
_BAD_SHAPE = "Shape of weights must be consistent with shape of a along specified axis."


def average(cx, a, axis=None, weights=None, returned=None, keepdims=None):
    """``np.average``: the mean of ``a`` over ``axis`` (an int, a tuple or None), weighted
    by ``weights`` (``a``'s shape, or the shape of ``a``'s dims along ``axis``) in
    ``result_type(a, weights)`` (float64 at least for integers and bools); with
    ``returned``, also the sum of the weights (the element count without weights)
    broadcast to the average's shape. Errors as NumPy: TypeError "Axis must be specified
    when shapes of a and weights differ.", ValueError for weights of another shape,
    ZeroDivisionError "Weights sum to zero, can't be normalized" (at run time)."""
    a = materialize(cx, a)
    rank = _rank(a)
    axes = _user_axes(cx, axis, rank)
    ax = Constant(None) if axes is None else Constant(tuple(axes))
    give = not A.is_none(returned) and A.bool_of(cx, returned, "returned")
    if A.is_none(weights):
        avg = A.mean(cx, a, ax, keepdims)
        el = T.strong(materialize(cx, avg).type)
        total = product(cx, [dim(cx, a, k) for k in range(rank)])
        avg_v = materialize(cx, avg)
        size = product(cx, [dim(cx, avg_v, k) for k in range(_rank(avg_v))]) if isinstance(
            avg_v.type, T.TensorType) else Constant(1)
        if isinstance(size, Constant) and size.value == 0:
            cx.fail("division by zero", kind=ZeroDivisionError)
        check(cx, _u(cx, np.not_equal, size, Constant(0)), "ZeroDivisionError",
              "division by zero")
        scl = cast(cx, _u(cx, np.divide, cast(cx, total, T.f64), cast(cx, size, T.f64)), el)
    else:
        w = _weights(cx, a, materialize(cx, weights), axes)
        el = T.promote(T.strong(a.type), T.strong(w.type))
        if not T.is_float(T.strong(a.type)):
            el = T.promote(el, T.f64)
        el = T.strong(el)
        scl = A.reduce(cx, "sum", w, ax, keepdims, Constant(T.to_dtype(el)))
        zero = A.reduce(cx, "any", _u(cx, np.equal, scl, Constant(0.0)))
        check(cx, _u(cx, np.logical_not, zero), "ZeroDivisionError",
              "Weights sum to zero, can't be normalized")
        prod = _u(cx, np.multiply, cast(cx, a, el), cast(cx, w, el))
        avg = _u(cx, np.divide, A.reduce(cx, "sum", prod, ax, keepdims), scl)
    if not give:
        return avg
    avg_v, scl_v = materialize(cx, avg), materialize(cx, scl)
    if isinstance(avg_v.type, T.TensorType) and T.shape_of(avg_v.type) != T.shape_of(
            scl_v.type) or not isinstance(scl_v.type, T.TensorType) and isinstance(
            avg_v.type, T.TensorType):
        scl = A.copy(cx, broadcast_to(cx, scl_v, _shape(cx, avg_v)))
    return TupleValue((avg, scl))


def _as_rows(cx, m, el: T.Type, rowvar: bool, name: str):
    """``array(m, ndmin=2, dtype=el)``, transposed when the variables are its columns."""
    m = cast(cx, materialize(cx, m), el)
    rank = _rank(m)
    if rank > 2:
        cx.fail(f"{name} has more than 2 dimensions", kind=ValueError)
    x = A.reshape(cx, m, TupleValue((Constant(1), Constant(-1)))) if rank < 2 else m
    if rank == 2 and not rowvar:
        x = A.transpose(cx, x)
    return x


def cov(cx, m, y=None, rowvar=None, bias=None, ddof=None, fweights=None, aweights=None,
        dtype=None):
    """``np.cov``: the covariance matrix of the variables in the rows of ``m`` (columns
    with ``rowvar=False``; a 1-D ``m`` is one variable), ``y`` adding variables, in
    ``result_type(m, y, float64)`` or ``dtype``; normalized by ``N - ddof`` (``ddof``
    default 1, 0 with ``bias``), or by NumPy's weighted formula with ``fweights`` (integral
    counts) / ``aweights``; a 0-d array for one variable (its count must then be known at
    compile time). Errors as NumPy's (ValueError "ddof must be integer", "m has more than 2
    dimensions"; RuntimeError / TypeError / ValueError for bad weights, at run time)."""
    if not A.is_none(ddof):
        if not isinstance(ddof, Constant):
            cx.fail("ddof must be known at compile time")
        if ddof.value != int(ddof.value):
            cx.fail("ddof must be integer", kind=ValueError)
    rows = True if A.is_none(rowvar) else A.bool_of(cx, rowvar, "rowvar")
    m = materialize(cx, m)
    if not A.is_none(y):
        y = materialize(cx, y)
    if any(T.is_complex(T.strong(v.type)) for v in (m, y) if not A.is_none(v)):
        cx.fail("np.cov and np.corrcoef of complex values are not supported")
    if not A.is_none(dtype):
        el = A.resolve_dtype(cx, dtype)
    else:
        el = T.promote(T.strong(m.type), T.f64)
        if not A.is_none(y):
            el = T.promote(el, T.strong(y.type))
    el = T.strong(el)
    x = _as_rows(cx, m, el, rows, "m")
    if x.type.shape[0] == 0:
        return A.full(cx, TupleValue((Constant(0), Constant(0))), Constant(0.0))
    if not A.is_none(y):
        x = concatenate(cx, TupleValue((x, _as_rows(cx, y, el, rows, "y"))))
    if A.is_none(ddof):
        ddof = 1 if A.is_none(bias) or not A.bool_of(cx, bias, "bias") else 0
    else:
        ddof = int(ddof.value)
    n = dim(cx, x, 1)
    fw = _sample_weights(cx, fweights, "fweights", n)
    aw = _sample_weights(cx, aweights, "aweights", n)
    if fw is not None:
        whole = A.reduce(cx, "all", _u(cx, np.equal, fw, _u(cx, np.rint, fw)))
        check(cx, whole, "TypeError", "fweights must be integer")
    for v, name in ((fw, "fweights"), (aw, "aweights")):
        if v is not None:
            check(cx, A.reduce(cx, "all", _u(cx, np.greater_equal, v, Constant(0.0))),
                  "ValueError", f"{name} cannot be negative")
    w = fw if aw is None else aw if fw is None else _u(cx, np.multiply, fw, aw)
    avg, w_sum = average(cx, x, Constant(1), w, Constant(True)).items
    if w is None:
        fact = _u(cx, np.subtract, n, Constant(ddof))
    else:
        w_sum = subscript(cx, w_sum, Constant(0))
        if ddof == 0:
            fact = w_sum
        elif aw is None:
            fact = _u(cx, np.subtract, w_sum, Constant(ddof))
        else:
            seq = _python_sum(cx, _u(cx, np.multiply, w, aw))
            fact = _u(cx, np.subtract, w_sum,
                      _u(cx, np.divide, _u(cx, np.multiply, Constant(ddof), seq), w_sum))
    fact = A.where(cx, _u(cx, np.less_equal, fact, Constant(0)), Constant(0.0), fact)
    x = cast(cx, _u(cx, np.subtract, x, A.reshape(cx, avg, TupleValue((Constant(-1),
                                                                         Constant(1))))), el)
    xt = A.transpose(cx, x if w is None else cast(cx, _u(cx, np.multiply, x, w), el))
    c = A.matmul(cx, x, xt)
    c = cast(cx, _u(cx, np.multiply, c, _u(cx, np.divide, Constant(1.0),
                                           cast(cx, fact, T.f64))), el)
    k = x.type.shape[0]
    if k is None:
        check(cx, _u(cx, np.not_equal, dim(cx, x, 0), Constant(1)), "NotImplementedError",
              "np.cov of one variable needs its count known at compile time (a static shape)")
    return A.reshape(cx, c, TupleValue(())) if k == 1 else c


def _sample_weights(cx, w, name: str, n):
    """``fweights`` / ``aweights`` as float64, checked 1-D and of ``n`` samples."""
    if A.is_none(w):
        return None
    w = cast(cx, materialize(cx, w), T.f64)
    if _rank(w) > 1:
        cx.fail(f"cannot handle multidimensional {name}", kind=RuntimeError)
    w = A.reshape(cx, w, Constant(-1))
    message = f"incompatible numbers of samples and {name}"
    m = dim(cx, w, 0)
    if isinstance(m, Constant) and isinstance(n, Constant) and m.value != n.value:
        cx.fail(message, kind=RuntimeError)
    check(cx, _u(cx, np.equal, m, n), "RuntimeError", message)
    return w


def _python_sum(cx, v):
    """Python's ``sum`` of a 1-D float64 array: 0 plus each element in order."""
    v = concatenate(cx, TupleValue((A.full(cx, Constant(1), Constant(0.0)), v)))
    return subscript(cx, cx.emit(nd.ScanOp, [v], {"kind": "sum", "axis": 0}), Constant(-1))


def corrcoef(cx, x, y=None, rowvar=None, dtype=None):
    """``np.corrcoef``: ``np.cov`` divided by the outer product of the standard deviations,
    clipped to [-1, 1] (NaN stays NaN); ``c / c`` for one variable (a 0-d array)."""
    c = cov(cx, x, y, rowvar, None, None, None, None, dtype)
    if _rank(c) == 0:
        return _u(cx, np.divide, c, c)
    d = diag(cx, c)
    std = _u(cx, np.sqrt, d)
    c = _u(cx, np.divide, c, A.reshape(cx, std, TupleValue((Constant(-1), Constant(1)))))
    c = _u(cx, np.divide, c, A.reshape(cx, std, TupleValue((Constant(1), Constant(-1)))))
    return A.clip(cx, c, Constant(-1), Constant(1))


RULES = {
    np.average: ("np.average", average, ["a", "axis=", "weights=", "returned=", "keepdims="]),
    np.cov: ("np.cov", cov, ["m", "y=", "rowvar=", "bias=", "ddof=", "fweights=",
                             "aweights=", "dtype="]),
    np.corrcoef: ("np.corrcoef", corrcoef, ["x", "y=", "rowvar=", "dtype="]),
}
