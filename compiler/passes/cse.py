"""Common subexpression elimination (MLIR's ``-cse``).

Two ``Pure`` ops with the same name, operands, attributes and result types compute the same
values, so the later one is replaced by the earlier one. As in MLIR, the table of known ops is
scoped by region nesting: an op seen in an enclosing block is reused inside nested regions
(it dominates them), but ops in sibling regions (the ``then`` and ``else`` of an ``scf.if``)
never see each other, and regions of ops isolated from above start empty. Operands of
``Commutative`` ops match in any order. Attributes compare by value, so NaN constants with
the same bits are merged.
"""

from __future__ import annotations

from ..ir.core import Block, Operation
from ..ir.opdef import Commutative, IsolatedFromAbove, Pure
from .manager import Pass


def _key(op: Operation) -> tuple:
    operands = op.operands
    if op.has_trait(Commutative):
        operands = tuple(sorted(operands, key=id))
    return (type(op), operands, tuple(sorted(op.attributes.items(), key=lambda kv: kv[0])),
            tuple(r.type for r in op.results))


def _cse_block(block: Block, known: dict) -> None:
    """CSE of ``block`` and the regions nested in it; ``known`` maps keys to the ops that
    dominate ``block``. One dict for all scopes, each scope deleting its own entries on
    exit (MLIR's ScopedHashTable): a lookup costs the same at any nesting depth."""
    added = []
    for op in list(block.ops):
        if op.has_trait(Pure) and op.results and not op.regions:
            key = _key(op)
            if key in known:
                op.replace_with(known[key].results)
                continue
            known[key] = op
            added.append(key)
        for region in op.regions:
            for nested in region.blocks:
                _cse_block(nested, {} if op.has_trait(IsolatedFromAbove) else known)
    for key in added:
        del known[key]


class CommonSubexpressionEliminationPass(Pass):
    """Replace repeated pure computations by their first occurrence (MLIR: ``-cse``)."""

    name = "cse"

    def run(self, module: Operation) -> None:
        for region in module.regions:
            for block in region.blocks:
                _cse_block(block, {})
