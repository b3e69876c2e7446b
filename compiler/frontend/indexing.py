"""Subscripts: NumPy basic indexing (``x[1:-1]``, ``x[:, 0]``, ``x[i, j]``, ``x[::-1]``,
``x[None, :]``, ``x[..., 0]``) as ``np.subscript``, and indexing of Python tuples."""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.core import Value
from .ops import cast, constant, materialize
from .values import Constant, SliceValue, TupleValue, describe

_ADVANCED_HINT = ("advanced indexing (integer or boolean arrays as indices) is not supported; "
                  "use basic slices, np.where or a loop")


def subscript(cx, x, index):
    """``x[index]`` for arrays (basic indexing) and tuples (compile-time index)."""
    if isinstance(x, TupleValue) or (isinstance(x, Constant)
                                     and isinstance(x.value, (tuple, list))):
        return _tuple_item(cx, x, index)
    if isinstance(x, Constant) and isinstance(x.value, (str, bytes, dict)):
        cx.fail(f"indexing {type(x.value).__name__} values is not supported")
    x = materialize(cx, x)
    if not isinstance(x.type, T.TensorType):
        cx.fail("invalid index to scalar variable")
    items = list(index.items) if isinstance(index, TupleValue) else (
        [Constant(v) for v in index.value] if isinstance(index, Constant)
        and isinstance(index.value, tuple) else [index])
    items = _expand_ellipsis(cx, items, x.type.rank)
    spec, bounds, operands = [], [], [x]
    for item in items:
        if isinstance(item, Constant) and item.value is None:
            spec.append("n")
        elif isinstance(item, SliceValue) or (isinstance(item, Constant)
                                              and isinstance(item.value, slice)):
            spec.append("s")
            for b in _slice_parts(item):
                bounds.append(_bound(cx, b, operands))
            if bounds[-1] == 0:
                cx.fail("slice step cannot be zero")
        else:
            spec.append("i")
            operands.append(_index(cx, item))
    return cx.emit(npd.SubscriptOp, operands, {"spec": tuple(spec), "bounds": tuple(bounds)})


def _tuple_item(cx, x, index):
    items = x.items if isinstance(x, TupleValue) else tuple(Constant(v) for v in x.value)
    if isinstance(index, SliceValue):
        parts = [_const_int(cx, p, "a tuple slice bound") for p in _slice_parts(index)]
        return TupleValue(items[slice(*parts)])
    i = _const_int(cx, index, "a tuple index")
    try:
        return items[i]
    except IndexError:
        cx.fail("tuple index out of range")


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
    if isinstance(v, Value):
        if isinstance(v.type, T.TensorType):
            cx.fail(f"indexing with an array is not supported ({what})", _ADVANCED_HINT)
        if not T.is_integer(v.type):
            cx.fail(f"{what} of type {v.type} is not an integer: only integers, slices (`:`), "
                    f"ellipsis (`...`) and None are valid indices")
        return cast(cx, v, T.py_int)
    cx.fail(f"{describe(v)} is not a valid index")
