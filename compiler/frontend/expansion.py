"""NumPy functions that build larger arrays from an input by repeating or re-indexing it:
``tile``, ``repeat`` (broadcast then reshape), ``indices`` and ``meshgrid`` (broadcast index
ranges), ``take_along_axis`` (one ``np.gather`` by index grids) and ``pad`` (one ``np.gather``
per padded axis by a computed source index).

Semantics: the NumPy 2 functions of the same names (result dtypes, shapes, error messages);
sizes such as ``reps``, ``pad_width`` and the ``repeats`` count are compile-time integers.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import np_data as nd
from ..ir.core import Value
from . import arrays as A
from . import shape_functions as S
from .manipulation import axis_slice, int_max, int_sub, int_sum, iota
from .ops import apply_ufunc, as_array, cast, check, dim, materialize, product, value_type
from .values import Constant, TupleValue


def _rank(x: Value) -> int:
    return len(T.shape_of(x.type))


def _dims(cx, x: Value) -> list:
    return [dim(cx, x, k) for k in range(_rank(x))]


def _ints(cx, v, what: str) -> list:
    return [A.int_constant(cx, d, what) for d in A.items_of(cx, v, what)]


def _interleave(cx, x: Value, counts: list, after: bool) -> Value:
    """``x`` with each axis ``k`` repeated ``counts[k]`` times: whole (``after`` False,
    ``np.tile``) or element by element (``after`` True, ``np.repeat``)."""
    dims = _dims(cx, x)
    spec, shape, out = [], [], []
    for d, c in zip(dims, counts, strict=True):
        pair = ["s", "n"] if after else ["n", "s"]
        spec += pair
        shape += [d, Constant(c)] if after else [Constant(c), d]
        out.append(product(cx, [d, Constant(c)]))
    wide = S.broadcast_to(cx, S._view(cx, x, tuple(spec)), TupleValue(tuple(shape)))
    return A.reshape(cx, A.copy(cx, wide), TupleValue(tuple(out)))


def tile(cx, a, reps):
    """``np.tile``: ``a`` repeated ``reps`` times per axis (compile-time ints), ``a`` or
    ``reps`` padded with leading ones to the same length; always a new array."""
    a = materialize(cx, as_array(cx, a))
    counts = _ints(cx, reps, "reps")
    if any(c < 0 for c in counts):
        cx.fail("negative dimensions are not allowed", kind=ValueError)
    rank = max(len(counts), _rank(a))
    counts = [1] * (rank - len(counts)) + counts
    if rank > _rank(a):
        a = A.reshape(cx, a, TupleValue(tuple([Constant(1)] * (rank - _rank(a))
                                              + _dims(cx, a))))
    if rank == 0:
        return A.copy(cx, a)
    return _interleave(cx, a, counts, after=False)


def repeat(cx, a, repeats, axis=None):
    """``np.repeat``: each element ``repeats`` times along ``axis`` (of the flattened array
    when None); ``repeats`` a compile-time int, or an integer array with one count per
    element (or one for all) gathered by the positions a mask of counts selects. Negative
    counts and a count array of the wrong length are NumPy's ValueErrors."""
    a = materialize(cx, as_array(cx, a))
    if A.is_none(axis):
        a, ax = A.reshape(cx, a, Constant(-1)), 0
    else:
        ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), _rank(a))
    if not isinstance(repeats, Constant) or not np.isscalar(repeats.value):
        return _repeat_counts(cx, a, materialize(cx, as_array(cx, repeats)), ax)
    count = A.int_constant(cx, repeats, "repeats")
    if count < 0:
        cx.fail("negative dimensions are not allowed", kind=ValueError)
    counts = [count if k == ax else 1 for k in range(_rank(a))]
    return _interleave(cx, a, counts, after=True)


def _repeat_counts(cx, a: Value, r: Value, ax: int) -> Value:
    if not T.is_integer(r.type) or T.is_bool(r.type) or _rank(r) > 1:
        cx.fail("np.repeat needs integer repeats: one int or a 1-D integer array")
    n = dim(cx, a, ax)
    r = cast(cx, A.reshape(cx, r, Constant(-1)), T.i64)
    m = dim(cx, r, 0)
    if isinstance(m, Constant) and isinstance(n, Constant) and m.value not in (1, n.value):
        cx.fail(f"operands could not be broadcast together with shape ({n.value},) "
                f"({m.value},)", kind=ValueError)
    if not (isinstance(m, Constant) and isinstance(n, Constant)):
        ok = apply_ufunc(cx, np.logical_or, [apply_ufunc(cx, np.equal, [m, Constant(1)]),
                                             apply_ufunc(cx, np.equal, [m, n])])
        check(cx, ok, "ValueError", "operands could not be broadcast together with shape "
              "({0},) ({1},)", [cast(cx, n, T.i64), cast(cx, m, T.i64)])
    r = S.broadcast_to(cx, r, TupleValue((n,)))
    nonneg = A.reduce(cx, "all", apply_ufunc(cx, np.greater_equal, [r, Constant(0)]))
    # NumPy treats a one-element ``repeats`` as a scalar count, with the scalar's message.
    check(cx, apply_ufunc(cx, np.logical_or, [nonneg, apply_ufunc(cx, np.not_equal,
                                                                   [m, Constant(1)])]),
          "ValueError", "negative dimensions are not allowed")
    check(cx, nonneg, "ValueError", "repeats may not contain negative values.")
    padded = cx.emit(nd.ConcatenateOp, [r, A.full(cx, TupleValue((Constant(1),)), Constant(0),
                                                  Constant(np.int64))], {"axis": 0})
    most = cast(cx, A.reduce(cx, "max", padded), T.py_int)
    width = iota(cx, most)
    mask = apply_ufunc(cx, np.less, [S._view(cx, width, ("n", "s")), S._view(cx, r, ("s", "n"))])
    rows = S.broadcast_to(cx, S._view(cx, iota(cx, n), ("s", "n")), TupleValue((n, most)))
    return cx.emit(nd.GatherOp, [a, cx.emit(nd.MaskSelectOp, [rows, mask])], {"axis": ax})


def indices(cx, dimensions, dtype=None, sparse=None):
    """``np.indices``: the index grid of shape ``(len(dimensions),) + dimensions`` (int64 or
    ``dtype``); ``sparse=True`` gives the tuple of index ranges shaped to broadcast."""
    dims = [A.size_value(cx, d, "a dimension") for d in A.items_of(cx, dimensions,
                                                                   "dimensions")]
    el = T.i64 if A.is_none(dtype) else A.resolve_dtype(cx, dtype)
    n = len(dims)
    parts = []
    for k, d in enumerate(dims):
        r = iota(cx, d)
        if n > 1:
            r = S._view(cx, r, tuple("s" if j == k else "n" for j in range(n)))
        parts.append(A.astype(cx, r, Constant(T.to_dtype(el))))
    if not A.is_none(sparse) and A.bool_of(cx, sparse, "sparse"):
        return TupleValue(tuple(parts))
    if not parts:
        return A.full(cx, TupleValue((Constant(0),)), Constant(0), Constant(T.to_dtype(el)))
    shape = TupleValue(tuple(dims))
    grids = [S._view(cx, S.broadcast_to(cx, p, shape), ("n",) + ("s",) * n) for p in parts]
    return grids[0] if n == 1 else cx.emit(nd.ConcatenateOp, grids, {"axis": 0})


def meshgrid(cx, args, kwargs):
    """``np.meshgrid(*xi, copy=True, sparse=False, indexing="xy")``: a tuple of arrays, each
    ``xi`` flattened along its own axis (the first two swapped for "xy"), broadcast to the
    full grid unless ``sparse``; the results are new arrays except the views of
    ``sparse=True, copy=False`` (a list, as NumPy returns)."""
    options = {"copy": True, "sparse": False, "indexing": "xy"}
    for k, v in kwargs.items():
        if k not in options:
            cx.fail(f"meshgrid() got an unexpected keyword argument '{k}'", kind=TypeError)
        if k == "indexing":
            if not (isinstance(v, Constant) and isinstance(v.value, str)):
                cx.fail("indexing must be a string known at compile time")
            options[k] = v.value
        else:
            options[k] = A.bool_of(cx, v, k)
    if options["indexing"] not in ("xy", "ij"):
        cx.fail("Valid values for `indexing` are 'xy' and 'ij'.", kind=ValueError)
    xs = [A.reshape(cx, materialize(cx, as_array(cx, x)), Constant(-1)) for x in args]
    n = len(xs)
    place = list(range(n))
    if options["indexing"] == "xy" and n > 1:
        place[0], place[1] = 1, 0
    out = [S._view(cx, x, tuple("s" if j == place[k] else "n" for j in range(n)))
           for k, x in enumerate(xs)]
    if not options["sparse"] and n:
        shape = [None] * n
        for k, x in enumerate(xs):
            shape[place[k]] = dim(cx, x, 0)
        out = [A.copy(cx, S.broadcast_to(cx, o, TupleValue(tuple(shape)))) for o in out]
    elif options["copy"]:
        out = [A.copy(cx, o) for o in out]
    else:  # NumPy returns its list of views uncopied
        return TupleValue(tuple(out), is_list=True)
    return TupleValue(tuple(out))


def take_along_axis(cx, arr, indices, axis=None):
    """``np.take_along_axis``: ``arr`` gathered along ``axis`` by the integer ``indices``
    of the same rank (broadcast against ``arr``'s other axes); the flattened ``arr`` when
    ``axis`` is None."""
    arr, idx = (materialize(cx, as_array(cx, v)) for v in (arr, indices))
    if not isinstance(idx.type, T.TensorType) or not T.is_integer(idx.type):
        cx.fail("`indices` must be an integer array", kind=IndexError)
    if A.is_none(axis):
        if _rank(idx) != 1:
            cx.fail("when axis=None, `indices` must have a single dimension.",
                    kind=ValueError)
        arr, ax = A.reshape(cx, arr, Constant(-1)), 0
    else:
        ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), _rank(arr))
    rank = _rank(arr)
    if _rank(idx) != rank:
        cx.fail("`indices` and `arr` must have the same number of dimensions",
                kind=ValueError)
    grids = [idx if k == ax else S._view(cx, iota(cx, dim(cx, arr, k)),
                                         tuple("s" if j == k else "n" for j in range(rank)))
             for k in range(rank)]
    axes = tuple(range(rank))
    return cx.emit(nd.GatherOp, [arr, *grids], {"axis": 0, "axes": axes, "index_axes": axes})


_PAD_MODES = ("constant", "edge", "wrap", "reflect")


def _pad_widths(cx, pad_width, rank: int) -> list:
    """``pad_width`` as one ``(before, after)`` pair per axis (NumPy's broadcast of an int,
    a pair, or one pair per axis)."""
    rows = A.items_of(cx, pad_width, "pad_width")
    if rows and all(isinstance(r, TupleValue) or isinstance(r, Constant) and isinstance(
            r.value, (tuple, list)) for r in rows):
        pairs = [_ints(cx, r, "pad_width") for r in rows]
    else:
        pairs = [_ints(cx, pad_width, "pad_width")]
    if len(pairs) == 1:
        pairs = pairs * rank
    pairs = [p * 2 if len(p) == 1 else p for p in pairs]
    if len(pairs) != rank or any(len(p) != 2 for p in pairs):
        cx.fail(f"operands could not be broadcast together with remapped shapes "
                f"[original->remapped]: ({len(pairs)},{len(pairs[0])})  and requested "
                f"shape ({rank},2)", kind=ValueError)
    if any(w < 0 for p in pairs for w in p):
        cx.fail("index can't contain negative values", kind=ValueError)
    return pairs


def _source(cx, n, before: int, after: int, mode: str) -> Value:
    """The index into an axis of size ``n`` that each padded position reads."""
    src = apply_ufunc(cx, np.subtract, [iota(cx, int_sum(cx, n, Constant(before + after))),
                                        Constant(before)])
    if mode == "edge":
        return A.clip(cx, src, Constant(0), int_max(cx, int_sub(cx, n, Constant(1)),
                                                    Constant(0)))
    if mode == "wrap":
        return apply_ufunc(cx, np.remainder, [src, int_max(cx, n, Constant(1))])
    period = int_max(cx, int_sub(cx, product(cx, [Constant(2), n]), Constant(2)), Constant(1))
    m = apply_ufunc(cx, np.remainder, [src, period])
    return A.select(cx, apply_ufunc(cx, np.less, [m, n]), m,
                    apply_ufunc(cx, np.subtract, [period, m]))


def pad(cx, array, pad_width, mode=None, constant_values=None):
    """``np.pad`` with modes "constant" (a scalar ``constant_values``, default 0, cast to the
    array's dtype), "edge", "wrap" and "reflect" and compile-time ``pad_width``. "constant"
    joins filled blocks to each side; the other modes gather, per padded axis, the source
    index each position reads. An empty axis padded in a mode other than "constant" is
    NumPy's ValueError."""
    a = materialize(cx, as_array(cx, array))
    kind = "constant" if A.is_none(mode) else mode.value if isinstance(mode, Constant) else None
    if kind not in _PAD_MODES:
        cx.fail(f"mode '{kind}' of np.pad is not supported" if isinstance(kind, str)
                else "np.pad needs its mode as a string known at compile time",
                f"use one of {', '.join(_PAD_MODES)}")
    fill = Constant(0) if A.is_none(constant_values) else constant_values
    if isinstance(fill, TupleValue) or isinstance(fill, Constant) and not np.isscalar(
            fill.value) or isinstance(value_type(cx, fill), T.TensorType):
        cx.fail("np.pad with per-axis constant_values is not supported",
                "pass one scalar constant value")
    el = T.element_type(a.type)
    for ax, (before, after) in enumerate(_pad_widths(cx, pad_width, _rank(a))):
        if before == after == 0:
            continue
        n = dim(cx, a, ax)
        if kind == "constant":
            a = _pad_constant(cx, a, ax, before, after, cast(cx, fill, el))
            continue
        if isinstance(n, Constant) and n.value == 0:
            cx.fail(f"can't extend empty axis {ax} using modes other than 'constant' or "
                    f"'empty'", kind=ValueError)
        if not isinstance(n, Constant):
            check(cx, apply_ufunc(cx, np.greater, [n, Constant(0)]), "ValueError",
                  f"can't extend empty axis {ax} using modes other than 'constant' or "
                  f"'empty'")
        a = cx.emit(nd.GatherOp, [a, _source(cx, n, before, after, kind)], {"axis": ax})
    return a


def _pad_constant(cx, a: Value, ax: int, before: int, after: int, fill: Value) -> Value:
    parts = []
    for width in (before, None, after):
        if width is None:
            parts.append(a)
        elif width:
            shape = [Constant(width) if k == ax else dim(cx, a, k) for k in range(_rank(a))]
            parts.append(A.full(cx, TupleValue(tuple(shape)), fill,
                                Constant(T.to_dtype(T.element_type(a.type)))))
    return cx.emit(nd.ConcatenateOp, parts, {"axis": ax})



def _to_front(cx, a: Value, ax: int, back: bool) -> Value:
    """``np.moveaxis(a, ax, 0)`` (or back from 0 to ``ax``)."""
    order = list(range(1, ax + 1)) + [0] + list(range(ax + 1, _rank(a))) if back else \
        [ax] + [k for k in range(_rank(a)) if k != ax]
    return A.transpose(cx, a, TupleValue(tuple(Constant(k) for k in order)))


def delete(cx, arr, obj, axis=None):
    """``np.delete``: ``arr`` without the entries at the integer positions ``obj`` (an int, a
    list of ints or an integer array; negative ones count from the end, repeats are one)
    along ``axis`` (of the flattened array when None); out-of-range positions raise NumPy's
    IndexError at run time (naming axis 0 for an index array of run-time size, where NumPy
    names ``axis`` if it has one element)."""
    a = materialize(cx, as_array(cx, arr))
    if A.is_none(axis):
        a, ax = A.reshape(cx, a, Constant(-1)), 0
    else:
        ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), _rank(a))
    idx = materialize(cx, as_array(cx, obj))
    if not T.is_integer(idx.type) or T.is_bool(idx.type):
        cx.fail("np.delete needs integer positions", "pass an int, a list of ints or an "
                "integer array")
    idx = cast(cx, idx, T.strong(idx.type))
    # NumPy's IndexError names the axis for one position, else axis 0 of its keep mask
    named = ax if T.shape_of(idx.type).count(1) == _rank(idx) else 0
    if _rank(idx) != 1:
        idx = A.reshape(cx, idx, Constant(-1))
    n = dim(cx, a, ax)
    keep = A.full(cx, TupleValue((n,)), Constant(True), Constant(np.bool_))
    keep = cx.emit(nd.ScatterOp, [keep, idx, cast(cx, Constant(False), T.i1)],
                   {"axis": 0, "index_axes": (named,)})
    kept = cx.emit(nd.MaskSelectOp, [_to_front(cx, a, ax, False), keep])
    return _to_front(cx, kept, ax, True) if ax else kept



def insert(cx, arr, obj, values, axis=None):
    """``np.insert`` at one compile-time int position ``obj``: ``values`` (cast to ``arr``'s
    dtype, leading unit axes added, its first axis moved to ``axis`` and broadcast over the
    other axes, as NumPy) joined in before position ``obj`` along ``axis`` (of the flattened
    array when None); a position outside ``[-n, n]`` is NumPy's IndexError."""
    a = materialize(cx, as_array(cx, arr))
    if A.is_none(axis):
        a, ax = A.reshape(cx, a, Constant(-1)), 0
    else:
        ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), _rank(a))
    if not isinstance(obj, Constant) or isinstance(obj.value, (list, tuple, np.ndarray)):
        cx.fail("np.insert needs one position known at compile time",
                "pass a Python int position")
    pos = A.int_constant(cx, obj, "the position")
    n = dim(cx, a, ax)
    message = f"index {pos} is out of bounds for axis {ax} with size {{}}"
    if isinstance(n, Constant):
        if not -n.value <= pos <= n.value:
            cx.fail(message.format(n.value), kind=IndexError)
    else:
        size = cast(cx, n, T.i64)
        check(cx, apply_ufunc(cx, np.greater_equal, [size, Constant(abs(pos))]), "IndexError",
              message.replace("{}", "{0}"), [size])
    index = int_sum(cx, n, Constant(pos)) if pos < 0 else Constant(pos)
    v = materialize(cx, cast(cx, as_array(cx, values), T.element_type(a.type)))
    if _rank(v) > _rank(a):
        cx.fail("np.insert with values of more dimensions than the array is not supported")
    v = A.reshape(cx, v, TupleValue(tuple([Constant(1)] * (_rank(a) - _rank(v))
                                          + _dims(cx, v))))
    if ax:
        v = _to_front(cx, v, ax, True)
    shape = [dim(cx, v, k) if k == ax else dim(cx, a, k) for k in range(_rank(a))]
    want = tuple(d.value if isinstance(d, Constant) else None for d in shape)
    got = T.shape_of(v.type)
    if any(g not in (None, 1) and w is not None and g != w for g, w in zip(got, want,
                                                                         strict=True)):
        cx.fail(f"could not broadcast input array from shape {nd.shape_text(got)} into "
                f"shape {nd.shape_text(want)}", kind=ValueError)
    v = S.broadcast_to(cx, v, TupleValue(tuple(shape)))
    return cx.emit(nd.ConcatenateOp, [axis_slice(cx, a, ax, None, index), v,
                                      axis_slice(cx, a, ax, index)], {"axis": ax})


RULES = {
    np.tile: ("np.tile", tile, ["A", "reps"]),
    np.repeat: ("np.repeat", repeat, ["a", "repeats", "axis="]),
    np.indices: ("np.indices", indices, ["dimensions", "dtype=", "sparse="]),
    np.take_along_axis: ("np.take_along_axis", take_along_axis, ["arr", "indices", "axis"]),
    np.pad: ("np.pad", pad, ["array", "pad_width", "mode=", "constant_values="]),
    np.delete: ("np.delete", delete, ["arr", "obj", "axis="]),
    np.insert: ("np.insert", insert, ["arr", "obj", "values", "axis="]),
}

METHODS = {
    "repeat": ("ndarray.repeat", repeat, ["a", "repeats", "axis="]),
}
