"""Which tensor values are another one changed only by element updates: the values that
lowering keeps in one buffer (``lowering/in_place.py``) and that the frontend may hand a
dead path of a branch instead of a placeholder (``frontend/branches.py``). Semantics:
the same array object in Python, written through ``a[i] = ...``, scatters and masks, and
through branches and loops that hand it on so updated on every path."""

from __future__ import annotations

from ..ir.core import Operation, OpResult, Value
from . import np as npd
from . import np_data as nd
from . import scf

UPDATES = (npd.SetItemOp, nd.ScatterOp, nd.MaskAssignOp)


def loop_blocks(op: Operation) -> tuple:
    """The blocks whose arguments are ``op``'s carried values, and the terminators handing
    each one the next value (``scf.while``: the condition's operands follow its flag)."""
    if isinstance(op, scf.ForOp):
        return ((op.body, op.body.args[1:], op.body.terminator.operands),)
    cond = op.before.terminator.operands[1:]
    return ((op.before, op.before.args, cond), (op.after, op.after.args,
                                                 op.after.terminator.operands))


def updates_in_place(y: Value, root: Value) -> bool:
    """Whether ``y`` is ``root`` changed only by updates and region ops that update it in
    place themselves (the same array object in Python)."""
    while y is not root:
        if not isinstance(y, OpResult):   # a block argument, or a frontend constant
            return False
        op, k = y.op, y.index
        if isinstance(op, UPDATES):
            y = op.target
        elif isinstance(op, scf.IfOp):
            return all(updates_in_place(b.terminator.operands[k], root)
                       for b in (op.then_block, op.else_block))
        elif isinstance(op, (scf.ForOp, scf.WhileOp)) and carries_in_place(op, k):
            y = op.inits[k]
        else:
            return False
    return True


def carries_in_place(op: Operation, k: int) -> bool:
    """Whether loop ``op`` hands its ``k``-th carried value on updated in place."""
    blocks = loop_blocks(op)
    return (all(len(args) == len(op.results) for _, args, _ in blocks)
            and all(updates_in_place(ys[k], args[k]) for _, args, ys in blocks))
