"""Canonicalization patterns of the ``arith`` dialect: upstream MLIR's folders of the same
identities as the ``np`` dialect's (IEEE 754-exact float ones only), selects, and integer
comparisons that value ranges decide."""

from __future__ import annotations

from ... import types as T
from ...ir.attributes import IntegerAttr
from ...ir.core import Operation
from ...ir.ranges import loop_of, uncast, value_range
from .. import arith
from .constants import constant_attr, materialize
from .matchers import all_true, int_zero, neg_zero, one, pos_zero
from .rewrites import involution, rhs_identity, same_operands, table

SLT, SLE, SGT, SGE = (arith.CMPI[p] for p in ("slt", "sle", "sgt", "sge"))


def select_same(op: Operation):
    """``arith.select(c, x, x) -> x``."""
    c, x, y = op.operands
    return x if x is y else None


def select_constant(op: Operation):
    """``arith.select(true, x, y) -> x``, ``arith.select(false, x, y) -> y`` (a scalar
    condition)."""
    c, x, y = op.operands
    if c.type != T.i1 or constant_attr(c) is None:
        return None
    return x if all_true(c) else y


def loop_range_compare(op: Operation):
    """A signed ``cmpi`` decided by the ranges of its operands (``value_range``): ``x < y``
    holds when every ``x`` is below every ``y`` and fails when none is; an induction
    variable is also below the loop's own upper bound, whatever it is (MLIR's integer range
    analysis, ``-int-range-optimizations``). It removes the bounds checks of ``a[i]`` in
    ``for i in range(a.shape[0])`` and of ``x[i - 1]``, ``x[i + 1]`` in
    ``for i in range(1, n - 1)``."""
    pred = op.attr("predicate")
    if pred not in (SLT, SLE, SGT, SGE):
        return None
    x, y = op.operands
    loop = loop_of(uncast(x))
    if pred in (SLT, SGE) and loop is not None and uncast(y) is uncast(loop.upper):
        holds, fails = True, False
    else:
        rx, ry = value_range(x), value_range(y)
        if rx is None or ry is None:
            return None
        if pred in (SLT, SGE):    # x < y (sge as its negation)
            holds, fails = rx[1] < ry[0], rx[0] >= ry[1]
        else:                     # x <= y (sgt as its negation)
            holds, fails = rx[1] <= ry[0], rx[0] > ry[1]
    if not (holds or fails):
        return None
    value = holds if pred in (SLT, SLE) else not holds
    return materialize(op, IntegerAttr(int(value), T.i1), T.i1)


PATTERNS = table([
    (arith.AddIOp, rhs_identity(int_zero)),
    (arith.SubIOp, rhs_identity(int_zero)),
    (arith.MulIOp, rhs_identity(one)),
    (arith.OrIOp, rhs_identity(int_zero)),
    (arith.AndIOp, rhs_identity(all_true)),
    (arith.AndIOp, same_operands),
    (arith.OrIOp, same_operands),
    (arith.XOrIOp, rhs_identity(int_zero)),
    (arith.AddFOp, rhs_identity(neg_zero)),
    (arith.SubFOp, rhs_identity(pos_zero)),
    (arith.MulFOp, rhs_identity(one)),
    (arith.DivFOp, rhs_identity(one)),
    (arith.NegFOp, involution),
    (arith.SelectOp, select_same),
    (arith.SelectOp, select_constant),
    (arith.CmpIOp, loop_range_compare),
])
