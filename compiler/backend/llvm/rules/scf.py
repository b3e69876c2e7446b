"""Lowering of ``scf`` ops to branches and phis.

``scf.for`` runs while ``iv < ub`` (signed, as MLIR) with ``iv += step``; iteration arguments
and results are header phis. A loop marked ``grafo.parallel`` may also run on threads
(``parallel.py``). ``scf.if`` and ``scf.while`` merge their yielded values with
phis. Memref-typed iteration values become one phi per descriptor field.

A loop marked ``grafo.lanes = L`` carries its scalar iteration values in groups of ``L`` as
one vector phi each (``<L x float>``): the body reads lanes with ``extractelement`` and yields
through ``insertelement``, which LLVM's SLP vectorizer turns into vector loads and adds. The
lanes stay independent scalars, so the result is bit for bit the scalar loop's; the phi only
keeps the partial sums of a reduction in one register instead of leaving LLVM to rediscover
them after unrolling. SLP vectorization, unlike LLVM's loop vectorizer, does not version a
loop on a run-time stride, so a lanes loop whose reads go along one dim of strided memrefs
(the last for rows, the first for the columns of a Fortran-ordered array) is emitted twice:
with those strides taken as 1 (contiguous: vector loads), chosen when they are, and as it is
(``_unit_stride_version``).

A loop marked ``grafo.poll = N`` polls the interrupt flag every N iterations
(``interrupt.py``): an ``scf.for`` runs in chunks of N iterations with a poll between them
(N > 1), each the loop as described here, or polls at the start of each iteration (N = 1);
an ``scf.while`` polls every N iterations, counting down in a carried register.

A loop marked ``grafo.no_unroll`` gets LLVM loop metadata ``llvm.loop.unroll.disable`` on its
back edge (MLIR's ``#llvm.loop_unroll<disable = true>``): the register-tiled matmul kernel
fills the vector registers with one step of k, and unrolled it spills to the stack in its
innermost loop.
"""

from __future__ import annotations

from dataclasses import replace

from llvmlite import ir

from ....dialects import memref, scf
from ..descriptor import NSW, MemRef, flatten, is_const, unflatten
from ..interrupt import strip_mined
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


@rule(scf.ForOp)
def for_(fe, op):
    from .. import parallel  # imports the emitter, which imports these rules
    lb, ub, step, *inits = fe.operands(op)
    if parallel.wanted(fe, op):
        parallel.emit_parallel(fe, op, emit_loop)
        return []
    return emit_loop(fe, op, lb, ub, step, inits)


def poll_every(fe, op) -> int | None:
    """How many iterations of ``op`` run between interrupt polls in ``fe`` (None: no
    polls)."""
    return op.attr(scf.POLL) if fe.polls else None


def emit_loop(fe, op, lb, ub, step, inits=()) -> list:
    """The serial loop of ``op`` from ``lb`` to ``ub``; returns its results."""
    every = poll_every(fe, op)
    if every is not None and every > 1:
        types = [r.type for r in op.results]
        return unflatten(types, strip_mined(
            fe, lb, ub, step, _flat(inits), every,
            lambda lo, hi, values: _flat(_versioned(fe, op, lo, hi, step,
                                                    unflatten(types, values))),
            lambda c: fe.poll()))
    return _versioned(fe, op, lb, ub, step, inits)


def _versioned(fe, op, lb, ub, step, inits) -> list:
    axes = _strided_axes(fe, op) if op.attr(scf.LANES) else []
    if axes:
        return _unit_stride_version(fe, op, axes, lambda: _emit_loop(fe, op, lb, ub, step,
                                                                     inits))
    return _emit_loop(fe, op, lb, ub, step, inits)


def _strided_axes(fe, op) -> list:
    """``(memref, dim)`` for the memrefs defined outside ``op`` that its body reads or writes
    at an index varying with its induction variable in that one dim, whose stride is not
    known to be 1 (the last dim of a row, the first of a Fortran-ordered column)."""
    varying, axes = {op.induction_var}, []
    for inner in op.walk():
        if inner is op:
            continue
        if any(v in varying for v in inner.operands):
            varying.update(inner.results)
        if isinstance(inner, (memref.LoadOp, memref.StoreOp)):
            at = 1 if isinstance(inner, memref.LoadOp) else 2
            ref, idx = inner.operands[at - 1], inner.operands[at:]
            desc = fe.values.get(ref)
            dims = [d for d, i in enumerate(idx) if i in varying]
            if (isinstance(desc, MemRef) and desc.strides and len(dims) == 1
                    and not is_const(desc.strides[dims[0]], 1) and (ref, dims[0]) not in axes):
                axes.append((ref, dims[0]))
    return axes


def _unit_stride_version(fe, op, axes, emit) -> list:
    """``emit()`` twice: with the stride of each ``(memref, dim)`` of ``axes`` replaced by 1,
    when all of them are 1 at run time, and unchanged otherwise; merges the results."""
    b = fe.b
    refs = list(dict.fromkeys(ref for ref, _ in axes))
    saved = {ref: fe.values[ref] for ref in refs}
    one = ir.Constant(saved[refs[0]].strides[0].type, 1)
    unit = None
    for ref, d in axes:
        is_one = b.icmp_signed("==", saved[ref].strides[d], one)
        unit = is_one if unit is None else b.and_(unit, is_one)
    fast, slow, merge = (fe.new_block(n) for n in ("rows.unit", "rows.strided", "rows.end"))
    b.cbranch(unit, fast, slow)
    arms = []
    for bb, unit_rows in ((fast, True), (slow, False)):
        b.position_at_end(bb)
        if unit_rows:
            for ref in refs:
                ones = {d for r, d in axes if r is ref}
                fe.values[ref] = replace(saved[ref], strides=[
                    one if d in ones else s for d, s in enumerate(saved[ref].strides)])
        try:
            arms.append((_flat(emit()), b.block))
        finally:
            for ref in refs:
                fe.values[ref] = saved[ref]
        b.branch(merge)
    b.position_at_end(merge)
    return unflatten([r.type for r in op.results], _merged(b, arms))


def _merged(b, arms) -> list:
    """One phi per value of the ``(values, predecessor block)`` arms, at the builder's
    position (the head of their common successor)."""
    merged = []
    for i, v in enumerate(arms[0][0]):
        p = b.phi(v.type)
        for values, pred in arms:
            p.add_incoming(values[i], pred)
        merged.append(p)
    return merged


def _emit_loop(fe, op, lb, ub, step, inits) -> list:
    b = fe.b
    types = [r.type for r in op.results]
    pre = b.block
    head, body, done = fe.new_block("for.head"), fe.new_block("for.body"), fe.new_block("for.end")
    b.branch(head)
    b.position_at_end(head)
    iv = b.phi(lb.type)
    iv.add_incoming(lb, pre)
    lanes = op.attr(scf.LANES)
    if lanes:
        b.position_at_end(pre)
        inits = _packed(b, _flat(inits), lanes)
        b.position_at_end(head)
    carried = _phis(b, _flat(inits), pre)
    values = _lanes(b, carried) if lanes else carried
    b.cbranch(b.icmp_signed("<", iv, ub), body, done)
    b.position_at_end(body)
    if poll_every(fe, op) == 1:
        fe.poll()
    fe.bind(op.body.args, [iv, *unflatten(types, values)])
    yielded = _flat(fe.operands(fe.emit_ops(op.body)))
    if lanes:
        yielded = _packed(b, yielded, lanes)
    latch = b.block
    iv.add_incoming(b.add(iv, step, flags=NSW), latch)
    for p, v in zip(carried, yielded, strict=True):
        p.add_incoming(v, latch)
    back = b.branch(head)
    if scf.NO_UNROLL in op.attributes:
        back.set_metadata("llvm.loop", _loop_id(b.module, "llvm.loop.unroll.disable"))
    b.position_at_end(done)
    if lanes:   # a barrier: LLVM would otherwise split the phi to fit the lanes' later use
        values = _lanes(b, [_freeze(b, v) for v in carried])
    return unflatten(types, values)


def _loop_id(m: ir.Module, *properties: str):
    """A new loop ID ``!N = !{!N, !{!"property"}, ...}``: LLVM's loop metadata names itself
    first, so that each loop's node is distinct (llvmlite's ``add_metadata`` would merge equal
    nodes, so the self-reference is set after the node is made)."""
    props = [m.add_metadata([p]) for p in properties]
    node = ir.values.MDValue(m, props, name=str(len(m.metadata)))
    node.operands = (node, *props)
    return node


def _freeze(b, v):
    """``freeze v`` at the builder's position (llvmlite's builder has no method for it)."""
    instr = ir.Instruction(b.block, v.type, "freeze", [v])
    b._insert(instr)
    return instr


def _packed(b, values: list, lanes: int) -> list:
    """``values`` (scalars, a multiple of ``lanes``) as vectors of ``lanes`` consecutive ones,
    built at the builder's position (before the block's terminator, if it has one)."""
    term = b.block.terminator
    if term is not None:
        b.position_before(term)
    out = []
    for g in range(0, len(values), lanes):
        group = values[g:g + lanes]
        vec = ir.Constant(ir.VectorType(group[0].type, lanes), ir.Undefined)
        for k, v in enumerate(group):
            vec = b.insert_element(vec, v, ir.Constant(ir.IntType(32), k))
        out.append(vec)
    return out


def _lanes(b, vectors: list) -> list:
    """The scalars of ``vectors`` in order (``extractelement`` at the builder's position)."""
    return [b.extract_element(v, ir.Constant(ir.IntType(32), k))
            for v in vectors for k in range(v.type.count)]


@rule(scf.IfOp)
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
    return unflatten(types, _merged(b, arms))


@rule(scf.WhileOp)
def while_(fe, op):
    b = fe.b
    pre = b.block
    before, after, done = (fe.new_block(n) for n in ("while.cond", "while.body", "while.end"))
    b.branch(before)
    b.position_at_end(before)
    carried = _phis(b, _flat(fe.operands(op)), pre)
    every = poll_every(fe, op)
    countdown = None
    if every == 1:
        fe.poll()
    elif every is not None:
        countdown = _countdown(fe, pre, every)
    fe.bind(op.before.args, unflatten([a.type for a in op.before.args], carried))
    cond, *forwarded = fe.operands(fe.emit_ops(op.before))
    b.cbranch(cond, after, done)
    b.position_at_end(after)
    fe.bind(op.after.args, forwarded)
    yielded = _flat(fe.operands(fe.emit_ops(op.after)))
    for p, v in zip(carried, yielded, strict=True):
        p.add_incoming(v, b.block)
    if countdown is not None:
        phi, left = countdown
        phi.add_incoming(left, b.block)
    b.branch(before)
    b.position_at_end(done)
    return forwarded


def _countdown(fe, pre, every: int) -> tuple:
    """At the head of a while loop (entered from ``pre``): poll when a carried counter,
    ``every`` on entry, counts down to 0, then start it again. Returns the counter's phi
    and its value for the next iteration, which the caller adds from the latch."""
    b = fe.b
    i64 = ir.IntType(64)
    phi = b.phi(i64)
    phi.add_incoming(ir.Constant(i64, every), pre)
    left = b.sub(phi, ir.Constant(i64, 1))
    head = b.block
    due, cont = fe.new_block("while.poll"), fe.new_block("while.run")
    b.cbranch(b.icmp_unsigned("==", left, ir.Constant(i64, 0)), due, cont).set_weights(
        [1, 1 << 20])
    b.position_at_end(due)
    fe.poll()
    polled = b.block
    b.branch(cont)
    b.position_at_end(cont)
    merged = b.phi(i64)
    merged.add_incoming(left, head)
    merged.add_incoming(ir.Constant(i64, every), polled)
    return phi, merged
