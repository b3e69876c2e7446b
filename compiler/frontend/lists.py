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
    """``lst.append(v)`` of a scalar ``v``: the longer list (the buffer cast to the dtype
    that holds ``v``, grown when full)."""
    item = type_of(v)
    if item is None or isinstance(item, T.TensorType):
        cx.fail(f"appending {'an array' if item is not None else 'this value'} to a list is "
                f"not supported; lists hold numbers",
                "preallocate an array and assign its rows, or np.stack a tuple of arrays")
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
    length = lst.length
    capacity = dim(cx, data, 0)
    full = apply_ufunc(cx, np.greater_equal, [length, capacity], operator.ge)
    data = branches.select(cx, full, lambda: _grown(cx, data, capacity), lambda: data)
    data = setitem(cx, data, length, v)
    return ListValue(data, _plus(cx, length, 1), joined)


def _buffer(cx, size, el: T.Type) -> Value:
    zero = constant(cx, 0, el)
    return cx.emit(npd.FullOp, [zero, materialize(cx, size)],
                   types=[T.TensorType((None,), el)])


def _grown(cx, data: Value, capacity):
    """A buffer of twice the capacity (at least ``FIRST_CAPACITY``: a loop starts an empty
    list with an empty buffer) holding ``data``'s elements first."""
    doubled = apply_ufunc(cx, np.multiply, [capacity, Constant(2)], operator.mul)
    wider = _buffer(cx, apply_ufunc(cx, np.maximum, [doubled, Constant(FIRST_CAPACITY)], max),
                    data.type.element)
    return setitem(cx, wider, SliceValue(Constant(None), capacity, Constant(None)), data)


def _plus(cx, length, k: int):
    return apply_ufunc(cx, np.add, [length, Constant(k)], operator.add)


def to_array(cx, lst: ListValue, dtype: T.Type | None = None) -> Value:
    """``np.array(lst)``: a new 1-D array of the elements (float64 of shape (0,) for a list
    nothing was appended to, as ``np.array([])``)."""
    if lst.data is None:
        empty = _buffer(cx, Constant(0), T.f64)
        return empty if dtype is None else cast(cx, empty, dtype)
    out = copy(cx, indexing.subscript(
        cx, lst.data, SliceValue(Constant(None), lst.length, Constant(None))))
    return out if dtype is None else cast(cx, out, dtype)


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
