"""NumPy array functions as ops: reductions, matmul/dot, transpose, reshape, array creation,
``where``, ``clip`` and casts. Each takes the conversion state ``cx`` and frontend values and
follows NumPy's dtype and shape rules (checked against NumPy in tests/test_frontend_numpy.py)."""

from __future__ import annotations

import operator
import warnings

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..dialects.grafo import CheckOp
from ..ir.attributes import StringAttr
from ..ir.core import Value
from .ops import (
    apply_ufunc,
    cast,
    check,
    dim,
    materialize,
    product,
    raise_at_runtime,
    scalar_of,
    value_type,
)
from .values import Constant, TupleValue

# argument helpers ---------------------------------------------------------------------------

def int_constant(cx, v, what: str) -> int:
    """The Python int of a compile-time integer; CompileError otherwise."""
    if isinstance(v, Constant) and not isinstance(v.value, (bool, np.bool_)):
        try:
            return operator.index(v.value)
        except TypeError:
            pass
    cx.fail(f"{what} must be an integer known at compile time",
            "pass a Python int (a specialization constant) or use a static shape")


def is_none(v) -> bool:
    return v is None or (isinstance(v, Constant) and v.value is None)


def items_of(cx, v, what: str) -> list:
    """The items of a tuple/list argument (a scalar is a one-item sequence)."""
    if isinstance(v, TupleValue):
        return list(v.items)
    if isinstance(v, Constant) and isinstance(v.value, (tuple, list)):
        return [Constant(x) for x in v.value]
    if isinstance(v, Constant) or (isinstance(v, Value) and not isinstance(v.type,
                                                                           T.TensorType)):
        return [v]
    cx.fail(f"{what} must be an int or a tuple of ints")


def size_value(cx, v, what: str):
    """A dimension size: a Constant int or a run-time integer scalar as ``!py.int``."""
    if isinstance(v, Constant):
        return Constant(int_constant(cx, v, what))
    if isinstance(v, Value) and T.is_integer(v.type) and not isinstance(v.type, T.TensorType):
        return cast(cx, v, T.py_int)
    cx.fail(f"{what} must be an integer")


def normalize_axis(cx, axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        cx.fail(f"axis {axis} is out of bounds for array of dimension {rank}")
    return axis % rank


def axes_of(cx, axis, rank: int) -> tuple:
    """Normalized reduction axes of an ``axis=`` argument (None: all axes)."""
    if is_none(axis):
        return tuple(range(rank))
    axes = [normalize_axis(cx, int_constant(cx, a, "axis"), rank)
            for a in items_of(cx, axis, "axis")]
    if len(set(axes)) != len(axes):
        cx.fail("duplicate value in 'axis'")
    return tuple(sorted(axes))


def resolve_dtype(cx, v) -> T.Type:
    """The scalar type of a ``dtype=`` argument (np.float32, "int8", float, np.dtype(...))."""
    if not isinstance(v, Constant):
        cx.fail("dtype must be known at compile time")
    try:
        return T.from_dtype(np.dtype(v.value))
    except TypeError as e:
        cx.fail(str(e), f"use one of {T.SUPPORTED_DTYPES}")


def bool_of(cx, v, what: str) -> bool:
    if isinstance(v, Constant):
        return bool(v.value)
    cx.fail(f"{what} must be known at compile time")


# reductions ---------------------------------------------------------------------------------

def accumulator(el: T.Type) -> T.Type:
    """NumPy's sum/prod dtype: small ints and bool widen to int64 (uint64 if unsigned)."""
    if T.is_float(el) or T.is_complex(el):
        return el
    return T.u64 if T.is_unsigned(el) else T.i64


def reduce(cx, kind: str, x, axis=None, keepdims=None, dtype=None):
    """``np.sum/prod/max/min/any/all(x, axis, keepdims, dtype)``."""
    x = materialize(cx, x)
    rank = len(T.shape_of(x.type))
    axes = axes_of(cx, axis, rank)
    el = T.strong(x.type)
    if not is_none(dtype):
        acc = resolve_dtype(cx, dtype)
    elif kind in ("sum", "prod"):
        acc = accumulator(el)
    elif kind in ("any", "all"):
        acc = T.i1
    else:
        acc = el
    x = cast(cx, x, acc)
    if rank == 0:  # NumPy returns a scalar, keepdims or not
        if kind == "sum" and T.is_float(acc):
            # NumPy adds the element to the identity +0.0, so -0.0 sums to +0.0
            x = apply_ufunc(cx, np.add, [x, cast(cx, Constant(0.0), acc)])
        return scalar_of(cx, x)
    keep = bool_of(cx, keepdims, "keepdims") if not is_none(keepdims) else False
    return cx.emit(npd.ReduceOp, [x], {"kind": kind, "axes": axes, "keepdims": keep})


def mean(cx, x, axis=None, keepdims=None, dtype=None):
    """``np.mean``: float64 accumulation for integers, float32 for float16 (the quotient
    rounded to float16), the input's float or complex type otherwise."""
    x = materialize(cx, x)
    rank = len(T.shape_of(x.type))
    el = T.strong(x.type)
    half = is_none(dtype) and el == T.f16
    acc = resolve_dtype(cx, dtype) if not is_none(dtype) else (
        T.f32 if half else el if T.is_float(el) or T.is_complex(el) else T.f64)
    total = reduce(cx, "sum", cast(cx, x, acc), axis, keepdims)
    count = product(cx, [dim(cx, x, k) for k in axes_of(cx, axis, rank)])
    out = apply_ufunc(cx, np.divide, [total, cast(cx, count, acc)])
    return cast(cx, out, T.f16) if half else out


def argreduce(cx, kind: str, x, axis=None, keepdims=None):
    """``np.argmax/argmin/nanargmax/nanargmin(x, axis, keepdims)``: int64 indices
    (flattened when axis is None)."""
    x = materialize(cx, x)
    keep = not is_none(keepdims) and bool_of(cx, keepdims, "keepdims")
    rank = len(T.shape_of(x.type))
    if rank == 0:
        return Constant(np.int64(0))
    ax = -1 if is_none(axis) else normalize_axis(cx, int_constant(cx, axis, "axis"), rank)
    out = cx.emit(npd.ArgReduceOp, [x], {"kind": kind, "axis": ax})
    if not keep:
        return out
    spec = ("n",) * rank if ax < 0 else tuple("n" if k == ax else "s" for k in range(rank))
    return cx.emit(npd.SubscriptOp, [out], {"spec": spec,
                                            "bounds": ("none",) * 3 * spec.count("s")})


# linear algebra and axes --------------------------------------------------------------------

def matmul(cx, a, b):
    """``a @ b`` / ``np.matmul``: operands cast to their common dtype."""
    el = T.strong(T.promote(value_type(cx, a), value_type(cx, b)))
    return cx.emit(npd.MatmulOp, [cast(cx, a, el), cast(cx, b, el)])


def dot(cx, a, b):
    """``np.dot`` for scalars (a product) and 1-D/2-D arrays (a matmul)."""
    ra = len(T.shape_of(value_type(cx, a)))
    rb = len(T.shape_of(value_type(cx, b)))
    if ra == 0 or rb == 0:
        return apply_ufunc(cx, np.multiply, [a, b])
    if ra > 2 or rb > 2:
        cx.fail("np.dot of arrays with more than 2 dimensions is not supported",
                "use np.matmul (a @ b) for stacks of matrices")
    return matmul(cx, a, b)


def transpose(cx, x, axes=None):
    """``np.transpose(x, axes)`` / ``x.T``; the identity for ranks 0 and 1."""
    x = materialize(cx, x)
    rank = len(T.shape_of(x.type))
    if is_none(axes):
        perm = tuple(reversed(range(rank)))
    else:
        perm = tuple(normalize_axis(cx, int_constant(cx, a, "axes"), rank)
                     for a in items_of(cx, axes, "axes"))
        if sorted(perm) != list(range(rank)):
            cx.fail("axes don't match array")
    if perm == tuple(range(rank)):
        return x
    return cx.emit(npd.TransposeOp, [x], {"perm": perm})


def reshape(cx, x, shape):
    """``np.reshape(x, shape)`` with at most one -1; run-time sizes become dynamic dims."""
    x = materialize(cx, x)
    in_shape = T.shape_of(x.type)
    dims = [size_value(cx, d, "a reshape size") for d in items_of(cx, shape, "shape")]
    unknown = [i for i, d in enumerate(dims) if isinstance(d, Constant) and d.value < 0]
    if len(unknown) > 1:
        cx.fail("can only specify one unknown dimension")
    total = product(cx, [dim(cx, x, k) for k in range(len(in_shape))])
    if unknown:
        known = product(cx, [d for i, d in enumerate(dims) if i != unknown[0]])
        if isinstance(total, Constant) and isinstance(known, Constant):
            if known.value == 0 or total.value % known.value:
                _cannot_reshape(cx, total.value, dims)
            dims[unknown[0]] = Constant(total.value // known.value)
        else:
            _check_unknown_dim(cx, total, known, dims, unknown[0])
            dims[unknown[0]] = apply_ufunc(cx, np.floor_divide, [total, known],
                                           operator.floordiv)
    if isinstance(total, Constant) and all(isinstance(d, Constant) for d in dims):
        if total.value != int(np.prod([d.value for d in dims])):
            _cannot_reshape(cx, total.value, dims)
    static = tuple(d.value if isinstance(d, Constant) else None for d in dims)
    result = T.TensorType(static, T.element_type(x.type))
    return cx.emit(npd.ReshapeOp, [x, *[d for d in dims if isinstance(d, Value)]],
                   types=[result])


def _check_unknown_dim(cx, total, known, dims, unknown: int) -> None:
    """NumPy's ValueErrors, at run time, for a reshape with a -1 and run-time sizes."""
    runtime = [d for d in dims if isinstance(d, Value)]
    for d in runtime:
        check(cx, apply_ufunc(cx, np.greater_equal, [d, Constant(0)], operator.ge),
              "ValueError", "can only specify one unknown dimension")
    nonzero = apply_ufunc(cx, np.not_equal, [known, Constant(0)], operator.ne)
    divisor = apply_ufunc(cx, np.maximum, [known, Constant(1)], max)
    rest = apply_ufunc(cx, np.remainder, [total, divisor], operator.mod)
    ok = apply_ufunc(cx, np.logical_and,
                     [nonzero, apply_ufunc(cx, np.equal, [rest, Constant(0)], operator.eq)])
    it = iter(range(1, len(runtime) + 1))
    text = ",".join("newaxis" if i == unknown else str(d.value) if isinstance(d, Constant)
                    else f"{{{next(it)}}}" for i, d in enumerate(dims))
    params = [cast(cx, v, T.i64) for v in (total, *runtime)]
    cx.emit_op(CheckOp, [materialize(cx, ok), *params], {
        "kind": StringAttr("ValueError"),
        "message": StringAttr(f"cannot reshape array of size {{0}} into shape ({text})")})


def _cannot_reshape(cx, size, dims):
    text = ",".join("newaxis" if d.value < 0 else str(d.value) for d in dims) \
        + ("," if len(dims) == 1 else "")
    cx.fail(f"cannot reshape array of size {size} into shape ({text})")


# creation -----------------------------------------------------------------------------------

def full(cx, shape, fill, dtype=None):
    """``np.full(shape, fill, dtype)``; the dtype defaults to the fill value's (NumPy)."""
    dims = [size_value(cx, d, "an array size") for d in items_of(cx, shape, "shape")]
    if any(isinstance(d, Constant) and d.value < 0 for d in dims):
        cx.fail("negative dimensions are not allowed")
    fill_type = value_type(cx, fill)
    if isinstance(fill_type, T.TensorType):
        cx.fail("np.full with an array fill value is not supported",
                "use a scalar fill value")
    el = resolve_dtype(cx, dtype) if not is_none(dtype) else T.strong(fill_type)
    t = T.TensorType(tuple(d.value if isinstance(d, Constant) else None for d in dims), el)
    return cx.emit(npd.FullOp, [cast(cx, fill, el), *[d for d in dims if isinstance(d, Value)]],
                   types=[t])


def eye(cx, n, m=None, k=None, dtype=None):
    """``np.eye(N, M, k, dtype)`` with sizes known at compile time."""
    rows = int_constant(cx, n, "N")
    cols = rows if is_none(m) else int_constant(cx, m, "M")
    diag = 0 if is_none(k) else int_constant(cx, k, "k")
    el = T.f64 if is_none(dtype) else resolve_dtype(cx, dtype)
    return cx.emit(npd.EyeOp, [], {"k": diag}, types=[T.TensorType((rows, cols), el)])


def arange(cx, start, stop=None, step=None, dtype=None):
    """``np.arange`` as NumPy computes it: the dtype NumPy picks for the arguments' types,
    the length ``ceil((stop - start) / step)`` and the step ``(start + step) - start`` in the
    arguments' own arithmetic, NumPy's errors for a zero step or a NaN/huge length."""
    if is_none(stop):
        start, stop = Constant(0), start
    step = Constant(1) if is_none(step) else step
    args = [start, stop, step]
    el = None if is_none(dtype) else resolve_dtype(cx, dtype)
    if all(isinstance(a, Constant) for a in args):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                sample = np.arange(start.value, stop.value, step.value,
                                   dtype=None if el is None else T.to_dtype(el))
        except (TypeError, ValueError, ZeroDivisionError, OverflowError) as e:
            raise_at_runtime(cx, e)
            sample = np.arange(0, dtype=None if el is None else T.to_dtype(el))
        el = T.from_dtype(sample.dtype)
        length = Constant(len(sample))
    else:
        types = [value_type(cx, a) for a in args]
        if el is None:
            samples = (_sample(t, v) for t, v in zip(types, (0, 1, 1), strict=True))
            el = T.from_dtype(np.arange(*samples).dtype)
        length = _arange_length(cx, start, stop, step, T.to_dtype(el).itemsize)
    t = T.TensorType((length.value if isinstance(length, Constant) else None,), el)
    first = cast(cx, start, el)
    second = cast(cx, apply_ufunc(cx, np.add, [start, step], operator.add), el)
    operands = [first, cast(cx, apply_ufunc(cx, np.subtract, [second, first]), el)]
    if isinstance(length, Value):
        operands.append(length)
    return cx.emit(npd.ArangeOp, operands, types=[t])


def _sample(t: T.Type, v: int):
    """A Python or NumPy scalar of type ``t`` with value ``v``."""
    if T.is_weak(t):
        return T.python_type(t)(v)
    return T.to_dtype(t).type(v)


def _arange_length(cx, start, stop, step, itemsize: int):
    """NumPy's run-time ``np.arange`` length as ``!py.int`` (elements of ``itemsize`` bytes)."""
    span = apply_ufunc(cx, np.subtract, [stop, start], operator.sub)
    q = apply_ufunc(cx, np.ceil, [apply_ufunc(cx, np.divide, [span, step], operator.truediv)])
    check(cx, apply_ufunc(cx, np.logical_not, [apply_ufunc(cx, np.isnan, [q])]),
          "ValueError", "arange: cannot compute length")
    limit = Constant(float((2 ** 63 - 1) // itemsize))
    check(cx, apply_ufunc(cx, np.less_equal, [apply_ufunc(cx, np.absolute, [q]), limit]),
          "ValueError", "Maximum allowed size exceeded")
    return apply_ufunc(cx, np.maximum, [cast(cx, q, T.py_int), Constant(0)], max)


def range_length(cx, start, stop, step, is_float: bool):
    """The run-time length of ``range(start, stop, step)`` / ``np.arange`` as ``!py.int``."""
    weak = T.py_float if is_float else T.py_int
    start, stop, step = (cast(cx, v, weak) for v in (start, stop, step))
    span = apply_ufunc(cx, np.subtract, [stop, start], operator.sub)
    if is_float:
        n = apply_ufunc(cx, np.ceil, [apply_ufunc(cx, np.divide, [span, step])])
    else:  # ceil((stop - start) / step) == -((start - stop) // step) for either sign of step
        neg = apply_ufunc(cx, np.negative, [span], operator.neg)
        n = apply_ufunc(cx, np.negative, [apply_ufunc(cx, np.floor_divide, [neg, step],
                                                      operator.floordiv)], operator.neg)
    return apply_ufunc(cx, np.maximum, [cast(cx, n, T.py_int), Constant(0)], max)


# selection and casts ------------------------------------------------------------------------

def where(cx, cond, a=None, b=None):
    """``np.where(cond, a, b)``: cond as bool, branches promoted to one dtype."""
    if a is None or b is None:
        cx.fail("either both or neither of x and y should be given", kind=ValueError)
    el = T.strong(T.promote(value_type(cx, a), value_type(cx, b)))
    return cx.emit(npd.WhereOp, [cast(cx, cond, T.i1), cast(cx, a, el), cast(cx, b, el)])


def np_where(cx, cond, a=None, b=None):
    """``np.where`` as called by the user: always an array (0-d for scalar operands)."""
    out = where(cx, cond, a, b)
    return out if isinstance(out.type, T.TensorType) else zero_d(cx, out)


def zero_d(cx, v: Value) -> Value:
    """A 0-d array holding the scalar ``v`` (what NumPy functions returning arrays give)."""
    return cx.emit(npd.ReshapeOp, [v], types=[T.TensorType((), v.type)])


def select(cx, cond: Value, a: Value, b: Value) -> Value:
    """``np.where`` on operands of one element type (Python scalars stay weak)."""
    return cx.emit(npd.WhereOp, [cond, a, b])


def clip(cx, a, lo=None, hi=None):
    """``np.clip(a, lo, hi)`` as ``minimum(maximum(a, lo), hi)``: NaN stays NaN as in NumPy."""
    if is_none(lo) and is_none(hi):
        cx.fail("One of max or min must be given")
    out = a
    if not is_none(lo):
        out = apply_ufunc(cx, np.maximum, [out, lo])
    if not is_none(hi):
        out = apply_ufunc(cx, np.minimum, [out, hi])
    return out


def astype(cx, x, dtype):
    """``x.astype(dtype)`` / ``np.astype`` / ``np.float32(x)``: an explicit cast; an array
    is always a new one, as NumPy copies."""
    out = cast(cx, x, resolve_dtype(cx, dtype))
    return copy(cx, out) if out is x else out


def copy(cx, x, order="C"):
    """A new array equal to ``x`` (a new value, so writes into it leave ``x`` alone).
    ``order``: NumPy's memory order of the copy, "C" (``ndarray.copy``) or "F" (recorded on
    the op, since the order of a later float sum depends on it, see
    ``lowering/reduction.py``), "K" (``x``'s own, ``np.copy``)."""
    x = materialize(cx, x)
    if not isinstance(x.type, T.TensorType):
        return x
    attrs = {"order": StringAttr(order)} if order in ("C", "F") and x.type.rank > 1 else {}
    return cx.emit(npd.AsTypeOp, [x], attrs, types=[x.type])
