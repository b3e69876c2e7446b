"""Dead code elimination (MLIR's trivially-dead-op removal, as in its canonicalizer and
``-remove-dead-values``; JAX's ``dce_jaxpr``).

One backward sweep over every block: an op whose results are all unused is erased when it has
no side effects, and an ``scf.for`` loses the iteration values that neither its body nor its
users read (MLIR's ``scf.for`` canonicalization: a Python loop variable nobody reads after
the loop). Visiting a block's ops last to first means a user is erased before the ops
that define its operands are looked at, so whole dead chains go in one sweep; nested regions
are swept before the op that holds them is judged.
"""

from __future__ import annotations

from ..dialects import scf
from ..ir.core import Block, Operation
from ..ir.opdef import IsolatedFromAbove, Pure, Terminator
from .manager import Pass


def has_no_effects(op: Operation) -> bool:
    """True for ``Pure`` ops and terminators, and for region ops (``scf.if``/``for``/``while``)
    whose nested ops all have no effects. Ops isolated from above (functions, modules) are
    never effect-free: they are symbols, used by name rather than through values."""
    if op.has_trait(Pure) or op.has_trait(Terminator):
        return True
    if not op.regions or op.has_trait(IsolatedFromAbove):
        return False
    return all(has_no_effects(nested) for r in op.regions for b in r.blocks
               for nested in b.ops)


def is_trivially_dead(op: Operation) -> bool:
    """An op that can be erased: not a terminator, results unused, no effects."""
    return (not op.has_trait(Terminator) and not any(r.uses for r in op.results)
            and has_no_effects(op))


def sweep_block(block: Block) -> None:
    """Erase the dead ops of ``block`` and of the regions nested in it, last op first, and
    the dead iteration values of its ``scf.for`` ops."""
    for op in reversed(list(block.ops)):
        for region in op.regions:
            for nested in region.blocks:
                sweep_block(nested)
        if is_trivially_dead(op):
            op.erase()
        elif isinstance(op, scf.ForOp):
            drop_dead_iteration_values(op)


def drop_dead_iteration_values(loop: scf.ForOp) -> scf.ForOp:
    """``loop`` without the iteration values that neither its body nor its users read (a new
    op replacing it when there are any)."""
    body = loop.body
    dead = [k for k, r in enumerate(loop.results)
            if not r.uses and not body.args[k + 1].uses]
    if not dead:
        return loop
    keep = [k for k in range(len(loop.results)) if k not in dead]
    lb, ub, step, *inits = loop.operands
    new = scf.ForOp.create(lb, ub, step, [inits[k] for k in keep], loc=loop.loc)
    new.attributes.update(loop.attributes)
    loop.parent.insert_before(loop, new)
    args = [body.args[0]] + [body.args[k + 1] for k in keep]
    for old, arg in zip(args, new.body.args, strict=True):
        old.replace_all_uses_with(arg)
    yield_ = body.terminator
    kept = [yield_.operands[k] for k in keep]
    for op in list(body.ops):
        op.detach()
        if op is not yield_:
            new.body.append(op)
    new.body.append(scf.YieldOp.build(kept, {}, [], loc=yield_.loc))
    yield_.drop_operands()
    for k, r in zip(keep, new.results, strict=True):
        loop.results[k].replace_all_uses_with(r)
    loop.erase()
    return new


class DeadCodeEliminationPass(Pass):
    """Remove side-effect-free ops whose results are unused (MLIR: trivially dead ops).

    Ops without ``Pure`` (``grafo.check``, ``memref.store``, ``func.call``, ``func.return``)
    always stay, and so do region ops holding any of them."""

    name = "dce"

    def run(self, module: Operation) -> None:
        for region in module.regions:
            for block in region.blocks:
                sweep_block(block)
