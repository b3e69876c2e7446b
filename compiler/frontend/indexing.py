"""Subscripts: NumPy basic indexing (``x[1:-1]``, ``x[:, 0]``, ``x[i, j]``, ``x[::-1]``,
``x[None, :]``, ``x[..., 0]``) as ``np.subscript``, and indexing of Python tuples."""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..dialects import np_data as nd
from ..ir.core import OpResult, Value
from .arrays import select
from .manipulation import nonzero
from .ops import (
    apply_ufunc,
    as_array,
    cast,
    check,
    constant,
    dim,
    materialize,
    raise_at_runtime,
    scalar_of,
)
from .values import (
    RUNTIME,
    Constant,
    ListValue,
    OptionalValue,
    SliceValue,
    TupleValue,
    Undefined,
    compile_time,
    describe,
    is_sequence,
)


def subscript(cx, x, index):
    """``x[index]`` for arrays (basic indexing), tuples (compile-time index) and lists
    built at run time (lists.py)."""
    if isinstance(x, ListValue):
        from . import lists
        return lists.getitem(cx, x, index)
    if isinstance(x, TupleValue) or (isinstance(x, Constant)
                                     and isinstance(x.value, (tuple, list))):
        return _tuple_item(cx, x, index)
    if isinstance(x, Constant) and isinstance(x.value, (str, bytes, dict)):
        cx.fail(f"indexing {type(x.value).__name__} values is not supported")
    x = materialize(cx, x)
    if not isinstance(x.type, T.TensorType):
        cx.fail("invalid index to scalar variable")
    items = index_items(cx, x, index)
    arrays = [k for k, it in enumerate(items) if isinstance(it, Value)
              and isinstance(it.type, T.TensorType)]
    ellipsis = any(isinstance(it, Constant) and it.value is Ellipsis for it in _raw_items(index))
    if arrays:
        out = _advanced(cx, x, items, arrays)
    else:
        spec, bounds, operands = basic_index(cx, x, index)
        if ellipsis and not spec:  # x[...] of a 0-d array: the array itself
            return x
        out = cx.emit(npd.SubscriptOp, [x, *operands], {"spec": spec, "bounds": bounds})
    if ellipsis and not isinstance(out.type, T.TensorType):  # x[0, ...]: a 0-d view
        element = out
        out = cx.emit(npd.ReshapeOp, [out], types=[T.TensorType((), out.type)])
        if isinstance(element, OpResult) and isinstance(element.op, npd.SubscriptOp):
            cx.views[out] = (element.op, x)   # writes into it reach x (``mutation.py``)
    return out


def _raw_items(index) -> list:
    if isinstance(index, TupleValue) and not index.is_list:   # a list is one index array
        return list(index.items)
    if isinstance(index, Constant) and isinstance(index.value, tuple):
        return [Constant(v) for v in index.value]
    return [index]


def index_items(cx, x: Value, index) -> list:
    """The index items of ``x[index]``, the ellipsis expanded; lists and arrays known at
    compile time become index arrays, 0-d integer arrays integers (as NumPy takes them)."""
    return _expand_ellipsis(cx, [_integer_of(cx, _index_array(cx, it))
                                 for it in _raw_items(index)], x.type.rank)


def _integer_of(cx, item):
    """A 0-d integer array as the integer it holds (NumPy's ``__index__``), else ``item``."""
    t = item.type if isinstance(item, Value) else None
    if isinstance(t, T.TensorType) and t.rank == 0 and T.is_integer(t):
        return scalar_of(cx, item)
    return item


def _index_array(cx, item):
    """``item`` as an index array when it is a list display of constants (``x[[0, 2]]``,
    NumPy's integer or boolean array index) or a constant list or array, else unchanged."""
    if isinstance(item, TupleValue) and item.is_list:
        value = compile_time(item)
        if value is RUNTIME:
            cx.fail("an index list of run-time values is not supported",
                    "pass the indices as an integer array argument")
    elif isinstance(item, Constant) and isinstance(item.value, (list, np.ndarray)):
        value = item.value
    else:
        return item
    arr = np.asarray(value)
    if arr.size == 0 and arr.dtype.kind == "f":   # x[[]]: NumPy takes an empty list as intp
        arr = arr.astype(np.intp)
    if arr.dtype.kind not in "biu":
        cx.fail("arrays used as indices must be of integer (or boolean) type")
    return materialize(cx, Constant(arr))


def _advanced(cx, x: Value, items: list, arrays: list):
    """Advanced indexing: a bool mask over leading dims (``np.mask_select``), or integer
    index arrays among slices, None and integers (``np.gather`` of the basic part, the
    broadcast index dims placed as NumPy places them)."""
    items, arrays = _masks_as_indices(cx, x, items, arrays)
    if _mask(cx, items, arrays):
        return cx.emit(nd.MaskSelectOp, [x, items[arrays[0]]])
    spec, bounds, operands, attrs = _advanced_parts(cx, x, items, arrays)
    if not _whole(spec, bounds):
        x = cx.emit(npd.SubscriptOp, [x, *operands], {"spec": spec, "bounds": bounds})
    return cx.emit(nd.GatherOp, [x, *_index_arrays(cx, items, arrays)], attrs)


def assign_advanced(cx, x: Value, items: list, arrays: list, value,
                    combine: str | None = None) -> Value:
    """``x`` with ``x[items] = value``: ``np.mask_assign`` for a bool mask, else
    ``np.scatter`` into the basic part (``np.setitem`` puts the part back). With
    ``combine`` (a ufunc name, ``value`` in its loop dtype): ``np.<combine>.at``'s
    accumulating scatter."""
    v = value if combine else cast(cx, value, x.type.element)
    items, arrays = _masks_as_indices(cx, x, items, arrays)
    if _mask(cx, items, arrays) and not combine:
        return cx.emit(nd.MaskAssignOp, [x, items[arrays[0]], v])
    spec, bounds, operands, attrs = _advanced_parts(cx, x, items, arrays)
    if combine:
        attrs = {**attrs, "combine": combine}
    idx = _index_arrays(cx, items, arrays)
    if _whole(spec, bounds):
        return cx.emit(nd.ScatterOp, [x, *idx, v], attrs)
    view = cx.emit(npd.SubscriptOp, [x, *operands], {"spec": spec, "bounds": bounds})
    part = cx.emit(nd.ScatterOp, [view, *idx, v], attrs)
    return cx.emit(npd.SetItemOp, [x, part, *operands], {"spec": spec, "bounds": bounds})


def _advanced_parts(cx, x: Value, items: list, arrays: list) -> tuple:
    """``(spec, bounds, operands, attributes)``: the basic part of an integer-array index
    of ``x`` (``np.subscript``'s) and the ``np.gather``/``np.scatter`` attributes that index
    it; NumPy's IndexError for more indices than ``x`` has dims."""
    indexed = sum(1 for it in items if not (isinstance(it, Constant) and it.value is None))
    if indexed > x.type.rank:
        cx.fail(f"too many indices for array: array is {x.type.rank}-dimensional, but "
                f"{indexed} were indexed", kind=IndexError)
    basic, attrs = _advanced_view(items, arrays)
    return (*basic_index(cx, x, basic), attrs)


def _whole(spec: tuple, bounds: tuple) -> bool:
    """Whether the basic index ``spec``/``bounds`` selects the whole array (``x[:, :]``)."""
    return all(s == "s" for s in spec) and all(b == "none" for b in bounds)


def _masks_as_indices(cx, x: Value, items: list, arrays: list) -> tuple:
    """``(items, arrays)`` with each 1-D bool mask among other indices replaced by its
    ``nonzero()`` integer index array, as NumPy converts it (``x[mask, j]``); a mask whose
    length is not its axis's is NumPy's IndexError."""
    if len(items) == 1 or not any(T.is_bool(items[k].type) and items[k].type.rank == 1
                                  for k in arrays):
        return items, arrays
    out, axis = list(items), 0
    for k, it in enumerate(items):
        if k in arrays and T.is_bool(it.type) and it.type.rank == 1 and axis < x.type.rank:
            _check_mask_length(cx, x, it, axis)
            out[k] = nonzero(cx, it).items[0]
        if not (isinstance(it, Constant) and it.value is None):
            axis += 1
    return out, arrays


def _check_mask_length(cx, x: Value, mask: Value, axis: int) -> None:
    n, m = x.type.shape[axis], mask.type.shape[0]
    text = ("boolean index did not match indexed array along axis {a}; size of axis is {n} "
            "but size of corresponding boolean axis is {m}")
    if n is not None and m is not None:
        if n != m:
            cx.fail(text.format(a=axis, n=n, m=m), kind=IndexError)
        return
    sizes = [cast(cx, dim(cx, v, k), T.i64) for v, k in ((x, axis), (mask, 0))]
    check(cx, apply_ufunc(cx, np.equal, sizes), "IndexError",
          text.format(a=axis, n="{0}", m="{1}"), sizes)


def _mask(cx, items: list, arrays: list) -> bool:
    """Whether the index is one bool mask (which must then be the only index)."""
    bools = [k for k in arrays if T.is_bool(items[k].type)]
    if bools and len(items) != 1:
        cx.fail("a boolean mask combined with other indices is not supported",
                "index with the mask alone: x[mask]")
    return bool(bools)


def _index_arrays(cx, items: list, arrays: list) -> list:
    """The integer index arrays at ``arrays``, in order."""
    out = []
    for k in arrays:
        if not T.is_integer(items[k].type):
            cx.fail("arrays used as indices must be of integer (or boolean) type")
        out.append(materialize(cx, items[k]))
    return out


def _advanced_view(items: list, arrays: list) -> tuple:
    """(the basic index with a full slice for each index array, the ``np.gather`` /
    ``np.scatter`` attributes that index that view). Integers are advanced indices too: the
    broadcast index dims replace the advanced ones in place when those are adjacent, and
    go first when a slice or None separates them (NumPy's rule)."""
    full = SliceValue(Constant(None), Constant(None), Constant(None))
    basic = TupleValue(tuple(full if j in arrays else it for j, it in enumerate(items)))
    ints = [j for j, it in enumerate(items) if j not in arrays and not _is_slice_or_none(it)]
    adv = sorted(ints + arrays)
    front = any(_is_slice_or_none(items[j]) for j in range(adv[0], adv[-1]))
    axes = tuple(k - sum(1 for j in ints if j < k) for k in arrays)
    names = tuple(sum(1 for it in items[:k] if not (isinstance(it, Constant)
                                                    and it.value is None)) for k in arrays)
    return basic, {"axis": 0 if front else axes[0], "axes": axes, "index_axes": names}


def _is_slice_or_none(it) -> bool:
    return isinstance(it, SliceValue) or (isinstance(it, Constant)
                                          and (it.value is None or isinstance(it.value, slice)))


def basic_index(cx, x: Value, index) -> tuple:
    """``(spec, bounds, index operands)`` of a basic index of the array ``x``, the attributes
    and trailing operands of ``np.subscript`` / ``np.setitem``."""
    items = index_items(cx, x, index)
    spec, bounds, operands = [], [], []
    for item in items:
        if isinstance(item, Constant) and item.value is None:
            spec.append("n")
        elif isinstance(item, SliceValue) or (isinstance(item, Constant)
                                              and isinstance(item.value, slice)):
            spec.append("s")
            for b in _present_bounds(cx, *_slice_parts(item)):
                bounds.append(_bound(cx, b, operands))
            if bounds[-1] == 0:
                cx.fail("slice step cannot be zero")
        else:
            spec.append("i")
            operands.append(_index(cx, item))
    return tuple(spec), tuple(bounds), operands


def check_sequence_rank(cx, value, rank: int) -> None:
    """NumPy's ValueError, raised when the code gets here, for a tuple or list stored into a
    basic-index region of ``rank`` dims that has more dims than the region (``x[0] =
    [[1, 2]]`` into a row, ``x[0, 0] = (1,)``): NumPy converts it for the region, not by
    broadcasting an array."""
    if not is_sequence(value) or as_array(cx, value).value.ndim <= rank:
        return
    more = f" The requested array would exceed the maximum number of dimension of {rank}." \
        if rank else ""
    raise_at_runtime(cx, ValueError(f"setting an array element with a sequence.{more}"))


def _tuple_item(cx, x, index):
    items = x.items if isinstance(x, TupleValue) else tuple(Constant(v) for v in x.value)
    if isinstance(index, SliceValue):
        parts = [_const_int(cx, p, "a tuple slice bound") for p in _slice_parts(index)]
        return TupleValue(items[slice(*parts)])
    i = _const_int(cx, index, "a tuple index")
    try:
        item = items[i]
    except IndexError:
        cx.fail("tuple index out of range", kind=IndexError)
    if isinstance(item, Undefined):  # an item that a write made unreadable (mutation.py)
        item.fail(cx.builder.loc)
    return item


def _const_int(cx, v, what: str):
    if isinstance(v, Constant) and (v.value is None or not isinstance(v.value, float)):
        try:
            return None if v.value is None else operator.index(v.value)
        except TypeError:
            pass
    cx.fail(f"{what} must be an integer known at compile time")


def _slice_parts(item) -> tuple:
    if isinstance(item, SliceValue):
        return item.start, item.stop, item.step
    s = item.value
    return Constant(s.start), Constant(s.stop), Constant(s.step)


def _expand_ellipsis(cx, items: list, rank: int) -> list:
    ells = [i for i, it in enumerate(items) if isinstance(it, Constant) and it.value is Ellipsis]
    if len(ells) > 1:
        cx.fail("an index can only have a single ellipsis ('...')")
    if not ells:
        return items
    used = sum(1 for it in items if not (isinstance(it, Constant)
                                         and (it.value is None or it.value is Ellipsis)))
    full = SliceValue(Constant(None), Constant(None), Constant(None))
    k = ells[0]
    return items[:k] + [full] * max(rank - used, 0) + items[k + 1:]


_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def _present_bounds(cx, start, stop, step) -> tuple:
    """``(start, stop, step)`` with the bounds that are None on some paths only
    (``OptionalValue``: ``a[:k or None]``) chosen at run time between their value and an int
    that ``slice.indices`` clamps as it clamps None: a step of 1; for a positive step a start
    of 0 and a stop of 2**63 - 1, for a negative one a start of 2**63 - 1 and a stop of
    -2**63 (the lowering adds the axis length to a negative bound, which cannot overflow)."""
    step = _or_default(cx, step, Constant(1))
    if not any(isinstance(b, OptionalValue) for b in (start, stop)):
        return start, stop, step
    negative = _is_negative(cx, step)
    return (_or_default(cx, start, _pick(cx, negative, _INT64_MAX, 0)),
            _or_default(cx, stop, _pick(cx, negative, _INT64_MIN, _INT64_MAX)), step)


def _or_default(cx, v, default):
    """The value of the optional ``v`` where it has one, else ``default``."""
    if not isinstance(v, OptionalValue):
        return v
    if isinstance(v.has, Constant):
        return v.value if v.has.value else default
    return select(cx, cast(cx, v.has, T.i1), _index(cx, v.value, "a slice bound"),
                  _index(cx, default, "a slice bound"))


def _is_negative(cx, step):
    """Whether the slice step is negative: a Constant, or a run-time bool."""
    if isinstance(step, Constant):
        return Constant(step.value is not None and _const_int(cx, step, "a slice step") < 0)
    return apply_ufunc(cx, np.less, [_index(cx, step, "a slice step"), Constant(0)],
                       operator.lt)


def _pick(cx, cond, a: int, b: int):
    """``a if cond else b`` for ints, ``cond`` a Constant or a run-time bool."""
    if isinstance(cond, Constant):
        return Constant(a if cond.value else b)
    return select(cx, cast(cx, cond, T.i1), constant(cx, a, T.py_int),
                  constant(cx, b, T.py_int))


def _bound(cx, b, operands: list):
    """A slice bound's attribute entry: an int, "none", or "?" (appending the operand)."""
    if isinstance(b, Constant):
        if b.value is None:
            return "none"
        return _const_int(cx, b, "a slice bound")
    operands.append(_index(cx, b, "a slice bound"))
    return "?"


def _index(cx, v, what: str = "an index") -> Value:
    if isinstance(v, Constant):
        value = v.value
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
            cx.fail(f"{describe(v)} is not a valid index: only integers, slices (`:`), "
                    f"ellipsis (`...`) and None are valid indices")
        return constant(cx, int(value), T.py_int)
    if isinstance(v, OptionalValue):  # slice bounds have their defaults (_present_bounds)
        cx.fail(f"{what} that is None on some paths is not supported (None there is "
                f"np.newaxis, which changes the rank)", "test for None and index in each "
                "branch")
    v = _integer_of(cx, v)
    if isinstance(v, Value):
        if isinstance(v.type, T.TensorType):
            cx.fail(f"an array is not valid as {what}: only integer scalar arrays can be "
                    "converted to a scalar index", "pass an integer scalar", TypeError)
        if not T.is_integer(v.type):
            cx.fail(f"{what} of type {v.type} is not an integer: only integers, slices (`:`), "
                    f"ellipsis (`...`) and None are valid indices")
        return cast(cx, v, T.py_int)
    cx.fail(f"{describe(v)} is not a valid index")
