"""The ``out=`` and ``where=`` arguments of ufunc calls, and ``out=``, ``where=``,
``initial=`` and ``dtype=`` of NumPy's reductions (``np.sum``, ``np.prod``, ``np.max``,
``np.min``, ``np.any``, ``np.all``, ``np.mean`` and their methods), following NumPy 2's
``ufunc.__call__`` and ``_methods._sum/_amax/_mean``.

An ``out`` array is written as ``out[...] = result`` (``mutation.setitem``), so every name
bound to it, the array it views and the caller's buffer see the new elements, and the call
returns that new value of ``out`` (NumPy returns ``out`` itself, a 0-d array for a full
reduction). A ufunc's result is cast into ``out`` with NumPy's ``same_kind`` rule (a
CompileError with NumPy's UFuncTypeError message otherwise, a TypeError); a reduction's
result is cast unsafely, as NumPy's reductions cast into ``out``.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import np_data as nd
from ..ir.core import Value
from . import arrays as A
from . import mutation, shape_functions
from .ops import apply_ufunc, cast, dim, materialize, value_type
from .values import Constant, TupleValue

# reduction kind -> (its ufunc, its identity: the fill of masked-out elements)
KIND_UFUNC = {"sum": (np.add, 0), "prod": (np.multiply, 1), "max": (np.maximum, None),
              "min": (np.minimum, None), "any": (np.logical_or, False),
              "all": (np.logical_and, True)}


# out= ---------------------------------------------------------------------------------------

def out_array(cx, out):
    """The array an ``out=`` argument names (a one-item tuple as NumPy allows), or None."""
    if isinstance(out, TupleValue):
        if len(out.items) != 1:
            cx.fail(f"The 'out' tuple must have exactly one entry per ufunc output, got "
                    f"{len(out.items)}", kind=ValueError)
        out = out.items[0]
    if A.is_none(out):
        return None
    out = mutation.materialize_local(cx, cx.scope, out)
    if isinstance(out, Constant) and isinstance(out.value, np.ndarray):
        cx.fail("writing into a global or constant array through 'out' is not supported",
                "pass the array as an argument, or use the returned array")
    if not (isinstance(out, Value) and isinstance(out.type, T.TensorType)):
        cx.fail("return arrays must be of ArrayType", "pass an array as 'out'", TypeError)
    return out


def check_same_kind(cx, ufunc_name: str, src: T.Type, dst: T.Type, hint: str) -> None:
    """NumPy's UFuncTypeError (a TypeError) unless ``src`` casts to ``dst`` under
    ``same_kind``; Python scalar types are not checked (NumPy casts them by value)."""
    if T.is_weak(src) or T.is_weak(dst):
        return
    a, b = T.to_dtype(src), T.to_dtype(dst)
    if not np.can_cast(a, b, "same_kind"):
        cx.fail(f"Cannot cast ufunc '{ufunc_name}' output from dtype('{a}') to "
                f"dtype('{b}') with casting rule 'same_kind'", hint, TypeError)


def write_out(cx, out: Value, value):
    """``out[...] = value`` cast to ``out``'s dtype (unsafely) and broadcast to its shape;
    every holder of ``out`` sees the new value, which is returned."""
    new = mutation.setitem(cx, out, Constant(()), cast(cx, value, out.type.element))
    mutation.mutate(cx, out, new)
    return new


def _is_true(v) -> bool:
    return A.is_none(v) or (isinstance(v, Constant) and v.value is True)


# ufunc calls --------------------------------------------------------------------------------

def ufunc_rule(ufunc):
    """The rule of ``ufunc(x1, ..., out=None, where=True)``: positional operands, the
    result written into ``out`` where ``where`` holds (elsewhere ``out`` keeps its
    elements; without ``out`` NumPy leaves them uninitialized, grafo gives the result)."""
    name = ufunc.__name__

    def rule(cx, args, kwargs):
        extra = [k for k in kwargs if k not in ("out", "where")]
        if extra:
            cx.fail(f"argument '{extra[0]}' of np.{name} is not supported",
                    "call the ufunc with its operands, out= and where= only")
        args = list(args)
        if len(args) == ufunc.nin + 1 and "out" not in kwargs:
            kwargs = {**kwargs, "out": args.pop()}
        if len(args) != ufunc.nin:
            cx.fail(f"np.{name} takes {ufunc.nin} operands, got {len(args)}")
        result = apply_ufunc(cx, ufunc, args)
        out = out_array(cx, kwargs.get("out"))
        where = kwargs.get("where")
        if out is None:
            return result
        check_same_kind(cx, name, T.element_type(value_type(cx, result)), out.type.element,
                        "cast the operands first, or pass an 'out' array of the result's "
                        "dtype")
        if not _is_true(where):
            result = A.where(cx, where, cast(cx, result, out.type.element), out)
        return write_out(cx, out, result)
    return rule


# reductions ---------------------------------------------------------------------------------

def reduction(cx, kind: str, x, axis=None, keepdims=None, dtype=None, initial=None,
              where=None, name: str = ""):
    """``np.<kind>(x, axis, dtype, keepdims, initial, where)`` (``kind`` as ``np.reduce``'s):
    masked-out elements count as the ufunc's identity (``initial`` for max/min, where
    NumPy's ValueError asks for one); ``initial`` takes part in the reduction, so max/min
    of an empty extent give it."""
    ufunc, identity = KIND_UFUNC[kind]
    x = materialize(cx, x)
    if not _is_true(where):
        if identity is None and A.is_none(initial):
            cx.fail(f"reduction operation '{ufunc.__name__}' does not have an identity, so "
                    "to use a where mask one has to specify 'initial'",
                    "pass initial=, e.g. -np.inf for a maximum", ValueError)
        fill = initial if identity is None else Constant(identity)
        x = A.where(cx, where, x, cast(cx, fill, T.strong(x.type)))
    if A.is_none(initial):
        return A.reduce(cx, kind, x, axis, keepdims, dtype)
    if identity is None:
        return _extreme_with_initial(cx, kind, x, axis, keepdims, dtype, initial)
    total = A.reduce(cx, kind, x, axis, keepdims, dtype)
    el = T.element_type(value_type(cx, total))
    return apply_ufunc(cx, ufunc, [cast(cx, initial, el), total])


def _extreme_with_initial(cx, kind, x, axis, keepdims, dtype, initial):
    """max/min with ``initial``: each reduced axis gets a leading slab of ``initial``
    (so an empty extent reduces to it), reduced one axis at a time, keeping dims."""
    x = cast(cx, x, A.resolve_dtype(cx, dtype)) if not A.is_none(dtype) else x
    rank = len(T.shape_of(x.type))
    if rank == 0:
        return apply_ufunc(cx, KIND_UFUNC[kind][0], [cast(cx, initial, x.type), x])
    axes = A.axes_of(cx, axis, rank)
    el = T.strong(x.type)
    for ax in axes:
        shape = [Constant(1) if k == ax else dim(cx, x, k) for k in range(rank)]
        slab = A.full(cx, TupleValue(tuple(shape)), cast(cx, initial, el))
        x = cx.emit(nd.ConcatenateOp, [slab, x], {"axis": ax})
        x = A.reduce(cx, kind, x, Constant(ax), Constant(True))
    return A.reduce(cx, kind, x, Constant(tuple(axes)), keepdims)


def mean(cx, x, axis=None, dtype=None, keepdims=None, where=None):
    """``np.mean(x, axis, dtype, keepdims, where)``: with a mask, the masked sum divided by
    the count of true mask elements (broadcast to ``x``) in each reduced extent."""
    if _is_true(where):
        return A.mean(cx, x, axis, keepdims, dtype)
    x = materialize(cx, x)
    el = T.strong(x.type)
    acc = A.resolve_dtype(cx, dtype) if not A.is_none(dtype) else (
        T.f32 if el == T.f16 else el if T.is_float(el) else T.f64)
    total = reduction(cx, "sum", cast(cx, x, acc), axis, keepdims, None, None, where)
    # A scalar ``x`` has rank 0, like NumPy's 0-d view of it.
    shape = TupleValue(tuple(dim(cx, x, k) for k in range(len(T.shape_of(x.type)))))
    mask = shape_functions.broadcast_to(cx, cast(cx, where, T.i1), shape)
    count = A.reduce(cx, "sum", cast(cx, mask, T.i64), axis, keepdims)
    out = apply_ufunc(cx, np.divide, [total, cast(cx, count, acc)])
    return cast(cx, out, T.f16) if el == T.f16 and A.is_none(dtype) else out


def reduction_out(cx, result, out, axis, keepdims, rank: int, what: str):
    """``result`` written into ``out`` (when given), whose rank must be the result's
    (NumPy's ValueError)."""
    out = out_array(cx, out)
    if out is None:
        return result
    kept = bool(A.bool_of(cx, keepdims, "keepdims")) if not A.is_none(keepdims) else False
    want = rank if kept else rank - len(A.axes_of(cx, axis, rank))
    if out.type.rank != want:
        cx.fail(f"output parameter for reduction operation {what} has the wrong number of "
                f"dimensions: Found {out.type.rank} but expected {want}", kind=ValueError)
    return write_out(cx, out, result)


def _rank_of(cx, x) -> int:
    return len(T.shape_of(value_type(cx, x)))


def _reduce_impl(kind: str, with_dtype: bool, with_initial: bool):
    what = KIND_UFUNC[kind][0].__name__

    def impl(cx, x, axis, *rest):
        rest = list(rest)
        dtype = rest.pop(0) if with_dtype else None
        out, keepdims = rest.pop(0), rest.pop(0)
        initial = rest.pop(0) if with_initial else None
        where = rest.pop(0)
        result = reduction(cx, kind, x, axis, keepdims, dtype, initial, where)
        return reduction_out(cx, result, out, axis, keepdims, _rank_of(cx, x), what)
    return impl


def _mean_impl(cx, x, axis, dtype, out, keepdims, where):
    result = mean(cx, x, axis, dtype, keepdims, where)
    return reduction_out(cx, result, out, axis, keepdims, _rank_of(cx, x), "add")


_SUM = ["a", "axis=", "dtype=", "out=", "keepdims=", "initial=", "where="]
_EXTREME = ["a", "axis=", "out=", "keepdims=", "initial=", "where="]
_LOGICAL = ["a", "axis=", "out=", "keepdims=", "where="]
_MEAN = ["a", "axis=", "dtype=", "out=", "keepdims=", "where="]

_TABLE = {
    "sum": (_reduce_impl("sum", True, True), _SUM),
    "prod": (_reduce_impl("prod", True, True), _SUM),
    "max": (_reduce_impl("max", False, True), _EXTREME),
    "min": (_reduce_impl("min", False, True), _EXTREME),
    "any": (_reduce_impl("any", False, False), _LOGICAL),
    "all": (_reduce_impl("all", False, False), _LOGICAL),
    "mean": (_mean_impl, _MEAN),
}
_FUNCTIONS = {np.sum: "sum", np.prod: "prod", np.max: "max", np.min: "min", np.amax: "max",
              np.amin: "min", np.any: "any", np.all: "all", np.mean: "mean"}

RULES = {f: (f"np.{f.__name__}", *_TABLE[k]) for f, k in _FUNCTIONS.items()}
METHODS = {k: (f"ndarray.{k}", *_TABLE[k]) for k in _TABLE}
