"""Joining the values of a variable that reach one point along several paths (the two
branches of an ``if``, a loop's entry and back edge): structure (tuples), types (NumPy
promotion, static dims that differ become dynamic) and placeholders for paths on which a
value does not matter."""

from __future__ import annotations

from .. import types as T
from ..dialects import np as npd
from ..ir.core import Block
from .ops import constant
from .values import Constant, TupleValue, describe, type_of

LEAF = "leaf"


def flatten(v) -> tuple:
    """``(structure, leaves)``: tuples are taken apart, everything else is one leaf."""
    if isinstance(v, Constant) and isinstance(v.value, tuple):
        v = TupleValue(tuple(Constant(x) for x in v.value))
    if isinstance(v, TupleValue):
        structs, leaves = [], []
        for item in v.items:
            s, ls = flatten(item)
            structs.append(s)
            leaves.extend(ls)
        return tuple(structs), leaves
    return LEAF, [v]


def unflatten(struct, leaves):
    """The inverse of ``flatten`` over an iterator of leaves."""
    if struct == LEAF:
        return next(leaves)
    return TupleValue(tuple(unflatten(s, leaves) for s in struct))


def join_types(cx, what: str, a: T.Type, b: T.Type) -> T.Type:
    """The type that holds values of types ``a`` and ``b``: dtypes promoted as NumPy
    promotes them, dims that differ become dynamic; ranks must agree."""
    ta, tb = isinstance(a, T.TensorType), isinstance(b, T.TensorType)
    if ta != tb or (ta and a.rank != b.rank):
        cx.fail(f"{what} is {a} on one path and {b} on another; arrays of different ranks "
                f"cannot share a variable", "use separate variables")
    el = T.promote(T.element_type(a), T.element_type(b))
    if not ta:
        return el
    dims = tuple(x if x == y else None for x, y in zip(a.shape, b.shape, strict=True))
    return T.TensorType(dims, el)


def leaf_type(cx, what: str, v) -> T.Type:
    t = type_of(v)
    if t is None:
        cx.fail(f"{what} is {describe(v)} on one path and a run-time value on another",
                "give the variable the same kind of value on every path")
    return t


def check_structures(cx, what: str, values: list, structs: list) -> None:
    for v, s in zip(values[1:], structs[1:], strict=True):
        if s != structs[0]:
            cx.fail(f"{what} is {describe(values[0])} on one path and {describe(v)} on "
                    f"another", "give the variable the same kind of value on every path")


def placeholder(cx, t: T.Type):
    """A value of type ``t`` for a path on which the value is never read (zero, and zero-size
    dynamic dims)."""
    if isinstance(t, T.TensorType):
        zero = constant(cx, 0, t.element)
        dims = [constant(cx, 0, T.py_int) for d in t.shape if d is None]
        return cx.emit(npd.FullOp, [zero, *dims], types=[t])
    return constant(cx, 0, t)


def discard(block: Block) -> None:
    """Drop the uses held by the ops of a block that is thrown away."""
    for op in reversed(block.ops):
        discard_op(op)


def discard_op(op) -> None:
    """Drop the uses held by an op (and its regions) that is thrown away."""
    for nested in op.walk_post():
        nested.drop_operands()
