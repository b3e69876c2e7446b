"""What a ``for`` loop iterates over: ``range(...)``, an array's first axis, a list built at
run time (lists.py), ``enumerate``/``zip`` of those, ``np.ndindex(*shape)`` and
``np.ndenumerate(a)``, as (length, item) where ``item(i)`` is the i-th element for a
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


@dataclass(frozen=True, eq=False)
class NdIndexValue:
    """``np.ndindex(*shape)`` before a ``for`` loop iterates it: the sizes (ints)."""

    sizes: tuple


@dataclass(frozen=True, eq=False)
class NdEnumerateValue:
    """``np.ndenumerate(a)`` before a ``for`` loop iterates it."""

    array: Value


def ndindex_rule(cx, args, kwargs):
    """``np.ndindex(*shape)`` or ``np.ndindex(shape)``: sizes known at compile time or run
    time; NumPy's ValueError for a negative size known at compile time."""
    if kwargs:
        cx.fail("np.ndindex takes the sizes of the shape only")
    if len(args) == 1 and not isinstance(args[0], Value) and (
            isinstance(args[0], TupleValue) or isinstance(args[0], Constant)
            and isinstance(args[0].value, tuple)):
        args = A.items_of(cx, args[0], "shape")
    sizes = tuple(A.size_value(cx, d, "a shape size") for d in args)
    if any(isinstance(d, Constant) and d.value < 0 for d in sizes):
        cx.fail("negative dimensions are not allowed", kind=ValueError)
    return NdIndexValue(sizes)


def ndenumerate_rule(cx, args, kwargs):
    """``np.ndenumerate(a)``: (index tuple, element) pairs in C order."""
    if kwargs or len(args) != 1:
        cx.fail("np.ndenumerate takes one array")
    a = materialize(cx, args[0])
    return NdEnumerateValue(a if isinstance(a.type, T.TensorType) else A.zero_d(cx, a))


def _unravel(cx, sizes: tuple):
    """(element count, ``i -> tuple of indices`` in C order)."""
    strides, total = [], Constant(1)
    for d in reversed(sizes):
        strides.append(total)
        total = apply_ufunc(cx, np.multiply, [total, d], operator.mul)
    strides.reverse()

    def index(i):
        out = []
        for d, stride in zip(sizes, strides, strict=True):
            q = apply_ufunc(cx, np.floor_divide, [i, stride], operator.floordiv)
            # the leading index needs no remainder: i < the element count
            out.append(apply_ufunc(cx, np.remainder, [q, d], operator.mod) if out else q)
        return TupleValue(tuple(out))
    return total, index


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
    if isinstance(it, NdIndexValue):
        return _unravel(cx, it.sizes)
    if isinstance(it, NdEnumerateValue):
        a = it.array
        n, index = _unravel(cx, tuple(dim(cx, a, k) for k in range(len(T.shape_of(a.type)))))
        return n, lambda i: TupleValue((index(i), subscript(cx, a, index(i))))
    if isinstance(it, ZipValue):
        parts = [iteration(cx, x, follow) for x in it.iterables]
        n = parts[0][0]
        for m, _ in parts[1:]:
            n = Constant(min(n.value, m.value)) if isinstance(n, Constant) and isinstance(
                m, Constant) else apply_ufunc(cx, np.minimum, [n, m], None)
        return n, lambda i: TupleValue(tuple(item(i) for _, item in parts))
    cx.fail(f"for loops over {describe(it)} are not supported",
            "iterate over range(...), an array, np.ndindex, np.ndenumerate, or "
            "enumerate/zip of those")
