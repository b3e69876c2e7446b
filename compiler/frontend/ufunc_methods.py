"""The methods of NumPy's binary ufuncs: ``np.<ufunc>.outer``, ``.reduce``, ``.accumulate``
and ``.at`` (NumPy 2's ``ufunc_object.c`` semantics), for every ufunc with an ``np`` op.

- ``outer(a, b)``: ``ufunc(a[..., None, ...], b)``, shape ``a.shape + b.shape``; operands
  are converted with ``np.asarray`` first (a Python float is float64).
- ``reduce(a, axis=0, dtype, out, keepdims, initial, where)``: add, multiply, maximum,
  minimum, logical_and and logical_or are ``np.sum``/``prod``/``max``/``min``/``all``/
  ``any`` (pairwise float sums, NumPy's dtypes); any other ufunc that keeps its operands'
  dtype is the last element of its ``accumulate`` along each reduced axis (one axis for a
  ufunc that is not reorderable, NumPy's ValueError otherwise), after a slab of the ufunc's
  identity, or a run-time ValueError on an empty extent for one without.
- ``accumulate(a, axis=0, dtype, out)``: ``np.scan`` (sequential, NumPy's order).
- ``at(a, indices, b)``: unbuffered in-place update; integer index arrays (among slices and
  ints) become an accumulating ``np.scatter`` (repeated indices accumulate, IndexError for
  out-of-range indices with NumPy's message); basic and boolean indices (no repeats) update
  ``a[indices]`` with the ufunc's result. Computed in the ufunc's loop dtype of ``a`` and
  ``b``, cast back to ``a``'s dtype unsafely.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..dialects import np_data as nd
from ..ir.core import Value
from . import arrays as A
from . import mutation, ufunc_args
from .indexing import assign_advanced, index_items, subscript
from .ops import UFUNC_OPS, apply_ufunc, cast, check, dim, materialize, value_type
from .values import Constant, SliceValue, TupleValue

# ufunc -> the np.reduce kind it is
_REDUCE_KINDS = {np.add: "sum", np.multiply: "prod", np.maximum: "max", np.minimum: "min",
                 np.logical_and: "all", np.logical_or: "any"}
_SCAN_KINDS = {np.add: "sum", np.multiply: "prod"}
# ufuncs NumPy reduces over several axes at once (``reorderable``)
_REORDERABLE = {np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.logical_xor, np.fmax,
                np.fmin}


def _strong(cx, x) -> Value:
    """``np.asarray(x)``'s value: Python scalars take their default NumPy dtype."""
    x = materialize(cx, x)
    return cast(cx, x, T.strong(x.type))


def _rank(x: Value) -> int:
    return len(T.shape_of(x.type))


def _no_kwargs(cx, display: str, kwargs: dict, allowed: tuple) -> None:
    extra = [k for k in kwargs if k not in allowed]
    if extra:
        cx.fail(f"argument '{extra[0]}' of {display} is not supported")


def _loop_type(cx, ufunc, el: T.Type, display: str) -> T.Type:
    """The dtype ``ufunc``'s loop for two ``el`` operands computes in, which must be its
    result's (NumPy's accumulate and reduce need that); CompileError otherwise."""
    loop = ufunc.resolve_dtypes((T.to_dtype(el), T.to_dtype(el), None))
    if loop[0] != loop[2] or ufunc.__name__ not in nd.COMBINING:
        cx.fail(f"{display} of {el} is not supported: the ufunc's result dtype "
                f"{loop[2]} is not its operands'", kind=TypeError)
    return T.from_dtype(loop[0])


# outer --------------------------------------------------------------------------------------

def outer(ufunc):
    display = f"np.{ufunc.__name__}.outer"

    def rule(cx, args, kwargs):
        _no_kwargs(cx, display, kwargs, ("out",))
        if len(args) != 2:
            cx.fail(f"{display} takes 2 operands, got {len(args)}")
        a, b = (_strong(cx, v) for v in args)
        ra, rb = _rank(a), _rank(b)
        if ra and rb:
            a = cx.emit(npd.SubscriptOp, [a], {"spec": ("s",) * ra + ("n",) * rb,
                                               "bounds": ("none",) * 3 * ra})
        result = apply_ufunc(cx, ufunc, [a, b])
        out = ufunc_args.out_array(cx, kwargs.get("out"))
        if out is None:
            return result
        ufunc_args.check_same_kind(cx, ufunc.__name__, T.element_type(value_type(cx, result)),
                                   out.type.element, "pass an 'out' array of the result's "
                                   "dtype")
        return ufunc_args.write_out(cx, out, result)
    return rule


# reduce and accumulate ----------------------------------------------------------------------

def _scan(cx, ufunc, x: Value, axis: int, display: str) -> Value:
    kind = _SCAN_KINDS.get(ufunc)
    if kind is None:
        x = cast(cx, x, _loop_type(cx, ufunc, T.strong(x.type), display))
        kind = ufunc.__name__
    return cx.emit(nd.ScanOp, [x], {"kind": kind, "axis": axis})


def accumulate(ufunc):
    display = f"np.{ufunc.__name__}.accumulate"

    def impl(cx, array, axis, dtype, out):
        x = _strong(cx, array)
        if _rank(x) == 0:
            cx.fail("cannot accumulate on a scalar", kind=TypeError)
        ax = 0 if A.is_none(axis) else A.normalize_axis(
            cx, A.int_constant(cx, axis, "axis"), _rank(x))
        el = A.resolve_dtype(cx, dtype) if not A.is_none(dtype) else (
            A.accumulator(T.strong(x.type)) if ufunc in _SCAN_KINDS else T.strong(x.type))
        result = _scan(cx, ufunc, cast(cx, x, el), ax, display)
        out = ufunc_args.out_array(cx, out)
        return result if out is None else ufunc_args.write_out(cx, out, result)
    return impl


def reduce(ufunc):
    display = f"np.{ufunc.__name__}.reduce"

    def impl(cx, array, axis, dtype, out, keepdims, initial, where):
        x = _strong(cx, array)
        axis = Constant(0) if axis is None else axis
        kind = _REDUCE_KINDS.get(ufunc)
        if kind is not None:
            result = ufunc_args.reduction(cx, kind, x, axis, keepdims, dtype, initial, where)
        else:
            result = _generic_reduce(cx, ufunc, x, axis, keepdims, dtype, initial, where,
                                     display)
        return ufunc_args.reduction_out(cx, result, out, axis, keepdims, _rank(x),
                                        ufunc.__name__)
    return impl


def _generic_reduce(cx, ufunc, x, axis, keepdims, dtype, initial, where, display):
    """Reduce along each axis as the last element of the scan after a leading slab of
    ``initial`` (else the ufunc's identity): a run-time ValueError on an empty extent
    when there is neither."""
    if not ufunc_args._is_true(where):
        cx.fail(f"the 'where' argument of {display} is not supported")
    rank = _rank(x)
    axes = A.axes_of(cx, axis, rank)
    if len(axes) > 1 and ufunc not in _REORDERABLE:
        cx.fail(f"reduction operation '{ufunc.__name__}' is not reorderable, so at most one "
                "axis may be specified", kind=ValueError)
    el = A.resolve_dtype(cx, dtype) if not A.is_none(dtype) else T.strong(x.type)
    el = _loop_type(cx, ufunc, el, display)
    x = cast(cx, x, el)
    start = ufunc.identity if A.is_none(initial) else initial
    if ufunc.identity is not None and A.is_none(initial) and el == T.i1:
        start = bool(start)
    for ax in axes:
        n = dim(cx, x, ax)
        if start is None:
            if isinstance(n, Constant) and n.value == 0 or not isinstance(n, Constant):
                check(cx, apply_ufunc(cx, np.greater, [n, Constant(0)], operator.gt),
                      "ValueError", f"zero-size array to reduction operation "
                      f"{ufunc.__name__} which has no identity")
        else:
            shape = [Constant(1) if k == ax else dim(cx, x, k) for k in range(rank)]
            slab = A.full(cx, TupleValue(tuple(shape)), cast(cx, _start(start), el))
            x = cx.emit(nd.ConcatenateOp, [slab, x], {"axis": ax})
            n = dim(cx, x, ax)
        last = apply_ufunc(cx, np.subtract, [n, Constant(1)], operator.sub)
        spec = tuple("i" if k == ax else "s" for k in range(rank))
        x = cx.emit(npd.SubscriptOp, [_scan(cx, ufunc, x, ax, display),
                                      materialize(cx, last)],
                    {"spec": spec, "bounds": ("none",) * 3 * (rank - 1)})
        spec = tuple("n" if k == ax else "s" for k in range(rank))
        x = cx.emit(npd.SubscriptOp, [x], {"spec": spec, "bounds": ("none",) * 3 * (rank - 1)})
    keep = not A.is_none(keepdims) and A.bool_of(cx, keepdims, "keepdims")
    if keep:
        return x
    spec = tuple("i" if k in axes else "s" for k in range(rank))
    zeros = [materialize(cx, Constant(0)) for _ in axes]
    return cx.emit(npd.SubscriptOp, [x, *zeros],
                   {"spec": spec, "bounds": ("none",) * 3 * (rank - len(axes))})


def _start(v):
    return Constant(v) if not isinstance(v, (Constant, Value, TupleValue)) else v


# at -----------------------------------------------------------------------------------------

def at(ufunc):
    display = f"np.{ufunc.__name__}.at"

    def impl(cx, a, indices, b):
        if b is None:
            cx.fail(f"{display} without a second operand is not supported",
                    "pass the ufunc's second operand as b")
        x = ufunc_args.out_array(cx, a)
        if x is None:
            cx.fail(f"{display} needs an array to update", kind=TypeError)
        items = index_items(cx, x, indices)
        arrays = [k for k, it in enumerate(items) if isinstance(it, Value)
                  and isinstance(it.type, T.TensorType)]
        if not any(not T.is_bool(items[k].type.element) for k in arrays):
            new = apply_ufunc(cx, ufunc, [subscript(cx, x, indices), b])
            mutation.mutate(cx, x, mutation.setitem(cx, x, indices,
                                                    cast(cx, new, x.type.element)))
            return Constant(None)
        el = _loop_type(cx, ufunc, T.strong(T.promote(x.type.element, value_type(cx, b))),
                        display)
        mutation.mutate(cx, x, assign_advanced(cx, x, items, arrays, cast(cx, b, el),
                                               combine=ufunc.__name__))
        return Constant(None)
    return impl


def slice_rule(cx, args, kwargs):
    """Python's ``slice(stop)`` / ``slice(start, stop[, step])``, as ``ufunc.at`` and
    subscripts take it."""
    if kwargs or not 1 <= len(args) <= 3:
        cx.fail("slice expected 1 to 3 positional arguments", kind=TypeError)
    parts = [Constant(None), args[0], Constant(None)] if len(args) == 1 else \
        [*args, Constant(None)][:3]
    return SliceValue(*[Constant(None) if p is None else p for p in parts])


_BINARY = [u for u in UFUNC_OPS if u.nin == 2]
RULES = {}
for _u in _BINARY:
    _n = f"np.{_u.__name__}"
    RULES[_u.reduce] = (f"{_n}.reduce", reduce(_u), ["array", "axis=", "dtype=", "out=",
                                                     "keepdims=", "initial=", "where="])
    RULES[_u.accumulate] = (f"{_n}.accumulate", accumulate(_u),
                            ["array", "axis=", "dtype=", "out="])
    RULES[_u.at] = (f"{_n}.at", at(_u), ["a", "indices", "b="])
OUTER = {_u.outer: outer(_u) for _u in _BINARY}
UNFOLDABLE = {_u.at for _u in _BINARY}
