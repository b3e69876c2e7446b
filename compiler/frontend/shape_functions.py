"""NumPy's shape, joining, creation and contraction functions, written with ``np`` views
(``np.subscript``, ``np.transpose``, ``np.reshape``, ``np.broadcast_to``), ``np.concatenate``,
``np.gather`` and ``np.matmul``/``np.reduce``.

Semantics: the NumPy 2 functions of the same names (shapes, dtypes, error messages);
``einsum`` takes one or two operands without ellipsis or repeated letters in one operand, and
like NumPy keeps the operands' common dtype (no widening of small integers; bool sums are
logical or).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..dialects import np_data as nd
from ..ir.core import Value
from . import arrays as A
from .ops import apply_ufunc, cast, check, constant, dim, materialize, product, value_type
from .sequence_arrays import array_of
from .values import Constant, ListValue, TupleValue


def _rank(x: Value) -> int:
    return len(T.shape_of(x.type))


def _view(cx, x: Value, spec: tuple, steps=None) -> Value:
    """``x[...]`` with ``spec`` items "n" (new axis), "s" (full slice, ``steps[k]`` step) or
    "0" (index 0)."""
    bounds, operands, items = [], [x], []
    for k, s in enumerate(spec):
        if s == "0":
            items.append("i")
            operands.append(constant(cx, 0, T.py_int))
        else:
            items.append(s)
            if s == "s":
                step = (steps or {}).get(k)
                bounds.extend(("none", "none", "none" if step is None else step))
    return cx.emit(npd.SubscriptOp, operands, {"spec": tuple(items), "bounds": tuple(bounds)})


def _axes(cx, axis, rank: int) -> list:
    return [A.normalize_axis(cx, A.int_constant(cx, a, "axis"), rank)
            for a in A.items_of(cx, axis, "axis")]


def expand_dims(cx, x, axis):
    """``np.expand_dims``: new unit axes at the (normalized) positions in ``axis``."""
    x = materialize(cx, x)
    out_rank = _rank(x) + len(A.items_of(cx, axis, "axis"))
    new = set(_axes(cx, axis, out_rank))
    if len(new) != out_rank - _rank(x):
        cx.fail("repeated axis")
    return _view(cx, x, tuple("n" if k in new else "s" for k in range(out_rank)))


def squeeze(cx, x, axis=None):
    """``np.squeeze``: drop unit axes (all static ones, or those in ``axis``)."""
    x = materialize(cx, x)
    shape = T.shape_of(x.type)
    if A.is_none(axis):
        drop = {k for k, d in enumerate(shape) if d == 1}
    else:
        drop = set(_axes(cx, axis, len(shape)))
        if any(shape[k] != 1 for k in drop):
            cx.fail("cannot select an axis to squeeze out which has size not equal to one")
    if not drop:
        return x
    if len(drop) == len(shape):  # a 0-d array, not a scalar
        return A.reshape(cx, x, TupleValue(()))
    return _view(cx, x, tuple("0" if k in drop else "s" for k in range(len(shape))))


def swapaxes(cx, x, axis1, axis2):
    """``np.swapaxes``."""
    x = materialize(cx, x)
    rank = _rank(x)
    a, b = (A.normalize_axis(cx, A.int_constant(cx, v, "axis"), rank) for v in (axis1, axis2))
    perm = list(range(rank))
    perm[a], perm[b] = perm[b], perm[a]
    return A.transpose(cx, x, TupleValue(tuple(Constant(p) for p in perm)))


def flip(cx, x, axis=None):
    """``np.flip``: reversed along ``axis`` (all axes when None), a view."""
    x = materialize(cx, x)
    rank = _rank(x)
    axes = set(range(rank)) if A.is_none(axis) else set(_axes(cx, axis, rank))
    if not axes:
        return x
    return _view(cx, x, ("s",) * rank, {k: -1 for k in axes})


def broadcast_to(cx, x, shape):
    """``np.broadcast_to``; incompatible shapes raise NumPy's ValueError at run time."""
    x = materialize(cx, x)
    dims = [A.size_value(cx, d, "a shape entry") for d in A.items_of(cx, shape, "shape")]
    if any(isinstance(d, Constant) and d.value < 0 for d in dims):
        cx.fail("all elements of broadcast shape must be non-negative")
    static = tuple(d.value if isinstance(d, Constant) else None for d in dims)
    try:
        npd.broadcast_shapes(T.shape_of(x.type), static)
    except ValueError as e:
        cx.fail(str(e), kind=ValueError)
    t = T.TensorType(static, T.element_type(x.type))
    return cx.emit(npd.BroadcastToOp, [x, *[d for d in dims if isinstance(d, Value)]],
                   types=[t])


def _arrays(cx, xs, what: str) -> list:
    """The arrays of a sequence argument, each ``np.asarray``'d (``sequence_arrays``), cast
    to their common dtype (``np.result_type``)."""
    items = A.items_of(cx, xs, what) if not isinstance(xs, TupleValue) else list(xs.items)
    if not items:
        cx.fail("need at least one array to concatenate")
    arrays = [array_of(cx, v) for v in items]
    el = T.promote(*[v.type for v in arrays])
    return [cast(cx, v, el) for v in arrays]


def concatenate(cx, xs, axis=None, dtype=None):
    """``np.concatenate(xs, axis=0)``; ``axis=None`` joins the flattened arrays."""
    if isinstance(xs, ListValue):
        from . import lists
        out = lists.concatenate(cx, xs, Constant(0) if axis is None else axis)
        return out if A.is_none(dtype) else A.astype(cx, out, dtype)
    xs = _arrays(cx, xs, "arrays")
    if not A.is_none(dtype):
        xs = [A.astype(cx, v, dtype) for v in xs]
    if isinstance(axis, Constant) and axis.value is None:
        xs = [A.reshape(cx, v, Constant(-1)) for v in xs]
        ax = 0
    else:
        if any(_rank(v) == 0 for v in xs):
            cx.fail("zero-dimensional arrays cannot be concatenated")
        ax = A.normalize_axis(cx, 0 if axis is None else A.int_constant(cx, axis, "axis"),
                              _rank(xs[0]))
    if len(xs) == 1:
        return xs[0]
    return cx.emit(nd.ConcatenateOp, xs, {"axis": ax})


def stack(cx, xs, axis=None):
    """``np.stack``: a new axis, then concatenate along it."""
    if isinstance(xs, ListValue):
        from . import lists
        return lists.stack(cx, xs, Constant(0) if A.is_none(axis) else axis)
    xs = _arrays(cx, xs, "arrays")
    _same_shapes(cx, xs)
    ax = Constant(0) if A.is_none(axis) else axis
    return concatenate(cx, TupleValue(tuple(expand_dims(cx, v, ax) for v in xs)), ax)


def _same_shapes(cx, xs: list) -> None:
    """NumPy's ValueError unless the arrays have one shape: at compile time where static
    dims differ, else checked when the call runs."""
    first = xs[0]
    for x in xs[1:]:
        if x.type.rank != first.type.rank or any(
                a is not None and b is not None and a != b
                for a, b in zip(x.type.shape, first.type.shape, strict=True)):
            cx.fail("all input arrays must have the same shape", kind=ValueError)
        for k, (a, b) in enumerate(zip(x.type.shape, first.type.shape, strict=True)):
            if a is None or b is None:
                check(cx, apply_ufunc(cx, np.equal, [dim(cx, x, k), dim(cx, first, k)],
                                      operator.eq),
                      "ValueError", "all input arrays must have the same shape")


def hstack(cx, xs):
    """``np.hstack``: along axis 0 for 1-D inputs, else axis 1."""
    xs = [_at_least(cx, v, 1) for v in _arrays(cx, xs, "arrays")]
    return concatenate(cx, TupleValue(tuple(xs)), Constant(0 if _rank(xs[0]) == 1 else 1))


def vstack(cx, xs):
    """``np.vstack``: 1-D inputs become rows; joined along axis 0."""
    xs = [_at_least(cx, v, 2) for v in _arrays(cx, xs, "arrays")]
    return concatenate(cx, TupleValue(tuple(xs)), Constant(0))


def _at_least(cx, x: Value, rank: int) -> Value:
    r = _rank(x)
    if r >= rank:
        return x
    if rank == 1:
        return _view(cx, x, ("n",))
    return _view(cx, x, ("n",) * (2 - r) + ("s",) * r)


def linspace(cx, start, stop, num=None, endpoint=None, retstep=None, dtype=None, axis=None):
    """``np.linspace`` with a compile-time ``num``: ``start + i * step`` with the last
    element exactly ``stop`` (``endpoint``), in ``result_type(start, stop, float)``."""
    if not A.is_none(retstep) and A.bool_of(cx, retstep, "retstep"):
        cx.fail("np.linspace with retstep=True is not supported")
    if not A.is_none(axis) and A.int_constant(cx, axis, "axis") != 0:
        cx.fail("np.linspace with axis != 0 is not supported")
    n = 50 if A.is_none(num) else A.int_constant(cx, num, "num")
    if n < 0:
        cx.fail(f"Number of samples, {n}, must be non-negative.")
    end = True if A.is_none(endpoint) else A.bool_of(cx, endpoint, "endpoint")
    types = [value_type(cx, v) for v in (start, stop)]
    if any(isinstance(t, T.TensorType) for t in types):
        cx.fail("np.linspace with array bounds is not supported")
    el = T.strong(T.promote(*types, T.py_float))
    div = (n - 1) if end else n
    i = A.arange(cx, Constant(0), Constant(n), Constant(1), Constant(np.float64))
    i = cast(cx, i, el)
    start, stop = cast(cx, start, el), cast(cx, stop, el)
    step = apply_ufunc(cx, np.divide, [apply_ufunc(cx, np.subtract, [stop, start]),
                                       cast(cx, Constant(max(div, 1)), el)])
    y = apply_ufunc(cx, np.add, [apply_ufunc(cx, np.multiply, [i, step]), start])
    if end and n > 1:
        last = apply_ufunc(cx, np.equal, [A.arange(cx, Constant(n)), Constant(n - 1)])
        y = A.where(cx, last, stop, y)
    if not A.is_none(dtype):
        out = A.resolve_dtype(cx, dtype)
        if T.is_integer(out):
            y = apply_ufunc(cx, np.floor, [y])
        y = cast(cx, y, out)
    return y


def _ravel(cx, x):
    return A.reshape(cx, materialize(cx, x), Constant(-1))


def outer(cx, a, b):
    """``np.outer``: ``ravel(a)[:, None] * ravel(b)[None, :]``."""
    return apply_ufunc(cx, np.multiply, [_view(cx, _ravel(cx, a), ("s", "n")),
                                         _view(cx, _ravel(cx, b), ("n", "s"))])


def vdot(cx, a, b):
    """``np.vdot``: the dot product of the flattened arrays, the first one conjugated."""
    if T.is_complex(value_type(cx, a)):
        a = apply_ufunc(cx, np.conjugate, [a])
    return A.matmul(cx, _ravel(cx, a), _ravel(cx, b))


def tensordot(cx, a, b, axes=None):
    """``np.tensordot``: ``axes`` an int N (last N of ``a`` with first N of ``b``) or a
    pair of axis lists; computed as one matmul of reshaped, transposed operands."""
    a, b = materialize(cx, a), materialize(cx, b)
    ra, rb = _rank(a), _rank(b)
    if A.is_none(axes) or (isinstance(axes, Constant) and isinstance(axes.value, int)):
        n = 2 if A.is_none(axes) else axes.value
        xa, xb = list(range(ra - n, ra)), list(range(n))
    else:
        pa, pb = A.items_of(cx, axes, "axes")
        xa, xb = _axes(cx, pa, ra), _axes(cx, pb, rb)
    if len(xa) != len(xb):
        cx.fail("shape-mismatch for sum")
    for i, j in zip(xa, xb, strict=True):
        da, db = T.shape_of(a.type)[i], T.shape_of(b.type)[j]
        if da is not None and db is not None and da != db:
            cx.fail("shape-mismatch for sum")
    fa = [k for k in range(ra) if k not in xa]
    fb = [k for k in range(rb) if k not in xb]
    at = A.transpose(cx, a, TupleValue(tuple(Constant(k) for k in fa + xa))) if ra else a
    bt = A.transpose(cx, b, TupleValue(tuple(Constant(k) for k in xb + fb))) if rb else b
    m = product(cx, [dim(cx, a, k) for k in fa])
    kk = product(cx, [dim(cx, a, k) for k in xa])
    nn = product(cx, [dim(cx, b, k) for k in fb])
    prod = A.matmul(cx, A.reshape(cx, at, TupleValue((m, kk))),
                    A.reshape(cx, bt, TupleValue((kk, nn))))
    shape = [dim(cx, a, k) for k in fa] + [dim(cx, b, k) for k in fb]
    if not shape:
        return A.reshape(cx, prod, TupleValue(()))
    return A.reshape(cx, prod, TupleValue(tuple(shape)))


def inner(cx, a, b):
    """``np.inner``: a product with a scalar, else a sum over the last axes."""
    ra, rb = (len(T.shape_of(value_type(cx, v))) for v in (a, b))
    if ra == 0 or rb == 0:
        return apply_ufunc(cx, np.multiply, [a, b])
    if ra == 1 and rb == 1:
        return A.matmul(cx, a, b)
    return tensordot(cx, a, b, TupleValue((Constant(-1), Constant(-1))))


def einsum(cx, args, kwargs):
    """``np.einsum`` for one or two operands (see the module docstring)."""
    if kwargs:
        cx.fail(f"argument '{next(iter(kwargs))}' of np.einsum is not supported")
    if not args:
        cx.fail("np.einsum is missing the subscripts")
    subscripts, operands = args[0], args[1:]
    if not (isinstance(subscripts, Constant) and isinstance(subscripts.value, str)):
        cx.fail("np.einsum needs its subscripts as a string known at compile time")
    text = subscripts.value.replace(" ", "")
    if "." in text:
        cx.fail("np.einsum with '...' is not supported")
    ins, arrow, out = text.partition("->")
    terms = ins.split(",")
    if len(terms) != len(operands) or not 1 <= len(terms) <= 2:
        cx.fail("np.einsum needs one subscript term per operand (one or two operands)")
    xs = [materialize(cx, v) for v in operands]
    for term, x in zip(terms, xs, strict=True):
        if len(set(term)) != len(term):
            cx.fail("np.einsum with a repeated index in one operand is not supported")
        if len(term) != _rank(x):
            cx.fail(f"einstein sum subscripts string contains too many subscripts for "
                    f"operand {xs.index(x)}")
    letters = "".join(terms)
    if not arrow:
        out = "".join(sorted(c for c in set(letters) if letters.count(c) == 1))
    summed = sorted(set(letters) - set(out))
    order = list(out) + summed
    el = T.strong(T.promote(*[x.type for x in xs]))
    parts = []
    for term, x in zip(terms, xs, strict=True):
        present = [c for c in order if c in term]
        perm = [term.index(c) for c in present]
        if perm != sorted(perm):
            x = A.transpose(cx, x, TupleValue(tuple(Constant(p) for p in perm)))
        if len(present) != len(order):
            x = _view(cx, x, tuple("s" if c in term else "n" for c in order))
        parts.append(cast(cx, x, el))
    body = parts[0] if len(parts) == 1 else apply_ufunc(cx, np.multiply, parts)
    body = materialize(cx, body)
    if not summed:
        return body
    if _rank(body) != len(order):  # broadcast the product to every index
        body = _view(cx, body, ("s",) * len(order))
    red = tuple(range(len(out), len(order)))
    return cx.emit(npd.ReduceOp, [body], {"kind": "sum", "axes": red, "keepdims": False})


def take(cx, a, indices, axis=None, out=None, mode=None):
    """``np.take``: an integer-array gather (flattened ``a`` when ``axis`` is None)."""
    if not A.is_none(mode):
        cx.fail("the 'mode' argument of np.take is not supported")
    a = materialize(cx, a)
    if A.is_none(axis):
        a, ax = _ravel(cx, a), 0
    else:
        ax = A.normalize_axis(cx, A.int_constant(cx, axis, "axis"), _rank(a))
    return gather(cx, a, indices, ax)


def gather(cx, a: Value, indices, axis: int) -> Value:
    """``np.take(a, indices, axis)`` for a normalized ``axis``; a scalar index is basic."""
    idx_t = value_type(cx, indices)
    if not isinstance(idx_t, T.TensorType):
        spec = tuple("i" if k == axis else "s" for k in range(_rank(a)))
        ops = [a, cast(cx, indices, T.py_int)]
        return cx.emit(npd.SubscriptOp, ops, {
            "spec": spec, "bounds": ("none",) * 3 * (len(spec) - 1)})
    if T.is_bool(idx_t) or T.is_float(idx_t):
        cx.fail("arrays used as indices must be of integer (or boolean) type")
    return cx.emit(nd.GatherOp, [a, materialize(cx, indices)], {"axis": axis})


RULES = {
    np.expand_dims: ("np.expand_dims", expand_dims, ["a", "axis"]),
    np.squeeze: ("np.squeeze", squeeze, ["a", "axis="]),
    np.swapaxes: ("np.swapaxes", swapaxes, ["a", "axis1", "axis2"]),
    np.flip: ("np.flip", flip, ["m", "axis="]),
    np.broadcast_to: ("np.broadcast_to", broadcast_to, ["array", "shape"]),
    np.concatenate: ("np.concatenate", concatenate, ["arrays", "axis=", "dtype="]),
    np.stack: ("np.stack", stack, ["arrays", "axis="]),
    np.hstack: ("np.hstack", hstack, ["tup"]),
    np.vstack: ("np.vstack", vstack, ["tup"]),
    np.linspace: ("np.linspace", linspace,
                  ["start", "stop", "num=", "endpoint=", "retstep=", "dtype=", "axis="]),
    np.outer: ("np.outer", outer, ["a", "b"]),
    np.vdot: ("np.vdot", vdot, ["a", "b"]),
    np.inner: ("np.inner", inner, ["a", "b"]),
    np.tensordot: ("np.tensordot", tensordot, ["a", "b", "axes="]),
    np.take: ("np.take", take, ["a", "indices", "axis=", "out=", "mode="]),
}

METHODS = {
    "squeeze": ("ndarray.squeeze", squeeze, ["a", "axis="]),
    "swapaxes": ("ndarray.swapaxes", swapaxes, ["a", "axis1", "axis2"]),
    "take": ("ndarray.take", take, ["a", "indices", "axis=", "out=", "mode="]),
}
