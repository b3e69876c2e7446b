"""Canonicalization (MLIR's ``-canonicalize``): folding plus local rewrite patterns, applied
until nothing changes, with dead ops removed after every round.

Each round walks the module once and, at every op: moves a constant operand of a
``Commutative`` binary op to the second position (so patterns only look at ``x op c``),
constant-folds it (``fold.fold_op``), or applies the first matching rewrite of ``PATTERNS``,
a table of ``op name -> rewrite`` rules in the style of tinygrad's pattern matcher. A rewrite
returns the value that replaces the op's result (it may insert new ops before the op), or
None; a replacement is used only when its type is exactly the result's type, so broadcasting
rewrites (``x + zeros((3, 4))`` with ``x`` of shape (4,)) never apply.

Float identities are applied only where IEEE 754 makes them exact for every input, -0.0 and
NaN included: ``x * 1.0``, ``x / 1.0``, ``x + (-0.0)`` and ``x - 0.0`` are ``x``;
``x + 0.0`` is not (``-0.0 + 0.0`` is ``+0.0``) and ``x - (-0.0)`` is not.
"""

from __future__ import annotations

from typing import Callable

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.attributes import IntegerAttr
from ..ir.builder import Builder
from ..ir.core import Operation, Value
from ..ir.opdef import Commutative
from ..ir.ranges import loop_of, uncast, value_range
from .dce import sweep_block
from .fold import constant_attr, fold_op, materialize, numpy_value
from .manager import Pass

MAX_ITERATIONS = 32  # a bound on rounds, as MLIR's greedy driver has, against cycling rules

Rewrite = Callable[[Operation], "Value | None"]


# constant predicates ---------------------------------------------------------------------

def _all_elements(v: Value, pred) -> bool:
    """True when ``v`` is a constant (scalar or array) and ``pred`` holds for every element."""
    attr = constant_attr(v)
    value = None if attr is None else numpy_value(attr, v.type)
    if value is None:
        return False
    return bool(np.all(pred(np.asarray(value))))


def int_zero(v: Value) -> bool:
    """An integer constant 0 (or bool False), every element."""
    return not T.is_float(v.type) and _all_elements(v, lambda a: a == 0)


def pos_zero(v: Value) -> bool:
    """A float constant +0.0, every element."""
    return T.is_float(v.type) and _all_elements(v, lambda a: (a == 0) & ~np.signbit(a))


def neg_zero(v: Value) -> bool:
    """A float constant -0.0, every element."""
    return T.is_float(v.type) and _all_elements(v, lambda a: (a == 0) & np.signbit(a))


def one(v: Value) -> bool:
    """A constant 1 (1.0, True), every element."""
    return _all_elements(v, lambda a: a == 1)


def all_true(v: Value) -> bool:
    return T.is_bool(v.type) and _all_elements(v, lambda a: a)


def _integral(v: Value) -> bool:
    """Integers and weak ints, not bool (NumPy rejects ``-`` on bools)."""
    return T.is_integer(v.type)


def _not_float(v: Value) -> bool:
    """Integers and bools: where adding 0 (or False) is exact."""
    return not T.is_float(v.type)


# rewrite builders ------------------------------------------------------------------------

def rhs_identity(pred, applies=lambda v: True) -> Rewrite:
    """``x op c -> x`` when ``pred(c)`` and ``applies(x)``."""
    def rewrite(op: Operation):
        x, c = op.operands
        return x if applies(x) and pred(c) else None
    return rewrite


def involution(op: Operation):
    """``f(f(x)) -> x`` (negation, bitwise/logical not)."""
    inner = op.operands[0].owner_op()
    return inner.operands[0] if inner is not None and inner.name == op.name else None


def idempotent(op: Operation):
    """``f(f(x)) -> f(x)`` (absolute value, rounding)."""
    inner = op.operands[0].owner_op()
    return inner.result if inner is not None and inner.name == op.name else None


def same_operands(op: Operation):
    """``f(x, x) -> x`` (max, min, and, or)."""
    a, b = op.operands
    return a if a is b else None


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


def astype_round_trip(op: Operation):
    """``astype(astype(x, m), t) -> x`` when ``t`` is ``x``'s type and ``m`` holds every value
    of it exactly (NumPy's "safe" casting), e.g. int64 -> Python int -> int64."""
    inner = op.operands[0].owner_op()
    if inner is None or inner.name != op.name:
        return None
    x = inner.operands[0]
    if x.type != op.result.type:
        return None
    safe = np.can_cast(T.to_dtype(x.type), T.to_dtype(inner.result.type), "safe")
    return x if safe else None


def power_two(op: Operation):
    """``x ** 2 -> x * x``: NumPy's own fast path for a scalar exponent of 2 is ``square``,
    so the product gives its results exactly (also for wrapping integers)."""
    x, c = op.operands
    if T.shape_of(c.type) or not _all_elements(c, lambda a: a == 2):
        return None
    b = Builder(op.parent, before=op, loc=op.loc)
    return b.create(npd.MultiplyOp, [x, x]).result


def power_half(op: Operation):
    """``x ** 0.5 -> sqrt(x)`` for a float array ``x``: NumPy's power loop takes ``sqrt`` for
    a scalar exponent of 0.5, which differs from ``pow`` at -0.0 (-0.0, not 0.0) and -inf
    (nan, not inf). A NumPy scalar base goes through C's ``pow`` instead, so stays."""
    x, c = op.operands
    if (not isinstance(x.type, T.TensorType) or not T.is_float(x.type) or T.shape_of(c.type)
            or not _all_elements(c, lambda a: a == 0.5)):
        return None
    b = Builder(op.parent, before=op, loc=op.loc)
    return b.create(npd.SqrtOp, [x]).result


def transpose_identity(op: Operation):
    """``transpose(x, (0, 1, ...)) -> x``."""
    perm = op.attr("perm")
    return op.operands[0] if tuple(perm) == tuple(range(len(perm))) else None


def transpose_transpose(op: Operation):
    """``transpose(transpose(x, p), q) -> transpose(x, p∘q)`` (``x`` itself if identity)."""
    inner = op.operands[0].owner_op()
    if inner is None or inner.name != op.name:
        return None
    p, q = inner.attr("perm"), op.attr("perm")
    perm = tuple(p[i] for i in q)
    x = inner.operands[0]
    if perm == tuple(range(len(perm))):
        return x
    b = Builder(op.parent, before=op, loc=op.loc)
    return b.create(npd.TransposeOp, [x], {"perm": perm}).result


def loop_range_compare(op: Operation):
    """A signed ``cmpi`` decided by the ranges of its operands (``value_range``): ``x < y``
    holds when every ``x`` is below every ``y`` and fails when none is; an induction
    variable is also below the loop's own upper bound, whatever it is (MLIR's integer range
    analysis, ``-int-range-optimizations``). It removes the bounds checks of ``a[i]`` in
    ``for i in range(a.shape[0])`` and of ``x[i - 1]``, ``x[i + 1]`` in
    ``for i in range(1, n - 1)``."""
    pred = op.attr("predicate")
    if pred not in (2, 3, 4, 5):   # slt, sle, sgt, sge
        return None
    x, y = op.operands
    loop = loop_of(uncast(x))
    if pred in (2, 5) and loop is not None and uncast(y) is uncast(loop.operands[1]):
        holds, fails = True, False
    else:
        rx, ry = value_range(x), value_range(y)
        if rx is None or ry is None:
            return None
        if pred in (2, 5):    # x < y (slt, or sge as its negation)
            holds, fails = rx[1] < ry[0], rx[0] >= ry[1]
        else:                 # x <= y (sle, or sgt as its negation)
            holds, fails = rx[1] <= ry[0], rx[0] > ry[1]
    if not (holds or fails):
        return None
    value = holds if pred in (2, 3) else not holds
    return materialize(op, IntegerAttr(int(value), T.i1), T.i1)


def passing_check(op: Operation) -> bool:
    """A ``grafo.check`` whose condition is the constant true can never fail."""
    return all_true(op.operands[0])


# the table -------------------------------------------------------------------------------

PATTERNS: dict[str, list[Rewrite]] = {}

for _name, _rule in [
    # np dialect: NumPy semantics
    ("np.add", rhs_identity(int_zero, _not_float)),
    ("np.add", rhs_identity(neg_zero)),
    ("np.subtract", rhs_identity(int_zero, _integral)),
    ("np.subtract", rhs_identity(pos_zero)),
    ("np.multiply", rhs_identity(one)),
    ("np.divide", rhs_identity(one)),
    ("np.floor_divide", rhs_identity(one, _integral)),
    ("np.power", rhs_identity(one, _integral)),
    ("np.power", power_two),
    ("np.power", power_half),
    ("np.bitwise_or", rhs_identity(int_zero)),
    ("np.bitwise_xor", rhs_identity(int_zero)),
    ("np.left_shift", rhs_identity(int_zero)),
    ("np.right_shift", rhs_identity(int_zero)),
    ("np.bitwise_and", same_operands),
    ("np.bitwise_or", same_operands),
    ("np.maximum", same_operands),
    ("np.minimum", same_operands),
    ("np.fmax", same_operands),
    ("np.fmin", same_operands),
    ("np.logical_and", same_operands),
    ("np.logical_or", same_operands),
    ("np.negative", involution),
    ("np.invert", involution),
    ("np.logical_not", involution),
    ("np.positive", identity_cast),
    ("np.absolute", idempotent),
    ("np.floor", idempotent),
    ("np.ceil", idempotent),
    ("np.trunc", idempotent),
    ("np.rint", idempotent),
    ("np.astype", identity_cast),
    ("np.astype", astype_round_trip),
    ("np.reshape", identity_cast),
    ("np.broadcast_to", identity_cast),
    ("np.transpose", transpose_identity),
    ("np.transpose", transpose_transpose),
    ("np.where", where_same),
    # arith dialect: upstream MLIR's folders of the same identities
    ("arith.addi", rhs_identity(int_zero)),
    ("arith.subi", rhs_identity(int_zero)),
    ("arith.muli", rhs_identity(one)),
    ("arith.ori", rhs_identity(int_zero)),
    ("arith.andi", rhs_identity(all_true)),
    ("arith.andi", same_operands),
    ("arith.ori", same_operands),
    ("arith.xori", rhs_identity(int_zero)),
    ("arith.addf", rhs_identity(neg_zero)),
    ("arith.subf", rhs_identity(pos_zero)),
    ("arith.mulf", rhs_identity(one)),
    ("arith.divf", rhs_identity(one)),
    ("arith.negf", involution),
    ("arith.select", select_same),
    ("arith.select", select_constant),
    ("arith.cmpi", loop_range_compare),
]:
    PATTERNS.setdefault(_name, []).append(_rule)


# the driver ------------------------------------------------------------------------------

def constants_second(op: Operation) -> bool:
    """Swap the operands of a commutative binary op whose only constant operand is the first
    (MLIR's canonical order); True if swapped."""
    if not op.has_trait(Commutative) or len(op.operands) != 2:
        return False
    a, b = op.operands
    if constant_attr(a) is None or constant_attr(b) is not None:
        return False
    op.set_operands([b, a])
    return True


def rewrite_op(op: Operation) -> bool:
    """Canonicalize one op in place; True if the IR changed."""
    if op.name == "grafo.check" and passing_check(op):
        op.erase()
        return True
    changed = constants_second(op)
    if fold_op(op):
        return True
    for rewrite in PATTERNS.get(op.name, ()):
        v = rewrite(op)
        if v is not None and v.type == op.result.type:
            op.replace_with([v])
            return True
    return changed


class CanonicalizePass(Pass):
    """Fold constants and apply ``PATTERNS`` to a fixed point, erasing dead ops
    (MLIR: ``-canonicalize`` with its greedy pattern driver)."""

    name = "canonicalize"

    def run(self, module: Operation) -> None:
        for _ in range(MAX_ITERATIONS):
            changed = False
            for op in list(module.walk()):
                if op is not module and op.parent is not None:
                    changed |= rewrite_op(op)
            for region in module.regions:
                for block in region.blocks:
                    sweep_block(block)
            if not changed:
                return
