"""What a ``for`` loop iterates over: ``range(...)``, an array's first axis, a list built at
run time (lists.py), and ``enumerate``/``zip`` of those, as (length, item) where ``item(i)`` is the i-th element for a
run-time counter ``i`` in ``0..length-1``. Loops are never unrolled."""

from __future__ import annotations

import operator
from dataclasses import dataclass

import numpy as np

from .. import types as T
from ..ir.core import Value
from . import arrays as A
from .indexing import subscript
from .ops import apply_ufunc, cast, dim, materialize
from .values import Constant, ListValue, RangeValue, TupleValue, describe


@dataclass(frozen=True, eq=False)
class EnumerateValue:
    """``enumerate(iterable, start)`` before a ``for`` loop iterates it."""

    iterable: object
    start: object


@dataclass(frozen=True, eq=False)
class ZipValue:
    """``zip(*iterables)`` before a ``for`` loop iterates it."""

    iterables: tuple


def enumerate_rule(cx, args, kwargs):
    """``enumerate(iterable, start=0)``."""
    if len(args) + len(kwargs) not in (1, 2) or set(kwargs) - {"start"}:
        cx.fail("enumerate() takes an iterable and an optional start")
    return EnumerateValue(args[0], kwargs.get("start", args[1] if len(args) > 1 else
                                              Constant(0)))


def zip_rule(cx, args, kwargs):
    """``zip(*iterables)`` (``strict=`` is not supported)."""
    if kwargs or not args:
        cx.fail("zip() takes one or more iterables and no keywords")
    return ZipValue(tuple(args))


def iteration(cx, it, follow=()):
    """(length, item) of a for loop over ``it``; CompileError for other iterables. An array
    bound to a name in ``follow`` is read through that name in each iteration, so that
    writes into it (through the rows the loop hands out) are seen by later iterations."""
    if isinstance(it, Constant) and isinstance(it.value, np.ndarray):
        it = materialize(cx, it)
    if isinstance(it, RangeValue):
        start, stop, step = it.start, it.stop, it.step
        if isinstance(step, Constant) and step.value == 0:
            cx.fail("range() arg 3 must not be zero")
        if all(isinstance(v, Constant) for v in (start, stop, step)):
            n = Constant(len(range(start.value, stop.value, step.value)))
        else:
            n = A.range_length(cx, start, stop, step, False)

        def value(i):
            scaled = apply_ufunc(cx, np.multiply, [i, cast(cx, step, T.py_int)], operator.mul)
            return apply_ufunc(cx, np.add, [cast(cx, start, T.py_int), scaled], operator.add)
        return n, value
    if isinstance(it, Value) and isinstance(it.type, T.TensorType):
        if not it.type.shape:
            cx.fail("iteration over a 0-d array", "index the array or use it directly")
        names = [n for n in follow if cx.scope.names.get(n) is it]

        def row(i):
            current = next((cx.scope[n] for n in names if n in cx.scope.names), it)
            return subscript(cx, current, i)
        return dim(cx, it, 0), row
    if isinstance(it, ListValue):  # its elements on entry: loops.py refuses growing it
        return it.length, lambda i: subscript(cx, it, i)
    if isinstance(it, EnumerateValue):
        n, item = iteration(cx, it.iterable, follow)
        return n, lambda i: TupleValue((apply_ufunc(cx, np.add, [i, it.start], operator.add),
                                        item(i)))
    if isinstance(it, ZipValue):
        parts = [iteration(cx, x, follow) for x in it.iterables]
        n = parts[0][0]
        for m, _ in parts[1:]:
            n = Constant(min(n.value, m.value)) if isinstance(n, Constant) and isinstance(
                m, Constant) else apply_ufunc(cx, np.minimum, [n, m], None)
        return n, lambda i: TupleValue(tuple(item(i) for _, item in parts))
    cx.fail(f"for loops over {describe(it)} are not supported",
            "iterate over range(...), an array, or enumerate/zip of those")
