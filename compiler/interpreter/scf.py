"""``scf`` and ``func`` ops that run regions or functions: ``scf.if``, ``scf.for``,
``scf.while`` and ``func.call`` (their terminators end ``Interpreter.run_block``)."""

from __future__ import annotations

from ..dialects import func, scf
from .registry import rule


@rule(scf.IfOp)
def _if(interp, op, xs, env) -> list:
    return interp.run_block(op.then_block if xs[0] else op.else_block, [], env)


@rule(scf.ForOp)
def _for(interp, op, xs, env) -> list:
    i, ub, step, *carried = xs
    while i < ub:
        carried = interp.run_block(op.body, [i, *carried], env)
        i += step
    return carried


@rule(scf.WhileOp)
def _while(interp, op, xs, env) -> list:
    carried = xs
    while True:
        cond, *fwd = interp.run_block(op.before, carried, env)
        if not cond:
            return fwd
        carried = interp.run_block(op.after, fwd, env)


@rule(func.CallOp)
def _call(interp, op, xs, env) -> list:
    return interp.run_function(interp.module.lookup(op.callee), xs)
