"""NumPy's array-manipulation functions written with existing ``np`` ops: index grids masked
by ``np.mask_select`` (``nonzero``, ``argwhere``, ``flatnonzero``), counting reductions,
slices and ``np.concatenate`` (``diff``, ``roll``), ``np.gather`` (``diag``, ``trace``),
``np.where`` over index comparisons (``tril``, ``triu``) and reversed views (``fliplr``,
``flipud``, ``rot90``).

Semantics: the NumPy 2 functions of the same names (result dtypes, shapes, error messages).
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..dialects import np_data as nd
from ..ir.core import Value
from . import arrays as A
from . import shape_functions as S
from .ops import apply_ufunc, as_array, cast, constant, dim, materialize, value_type
from .values import Constant, TupleValue


def _rank(x: Value) -> int:
    return len(T.shape_of(x.type))


def _slice(cx, x: Value, axis: int, start=None, stop=None, step=None) -> Value:
    """``x[..., start:stop:step, ...]`` along ``axis`` with compile-time or run-time bounds."""
    bounds, operands = [], [x]
    for k in range(_rank(x)):
        for b in ((start, stop, step) if k == axis else (None, None, None)):
            if b is None:
                bounds.append("none")
            elif isinstance(b, Constant):
                bounds.append(b.value)
            else:
                bounds.append("?")
                operands.append(cast(cx, b, T.py_int))
    return cx.emit(npd.SubscriptOp, operands, {"spec": ("s",) * _rank(x),
                                               "bounds": tuple(bounds)})


def _grid(cx, x: Value, k: int) -> Value:
    """The int64 index along axis ``k`` at every element of ``x`` (``np.indices(x.shape)[k]``)."""
    rank = _rank(x)
    n = dim(cx, x, k)
    t = T.TensorType((n.value if isinstance(n, Constant) else None,), T.i64)
    bounds = [constant(cx, 0, T.i64), constant(cx, 1, T.i64)]
    i = cx.emit(npd.ArangeOp, bounds + ([] if isinstance(n, Constant) else [n]), types=[t])
    if rank > 1:
        i = S._view(cx, i, tuple("s" if j == k else "n" for j in range(rank)))
        i = S.broadcast_to(cx, i, TupleValue(tuple(dim(cx, x, j) for j in range(rank))))
    return i


def _truth(cx, x: Value) -> Value:
    """``x != 0`` as NumPy's truth of each element (NaN true, -0.0 false)."""
    return apply_ufunc(cx, np.not_equal, [x, Constant(False if T.is_bool(x.type) else 0)])


def nonzero(cx, a):
    """``np.nonzero``: a tuple of ``a.ndim`` int64 arrays of the indices of the nonzero
    elements in C order; a 0-d ``a`` is NumPy's ValueError."""
    a = materialize(cx, as_array(cx, a))
    if _rank(a) == 0:
        cx.fail("Calling nonzero on 0d arrays is not allowed. Use np.atleast_1d(scalar)."
                "nonzero() instead.", kind=ValueError)
    mask = _truth(cx, a)
    return TupleValue(tuple(cx.emit(nd.MaskSelectOp, [_grid(cx, a, k), mask])
                            for k in range(_rank(a))))


def argwhere(cx, a):
    """``np.argwhere``: the nonzero indices as an int64 array of shape ``(count, a.ndim)``
    (``(count, 0)`` for a 0-d ``a``, as NumPy)."""
    a = materialize(cx, as_array(cx, a))
    if _rank(a) == 0:
        flat = A.reshape(cx, a, Constant(-1))
        rows = S._view(cx, flatnonzero(cx, flat), ("s", "n"))
        return _slice(cx, rows, 1, Constant(0), Constant(0))
    cols = [S._view(cx, c, ("s", "n")) for c in nonzero(cx, a).items]
    return cols[0] if len(cols) == 1 else cx.emit(nd.ConcatenateOp, cols, {"axis": 1})


def flatnonzero(cx, a):
    """``np.flatnonzero``: int64 indices of the nonzero elements of ``ravel(a)``."""
    flat = A.reshape(cx, materialize(cx, as_array(cx, a)), Constant(-1))
    return cx.emit(nd.MaskSelectOp, [_grid(cx, flat, 0), _truth(cx, flat)])


def count_nonzero(cx, a, axis=None, keepdims=None):
    """``np.count_nonzero``: an int64 count (an array of them along ``axis``; ``keepdims``
    keeps the counted axes as 1)."""
    counts = cast(cx, _truth(cx, materialize(cx, as_array(cx, a))), T.i64)
    return A.reduce(cx, "sum", counts, axis, keepdims)


RULES = {
    np.nonzero: ("np.nonzero", nonzero, ["a"]),
    np.argwhere: ("np.argwhere", argwhere, ["a"]),
    np.flatnonzero: ("np.flatnonzero", flatnonzero, ["a"]),
    np.count_nonzero: ("np.count_nonzero", count_nonzero, ["a", "axis=", "keepdims="]),
}

METHODS = {
    "nonzero": ("ndarray.nonzero", nonzero, ["a"]),
}
