"""Lowering of ``scf`` ops to branches and phis.

``scf.for`` runs while ``iv < ub`` (signed, as MLIR) with ``iv += step``; iteration arguments
and results are header phis. A loop marked ``grafo.parallel`` may also run on threads
(``parallel.py``). ``scf.if`` and ``scf.while`` merge their yielded values with
phis. Memref-typed iteration values become one phi per descriptor field.
"""

from __future__ import annotations

from ..descriptor import NSW, flatten, unflatten
from .registry import rule


def _flat(values) -> list:
    return [x for v in values for x in flatten(v)]


def _phis(b, values, pred) -> list:
    phis = []
    for v in values:
        p = b.phi(v.type)
        p.add_incoming(v, pred)
        phis.append(p)
    return phis


@rule("scf.for")
def for_(fe, op):
    from .. import parallel  # imports the emitter, which imports these rules
    lb, ub, step, *inits = fe.operands(op)
    if parallel.wanted(fe, op):
        parallel.emit_parallel(fe, op, emit_loop)
        return []
    return emit_loop(fe, op, lb, ub, step, inits)


def emit_loop(fe, op, lb, ub, step, inits=()) -> list:
    """The serial loop of ``op`` from ``lb`` to ``ub``; returns its results."""
    b = fe.b
    types = [r.type for r in op.results]
    pre = b.block
    head, body, done = fe.new_block("for.head"), fe.new_block("for.body"), fe.new_block("for.end")
    b.branch(head)
    b.position_at_end(head)
    iv = b.phi(lb.type)
    iv.add_incoming(lb, pre)
    carried = _phis(b, _flat(inits), pre)
    b.cbranch(b.icmp_signed("<", iv, ub), body, done)
    b.position_at_end(body)
    fe.bind(op.body.args, [iv, *unflatten(types, carried)])
    yielded = _flat(fe.operands(fe.emit_ops(op.body)))
    latch = b.block
    iv.add_incoming(b.add(iv, step, flags=NSW), latch)
    for p, v in zip(carried, yielded, strict=True):
        p.add_incoming(v, latch)
    b.branch(head)
    b.position_at_end(done)
    return unflatten(types, carried)


@rule("scf.if")
def if_(fe, op):
    b = fe.b
    types = [r.type for r in op.results]
    then_bb, else_bb, merge = (fe.new_block(n) for n in ("if.then", "if.else", "if.end"))
    b.cbranch(fe.operand(op, 0), then_bb, else_bb)
    arms = []
    for bb, region in ((then_bb, op.regions[0]), (else_bb, op.regions[1])):
        b.position_at_end(bb)
        values = _flat(fe.operands(fe.emit_ops(region.blocks[0]))) if region.blocks else []
        arms.append((values, b.block))
        b.branch(merge)
    b.position_at_end(merge)
    if not types:
        return []
    merged = []
    for i, v in enumerate(arms[0][0]):
        p = b.phi(v.type)
        for values, pred in arms:
            p.add_incoming(values[i], pred)
        merged.append(p)
    return unflatten(types, merged)


@rule("scf.while")
def while_(fe, op):
    b = fe.b
    pre = b.block
    before, after, done = (fe.new_block(n) for n in ("while.cond", "while.body", "while.end"))
    b.branch(before)
    b.position_at_end(before)
    carried = _phis(b, _flat(fe.operands(op)), pre)
    fe.bind(op.before.args, unflatten([a.type for a in op.before.args], carried))
    cond, *forwarded = fe.operands(fe.emit_ops(op.before))
    b.cbranch(cond, after, done)
    b.position_at_end(after)
    fe.bind(op.after.args, forwarded)
    yielded = _flat(fe.operands(fe.emit_ops(op.after)))
    for p, v in zip(carried, yielded, strict=True):
        p.add_incoming(v, b.block)
    b.branch(before)
    b.position_at_end(done)
    return forwarded
