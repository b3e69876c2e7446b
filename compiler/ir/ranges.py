"""Integer range analysis of loop-level values (MLIR's ``IntegerRangeAnalysis``, reduced to
what bounds checks and Python-int overflow checks need): constants, induction variables of
``CountedLoop`` s (``scf.for``) with constant bounds and a positive constant step,
value-preserving casts (``SignExtendingCast`` s that do not narrow), and what ops infer
from their operands' ranges (``Op.int_range``: sums and differences), as exact (low, high)
pairs that never wrap."""

from __future__ import annotations

from .. import types as T
from .attributes import attr_value
from .core import BlockArgument, Value
from .opdef import ConstantLike, CountedLoop, SignExtendingCast

_I64 = (-(1 << 63), (1 << 63) - 1)


def _bits(t: T.Type) -> int:
    return 64 if isinstance(t, T.IndexType) else getattr(t, "width", 0)


def uncast(v: Value) -> Value:
    """``v`` with value-preserving integer casts (index casts that do not narrow, sign
    extension) peeled off."""
    while (op := v.owner_op()) is not None and op.has_trait(SignExtendingCast) \
            and _bits(v.type) >= _bits(op.input.type):
        v = op.input
    return v


def int_constant(v: Value) -> int | None:
    """The value of an integer constant (not a bool), else None."""
    op = v.owner_op()
    if op is None or not op.has_trait(ConstantLike) or "value" not in op.attributes:
        return None
    value = attr_value(op.attributes["value"])
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def loop_of(iv: Value):
    """The ``CountedLoop`` (``scf.for``) whose induction variable ``iv`` is, when its step is
    a positive constant; else None."""
    loop = iv.block.parent_op() if isinstance(iv, BlockArgument) and iv.index == 0 else None
    if loop is None or not loop.has_trait(CountedLoop) or (int_constant(loop.step) or 0) <= 0:
        return None
    return loop


def value_range(v: Value, depth: int = 8):
    """(low, high) bounds of the integer ``v`` when known, else None. An induction variable
    of ``lb`` to ``ub`` runs over ``lb .. ub - 1`` (the body never runs otherwise)."""
    v = uncast(v)
    c = int_constant(v)
    if c is not None:
        return c, c
    loop = loop_of(v)
    if loop is not None:
        lo, ub = int_constant(loop.lower), int_constant(loop.upper)
        return None if lo is None or ub is None else (lo, ub - 1)
    op = v.owner_op()
    if depth == 0 or op is None:
        return None
    bounds = op.int_range(lambda w: value_range(w, depth - 1))
    if bounds is None:
        return None
    lo, hi = bounds
    return (lo, hi) if _I64[0] <= lo and hi <= _I64[1] else None   # no wrap-around
