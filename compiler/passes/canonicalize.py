"""Canonicalization (MLIR's ``-canonicalize``): folding plus local rewrite patterns, applied
until nothing changes, with dead ops removed after every round.

Each round walks the module once and, at every op: moves a constant operand of a
``Commutative`` binary op to the second position (so patterns only look at ``x op c``),
constant-folds it (``fold.fold_op``), or applies the first matching rewrite of ``PATTERNS``,
the dialects' tables of ``op class -> rewrites`` (``dialects/canonicalization/``). A rewrite
returns the value (or values) replacing the op's results, possibly after inserting new ops
before the op, or None; a replacement is used only when its types are exactly the results'
types, so broadcasting rewrites (``x + zeros((3, 4))`` with ``x`` of shape (4,)) never apply.
"""

from __future__ import annotations

from ..dialects.canonicalization import PATTERNS
from ..dialects.canonicalization.constants import constant_attr
from ..ir.core import Operation, Value
from ..ir.opdef import Commutative
from .dce import sweep_block
from .fold import fold_op
from .manager import Pass

MAX_ITERATIONS = 32  # a bound on rounds, as MLIR's greedy driver has, against cycling rules


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


def _replacement(op: Operation, got) -> list[Value] | None:
    """The values a rewrite returned, when they match ``op``'s results one for one in type."""
    values = [got] if isinstance(got, Value) else list(got)
    return values if [v.type for v in values] == [r.type for r in op.results] else None


def rewrite_op(op: Operation) -> bool:
    """Canonicalize one op in place; True if the IR changed."""
    changed = constants_second(op)
    if fold_op(op):
        return True
    for rewrite in PATTERNS.get(type(op), ()):
        got = rewrite(op)
        values = None if got is None else _replacement(op, got)
        if values is not None:
            op.replace_with(values)
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
