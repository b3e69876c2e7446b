"""Canonicalization patterns of the ``np`` dialect: identities of NumPy's semantics.

Float identities are applied only where IEEE 754 makes them exact for every input, -0.0 and
NaN included: ``x * 1.0``, ``x / 1.0``, ``x + (-0.0)`` and ``x - 0.0`` are ``x``;
``x + 0.0`` is not (``-0.0 + 0.0`` is ``+0.0``) and ``x - (-0.0)`` is not.
"""

from __future__ import annotations

import numpy as np

from ... import types as T
from ...ir.builder import Builder
from ...ir.core import Operation
from .. import np as npd
from .masks import masked_count, masked_sum
from .matchers import all_elements, all_true, int_zero, integral, neg_zero, not_float, one, pos_zero
from .rewrites import idempotent, involution, rhs_identity, same_kind, same_operands, table


def identity_cast(op: Operation):
    """An op whose single operand already has the result type (``astype`` to the same
    dtype, ``reshape``/``broadcast_to`` to the same static shape) is that operand; not a
    copy into a given memory ``order`` (``ndarray.copy``), whose layout a float sum reads."""
    if len(op.operands) != 1 or "order" in op.attributes:
        return None
    x = op.operands[0]
    return x if x.type == op.result.type else None


def where_same(op: Operation):
    """``where(c, x, x) -> x``; ``where(True, x, y) -> x``."""
    c, x, y = op.operands
    return x if x is y or all_true(c) else None


def astype_round_trip(op: Operation):
    """``astype(astype(x, m), t) -> x`` when ``t`` is ``x``'s type and ``m`` holds every value
    of it exactly (NumPy's "safe" casting), e.g. int64 -> Python int -> int64."""
    inner = same_kind(op.input, op)
    if inner is None:
        return None
    x = inner.input
    if x.type != op.result.type:
        return None
    safe = np.can_cast(T.to_dtype(x.type), T.to_dtype(inner.result.type), "safe")
    return x if safe else None


def power_two(op: Operation):
    """``x ** 2 -> x * x``: NumPy's own fast path for a scalar exponent of 2 is ``square``,
    so the product gives its results exactly (also for wrapping integers)."""
    x, c = op.operands
    if T.shape_of(c.type) or not all_elements(c, lambda a: a == 2):
        return None
    b = Builder(op.parent, before=op, loc=op.loc)
    return b.create(npd.MultiplyOp, [x, x]).result


def power_half(op: Operation):
    """``x ** 0.5 -> sqrt(x)`` for a float array ``x``: NumPy's power loop takes ``sqrt`` for
    a scalar exponent of 0.5, which differs from ``pow`` at -0.0 (-0.0, not 0.0) and -inf
    (nan, not inf). A NumPy scalar base goes through C's ``pow`` instead, so stays."""
    x, c = op.operands
    if (not isinstance(x.type, T.TensorType) or not T.is_float(x.type) or T.shape_of(c.type)
            or not all_elements(c, lambda a: a == 0.5)):
        return None
    b = Builder(op.parent, before=op, loc=op.loc)
    return b.create(npd.SqrtOp, [x]).result


def transpose_identity(op: Operation):
    """``transpose(x, (0, 1, ...)) -> x``."""
    perm = op.attr("perm")
    return op.input if tuple(perm) == tuple(range(len(perm))) else None


def transpose_transpose(op: Operation):
    """``transpose(transpose(x, p), q) -> transpose(x, p∘q)`` (``x`` itself if identity)."""
    inner = same_kind(op.input, op)
    if inner is None:
        return None
    p, q = inner.attr("perm"), op.attr("perm")
    perm = tuple(p[i] for i in q)
    x = inner.input
    if perm == tuple(range(len(perm))):
        return x
    b = Builder(op.parent, before=op, loc=op.loc)
    return b.create(npd.TransposeOp, [x], {"perm": perm}).result


PATTERNS = table([
    (npd.AddOp, rhs_identity(int_zero, not_float)),
    (npd.AddOp, rhs_identity(neg_zero)),
    (npd.SubtractOp, rhs_identity(int_zero, integral)),
    (npd.SubtractOp, rhs_identity(pos_zero)),
    (npd.MultiplyOp, rhs_identity(one)),
    (npd.DivideOp, rhs_identity(one)),
    (npd.FloorDivideOp, rhs_identity(one, integral)),
    (npd.PowerOp, rhs_identity(one, integral)),
    (npd.PowerOp, power_two),
    (npd.PowerOp, power_half),
    (npd.BitwiseOrOp, rhs_identity(int_zero)),
    (npd.BitwiseXorOp, rhs_identity(int_zero)),
    (npd.LeftShiftOp, rhs_identity(int_zero)),
    (npd.RightShiftOp, rhs_identity(int_zero)),
    (npd.BitwiseAndOp, same_operands),
    (npd.BitwiseOrOp, same_operands),
    (npd.MaximumOp, same_operands),
    (npd.MinimumOp, same_operands),
    (npd.FmaxOp, same_operands),
    (npd.FminOp, same_operands),
    (npd.LogicalAndOp, same_operands),
    (npd.LogicalOrOp, same_operands),
    (npd.NegativeOp, involution),
    (npd.InvertOp, involution),
    (npd.LogicalNotOp, involution),
    (npd.PositiveOp, identity_cast),
    (npd.AbsoluteOp, idempotent),
    (npd.FloorOp, idempotent),
    (npd.CeilOp, idempotent),
    (npd.TruncOp, idempotent),
    (npd.RintOp, idempotent),
    (npd.AsTypeOp, identity_cast),
    (npd.AsTypeOp, astype_round_trip),
    (npd.ReshapeOp, identity_cast),
    (npd.BroadcastToOp, identity_cast),
    (npd.TransposeOp, transpose_identity),
    (npd.TransposeOp, transpose_transpose),
    (npd.WhereOp, where_same),
    (npd.ReduceOp, masked_sum),
    (npd.DimOp, masked_count),
])
