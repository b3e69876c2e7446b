"""NumPy's array-manipulation functions written with existing ``np`` ops: index grids masked
by ``np.mask_select`` (``nonzero``, ``argwhere``, ``flatnonzero``), counting reductions,
slices and ``np.concatenate`` (``diff``, ``roll``), ``np.gather`` and ``np.scatter``
(``diag``, ``trace``), ``np.where`` over index comparisons (``tril``, ``triu``) and reversed
views (``fliplr``, ``flipud``, ``rot90``).

Semantics: the NumPy 2 functions of the same names (result dtypes, shapes, error messages).
"""

from __future__ import annotations

import operator

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


def axis_slice(cx, x: Value, axis: int, start=None, stop=None, step=None) -> Value:
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


def iota(cx, n) -> Value:
    """``np.arange(n)`` as int64 for a size ``n`` (a Constant or a run-time ``!py.int``)."""
    t = T.TensorType((n.value if isinstance(n, Constant) else None,), T.i64)
    bounds = [constant(cx, 0, T.i64), constant(cx, 1, T.i64)]
    return cx.emit(npd.ArangeOp, bounds + ([] if isinstance(n, Constant) else [n]), types=[t])


def _grid(cx, x: Value, k: int) -> Value:
    """The int64 index along axis ``k`` at every element of ``x`` (``np.indices(x.shape)[k]``)."""
    rank = _rank(x)
    i = iota(cx, dim(cx, x, k))
    if rank > 1:
        i = S._view(cx, i, tuple("s" if j == k else "n" for j in range(rank)))
        i = S.broadcast_to(cx, i, TupleValue(tuple(dim(cx, x, j) for j in range(rank))))
    return i


def _truth(cx, x: Value) -> Value:
    """``x != 0`` as NumPy's truth of each element (NaN true, -0.0 false)."""
    if T.is_bool(x.type):
        return x
    return apply_ufunc(cx, np.not_equal, [x, Constant(0)])


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


def where(cx, condition, x=None, y=None):
    """``np.where``: ``np.nonzero(condition)`` with one argument, else the elementwise
    choice ``arrays.np_where``."""
    if x is None and y is None:
        return nonzero(cx, condition)
    return A.np_where(cx, condition, x, y)


def argwhere(cx, a):
    """``np.argwhere``: the nonzero indices as an int64 array of shape ``(count, a.ndim)``
    (``(count, 0)`` for a 0-d ``a``, as NumPy)."""
    a = materialize(cx, as_array(cx, a))
    if _rank(a) == 0:
        flat = A.reshape(cx, a, Constant(-1))
        rows = S._view(cx, flatnonzero(cx, flat), ("s", "n"))
        return axis_slice(cx, rows, 1, Constant(0), Constant(0))
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



# differences and rotations ------------------------------------------------------------------

def int_op(ufunc, python_op):
    """A Python-int operation on frontend values, folded when both are constants."""
    def apply(cx, a, b):
        if isinstance(a, Constant) and isinstance(b, Constant):
            return Constant(python_op(a.value, b.value))
        return apply_ufunc(cx, ufunc, [a, b], python_op)
    return apply


int_sum = int_op(np.add, operator.add)
int_sub = int_op(np.subtract, operator.sub)
int_min = int_op(np.minimum, min)
int_max = int_op(np.maximum, max)


def _edge(cx, a: Value, v, axis: int) -> Value:
    """``prepend``/``append`` of ``np.diff``: an array as given, a scalar broadcast to
    ``a``'s shape with ``axis`` of size 1 (as an array of its own dtype, as NumPy)."""
    v = as_array(cx, v)
    t = value_type(cx, v)
    v = cast(cx, v, T.strong(t))
    if T.shape_of(t):
        return v
    shape = [Constant(1) if k == axis else dim(cx, a, k) for k in range(_rank(a))]
    return S.broadcast_to(cx, v, TupleValue(tuple(shape)))


def diff(cx, a, n=None, axis=None, prepend=None, append=None):
    """``np.diff``: the ``n``-th (compile-time, non-negative) difference along ``axis``
    (default -1), after joining ``prepend``/``append``; ``!=`` for bool arrays, as NumPy."""
    a = materialize(cx, as_array(cx, a))
    order = 1 if A.is_none(n) else A.int_constant(cx, n, "n")
    if order < 0:
        cx.fail(f"order must be non-negative but got {order}", kind=ValueError)
    if order == 0:
        return a
    if _rank(a) == 0:
        cx.fail("diff requires input that is at least one dimensional", kind=ValueError)
    ax = A.normalize_axis(cx, -1 if A.is_none(axis) else A.int_constant(cx, axis, "axis"),
                          _rank(a))
    parts = [_edge(cx, a, prepend, ax)] if not A.is_none(prepend) else []
    parts.append(a)
    if not A.is_none(append):
        parts.append(_edge(cx, a, append, ax))
    if len(parts) > 1:
        a = S.concatenate(cx, TupleValue(tuple(parts)), Constant(ax))
    op = np.not_equal if T.is_bool(a.type) else np.subtract
    for _ in range(order):
        a = materialize(cx, apply_ufunc(cx, op, [axis_slice(cx, a, ax, Constant(1)),
                                                 axis_slice(cx, a, ax, None, Constant(-1))]))
    return a


def _roll_axis(cx, x: Value, shift, axis: int) -> Value:
    n = dim(cx, x, axis)
    if isinstance(n, Constant) and isinstance(shift, Constant):
        s = shift.value % n.value if n.value else 0
        if s == 0:
            return x
        cut = Constant(n.value - s)
    else:
        size = int_max(cx, n, Constant(1))
        cut = int_sub(cx, n, apply_ufunc(cx, np.remainder, [shift, size], operator.mod))
    parts = [axis_slice(cx, x, axis, cut), axis_slice(cx, x, axis, None, cut)]
    return cx.emit(nd.ConcatenateOp, parts, {"axis": axis})


def roll(cx, a, shift, axis=None):
    """``np.roll``: elements shifted along ``axis`` (int or tuple; the flattened array when
    None) by ``shift`` (int or tuple broadcast against ``axis``), wrapping around."""
    a = materialize(cx, as_array(cx, a))
    shifts = [A.size_value(cx, v, "shift") for v in A.items_of(cx, shift, "shift")]
    if A.is_none(axis):
        if len(shifts) != 1:
            cx.fail("'shift' and 'axis' should be scalars or 1D sequences", kind=ValueError)
        flat = A.reshape(cx, a, Constant(-1))
        shape = TupleValue(tuple(dim(cx, a, k) for k in range(_rank(a))))
        return A.reshape(cx, _roll_axis(cx, flat, shifts[0], 0), shape)
    axes = S._axes(cx, axis, _rank(a))
    if len(shifts) != len(axes) and 1 not in (len(shifts), len(axes)):
        cx.fail(f"shape mismatch: objects cannot be broadcast to a single shape.  Mismatch "
                f"is between arg 0 with shape ({len(shifts)},) and arg 1 with shape "
                f"({len(axes)},).", kind=ValueError)
    count = max(len(shifts), len(axes))
    total: dict = {}
    for sh, ax in zip(shifts * count if len(shifts) == 1 else shifts,
                      axes * count if len(axes) == 1 else axes, strict=True):
        total[ax] = int_sum(cx, total[ax], sh) if ax in total else sh
    for ax, sh in total.items():
        a = _roll_axis(cx, a, sh, ax)
    return a


def _diagonal(cx, a: Value, offset: int, axis1: int, axis2: int) -> Value:
    """``np.diagonal``: the ``offset`` diagonal of the ``axis1``/``axis2`` planes as the last
    axis, the other axes in order."""
    rank = _rank(a)
    rest = [k for k in range(rank) if k not in (axis1, axis2)]
    a = A.transpose(cx, a, TupleValue(tuple(Constant(k) for k in rest + [axis1, axis2])))
    if offset >= 0:
        a = axis_slice(cx, a, rank - 1, Constant(offset))
    else:
        a = axis_slice(cx, a, rank - 2, Constant(-offset))
    rows, cols = dim(cx, a, rank - 2), dim(cx, a, rank - 1)
    i = iota(cx, int_min(cx, rows, cols))
    return cx.emit(nd.GatherOp, [a, i, i], {"axis": rank - 2, "axes": (rank - 2, rank - 1),
                                            "index_axes": (axis1, axis2)})



def trace(cx, a, offset=None, axis1=None, axis2=None, dtype=None, out=None):
    """``np.trace``: the sum of the ``offset`` diagonal of the ``axis1``/``axis2`` planes
    (``np.sum``'s accumulator dtype, or ``dtype``); a scalar for a 2-D ``a``."""
    if not A.is_none(out):
        cx.fail("the 'out' argument is not supported", "use the returned array instead")
    a = materialize(cx, as_array(cx, a))
    if _rank(a) < 2:
        cx.fail("diag requires an array of at least two dimensions", kind=ValueError)
    d = _diagonal(cx, a, *_plane(cx, a, offset, axis1, axis2))
    return A.reduce(cx, "sum", d, Constant(-1), None, dtype)


def _plane(cx, a: Value, offset, axis1, axis2) -> tuple:
    k = 0 if A.is_none(offset) else A.int_constant(cx, offset, "offset")
    a1, a2 = (A.normalize_axis(cx, d if A.is_none(v) else A.int_constant(cx, v, "axis"),
                               _rank(a)) for v, d in ((axis1, 0), (axis2, 1)))
    if a1 == a2:
        cx.fail("axis1 and axis2 cannot be the same", kind=ValueError)
    return k, a1, a2


def diag(cx, v, k=None):
    """``np.diag``: the ``k`` diagonal of a 2-D ``v``, or a square 2-D array with the 1-D
    ``v`` on its ``k`` diagonal and zeros elsewhere."""
    v = materialize(cx, as_array(cx, v))
    offset = 0 if A.is_none(k) else A.int_constant(cx, k, "k")
    if _rank(v) == 2:
        return _diagonal(cx, v, offset, 0, 1)
    if _rank(v) != 1:
        cx.fail("Input must be 1- or 2-d.", kind=ValueError)
    n = dim(cx, v, 0)
    size = int_sum(cx, n, Constant(abs(offset)))
    zero = A.full(cx, TupleValue((size, size)), Constant(0),
                  Constant(T.to_dtype(T.element_type(v.type))))
    i = iota(cx, n)
    rows = apply_ufunc(cx, np.add, [i, Constant(-offset)]) if offset < 0 else i
    cols = apply_ufunc(cx, np.add, [i, Constant(offset)]) if offset > 0 else i
    return cx.emit(nd.ScatterOp, [zero, rows, cols, v], {"axis": 0, "axes": (0, 1)})


def _triangle(keep):
    def impl(cx, m, k=None):
        m = materialize(cx, as_array(cx, m))
        if _rank(m) == 0:
            cx.fail("tril/triu of a 0-d array is not supported", kind=ValueError)
        cols = iota(cx, dim(cx, m, _rank(m) - 1))
        rows = iota(cx, dim(cx, m, max(_rank(m) - 2, 0)))
        below = int_sum(cx, S._view(cx, rows, ("s", "n")), Constant(0) if A.is_none(k) else k)
        mask = apply_ufunc(cx, keep, [S._view(cx, cols, ("n", "s")), below])
        zero = cast(cx, Constant(0), T.element_type(m.type))
        return A.select(cx, mask, m, zero)
    return impl


tril = _triangle(np.less_equal)
triu = _triangle(np.greater_equal)
tril.__doc__ = """``np.tril``: ``m`` with the elements above the ``k`` diagonal of the last two
axes zeroed (a 1-D ``m`` is broadcast to a square, as NumPy)."""
triu.__doc__ = """``np.triu``: ``m`` with the elements below the ``k`` diagonal of the last two
axes zeroed (a 1-D ``m`` is broadcast to a square, as NumPy)."""


def fliplr(cx, m):
    """``np.fliplr``: ``m[:, ::-1]``, a view; ValueError below 2-D."""
    m = materialize(cx, as_array(cx, m))
    if _rank(m) < 2:
        cx.fail("Input must be >= 2-d.", kind=ValueError)
    return S.flip(cx, m, Constant(1))


def flipud(cx, m):
    """``np.flipud``: ``m[::-1]``, a view; ValueError for a 0-d ``m``."""
    m = materialize(cx, as_array(cx, m))
    if _rank(m) < 1:
        cx.fail("Input must be >= 1-d.", kind=ValueError)
    return S.flip(cx, m, Constant(0))


def rot90(cx, m, k=None, axes=None):
    """``np.rot90``: ``m`` rotated by 90 degrees ``k`` times (compile-time) in the plane of
    ``axes`` (default (0, 1)), from the first axis towards the second; a view."""
    m = materialize(cx, as_array(cx, m))
    rank = _rank(m)
    turns = 1 if A.is_none(k) else A.int_constant(cx, k, "k")
    pair = [0, 1] if A.is_none(axes) else [A.int_constant(cx, v, "axes")
                                           for v in A.items_of(cx, axes, "axes")]
    if len(pair) != 2:
        cx.fail("len(axes) must be 2.", kind=ValueError)
    if pair[0] == pair[1] or abs(pair[0] - pair[1]) == rank:
        cx.fail("Axes must be different.", kind=ValueError)
    if not all(-rank <= p < rank for p in pair):
        cx.fail(f"Axes={tuple(pair)} out of range for array of ndim={rank}.", kind=ValueError)
    a0, a1 = (p % rank for p in pair)
    turns %= 4
    if turns == 0:
        return m
    if turns == 2:
        return S.flip(cx, m, TupleValue((Constant(a0), Constant(a1))))
    perm = list(range(rank))
    perm[a0], perm[a1] = perm[a1], perm[a0]
    order = TupleValue(tuple(Constant(p) for p in perm))
    if turns == 1:
        return A.transpose(cx, S.flip(cx, m, Constant(a1)), order)
    return S.flip(cx, A.transpose(cx, m, order), Constant(a1))


RULES = {
    np.nonzero: ("np.nonzero", nonzero, ["a"]),
    np.argwhere: ("np.argwhere", argwhere, ["a"]),
    np.flatnonzero: ("np.flatnonzero", flatnonzero, ["a"]),
    np.count_nonzero: ("np.count_nonzero", count_nonzero, ["a", "axis=", "keepdims="]),
    np.diff: ("np.diff", diff, ["a", "n=", "axis=", "prepend=", "append="]),
    np.roll: ("np.roll", roll, ["a", "shift", "axis="]),
    np.trace: ("np.trace", trace, ["a", "offset=", "axis1=", "axis2=", "dtype=", "out="]),
    np.diag: ("np.diag", diag, ["v", "k="]),
    np.tril: ("np.tril", tril, ["m", "k="]),
    np.triu: ("np.triu", triu, ["m", "k="]),
    np.fliplr: ("np.fliplr", fliplr, ["m"]),
    np.flipud: ("np.flipud", flipud, ["m"]),
    np.rot90: ("np.rot90", rot90, ["m", "k=", "axes="]),
}

METHODS = {
    "nonzero": ("ndarray.nonzero", nonzero, ["a"]),
    "trace": ("ndarray.trace", trace, ["a", "offset=", "axis1=", "axis2=", "dtype=", "out="]),
}
