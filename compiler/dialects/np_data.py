"""``np`` ops whose result depends on the data or joins several arrays: concatenate,
cumulative scans, sort/argsort, searchsorted, integer-array gather and scatter, boolean-mask
selection and assignment.

They belong to the ``np`` namespace (registered in ``np.NUMPY_OPS``); each has a NumPy
reference ``evaluate``. Lowering: ``compiler/lowering/data.py`` and ``sort.py``.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..ir.constraints import (
    BoolAttr,
    NpValue,
    Tensor,
    Variadic,
    attr,
    int_attr,
    named,
    opt_attr,
    str_attr,
)
from ..ir.opdef import InferredTypes, Op, Pure, TensorLevel, register_ops
from .np import NUMPY_OPS, _dtype_value, array_type, check_axis

# The axis of the user's array that an index error names (``index_axis``).
_INDEXED = {"axis": attr(int_attr(0)), "index_axis": opt_attr(int_attr(0))}


class ConcatenateOp(Op):
    """``np.concatenate(xs, axis)``: operands share one element type and rank; the dims
    other than ``axis`` must agree (checked at run time when dynamic, ValueError as NumPy)."""

    name = "np.concatenate"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(inputs=Variadic(Tensor, 1))
    result_defs = (Tensor,)
    attr_defs = {"axis": attr(int_attr(0))}

    @classmethod
    def infer(cls, operand_types, attributes):
        axis = attributes["axis"]
        shapes = [T.shape_of(t) for t in operand_types]
        if len({T.element_type(t) for t in operand_types}) != 1:
            raise TypeError("np.concatenate operands must share one dtype")
        if len({len(s) for s in shapes}) != 1:
            raise ValueError("all the input arrays must have same number of dimensions")
        check_axis(axis, len(shapes[0]))
        out = []
        for k in range(len(shapes[0])):
            dims = [s[k] for s in shapes]
            if k == axis:
                out.append(None if None in dims else sum(dims))
                continue
            static = {d for d in dims if d is not None}
            if len(static) > 1:
                raise ValueError("all the input array dimensions except for the concatenation "
                                 f"axis must match exactly, but along dimension {k} the "
                                 f"arrays have sizes {sorted(static)}")
            out.append(static.pop() if static else None)
        return [T.TensorType(tuple(out), T.element_type(operand_types[0]))]

    def evaluate(self, *xs):
        return np.concatenate(xs, axis=self.attr("axis"))


class ScanOp(Op):
    """``np.scan {kind = "sum"|"prod", axis}``: ``np.cumsum`` / ``np.cumprod`` along
    ``axis`` in the operand's element type (the frontend casts and flattens first);
    sequential accumulation, as NumPy's accumulate loops."""

    name = "np.scan"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor)
    result_defs = (Tensor,)
    attr_defs = {"kind": attr(str_attr(("sum", "prod"))), "axis": attr(int_attr(0))}

    @classmethod
    def infer(cls, operand_types, attributes):
        check_axis(attributes["axis"], len(T.shape_of(operand_types[0])))
        return [operand_types[0]]

    def evaluate(self, x):
        fn = np.cumsum if self.attr("kind") == "sum" else np.cumprod
        with np.errstate(all="ignore"):
            return fn(x, axis=self.attr("axis")).astype(x.dtype)


class SortOp(Op):
    """``np.sort {axis, arg}``: a stable sort along ``axis``; ``arg`` gives ``np.argsort``'s
    int64 indices instead. NaNs (of either sign) sort after every number, in input order."""

    name = "np.sort"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor)
    result_defs = (Tensor,)
    attr_defs = {"axis": attr(int_attr(0)), "arg": opt_attr(BoolAttr)}

    @classmethod
    def infer(cls, operand_types, attributes):
        x = operand_types[0]
        check_axis(attributes["axis"], len(T.shape_of(x)))
        return [T.with_element(x, T.i64) if attributes.get("arg") else x]

    def evaluate(self, x):
        fn = np.argsort if self.attr("arg") else np.sort
        return fn(x, axis=self.attr("axis"), kind="stable")


class SearchSortedOp(Op):
    """``np.searchsorted {side}``: for each element of ``values`` (a tensor or a scalar, of
    ``sorted``'s element type), the int64 position in the 1-D ``sorted`` where inserting it
    keeps the order: before equal elements for ``side = "left"``, after them for
    ``"right"``. NaN compares greater than every number, as in ``np.sort``."""

    name = "np.searchsorted"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(sorted=Tensor, values=NpValue)
    result_defs = (NpValue,)
    attr_defs = {"side": attr(str_attr(("left", "right")))}

    @classmethod
    def infer(cls, operand_types, attributes):
        a, v = operand_types
        if len(T.shape_of(a)) != 1:
            raise TypeError("'np.searchsorted' needs a 1-D sorted array")
        if T.element_type(v) != a.element:
            raise TypeError(f"'np.searchsorted' of {T.element_type(v)} values in {a}")
        return [T.with_element(v, T.i64) if isinstance(v, T.TensorType) else T.i64]

    def evaluate(self, a, v):
        return np.searchsorted(a, v, side=self.attr("side"))


class GatherOp(Op):
    """``np.gather {axis}``: ``np.take(x, idx, axis)`` for an integer index array: the result
    shape is ``x.shape[:axis] + idx.shape + x.shape[axis+1:]``. Negative indices count from
    the end; out-of-range ones raise IndexError("index {i} is out of bounds for axis {a} with
    size {n}") at run time; the optional ``index_axis`` is the axis that message names (the
    user's array's axis when ``x`` is a view of it)."""

    name = "np.gather"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor, indices=NpValue)
    result_defs = (NpValue,)
    attr_defs = _INDEXED

    @classmethod
    def infer(cls, operand_types, attributes):
        x, idx = operand_types
        if not T.is_integer(idx) or T.is_weak(idx):
            raise TypeError("arrays used as indices must be of integer (or boolean) type")
        shape, axis = T.shape_of(x), attributes["axis"]
        check_axis(axis, len(shape))
        return [array_type(shape[:axis] + T.shape_of(idx) + shape[axis + 1:],
                           T.element_type(x))]

    def evaluate(self, x, idx):
        return _dtype_value(np.take(x, idx, axis=self.attr("axis")), self.result.type)


class MaskSelectOp(Op):
    """``np.mask_select``: ``x[mask]`` for a bool ``mask`` covering the leading dims of ``x``:
    the selected rows in C order, shape ``(count,) + x.shape[mask.ndim:]`` with ``count``
    known only at run time. A mask dim that differs from ``x``'s raises NumPy's
    IndexError("boolean index did not match indexed array along axis ...") at run time."""

    name = "np.mask_select"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor, mask=NpValue)
    result_defs = (Tensor,)

    @classmethod
    def infer(cls, operand_types, attributes):
        x, mask = operand_types
        if not T.is_bool(mask):
            raise TypeError(f"np.mask_select needs a bool mask, got {mask}")
        xs, ms = T.shape_of(x), T.shape_of(mask)
        if len(ms) > len(xs):
            raise IndexError(f"too many indices for array: array is {len(xs)}-dimensional, "
                             f"but {len(ms)} were indexed")
        return [T.TensorType((None,) + xs[len(ms):], T.element_type(x))]

    def evaluate(self, x, mask):
        return np.asarray(x)[np.asarray(mask)]


class ScatterOp(Op):
    """``np.scatter {axis}``: integer-array assignment as a value. Operands: the target
    ``x``, an integer index array ``idx`` and a value ``v`` of ``x``'s element type. The
    result is ``x`` with ``x[(:,) * axis + (idx,)] = v``: ``v`` broadcast to the indexed
    shape ``x.shape[:axis] + idx.shape + x.shape[axis+1:]`` (ValueError("shape mismatch:
    value array of shape ... could not be broadcast to indexing result of shape ...")),
    written in C order so that the last of repeated indices wins, as NumPy's. Negative
    indices count from the end; out-of-range ones raise IndexError at run time (naming
    ``index_axis`` when given, as ``np.gather``)."""

    name = "np.scatter"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(target=Tensor, indices=NpValue, value=NpValue)
    result_defs = (Tensor,)
    attr_defs = _INDEXED

    @classmethod
    def infer(cls, operand_types, attributes):
        x, idx, v = operand_types
        GatherOp.infer([x, idx], attributes)
        if T.element_type(v) != x.element:
            raise TypeError(f"'np.scatter' of a {T.element_type(v)} value into {x}")
        return [x]

    def evaluate(self, x, idx, v):
        out = np.array(x, copy=True)
        out[(slice(None),) * self.attr("axis") + (np.asarray(idx),)] = v
        return out


class MaskAssignOp(Op):
    """``np.mask_assign``: ``x[mask] = v`` as a value, for a bool ``mask`` over the leading
    dims of ``x``. ``v`` (``x``'s element type) broadcasts to ``(count,) +
    x.shape[mask.ndim:]``; when the mask covers every dim ``v`` has at most one dim and a
    length other than 1 or ``count`` raises NumPy's ValueError("NumPy boolean array indexing
    assignment cannot assign {n} input values to the {count} output values where the mask
    is true"). Mask dims that differ from ``x``'s raise IndexError as ``np.mask_select``."""

    name = "np.mask_assign"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(target=Tensor, mask=NpValue, value=NpValue)
    result_defs = (Tensor,)

    @classmethod
    def infer(cls, operand_types, attributes):
        x, mask, v = operand_types
        MaskSelectOp.infer([x, mask], attributes)
        if T.element_type(v) != x.element:
            raise TypeError(f"'np.mask_assign' of a {T.element_type(v)} value into {x}")
        if len(T.shape_of(mask)) == len(T.shape_of(x)) and len(T.shape_of(v)) > 1:
            raise TypeError("NumPy boolean array indexing assignment requires a 0 or "
                            f"1-dimensional input, input has {len(T.shape_of(v))} dimensions")
        return [x]

    def evaluate(self, x, mask, v):
        out = np.array(x, copy=True)
        out[np.asarray(mask)] = v
        return out


NUMPY_OPS.update(register_ops("np", (ConcatenateOp, ScanOp, SortOp, SearchSortedOp, GatherOp,
                                     MaskSelectOp, ScatterOp, MaskAssignOp)))
