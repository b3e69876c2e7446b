"""Joining the values of a variable that reach one point along several paths (the two
branches of an ``if``, a loop's entry and back edge): structure (tuples), types (NumPy
promotion, static dims that differ become dynamic) and placeholders for paths on which a
value does not matter. A variable that is None on some paths and a value on others becomes
an ``OptionalValue`` (a "has value" flag and the value, carried as two leaves). What a loop
carries for a variable is its *spec* ``(structure, leaves)``, a leaf being the IR type of a
run-time value or a compile-time value itself (``initial_spec``, ``joined_spec``)."""

from __future__ import annotations

from .. import types as T
from ..dialects import np as npd
from ..errors import CompileError
from ..ir.core import Block
from .ops import constant
from .scope import display_name
from .values import (
    Constant,
    MIXED,
    ListValue,
    LocalFunction,
    OptionalValue,
    TupleValue,
    describe,
    same_constant,
    type_of,
)

LEAF = "leaf"
OPTIONAL = "optional"
LIST = "list"  # a ListValue's structure is (LIST, item): leaves data, length, ragged
DONTCARE = object()  # a path on which a variable's value is never read


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
    if isinstance(v, OptionalValue):
        return OPTIONAL, [v.has, v.value]
    if isinstance(v, ListValue):
        return (LIST, v.item), [DONTCARE if v.data is None else v.data, v.length,
                                DONTCARE if v.ragged is None else v.ragged]
    return LEAF, [v]


def unflatten(struct, leaves):
    """The inverse of ``flatten`` over an iterator of leaves."""
    if struct == LEAF:
        return next(leaves)
    if struct == OPTIONAL:
        return OptionalValue(next(leaves), next(leaves))
    if _is_list(struct):
        data, length, ragged = next(leaves), next(leaves), next(leaves)
        return ListValue(None if data is DONTCARE else data, length, struct[1],
                         None if ragged is DONTCARE else ragged)
    return TupleValue(tuple(unflatten(s, leaves) for s in struct))


def _is_list(struct) -> bool:
    return isinstance(struct, tuple) and len(struct) == 2 and struct[0] == LIST


def join_structs(a, b):
    """The structure that holds values of structures ``a`` and ``b`` (lists' item types
    joined: nothing appended joins anything, two different types are ``MIXED``), or None
    when they cannot share a variable."""
    if a == b:
        return a
    if _is_list(a) and _is_list(b):
        return (LIST, a[1] if b[1] is None else b[1] if a[1] is None else MIXED)
    if isinstance(a, tuple) and isinstance(b, tuple) and len(a) == len(b) \
            and not _is_list(a) and not _is_list(b):
        parts = [join_structs(x, y) for x, y in zip(a, b, strict=True)]
        return None if None in parts else tuple(parts)
    return None


def is_none(v) -> bool:
    return isinstance(v, Constant) and v.value is None


def as_optional(v):
    """``v`` as an ``OptionalValue`` (None: no value, whose value leaf is ``DONTCARE``)."""
    if isinstance(v, OptionalValue):
        return v
    if is_none(v):
        return OptionalValue(Constant(False), DONTCARE)
    return OptionalValue(Constant(True), v)


def _optional_leaf(v) -> bool:
    return isinstance(v, OptionalValue) or (type_of(v) is not None and not is_none(v))


def lift_optionals(values: list) -> list:
    """The values reaching one point, as ``OptionalValue`` s when some are None (or
    optional) and the others scalars or arrays; else unchanged. ``DONTCARE`` stays."""
    live = [v for v in values if v is not DONTCARE]
    if not (any(is_none(v) or isinstance(v, OptionalValue) for v in live)
            and any(_optional_leaf(v) for v in live)
            and all(is_none(v) or _optional_leaf(v) for v in live)):
        return values
    return [v if v is DONTCARE else as_optional(v) for v in values]


def optional_spec(cx, what: str, spec, end):
    """The loop-carried spec ``(structure, leaves)`` that holds both ``spec`` and the value
    ``end`` when one of them is None and the other a value, else ``spec``."""
    struct, leaves = spec
    none_before = struct == LEAF and isinstance(leaves[0], Constant) and leaves[0].value is None
    if struct == OPTIONAL:
        if is_none(end) or isinstance(end, OptionalValue):
            return spec
        if type_of(end) is not None:
            return (OPTIONAL, [T.py_bool, join_types(cx, what, leaves[1], type_of(end))])
        return spec
    if none_before and not is_none(end):
        if isinstance(end, OptionalValue):
            return (OPTIONAL, [T.py_bool, leaf_type(cx, what, end.value)])
        if type_of(end) is not None:
            return (OPTIONAL, [T.py_bool, type_of(end)])
    if struct == LEAF and is_none(end) and not none_before:
        t = leaves[0] if isinstance(leaves[0], T.Type) else type_of(leaves[0])
        if t is not None:
            return (OPTIONAL, [T.py_bool, t])
    return spec


def flatten_as(v, struct) -> list:
    """The leaves of ``v`` laid out as ``struct`` (a value where ``struct`` is optional is
    lifted to an ``OptionalValue``)."""
    if struct == OPTIONAL:
        v = as_optional(v)
    return flatten(v)[1]


def join_types(cx, what: str, a: T.Type, b: T.Type) -> T.Type:
    """The type that holds values of types ``a`` and ``b``: dtypes promoted as NumPy
    promotes them, dims that differ become dynamic; ranks must agree.

    A 0-d array and a scalar of its dtype (a NumPy scalar, or a Python scalar that NEP 50
    gives that dtype) join to the scalar: NumPy's operators treat the two alike and make
    scalars of 0-d results (``0-d + 0-d`` is a NumPy scalar), so on the paths where the
    value is a 0-d array it is that array's scalar ``x[()]`` after the join, equal to what
    eager Python holds there (docs/numpy_support.md, "Scalars and 0-d arrays"). Of other
    dtypes the two raise a CompileError."""
    if _scalar_and_zero_d(a, b):
        return _zero_d_join(cx, what, a, b)
    ta, tb = isinstance(a, T.TensorType), isinstance(b, T.TensorType)
    if ta != tb or (ta and a.rank != b.rank):
        cx.fail(f"{what} is {a} on one path and {b} on another; arrays of different ranks "
                f"cannot share a variable", "use separate variables")
    el = T.promote(T.element_type(a), T.element_type(b))
    if not ta:
        return el
    dims = tuple(x if x == y else None for x, y in zip(a.shape, b.shape, strict=True))
    return T.TensorType(dims, el)


def _scalar_and_zero_d(a: T.Type, b: T.Type) -> bool:
    return any(isinstance(x, T.TensorType) and x.rank == 0 and not isinstance(y, T.TensorType)
               for x, y in ((a, b), (b, a)))


def _zero_d_join(cx, what: str, a: T.Type, b: T.Type) -> T.Type:
    """The scalar type that holds a 0-d array and a scalar (see ``join_types``)."""
    array, scalar = (a, b) if isinstance(a, T.TensorType) else (b, a)
    el = array.element
    if scalar == el or (T.is_weak(scalar) and T.promote(el, scalar) == el):
        return el
    cx.fail(f"{what} is {a} on one path and {b} on another; a 0-d array and a scalar share "
            f"a variable only when they have the same dtype",
            f"convert one of them, e.g. with np.{T.to_dtype(el).name}(...) or .astype(...)")


def leaf_type(cx, what: str, v) -> T.Type:
    t = type_of(v)
    if t is None:
        cx.fail(f"{what} is {describe(v)} on one path and a run-time value on another",
                "give the variable the same kind of value on every path")
    return t


def check_structures(cx, what: str, values: list, structs: list):
    """The structure that holds all of ``structs`` (``join_structs``); CompileError when
    there is none."""
    joined = structs[0]
    for v, s in zip(values[1:], structs[1:], strict=True):
        joined = join_structs(joined, s)
        if joined is None:
            cx.fail(f"{what} is {describe(values[0])} on one path and {describe(v)} on "
                    f"another", "give the variable the same kind of value on every path")
    return joined


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


def initial_spec(value):
    """(structure, leaves): a leaf is its IR type when it can be carried at run time, else
    the frozen compile-time value itself."""
    struct, leaves = flatten(value)
    return (struct, [type_of(x) or x for x in leaves])


def joined_spec(cx, name, spec, end):
    """The carried spec of ``name`` that also holds ``end`` (the value at the end of the
    body)."""
    what = display_name(name)
    if spec is None:
        return initial_spec(end)
    spec = optional_spec(cx, what, spec, end)
    struct, leaves = flatten(as_optional(end) if spec[0] == OPTIONAL else end)
    struct = join_structs(spec[0], struct)
    if struct is None:
        cx.fail(f"{what} changes from one kind of value to {describe(end)} inside the "
                f"loop", "give the variable the same kind of value in every iteration")
    out = []
    for x, s in zip(leaves, spec[1], strict=True):
        if x is DONTCARE:
            out.append(s)
        elif s is DONTCARE:  # a list's buffer, before anything was appended
            out.append(leaf_type(cx, what, x))
        elif isinstance(s, T.Type):
            out.append(join_types(cx, what, s, leaf_type(cx, what, x)))
        elif (isinstance(x, Constant) and isinstance(s, Constant)
              and same_constant(x.value, s.value)) or x is s:
            out.append(s)
        elif isinstance(x, LocalFunction) and isinstance(s, LocalFunction):
            cx.fail(f"{what} is bound to a new nested function '{x.name}' (or one with "
                    f"other default values) in each iteration of the loop",
                    "define the function before the loop and pass the values that "
                    "change as arguments")
        else:
            cx.fail(f"{what} changes from {describe(s)} to {describe(x)} inside the loop",
                    "give the variable the same kind of value in every iteration")
    return (struct, out)


def joined_or_none(cx, name, spec, value):
    """``joined_spec``, or None when ``value`` cannot share a variable with ``spec``."""
    try:
        return joined_spec(cx, name, spec, value)
    except CompileError:
        return None
