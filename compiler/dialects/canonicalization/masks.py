"""Reductions of a boolean-mask selection without the selection: ``sum(x[mask])`` becomes
``sum(where(mask, x, -0.0))`` and ``len(x[mask])`` the number of true elements of ``mask``,
so that ``x[mask].sum()`` and ``x[mask].mean()`` run as loops over ``x`` and ``mask`` with no
gather into a temporary buffer (the ``np.mask_select`` is left without uses for DCE).

Applied where ``mask`` covers every dim of ``x`` (the selection is 1-D). ``-0.0`` is the
exact identity of float addition (``v + -0.0`` is ``v`` for every ``v``: -0.0, NaN and inf
included), so the sum adds the same values as the selection's; only the order of the float
additions differs, as it does between NumPy's pairwise sum and grafo's. NumPy's IndexError
for a mask whose dims differ from ``x``'s is kept: a ``grafo.check`` placed where the
selection was (once for both rewrites).
"""

from __future__ import annotations

from ... import types as T
from ...ir.attributes import StringAttr
from ...ir.builder import Builder
from ...ir.core import Operation
from .. import np as npd
from .. import np_data as nd
from ..grafo import CheckOp

MESSAGE = ("boolean index did not match indexed array along axis %d; size of axis is {0} but "
           "size of corresponding boolean axis is {1}")


def _whole_mask_select(v) -> Operation | None:
    """The ``np.mask_select`` defining ``v`` when its mask covers every dim of its input
    and no static dims of the two differ (those stay for the selection's own IndexError)."""
    sel = v.owner_op()
    if not isinstance(sel, nd.MaskSelectOp):
        return None
    x, mask = sel.operands
    if not isinstance(mask.type, T.TensorType) or mask.type.rank != x.type.rank:
        return None
    dims = zip(T.shape_of(x.type), T.shape_of(mask.type), strict=True)
    if any(dx is not None and dm is not None and dx != dm for dx, dm in dims):
        return None
    return sel


def _checked(sel: Operation) -> bool:
    """Whether the checks of ``_check_dims`` already stand right before ``sel``."""
    ops = sel.parent.ops
    i = ops.index(sel) - 1
    while i >= 0 and isinstance(ops[i], (CheckOp, npd.EqualOp, npd.AsTypeOp, npd.DimOp)):
        if isinstance(ops[i], CheckOp) and ops[i].attr("message").startswith(MESSAGE[:40]):
            return True
        i -= 1
    return False


def _check_dims(sel: Operation) -> None:
    """Insert before ``sel`` the checks its lowering makes: each mask dim equals ``x``'s."""
    x, mask = sel.operands
    if _checked(sel):
        return
    b = Builder(sel.parent, before=sel, loc=sel.loc)
    shapes = zip(T.shape_of(x.type), T.shape_of(mask.type), strict=True)
    for a, (dx, dm) in enumerate(shapes):
        if dx is not None and dx == dm:
            continue
        sizes = [b.create(npd.AsTypeOp, [b.create(npd.DimOp, [v], {"index": a}).result],
                          result_types=[T.i64]).result for v in (x, mask)]
        ok = b.create(npd.EqualOp, sizes).result
        b.create(CheckOp, [ok, *sizes], {"kind": StringAttr("IndexError"),
                                         "message": StringAttr(MESSAGE % a)})


def masked_sum(op: Operation):
    """``sum(x[mask], axis=0) -> sum(where(mask, x, -0.0))`` (0 for integers)."""
    if op.attr("kind") != "sum" or op.attr("keepdims") or tuple(op.attr("axes")) != (0,):
        return None
    sel = _whole_mask_select(op.input)
    el = op.result.type
    if sel is None or T.is_complex(el) or not (T.is_float(el) or T.is_integer(el)):
        return None
    _check_dims(sel)
    x, mask = sel.operands
    b = Builder(op.parent, before=op, loc=op.loc)
    fill = b.insert(npd.ConstantOp.of(-0.0 if T.is_float(el) else 0, el)).result
    kept = b.create(npd.WhereOp, [mask, x, fill]).result
    return b.create(npd.ReduceOp, [kept], {"kind": "sum", "axes": list(range(x.type.rank))}
                    ).result


def masked_count(op: Operation):
    """``len(x[mask]) -> count_nonzero(mask)``."""
    sel = _whole_mask_select(op.input)
    if sel is None or op.attr("index") != 0:
        return None
    _check_dims(sel)
    mask = sel.operands[1]
    b = Builder(op.parent, before=op, loc=op.loc)
    ones = b.create(npd.AsTypeOp, [mask],
                    result_types=[T.TensorType(mask.type.shape, T.i64)]).result
    count = b.create(npd.ReduceOp, [ones], {"kind": "sum",
                                            "axes": list(range(mask.type.rank))}).result
    return b.create(npd.AsTypeOp, [count], result_types=[op.result.type]).result
