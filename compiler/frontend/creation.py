"""NumPy's array creation from shapes, prototypes and array_likes: ``np.empty``,
``np.ndarray(shape, dtype)``, ``np.empty_like``/``zeros_like``/``ones_like``/``full_like``
(``dtype=``, ``shape=``), ``np.array``/``np.asarray`` (``dtype=``, ``copy=``, ``order=``,
``ndmin=``), ``np.copy``, ``np.ascontiguousarray`` and ``np.asfortranarray``.

Semantics: the NumPy 2 functions of the same names (dtypes, shapes, errors). ``np.empty``
and ``empty_like`` are zero-filled (NumPy leaves the contents unspecified). Memory order
is recorded where a later float sum reads it (``order="F"`` copies, see
``lowering/reduction.py``); returned arrays are C-contiguous.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.core import OpResult, Value
from ..ir.opdef import Elementwise
from . import arrays as A
from .ops import dim
from .sequence_arrays import array_of
from .shape_functions import expand_dims
from .values import Constant, TupleValue

_NO_COPY = "Unable to avoid copy while creating an array as requested."
_NO_COPY_HINT = ("use np.asarray(obj) to allow a copy when needed (NumPy 2's copy=False "
                 "never copies)")


def _order(cx, order, default: str) -> str:
    """The memory order of an ``order=`` argument ("C", "F", "A" or "K")."""
    if A.is_none(order):
        return default
    if not (isinstance(order, Constant) and isinstance(order.value, str)):
        cx.fail("order must be a string known at compile time")
    value = order.value.upper()
    if value not in ("C", "F", "A", "K"):
        cx.fail(f"order must be one of 'C', 'F', 'A', or 'K' (got '{order.value}')",
                kind=ValueError)
    return value


def _dtype(cx, dtype, default: T.Type | None) -> T.Type | None:
    return default if A.is_none(dtype) else A.resolve_dtype(cx, dtype)


def _in_order(cx, x: Value, order: str) -> Value:
    """A new array ``x`` laid out in ``order`` ("C" or "F"; "A" and "K" keep its layout)."""
    if order not in ("C", "F") or x.type.rank < 2 or _known_order(x) == order:
        return x
    return A.copy(cx, x, order=order)


# from a shape --------------------------------------------------------------------------------

def empty(cx, shape, dtype=None, order=None, device=None, like=None):
    """``np.empty(shape, dtype=float64, order)``: ``shape`` an int, a tuple of ints or
    run-time integers (ValueError for negative ones); zero-filled."""
    _no_like(cx, like)
    el = _dtype(cx, dtype, T.f64)
    x = A.full(cx, shape, Constant(0), Constant(T.to_dtype(el)))
    return _in_order(cx, x, _order(cx, order, "C"))


def ndarray(cx, shape, dtype=None, buffer=None, offset=None, strides=None, order=None):
    """``np.ndarray(shape, dtype=float64, order)`` used as a constructor: ``np.empty``.
    A ``buffer`` or ``strides`` is a CompileError."""
    for name, v in (("buffer", buffer), ("strides", strides)):
        if not A.is_none(v):
            cx.fail(f"np.ndarray with a '{name}' argument is not supported",
                    "make a new array with np.empty(shape, dtype) instead")
    if not (A.is_none(offset) or (isinstance(offset, Constant) and offset.value == 0)):
        cx.fail("np.ndarray with an 'offset' argument is not supported")
    return empty(cx, shape, dtype, order)


def _no_like(cx, like) -> None:
    if not A.is_none(like):
        cx.fail("the 'like' argument is not supported", "leave it out")


# from a prototype ----------------------------------------------------------------------------

def full_like(cx, a, fill, dtype=None, order=None, subok=None, shape=None, device=None):
    """``np.full_like(a, fill, dtype, order, subok, shape)``: the dtype of ``a`` (an
    array_like) unless given, its shape unless ``shape`` (an int, a tuple, run-time ints)."""
    a = array_of(cx, a)
    if A.is_none(shape):
        shape = TupleValue(tuple(dim(cx, a, k) for k in range(a.type.rank)))
    el = _dtype(cx, dtype, T.element_type(a.type))
    x = A.full(cx, shape, fill, Constant(T.to_dtype(el)))
    keep = A.is_none(shape) or x.type.rank == a.type.rank
    return _in_order(cx, x, _order(cx, order, "K") if keep else "C")


def _like(value):
    def rule(cx, a, dtype=None, order=None, subok=None, shape=None, device=None):
        return full_like(cx, a, Constant(value), dtype, order, subok, shape)
    rule.__doc__ = (f"``np.{'zeros' if value == 0 else 'ones'}_like``: ``full_like`` of "
                    f"{value}.")
    return rule


def empty_like(cx, prototype, dtype=None, order=None, subok=None, shape=None, device=None):
    """``np.empty_like``: ``full_like`` of zeros (NumPy leaves the contents unspecified)."""
    return full_like(cx, prototype, Constant(0), dtype, order, subok, shape)


# from an array_like --------------------------------------------------------------------------

def array(cx, obj, dtype=None, copy=None, order=None, subok=None, ndmin=None, like=None):
    """``np.array(obj, dtype, copy=True, order="K", subok, ndmin)`` (NumPy 2): ``obj`` an
    array, a scalar or a tuple/list of them (``sequence_arrays``); ``copy=None`` and
    ``copy=False`` as for ``asarray``. ``ndmin`` prepends unit axes."""
    out = asarray(cx, obj, dtype, order, Constant(True) if copy is None else copy, None, like)
    for _ in range(out.type.rank, 0 if A.is_none(ndmin) else A.int_constant(cx, ndmin,
                                                                             "ndmin")):
        out = expand_dims(cx, out, Constant(0))
    return out


def asarray(cx, a, dtype=None, order=None, copy=None, device=None, like=None):
    """``np.asarray(a, dtype, order, copy=None)`` (NumPy 2): ``a`` itself when it is an
    array of the dtype and layout (writes through the result reach it), else a new array;
    ``copy=True`` always copies, ``copy=False`` is NumPy's ValueError where a copy is
    needed. ``order="C"``/``"F"`` of an array whose layout is known only at run time is
    ``ascontiguousarray``'s case."""
    _no_like(cx, like)
    mode = None if A.is_none(copy) else A.bool_of(cx, copy, "copy")
    out = array_of(cx, a, _dtype(cx, dtype, None))
    order = _order(cx, order, "K")
    if out is not a:
        if mode is False:
            cx.fail(_NO_COPY, _NO_COPY_HINT, ValueError)
        return _in_order(cx, out, order)
    if mode:
        return A.copy(cx, out, order=order if order in ("C", "F") else "K")
    if order in ("C", "F"):
        laid = _layout(cx, out, order, "np.asarray")
        if mode is False and laid is not out:
            cx.fail(_NO_COPY, _NO_COPY_HINT, ValueError)
        return laid
    return out


def copy(cx, a, order=None, subok=None):
    """``np.copy(a, order="K")`` / ``ndarray.copy(order="C")``: a new array value in that
    memory order ("A" and "K" keep ``a``'s)."""
    order = _order(cx, order, "K")
    return A.copy(cx, array_of(cx, a), order=order if order in ("C", "F") else "K")


def method_copy(cx, a, order=None):
    return copy(cx, a, Constant("C") if A.is_none(order) else order)


def ascontiguousarray(cx, a, dtype=None, like=None):
    """``np.ascontiguousarray(a, dtype)``: at least 1-d, C-contiguous; ``a`` itself when it
    is, else a copy. Whether an argument or a view is contiguous is known only at run time:
    then writing through the result, or into ``a`` while the result is bound, is a
    CompileError (NumPy's result is ``a`` or a copy depending on the layout)."""
    return _contiguous(cx, a, dtype, like, "C")


def asfortranarray(cx, a, dtype=None, like=None):
    """``np.asfortranarray(a, dtype)``: at least 1-d, Fortran-contiguous; ``a`` itself when
    it is, else a copy (writes as for ``ascontiguousarray``)."""
    return _contiguous(cx, a, dtype, like, "F")


def _contiguous(cx, a, dtype, like, order: str) -> Value:
    _no_like(cx, like)
    out = array_of(cx, a, _dtype(cx, dtype, None))
    if out.type.rank == 0:
        return expand_dims(cx, out, Constant(0))
    if out is not a:
        return _in_order(cx, out, order)
    return _layout(cx, out, order, f"np.as{'contiguous' if order == 'C' else 'fortran'}array")


# ops whose result NumPy lays out in C order whatever their operands' layouts
_C_ORDERED = (npd.FullOp, npd.ArangeOp, npd.EyeOp, npd.ConstantOp, npd.ReshapeOp, npd.MatmulOp)


def _known_order(x: Value) -> str | None:
    """"C" or "F" when ``x`` is certainly laid out so in NumPy, else None (arguments, views,
    and what NumPy computes in its operands' order, such as elementwise results)."""
    op = x.op if isinstance(x, OpResult) else None
    if isinstance(op, npd.AsTypeOp) and "order" in op.attributes:
        return op.attr("order")
    if isinstance(op, _C_ORDERED):
        return "C"
    if op is not None and op.has_trait(Elementwise):
        arrays = [v for v in op.operands if isinstance(v.type, T.TensorType)]
        if arrays and all(v.type.shape == x.type.shape and _known_order(v) == "C"
                          for v in arrays):
            return "C"
    return None


def _layout(cx, x: Value, order: str, name: str) -> Value:
    """``x`` when it is known to be laid out in ``order``, a copy when it is known not to
    be, else a copy that writes must not reach (``mutation.guard``): NumPy returns ``x`` or
    a copy depending on its layout at run time."""
    from . import mutation  # a handler module, which imports this one through the registry
    known = _known_order(x)
    wide = [d for d in x.type.shape if d != 1]
    both = not wide or (len(wide) == 1 and wide[0] is not None)   # C and F at once
    if known == order or (known is not None and both):
        return x
    if known is not None and sum(1 for d in wide if d is not None) >= 2:
        return A.copy(cx, x, order=order)
    result = A.copy(cx, x, order=order)
    mutation.guard(cx, result, x,
                   f"the result of {name} is its operand itself or a copy, depending on "
                   f"the operand's memory layout at run time: writing into either is not "
                   f"supported while both are bound",
                   f"copy the operand instead (np.array(x, order='{order}'))")
    return result


RULES = {
    np.empty: ("np.empty", empty, ["shape", "dtype=", "order=", "device=", "like="]),
    np.ndarray: ("np.ndarray", ndarray,
                 ["shape", "dtype=", "buffer=", "offset=", "strides=", "order="]),
    np.empty_like: ("np.empty_like", empty_like,
                    ["prototype", "dtype=", "order=", "subok=", "shape=", "device="]),
    np.zeros_like: ("np.zeros_like", _like(0),
                    ["a", "dtype=", "order=", "subok=", "shape=", "device="]),
    np.ones_like: ("np.ones_like", _like(1),
                   ["a", "dtype=", "order=", "subok=", "shape=", "device="]),
    np.full_like: ("np.full_like", full_like,
                   ["a", "fill_value", "dtype=", "order=", "subok=", "shape=", "device="]),
    np.array: ("np.array", array,
               ["object", "dtype=", "copy=", "order=", "subok=", "ndmin=", "like="]),
    np.asarray: ("np.asarray", asarray, ["a", "dtype=", "order=", "copy=", "device=",
                                         "like="]),
    np.copy: ("np.copy", copy, ["a", "order=", "subok="]),
    np.ascontiguousarray: ("np.ascontiguousarray", ascontiguousarray,
                           ["a", "dtype=", "like="]),
    np.asfortranarray: ("np.asfortranarray", asfortranarray, ["a", "dtype=", "like="]),
}

METHODS = {
    "copy": ("ndarray.copy", method_copy, ["a", "order="]),
}

# Their result is uninitialized in NumPy: never folded into a constant at compile time.
UNFOLDABLE = {np.empty, np.ndarray, np.empty_like}
