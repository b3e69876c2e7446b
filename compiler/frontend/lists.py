"""Python lists built at run time: ``lst = []`` (or a display) bound to a name that the
function grows with ``lst.append(v)``, read with ``len(lst)`` and ``lst[i]``, and turned into
an array with ``np.array(lst)``. A list is a ``ListValue``: a 1-D buffer whose size is the
capacity and a run-time length; ``append`` doubles the capacity when the buffer is full
(amortized O(1), as CPython's and Numba's typed lists). Loops and branches carry it as two
values (merge.py). The buffer's dtype is what ``np.array`` of the appended values gives
(Python ints int64, floats float64, bools bool, NumPy scalars their dtype, promoted as
NumPy promotes them); an element read back has the type that was appended."""

from __future__ import annotations

import ast
import operator

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.core import Value
from . import arrays as A
from . import branches, indexing
from .arrays import copy
from .ast_scan import LIST_METHODS, grown_lists
from .mutation import setitem
from .ops import apply_ufunc, cast, check, constant, dim, materialize
from .values import MIXED, Constant, ListValue, SliceValue, TupleValue, type_of

FIRST_CAPACITY = 8


def is_grown(cx, target, value_node) -> bool:
    """Whether ``target = value_node`` binds a list display to a name that the function
    grows with ``append``/``extend``/``pop`` (so it becomes a run-time list)."""
    return (isinstance(target, ast.Name) and isinstance(value_node, ast.List)
            and target.id in grown_lists(cx.frame.node.body))


def from_display(cx, value: TupleValue) -> ListValue:
    """The run-time list holding the items of a list display."""
    lst = ListValue(None, Constant(0))
    for item in value.items:
        lst = append(cx, lst, item)
    return lst


def append(cx, lst: ListValue, v) -> ListValue:
    """``lst.append(v)`` of a scalar or an array ``v``: the longer list (the buffer cast to
    the dtype that holds ``v``, grown when full)."""
    if isinstance(v, Constant) and isinstance(v.value, np.ndarray) and v.value.ndim:
        v = materialize(cx, v)
    item = type_of(v)
    if item is None:
        cx.fail("appending this value to a list is not supported; lists hold numbers and "
                "arrays", "append numbers or arrays")
    if isinstance(item, T.TensorType):
        return _append_row(cx, lst, v)
    if lst.ragged is not None:
        cx.fail("appending a number to a list of arrays is not supported",
                "append arrays of one shape")
    el = T.strong(item)
    if lst.data is None:
        data = _buffer(cx, constant(cx, FIRST_CAPACITY, T.py_int), el)
        joined = item
    else:
        data = lst.data
        promoted = T.promote(data.type.element, el)
        if promoted != data.type.element:
            data = cast(cx, data, promoted)
        joined = lst.item if lst.item == item else MIXED
    data = _room(cx, data, lst.length)
    data = setitem(cx, data, lst.length, v)
    return ListValue(data, _plus(cx, lst.length, 1), joined)


def _append_row(cx, lst: ListValue, v: Value) -> ListValue:
    """``append`` of an array: the buffer holds one row per element, of the first row's
    shape; a row of another shape is not stored and marks the list ragged."""
    if lst.data is not None and lst.ragged is None:
        cx.fail("appending an array to a list of numbers is not supported",
                "append numbers only, or arrays only")
    el = T.strong(v.type.element)
    rank = v.type.rank
    if lst.data is None:
        rows = [dim(cx, v, k) for k in range(rank)]
        data = _buffer(cx, constant(cx, FIRST_CAPACITY, T.py_int), el, rows)
        item, ragged = T.TensorType(v.type.shape, el), constant(cx, False, T.i1)
    else:
        data, ragged = lst.data, lst.ragged
        promoted = T.promote(data.type.element, el)
        if promoted != data.type.element:
            data = cast(cx, data, promoted)
        item = lst.item if lst.item is not MIXED and lst.item.element == el else MIXED
        if not isinstance(lst.length, Constant):
            # a loop enters with the list it carries; while empty, the first row decides
            empty = apply_ufunc(cx, np.equal, [lst.length, Constant(0)], operator.eq)
            data = branches.select(cx, empty, lambda: _buffer(
                cx, constant(cx, FIRST_CAPACITY, T.py_int), data.type.element,
                [dim(cx, v, k) for k in range(rank)]), lambda: data)
            ragged = apply_ufunc(cx, np.logical_and, [ragged, apply_ufunc(
                cx, np.logical_not, [empty])], operator.and_)
    length = lst.length
    if data.type.rank - 1 != rank or any(
            a is not None and b is not None and a != b
            for a, b in zip(data.type.shape[1:], v.type.shape, strict=True)):
        return ListValue(_room(cx, data, length), _plus(cx, length, 1), item,
                         constant(cx, True, T.i1))
    same = None  # the run-time test of the dims not known at compile time
    for k in range(rank):
        if data.type.shape[k + 1] is None or v.type.shape[k] is None:
            eq = apply_ufunc(cx, np.equal, [dim(cx, data, k + 1), dim(cx, v, k)], operator.eq)
            same = eq if same is None else apply_ufunc(cx, np.logical_and, [same, eq],
                                                       operator.and_)
    if item is not MIXED and item.shape != v.type.shape:
        item = T.TensorType(tuple(a if a == b else None
                                  for a, b in zip(item.shape, v.type.shape, strict=True)), el)
    grown = _room(cx, data, length)
    if same is None:
        data = setitem(cx, grown, length, v)
    else:
        data = branches.select(cx, same, lambda: setitem(cx, grown, length, v), lambda: grown)
        ragged = apply_ufunc(cx, np.logical_or, [ragged, apply_ufunc(
            cx, np.logical_not, [same])], operator.or_)
    return ListValue(data, _plus(cx, length, 1), item, ragged)


def _room(cx, data: Value, length):
    """``data``, grown when ``length`` elements fill it."""
    capacity = dim(cx, data, 0)
    full = apply_ufunc(cx, np.greater_equal, [length, capacity], operator.ge)
    return branches.select(cx, full, lambda: _grown(cx, data, capacity), lambda: data)


def _buffer(cx, size, el: T.Type, rows=()) -> Value:
    zero = constant(cx, 0, el)
    if rows:
        return A.full(cx, TupleValue((size, *rows)), zero)
    return cx.emit(npd.FullOp, [zero, materialize(cx, size)],
                   types=[T.TensorType((None,), el)])


def _grown(cx, data: Value, capacity):
    """A buffer of twice the capacity (at least ``FIRST_CAPACITY``: a loop starts an empty
    list with an empty buffer) holding ``data``'s elements first."""
    doubled = apply_ufunc(cx, np.multiply, [capacity, Constant(2)], operator.mul)
    rows = [dim(cx, data, k) for k in range(1, data.type.rank)]
    wider = _buffer(cx, apply_ufunc(cx, np.maximum, [doubled, Constant(FIRST_CAPACITY)], max),
                    data.type.element, rows)
    return setitem(cx, wider, SliceValue(Constant(None), capacity, Constant(None)), data)


def _plus(cx, length, k: int):
    return apply_ufunc(cx, np.add, [length, Constant(k)], operator.add)


_INHOMOGENEOUS = ("setting an array element with a sequence. The requested array has an "
                  "inhomogeneous shape after 1 dimensions. The detected shape was ({0},) + "
                  "inhomogeneous part.")


def to_array(cx, lst: ListValue, dtype: T.Type | None = None,
             ragged: str = _INHOMOGENEOUS) -> Value:
    """``np.array(lst)``: a new array of the elements, shape ``(len(lst),)`` followed by
    the rows' shape for a list of arrays (float64 of shape (0,) for a list nothing was
    appended to, as ``np.array([])``); ValueError ``ragged`` (NumPy's inhomogeneous-shape
    message) at run time when the rows' shapes differ."""
    if lst.data is None:
        empty = _buffer(cx, Constant(0), T.f64)
        return empty if dtype is None else cast(cx, empty, dtype)
    if lst.ragged is not None:
        check(cx, apply_ufunc(cx, np.logical_not, [lst.ragged]), "ValueError", ragged,
              [cast(cx, lst.length, T.i64)])
        # NumPy's np.array([]) has shape (0,), not (0, *rows): a rank known only at run time
        check(cx, apply_ufunc(cx, np.greater, [lst.length, Constant(0)], operator.gt),
              "ValueError", "np.array of a list of arrays that is empty at run time is not "
              "supported (NumPy's result has shape (0,), not the rows' shape)")
    out = copy(cx, indexing.subscript(
        cx, lst.data, SliceValue(Constant(None), lst.length, Constant(None))))
    return out if dtype is None else cast(cx, out, dtype)


def _joined(cx, lst: ListValue, what: str, ragged: str) -> Value:
    """The rows of a list of arrays as one array, for ``np.stack``/``np.concatenate``:
    NumPy's ValueErrors for an empty list (at run time) and ``ragged``."""
    if lst.ragged is None and lst.data is not None:
        cx.fail(f"np.{what} of a list of numbers: zero-dimensional arrays cannot be "
                "concatenated" if what == "concatenate" else
                f"np.{what} of a list of numbers is not supported", kind=ValueError)
    check(cx, apply_ufunc(cx, np.greater, [lst.length, Constant(0)], operator.gt),
          "ValueError", f"need at least one array to {what}")
    return to_array(cx, lst, ragged=ragged)


def stack(cx, lst: ListValue, axis) -> Value:
    """``np.stack(lst, axis)`` of a list of arrays of one shape."""
    arr = _joined(cx, lst, "stack", "all input arrays must have the same shape")
    rank = arr.type.rank
    ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), rank)
    perm = list(range(1, rank))
    perm.insert(ax, 0)
    return A.transpose(cx, arr, Constant(tuple(perm)))


def concatenate(cx, lst: ListValue, axis) -> Value:
    """``np.concatenate(lst, axis)`` of a list of arrays of one shape (rows of different
    shapes are a ValueError: grafo's lists store rows of one shape)."""
    arr = _joined(cx, lst, "concatenate", "np.concatenate of a list of arrays of different "
                  "shapes is not supported; append arrays of one shape")
    if A.is_none(axis):
        return A.reshape(cx, arr, Constant(-1))
    rank = arr.type.rank
    if rank == 1:
        cx.fail("zero-dimensional arrays cannot be concatenated", kind=ValueError)
    ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), rank - 1)
    perm = list(range(1, rank))
    perm.insert(ax, 0)
    moved = A.transpose(cx, arr, Constant(tuple(perm)))
    dims = [dim(cx, moved, k) for k in range(rank)]
    merged = apply_ufunc(cx, np.multiply, [dims[ax], dims[ax + 1]], operator.mul)
    return A.reshape(cx, moved, TupleValue((*dims[:ax], merged, *dims[ax + 2:])))


def getitem(cx, lst: ListValue, index):
    """``lst[i]`` of an integer ``i`` (negative counts from the end): the element as it was
    appended; IndexError "list index out of range" at run time outside the list."""
    if lst.item == MIXED:
        cx.fail("reading an element of a list that holds values of different types is not "
                "supported", "append values of one type (convert them with float(...) or "
                "int(...)), or read np.array(lst)[i]")
    t = type_of(index)
    if t is None or isinstance(t, T.TensorType) or not (T.is_integer(t) or T.is_bool(t)):
        cx.fail("list indices must be integers", kind=TypeError)
    if lst.data is None:
        check(cx, constant(cx, False, T.i1), "IndexError", "list index out of range")
        return constant(cx, 0, T.py_float)
    i = cast(cx, index, T.py_int)
    negative = apply_ufunc(cx, np.less, [i, Constant(0)], operator.lt)
    i = branches.select(cx, negative, lambda: apply_ufunc(
        cx, np.add, [i, lst.length], operator.add), lambda: i)
    inside = apply_ufunc(cx, np.logical_and, [
        apply_ufunc(cx, np.greater_equal, [i, Constant(0)], operator.ge),
        apply_ufunc(cx, np.less, [i, lst.length], operator.lt)], operator.and_)
    check(cx, inside, "IndexError", "list index out of range")
    if isinstance(lst.item, T.TensorType):
        check(cx, apply_ufunc(cx, np.logical_not, [lst.ragged]), "ValueError",
              "reading an element of a list of arrays of different shapes is not supported")
        return copy(cx, indexing.subscript(cx, lst.data, i))
    return cast(cx, indexing.subscript(cx, lst.data, i), lst.item)


def is_method_call(cx, node: ast.Call) -> bool:
    """Whether ``node`` calls ``append``/``extend``/``pop`` of a name bound to a run-time
    list."""
    f = node.func
    return (isinstance(f, ast.Attribute) and f.attr in LIST_METHODS
            and isinstance(f.value, ast.Name)
            and isinstance(cx.scope.get(f.value.id), ListValue))


def method_call(cx, node: ast.Call):
    """``lst.append(v)``, ``lst.extend(items)`` (a tuple or list display) or ``lst.pop()``:
    rebinds the name to the changed list; the call's value (None, or the popped element)."""
    from . import expressions
    name, method = node.func.value.id, node.func.attr
    args = [expressions.expr(cx, a) for a in node.args]
    lst = cx.scope[name]
    with cx.at(node):
        if node.keywords or len(args) != (0 if method == "pop" else 1):
            cx.fail(f"list.{method}() takes {'no' if method == 'pop' else 'one'} "
                    f"positional argument{'' if method == 'append' else 's'} here")
        if method == "append":
            lst, value = append(cx, lst, args[0]), Constant(None)
        elif method == "extend":
            if not isinstance(args[0], TupleValue):
                cx.fail("list.extend() of this value is not supported; it takes a tuple or "
                        "a list display", "append the items in a loop")
            for item in args[0].items:
                lst = append(cx, lst, item)
            value = Constant(None)
        else:
            lst, value = _pop(cx, lst)
    cx.scope[name] = lst
    return value


def _pop(cx, lst: ListValue):
    """``lst.pop()``: (the shorter list, its last element); IndexError "pop from empty
    list" at run time."""
    if lst.data is None:
        check(cx, constant(cx, False, T.i1), "IndexError", "pop from empty list")
        return lst, constant(cx, 0, T.py_float)
    check(cx, apply_ufunc(cx, np.greater, [lst.length, Constant(0)], operator.gt),
          "IndexError", "pop from empty list")
    last = getitem(cx, lst, Constant(-1))
    return ListValue(lst.data, _plus(cx, lst.length, -1), lst.item), last
