"""``np`` ops whose result depends on the data or joins several arrays: concatenate,
cumulative scans, sort/argsort, partition/argpartition, searchsorted, bincount,
integer-array gather and scatter, boolean-mask selection and assignment.

They belong to the ``np`` namespace (registered in ``np.NUMPY_OPS``); each has a NumPy
reference ``evaluate``. Lowering: ``compiler/lowering/data.py``, ``sort.py`` and
``select.py``.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..ir.constraints import (
    BoolAttr,
    NpValue,
    Tensor,
    Variadic,
    array_of,
    attr,
    int_attr,
    named,
    opt_attr,
    str_attr,
)
from ..ir.opdef import InferredTypes, Op, Pure, TensorLevel, register_ops
from .np import (
    NUMPY_OPS,
    ElementwiseOp,
    _dtype_value,
    array_type,
    broadcast_shapes,
    check_axis,
)

# Where the broadcast index dims go, the axes indexed, and the axes of the user's array that
# index errors name.
_INDEXED = {"axis": attr(int_attr(0)), "axes": opt_attr(array_of(int_attr(0))),
            "index_axes": opt_attr(array_of(int_attr(0)))}


# The binary ufuncs whose op a scan (``ufunc.accumulate``) or an accumulating scatter
# (``ufunc.at``) combines elements with, by NumPy name: those that keep their operands' type.
COMBINING = {cls.numpy: cls for cls in NUMPY_OPS.values()
             if issubclass(cls, ElementwiseOp) and isinstance(getattr(np, cls.numpy, None),
                                                              np.ufunc)
             and getattr(np, cls.numpy).nin == 2
             and (not cls.result_bool or cls.numpy.startswith("logical_"))}


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
    """``np.scan {kind, axis}``: ``np.cumsum`` / ``np.cumprod`` (``kind = "sum"|"prod"``)
    or ``np.<kind>.accumulate`` for a ufunc of ``COMBINING`` along ``axis`` in the operand's
    element type (the frontend casts and flattens first); sequential accumulation, as
    NumPy's accumulate loops."""

    name = "np.scan"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor)
    result_defs = (Tensor,)
    attr_defs = {"kind": attr(str_attr(("sum", "prod", *COMBINING))),
                 "axis": attr(int_attr(0))}

    @classmethod
    def infer(cls, operand_types, attributes):
        check_axis(attributes["axis"], len(T.shape_of(operand_types[0])))
        return [operand_types[0]]

    def evaluate(self, x):
        kind = self.attr("kind")
        fn = {"sum": np.add, "prod": np.multiply}.get(kind) or getattr(np, kind)
        with np.errstate(all="ignore"):
            return fn.accumulate(x, axis=self.attr("axis"), dtype=x.dtype)


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


class PartitionOp(Op):
    """``np.partition {axis, kth, middle, arg}``: each line along ``axis`` rearranged so that
    the element at every position in ``kth`` (ints, negative ones counting from the end) is
    the one the sorted line has there, the elements before it are not greater and those
    after it not smaller (NaN greater than every number); ``middle`` adds the positions
    ``(n - 1) // 2`` and ``n // 2`` of a line of ``n > 0`` elements (``np.median``'s). The
    order elsewhere is unspecified, as in NumPy. ``arg`` gives ``np.argpartition``'s int64
    indices instead."""

    name = "np.partition"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor)
    result_defs = (Tensor,)
    attr_defs = {"axis": attr(int_attr(0)), "kth": attr(array_of(int_attr())),
                 "middle": opt_attr(BoolAttr), "arg": opt_attr(BoolAttr)}

    @classmethod
    def infer(cls, operand_types, attributes):
        x = operand_types[0]
        check_axis(attributes["axis"], len(T.shape_of(x)))
        return [T.with_element(x, T.i64) if attributes.get("arg") else x]

    def kth_of(self, n: int) -> list[int]:
        """The positions in a line of ``n`` elements, normalized and sorted."""
        ks = {k % n for k in self.attr("kth")} if n else set()
        if self.attr("middle") and n:
            ks |= {(n - 1) // 2, n // 2}
        return sorted(ks)

    def evaluate(self, x):
        x = np.asarray(x)
        ks = self.kth_of(x.shape[self.attr("axis")])
        if not ks:
            return (np.argsort if self.attr("arg") else np.sort)(x, axis=self.attr("axis"))
        fn = np.argpartition if self.attr("arg") else np.partition
        return fn(x, ks, axis=self.attr("axis"))


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


class BinCountOp(Op):
    """``np.bincount {minlength}``: the number of occurrences of each value ``0..max`` of the
    1-D int64 ``input`` (or, with the 1-D float64 ``weights``, the sum of the weights of
    those occurrences, added in input order from 0.0), of length ``max(max + 1, minlength)``
    known at run time. Negative values raise NumPy's ValueError("'list' argument must have no
    negative elements"), weights of another length ValueError("The weights and list don't
    have the same length."), both only for a non-empty ``input``, as NumPy."""

    name = "np.bincount"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor, weights=Variadic(Tensor))
    result_defs = (Tensor,)
    attr_defs = {"minlength": attr(int_attr(0))}

    @classmethod
    def infer(cls, operand_types, attributes):
        x, *w = operand_types
        if len(w) > 1:
            raise TypeError("'np.bincount' takes at most one weights operand")
        for t, el in ((x, T.i64), *((v, T.f64) for v in w)):
            if len(T.shape_of(t)) != 1 or T.element_type(t) != el:
                raise TypeError(f"'np.bincount' needs 1-D {el} operands, got {t}")
        return [T.TensorType((None,), T.f64 if w else T.i64)]

    def evaluate(self, x, *w):
        n = self.attr("minlength")
        if not len(x):
            return np.zeros(n, np.float64 if w else np.int64)
        return np.bincount(x, weights=w[0] if w else None, minlength=n)


class BinCountsOp(Op):
    """``np.bin_counts {bins}``: the int64 number of elements of the 1-D int64 ``input``
    equal to each of ``0..bins-1``; other values are not counted. The counting step of
    ``np.histogram`` (whose bin indices are in range by construction), so it needs neither
    ``np.bincount``'s pass for the largest value nor its checks."""

    name = "np.bin_counts"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor)
    result_defs = (Tensor,)
    attr_defs = {"bins": attr(int_attr(0))}

    @classmethod
    def infer(cls, operand_types, attributes):
        x = operand_types[0]
        if len(T.shape_of(x)) != 1 or T.element_type(x) != T.i64:
            raise TypeError(f"'np.bin_counts' needs a 1-D i64 operand, got {x}")
        if attributes["bins"] < 1:
            raise TypeError("'np.bin_counts' needs bins >= 1")
        return [T.TensorType((attributes["bins"],), T.i64)]

    def evaluate(self, x):
        bins = self.attr("bins")
        return np.bincount(x[(x >= 0) & (x < bins)], minlength=bins).astype(np.int64)


class UniformHistogramOp(Op):
    """``np.uniform_histogram {bins}``: the int64 counts of the 1-D float ``input`` in
    ``bins`` equal bins between the scalars ``first`` and ``last`` of its dtype, whose
    width is ``norm`` and whose edges are the 1-D ``edges`` (``bins + 1`` of them). NumPy's
    fast path for equal bins (``numpy/lib/_histograms_impl.py``): an element ``v`` with
    ``first <= v <= last`` goes to bin ``int((v - first) / norm * bins)`` (``bins - 1`` for
    ``last``), moved down one when it lies below that bin's left edge and up one when it
    lies on or above its right edge (except in the last bin); NaN and values outside are
    not counted."""

    name = "np.uniform_histogram"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor, first=NpValue, last=NpValue, norm=NpValue,
                         edges=Tensor)
    result_defs = (Tensor,)
    attr_defs = {"bins": attr(int_attr(0))}

    @classmethod
    def infer(cls, operand_types, attributes):
        x, first, last, norm, edges = operand_types
        el = T.element_type(x)
        if len(T.shape_of(x)) != 1 or not T.is_float(el):
            raise TypeError(f"'np.uniform_histogram' needs a 1-D float input, got {x}")
        if any(t != el for t in (first, last, norm)) or T.element_type(edges) != el:
            raise TypeError("'np.uniform_histogram' needs first, last, norm and edges of "
                            f"the input's element type {el}")
        if attributes["bins"] < 1:
            raise TypeError("'np.uniform_histogram' needs bins >= 1")
        return [T.TensorType((attributes["bins"],), T.i64)]

    def evaluate(self, x, first, last, norm, edges):
        bins = self.attr("bins")
        v = x[(x >= first) & (x <= last)]
        idx = ((v - first) / norm * v.dtype.type(bins)).astype(np.intp)
        idx[idx == bins] -= 1
        idx[v < edges[idx]] -= 1
        idx[(v >= edges[idx + 1]) & (idx != bins - 1)] += 1
        return np.bincount(idx, minlength=bins).astype(np.int64)


class GatherOp(Op):
    """``np.gather {axis, axes, index_axes}``: NumPy's integer-array indexing of the axes
    ``axes`` of ``x`` (default ``axis, axis + 1, ...``: ``np.take(x, idx, axis)`` for one
    index array) by one index array each. The index arrays broadcast together (IndexError
    "shape mismatch: indexing arrays could not be broadcast together with shapes ...");
    the result is ``x``'s other dims with the broadcast shape inserted at ``axis`` (NumPy's
    placement: where the first index array was when the indexed axes are adjacent, else
    first). Negative indices count from the end; out-of-range ones raise IndexError("index
    {i} is out of bounds for axis {a} with size {n}") at run time, unless the broadcast shape
    has no element (as NumPy); ``index_axes`` are the axes those messages name (the user's
    array's when ``x`` is a view of it)."""

    name = "np.gather"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor, indices=Variadic(NpValue, 1))
    result_defs = (NpValue,)
    attr_defs = _INDEXED

    @classmethod
    def infer(cls, operand_types, attributes):
        x, *idx = operand_types
        return [array_type(indexed_shape(T.shape_of(x), idx, attributes),
                           T.element_type(x))]

    def evaluate(self, x, *idx):
        axes, axis = indexed_axes(self.attr("axis"), self.attr("axes"), len(idx))
        front = np.moveaxis(np.asarray(x), axes, range(len(axes)))[tuple(idx)]
        r = np.broadcast_shapes(*(np.shape(i) for i in idx))
        out = np.moveaxis(front, range(len(r)), range(axis, axis + len(r)))
        return _dtype_value(out, self.result.type)


def indexed_axes(axis: int, axes, count: int) -> tuple:
    """``(axes, axis)`` of an ``np.gather``/``np.scatter`` with ``count`` index arrays
    (``axes`` None: the default, ``count`` axes from ``axis`` on)."""
    return (tuple(range(axis, axis + count)) if axes is None else tuple(axes)), axis


def indexed_shape(shape: tuple, index_types, attributes) -> tuple:
    """The shape ``x[...]`` has for ``x`` of ``shape`` indexed by arrays of ``index_types``
    as an ``np.gather`` with ``attributes`` says (None for dynamic dims)."""
    for t in index_types:
        if not T.is_integer(t) or T.is_weak(t):
            raise TypeError("arrays used as indices must be of integer (or boolean) type")
    axes, axis = indexed_axes(attributes["axis"], attributes.get("axes"), len(index_types))
    for key, names in (("axes", axes), ("index_axes", attributes.get("index_axes", axes))):
        if len(names) != len(index_types):
            raise ValueError(f"'{key}' names {len(names)} axes for {len(index_types)} index "
                             f"arrays")
    for a in axes:
        check_axis(a, len(shape))
    if len(set(axes)) != len(axes):
        raise ValueError(f"'axes' {axes} repeats an axis")
    rest = tuple(d for k, d in enumerate(shape) if k not in axes)
    check_axis(axis, len(rest) + 1)
    shapes = [T.shape_of(t) for t in index_types]
    try:
        both = broadcast_shapes(*shapes)
    except ValueError:
        text = " ".join(shape_text(s) for s in shapes)
        raise IndexError("shape mismatch: indexing arrays could not be broadcast together "
                         f"with shapes {text} ") from None
    return rest[:axis] + both + rest[axis:]


def shape_text(shape: tuple) -> str:
    """NumPy's text of a shape, ``(2,3)``, ``(4,)``; ``?`` for a dynamic dim."""
    dims = ",".join("?" if d is None else str(d) for d in shape)
    return f"({dims}{',' if len(shape) == 1 else ''})"


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
    """``np.scatter {axis, axes, index_axes}``: integer-array assignment as a value.
    Operands: the target ``x``, one integer index array per indexed axis and a value ``v``
    of ``x``'s element type. The result is ``x`` with the elements an ``np.gather`` of the
    same attributes reads set to ``v`` broadcast to that gather's shape (ValueError("shape
    mismatch: value array of shape ... could not be broadcast to indexing result of shape
    ...")), written in C order of that shape so that the last of repeated indices wins, as
    NumPy's. Index errors as ``np.gather``'s.

    With ``combine`` (a ufunc of ``COMBINING``), ``np.<combine>.at``: each element becomes
    ``combine(element, v)`` computed in ``v``'s element type and cast back, one index after
    the other (unbuffered: repeated indices accumulate)."""

    name = "np.scatter"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(target=Tensor, indices=Variadic(NpValue, 1), value=NpValue)
    result_defs = (Tensor,)
    attr_defs = {**_INDEXED, "combine": opt_attr(str_attr(tuple(COMBINING)))}

    @classmethod
    def infer(cls, operand_types, attributes):
        x, *idx, v = operand_types
        indexed_shape(T.shape_of(x), idx, attributes)
        if T.element_type(v) != x.element and not attributes.get("combine"):
            raise TypeError(f"'np.scatter' of a {T.element_type(v)} value into {x}")
        return [x]

    def evaluate(self, x, *operands):
        *idx, v = operands
        axes, axis = indexed_axes(self.attr("axis"), self.attr("axes"), len(idx))
        out = np.array(x, copy=True)
        both = np.broadcast_shapes(*(np.shape(i) for i in idx))
        rest = [d for k, d in enumerate(out.shape) if k not in axes]
        region = (*rest[:axis], *both, *rest[axis:])
        v = np.asarray(v)
        v = v.reshape(v.shape[max(v.ndim - len(region), 0):])   # extra leading dims of 1
        front = np.moveaxis(np.broadcast_to(v, region), range(axis, axis + len(both)),
                            range(len(both)))
        moved = np.moveaxis(out, axes, range(len(axes)))
        combine = self.attr("combine")
        if combine is None:
            moved[tuple(idx)] = front
            return out
        with np.errstate(all="ignore"):
            getattr(np, combine).at(moved, tuple(idx), front)
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


NUMPY_OPS.update(register_ops("np", (ConcatenateOp, ScanOp, SortOp, PartitionOp, SearchSortedOp,
                                     BinCountOp,
                                     BinCountsOp, UniformHistogramOp,
                                     GatherOp, MaskSelectOp, ScatterOp, MaskAssignOp)))
