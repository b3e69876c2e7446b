"""Sorting and what is built on it: ``np.sort``, ``np.argsort``, ``ndarray.sort`` (in place),
``np.partition``, ``np.argpartition``, ``np.median``, ``np.unique``, ``np.searchsorted`` and
``np.lexsort``, written with ``np.sort`` (a stable sort, ``lowering/sort.py``),
``np.partition`` (introselect, ``lowering/select.py``), ``np.searchsorted`` and the ``np`` ops
of ``arrays``.

Every ``kind`` gives the stable order: ``kind="stable"``/``"mergesort"`` must, and the
other kinds leave the order of equal elements unspecified in NumPy. Partitions of complex
arrays are full sorts, which satisfy the partition contract too (every element before
``kth`` is at most, every one after at least the ``kth`` element, which is the one the
sorted array has there).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..dialects import np_data as nd
from . import arrays as A
from . import complex_parts, creation, mutation, statistics
from .expansion import take_along_axis
from .indexing import subscript
from .ops import apply_ufunc, cast, check, dim, materialize
from .shape_functions import concatenate
from .values import Constant, SliceValue, TupleValue

_KINDS = ("quicksort", "mergesort", "heapsort", "stable")


def _rank(x) -> int:
    return len(T.shape_of(x.type))


def _kind(cx, kind, stable) -> None:
    """NumPy's checks of ``kind=`` and ``stable=`` (compile-time values)."""
    if not A.is_none(stable) and not A.is_none(kind):
        cx.fail("`kind` and keyword parameters can't be provided at the same time. Use only "
                "one of them.", kind=ValueError)
    if not A.is_none(stable):
        A.bool_of(cx, stable, "stable")
    if A.is_none(kind):
        return
    if not isinstance(kind, Constant) or not isinstance(kind.value, str):
        cx.fail("kind must be a string known at compile time")
    if not any(k.startswith(kind.value.lower()[:1]) for k in _KINDS) or not kind.value:
        cx.fail(f"sort kind must be one of 'quick', 'heap', or 'stable' (got '{kind.value}')",
                kind=ValueError)


def _lines(cx, x, axis):
    """``(x, ax)``: the array whose lines along ``ax`` are sorted or partitioned; flattened
    when ``axis`` is Python's None (an argument left out is the last axis)."""
    x = materialize(cx, x)
    if axis is None:
        axis = Constant(-1)
    if A.is_none(axis):
        return A.reshape(cx, x, Constant(-1)), 0
    return x, A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), _rank(x))


def sorted_along(cx, x, axis, arg: bool):
    """``(sorted x or its argsort, axis)``: flattened when ``axis`` is None (an argument
    left out, Python's None, is the last axis)."""
    x, ax = _lines(cx, x, axis)
    if T.is_complex(x.type):
        perm = _complex_argsort(cx, x, ax)
        return (perm if arg else take_along_axis(cx, x, perm, Constant(ax))), ax
    return cx.emit(nd.SortOp, [x], {"axis": ax, "arg": arg}), ax


def partitioned_along(cx, x, axis, kth: list[int], middle: bool, arg: bool):
    """``(x partitioned at kth, or its argpartition, axis)`` as ``sorted_along``; ``middle``
    adds a line's middle positions (``dialects/np_data.py``, ``PartitionOp``). Complex arrays
    are sorted."""
    if T.is_complex(x.type):
        return sorted_along(cx, x, axis, arg)
    x, ax = _lines(cx, x, axis)
    return cx.emit(nd.PartitionOp, [x], {"axis": ax, "kth": kth, "middle": middle,
                                         "arg": arg}), ax


def _complex_argsort(cx, z, ax: int):
    """The stable argsort of complex ``z`` along ``ax`` in NumPy's order (``npy_sort``'s
    ``CDOUBLE_LT``): ``R + Rj`` by real then imaginary part, then ``R + nanj`` by real part,
    ``nan + Rj`` by imaginary part, ``nan + nanj`` last. Three stable float/int sorts, the
    least significant key first (an LSD sort on the key triple)."""
    re, im = complex_parts.real(cx, z), complex_parts.imag(cx, z)
    nan_re, nan_im = (apply_ufunc(cx, np.isnan, [p]) for p in (re, im))
    zero = Constant(0.0)
    groups = apply_ufunc(cx, np.add, [A.astype(cx, nan_re, Constant(np.int8)),
                                      A.astype(cx, nan_re, Constant(np.int8))])
    groups = apply_ufunc(cx, np.add, [groups, A.astype(cx, nan_im, Constant(np.int8))])
    primary = A.where(cx, nan_re, A.where(cx, nan_im, zero, im), re)
    secondary = A.where(cx, apply_ufunc(cx, np.logical_or, [nan_re, nan_im]), zero, im)
    perm = cx.emit(nd.SortOp, [materialize(cx, secondary)], {"axis": ax, "arg": True})
    for key in (primary, groups):
        keyed = take_along_axis(cx, key, perm, Constant(ax))
        order = cx.emit(nd.SortOp, [materialize(cx, keyed)], {"axis": ax, "arg": True})
        perm = take_along_axis(cx, perm, order, Constant(ax))
    return perm


def _sort(arg: bool):
    def impl(cx, x, axis=None, kind=None, order=None, stable=None):
        """``np.sort`` / ``np.argsort``: the stable order along ``axis`` (flattened when None),
        NaNs last; argsort gives int64 positions."""
        if not A.is_none(order):
            cx.fail("the 'order' argument is not supported")
        _kind(cx, kind, stable)
        x = materialize(cx, x)
        if _rank(x) == 0 and not A.is_none(axis):
            k = -1 if axis is None else A.int_constant(cx, axis, "axis")
            cx.fail(f"axis {k} is out of bounds for array of dimension 0", kind=ValueError)
        return sorted_along(cx, x, axis, arg)[0]
    return impl


def sort_in_place(cx, x, axis=None, kind=None, order=None, stable=None):
    """``ndarray.sort``: sorts ``x`` (an array or a view of one) along ``axis``; None."""
    if not A.is_none(order):
        cx.fail("the 'order' argument is not supported")
    _kind(cx, kind, stable)
    if _rank(x) == 0:
        cx.fail("Cannot sort a 0-d array", kind=ValueError)
    axis = Constant(-1) if axis is None else Constant(A.int_constant(cx, axis, "axis"))
    out, _ = sorted_along(cx, x, axis, False)
    mutation.mutate(cx, x, mutation.setitem(cx, x, Constant(()), out))
    return Constant(None)


def _partition(arg: bool):
    def impl(cx, x, kth, axis=None, kind=None, order=None):
        """``np.partition`` / ``np.argpartition`` along ``axis`` (flattened when None):
        introselect for the positions ``kth`` (an int or a sequence, known at compile time,
        checked as NumPy does: ValueError "kth(=k) out of bounds (n)"); the rest of the
        order is unspecified, as in NumPy. argpartition gives int64 positions."""
        if not A.is_none(order):
            cx.fail("the 'order' argument is not supported")
        if not A.is_none(kind) and not (isinstance(kind, Constant) and kind.value == "introselect"):
            cx.fail(f"{kind.value if isinstance(kind, Constant) else kind!r} is not a valid "
                    "kind of selection", kind=ValueError)
        x = materialize(cx, x)
        ks = []
        for k in A.items_of(cx, kth, "kth"):
            if not isinstance(k, Constant) or isinstance(k.value, (float, bool, np.bool_)):
                cx.fail("Partition index must be integer known at compile time", kind=TypeError)
            ks.append(A.int_constant(cx, k, "kth"))
        out, ax = partitioned_along(cx, x, axis, ks, False, arg)
        n = dim(cx, out, ax)
        for k in ks:
            _check_kth(cx, k, n)
        return out
    return impl


def _check_kth(cx, k: int, n) -> None:
    message = f"kth(={k}) out of bounds ({{0}})"
    if isinstance(n, Constant):
        if not -n.value <= k < n.value:
            cx.fail(message.format(n.value), kind=ValueError)
        return
    low = apply_ufunc(cx, np.less_equal, [apply_ufunc(cx, np.negative, [n], operator.neg),
                                          Constant(k)], operator.le)
    high = apply_ufunc(cx, np.greater, [n, Constant(k)], operator.gt)
    check(cx, apply_ufunc(cx, np.logical_and, [low, high]), "ValueError", message,
          [A.astype(cx, n, Constant(np.int64))])


def _slice(start, stop=None):
    return SliceValue(start, Constant(stop) if stop is None else stop, Constant(None))


def median(cx, x, axis=None, out=None, overwrite_input=None, keepdims=None):
    """``np.median``: the mean of the middle one or two elements of the data partitioned
    (``np.partition``) along ``axis`` (an int or None); float64 for integers and bools, the
    input's float type otherwise; NaN where a slice holds a NaN, as NumPy's
    ``_median_nancheck``. An empty slice gives NaN."""
    if not A.is_none(out):
        cx.fail("the 'out' argument is not supported", "use the returned array instead")
    x = materialize(cx, x)
    if isinstance(axis, TupleValue) or (isinstance(axis, Constant)
                                        and isinstance(axis.value, tuple)):
        cx.fail("np.median with a tuple of axes is not supported", "pass one axis or None")
    keep = not A.is_none(keepdims) and A.bool_of(cx, keepdims, "keepdims")
    axis = Constant(None) if axis is None else axis
    rank = _rank(x)
    if rank == 0:
        x = A.reshape(cx, x, Constant(1))
    # NumPy's kth: the middle one or two, and the last for floats (where a NaN goes).
    last = [-1] if T.is_float(T.strong(x.type)) else []
    s, ax = partitioned_along(cx, x, axis, last, True, False)
    n = dim(cx, s, ax)
    half = apply_ufunc(cx, np.floor_divide, [n, Constant(2)], operator.floordiv)
    odd = apply_ufunc(cx, np.remainder, [n, Constant(2)], operator.mod)
    lo = apply_ufunc(cx, np.subtract, [half, apply_ufunc(cx, np.subtract, [Constant(1), odd],
                                                         operator.sub)], operator.sub)
    lo = apply_ufunc(cx, np.maximum, [lo, Constant(0)], max)
    hi = apply_ufunc(cx, np.add, [half, Constant(1)], operator.add)
    full = _slice(Constant(None))
    middle = subscript(cx, s, TupleValue((full,) * ax + (_slice(lo, hi),)))
    result = A.mean(cx, middle, Constant(ax), Constant(True))
    if T.is_float(T.strong(s.type)):
        last = subscript(cx, s, TupleValue((full,) * ax + (_slice(Constant(-1)),)))
        nan = A.reduce(cx, "any", apply_ufunc(cx, np.isnan, [last]), Constant(ax),
                       Constant(True))
        result = A.where(cx, nan, Constant(np.nan), result)
    if keep:
        return A.reshape(cx, result, Constant((1,) * rank)) if A.is_none(axis) else result
    return subscript(cx, result, TupleValue((full,) * ax + (Constant(0),)))


def searchsorted(cx, a, v, side=None, sorter=None):
    """``np.searchsorted``: int64 insertion positions of ``v`` (an array or a scalar) in the
    1-D ``a`` (read through the permutation ``sorter`` when given), both compared in their
    common dtype; NaN sorts last. ``side`` is "left" (default) or "right"."""
    where = "left" if A.is_none(side) else side.value if isinstance(side, Constant) else None
    if not isinstance(where, str):
        cx.fail("side must be a string known at compile time")
    if where.lower()[:1] not in ("l", "r"):
        cx.fail(f"search side must be 'left' or 'right' (got '{where}')", kind=ValueError)
    a = materialize(cx, a)
    if _rank(a) != 1:
        cx.fail("object too deep for desired array" if _rank(a) > 1 else
                "object of too small depth for desired array", kind=ValueError)
    if not A.is_none(sorter):
        a = subscript(cx, a, materialize(cx, sorter))
    v = materialize(cx, v)
    el = T.strong(T.promote(T.element_type(a.type), T.element_type(v.type)))
    a, v = cast(cx, a, el), cast(cx, v, el)
    side_name = "left" if where.lower()[:1] == "l" else "right"
    return cx.emit(nd.SearchSortedOp, [a, v], {"side": side_name})


def unique(cx, x, return_index=None, return_inverse=None, return_counts=None, axis=None,
           equal_nan=None, sorted=None):
    """``np.unique`` of the flattened array: its distinct values in sorted order (one NaN with
    ``equal_nan``, the default), with the int64 positions of their first occurrences
    (``return_index``), the int64 position of each element's value among them, in the
    input's shape (``return_inverse``) and the int64 counts (``return_counts``); a tuple when
    any of these is asked for, as NumPy. Built on the stable sort (argsort when positions
    are asked for), so equal values (0.0 and -0.0) give the first occurrence; then one
    linear pass marks where the sorted values change."""
    if not A.is_none(axis):
        cx.fail("np.unique with an axis is not supported", "use axis=None")
    want = [not A.is_none(f) and A.bool_of(cx, f, name) for f, name in (
        (return_index, "return_index"), (return_inverse, "return_inverse"),
        (return_counts, "return_counts"))]
    nan_equal = A.is_none(equal_nan) or A.bool_of(cx, equal_nan, "equal_nan")
    if not A.is_none(sorted) and not A.bool_of(cx, sorted, "sorted"):
        cx.fail("np.unique with sorted=False is not supported")
    x = materialize(cx, x)
    if want[0] or want[1]:
        perm, _ = sorted_along(cx, x, Constant(None), True)
        s = subscript(cx, A.reshape(cx, x, Constant(-1)), perm)
    else:
        # The sorted values themselves: the same array as the gather through the stable
        # argsort (zeros and NaNs keep their input order), without the gather.
        s, _ = sorted_along(cx, x, Constant(None), False)
    head = subscript(cx, s, _slice(Constant(None), Constant(1)))
    first = creation.full_like(cx, head, Constant(True), Constant(np.bool_))
    after = subscript(cx, s, _slice(Constant(1)))
    before = subscript(cx, s, _slice(Constant(None), Constant(-1)))
    new = apply_ufunc(cx, np.not_equal, [after, before])
    if nan_equal and (T.is_float(T.strong(s.type)) or T.is_complex(s.type)):
        nans = apply_ufunc(cx, np.logical_and, [apply_ufunc(cx, np.isnan, [after]),
                                                apply_ufunc(cx, np.isnan, [before])])
        new = apply_ufunc(cx, np.logical_and, [new, apply_ufunc(cx, np.logical_not, [nans])])
    mask = concatenate(cx, TupleValue((first, new)))
    out = [subscript(cx, s, mask)]
    if want[0]:
        out.append(subscript(cx, perm, mask))
    if want[1]:
        rank = cast(cx, statistics.scan("sum")(cx, mask), T.i64)
        rank = apply_ufunc(cx, np.subtract, [rank, Constant(1)])
        inverse = creation.full_like(cx, perm, Constant(0))
        inverse = mutation.setitem(cx, inverse, perm, rank)
        shape = TupleValue(tuple(dim(cx, x, k) for k in range(_rank(x))))
        out.append(A.reshape(cx, inverse, shape))
    if want[2]:
        n = dim(cx, s, 0)
        starts = subscript(cx, A.arange(cx, A.astype(cx, n, Constant(np.int64))), mask)
        ends = concatenate(cx, TupleValue((subscript(cx, starts, _slice(Constant(1))),
                                           A.full(cx, Constant(1), n, Constant(np.int64)))))
        out.append(apply_ufunc(cx, np.subtract, [ends, starts]))
    return out[0] if len(out) == 1 else TupleValue(tuple(out))


def lexsort(cx, keys, axis=None):
    """``np.lexsort(keys, axis=-1)``: the int64 stable permutation sorting by the last key
    first, then the one before it, ...; ``keys`` a tuple or list of arrays of one shape, or
    an array whose rows (its first axis, of a size known at compile time) are the keys. An
    LSD sort: the stable argsort by the first key, refined by each later one. NumPy's
    TypeError for no keys, ValueError for keys of different shapes."""
    if isinstance(keys, (TupleValue, Constant)) and not (
            isinstance(keys, Constant) and isinstance(keys.value, np.ndarray)):
        items = [materialize(cx, k) for k in A.items_of(cx, keys, "keys")]
    else:
        keys = materialize(cx, keys)
        if _rank(keys) == 0:
            cx.fail("need sequence of keys with len > 0 in lexsort", kind=TypeError)
        count = keys.type.shape[0]
        if count is None:
            cx.fail("np.lexsort of an array needs its number of keys (its first dimension) "
                    "known at compile time", "pass a tuple of key arrays")
        items = [subscript(cx, keys, Constant(i)) for i in range(count)]
    if not items:
        cx.fail("need sequence of keys with len > 0 in lexsort", kind=TypeError)
    shapes = {T.shape_of(k.type) for k in items}
    if len({len(s) for s in shapes}) > 1 or any(
            len({s[d] for s in shapes} - {None}) > 1 for d in range(len(next(iter(shapes))))):
        cx.fail("all keys need to be the same shape", kind=ValueError)
    rank = _rank(items[0])
    if rank == 0:
        return Constant(np.int64(0))
    ax = A.normalize_axis(cx, -1 if A.is_none(axis) else A.int_constant(cx, axis, "axis"),
                          rank)
    for k in items[1:]:
        for d in range(rank):
            same = apply_ufunc(cx, np.equal, [dim(cx, k, d), dim(cx, items[0], d)],
                               operator.eq)
            if not isinstance(same, Constant):
                check(cx, same, "ValueError", "all keys need to be the same shape")
    perm, _ = sorted_along(cx, items[0], Constant(ax), True)
    for key in items[1:]:
        keyed = take_along_axis(cx, key, perm, Constant(ax))
        order, _ = sorted_along(cx, keyed, Constant(ax), True)
        perm = take_along_axis(cx, perm, order, Constant(ax))
    return perm


_S = ["a", "axis=", "kind=", "order=", "stable="]
_P = ["a", "kth", "axis=", "kind=", "order="]

RULES = {
    np.sort: ("np.sort", _sort(False), _S),
    np.argsort: ("np.argsort", _sort(True), _S),
    np.partition: ("np.partition", _partition(False), _P),
    np.argpartition: ("np.argpartition", _partition(True), _P),
    np.searchsorted: ("np.searchsorted", searchsorted, ["a", "v", "side=", "sorter="]),
    np.unique: ("np.unique", unique, ["ar", "return_index=", "return_inverse=",
                                      "return_counts=", "axis=", "equal_nan=", "sorted="]),
    np.lexsort: ("np.lexsort", lexsort, ["keys", "axis="]),
    np.median: ("np.median", median, ["a", "axis=", "out=", "overwrite_input=", "keepdims="]),
}

METHODS = {
    "argsort": ("ndarray.argsort", _sort(True), _S),
    "sort": ("ndarray.sort", sort_in_place, _S),
    "searchsorted": ("ndarray.searchsorted", searchsorted, ["a", "v", "side=", "sorter="]),
}
