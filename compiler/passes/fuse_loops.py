"""Fusion of sibling parallel loops on loop-level IR (MLIR's affine loop fusion, restricted to
the case whose legality needs no dependence polyhedra).

Lowering emits one loop nest per tensor op that cannot fuse into its consumer's element
expression: softmax ``exp(x - max(x)) / sum(...)`` becomes three loops over the rows (the row
max, then ``exp`` with the row sums, then the division), each streaming the whole array
through the caches and each a fork-join on the threads. When row ``i`` of a later loop only
needs row ``i`` of the earlier ones, one loop doing all three per row keeps the row in L1.

Two ``scf.for`` ops of one block fuse when

- both carry ``grafo.parallel`` or ``grafo.independent`` (lowering's marks: no iteration
  reads what another writes; the second for loops too small to thread) and no iteration
  values, with the same bounds and step;
- the ops between them are pure or ``memref.alloc`` and do not use the first loop (they move
  before it);
- neither body holds an op with effects other than ``memref.load``/``memref.store`` and
  the ``memref.alloc``/``memref.dealloc`` of private buffers (so no ``grafo.check``, print
  or call: an error keeps the order in which NumPy would raise it);
- every buffer both loops touch, one of them writing it, is a function argument or a
  ``memref.alloc`` (never a view that could alias another), and each of its loads and stores
  in either loop indexes its first dim with that loop's induction variable itself: iteration
  ``i`` of the second loop then reads and writes only what iteration ``i`` of the first
  wrote or read, so running them per iteration keeps every value.

The second loop's body moves to the end of the first's (its induction variable replaced by
the first's); ``grafo.work`` becomes the sum of both when both have it, and the fused loop
is ``grafo.parallel`` when either was. Fusion repeats until
no pair qualifies, so chains of loops become one.
"""

from __future__ import annotations

from ..dialects import arith, func, grafo, memref, scf
from ..ir.attributes import IntegerAttr, UnitAttr
from ..ir.core import Block, BlockArgument, Operation, OpResult
from ..ir.opdef import Pure, Terminator
from .manager import Pass

_MEMORY = frozenset({memref.LoadOp, memref.StoreOp, memref.AllocOp, memref.DeallocOp, memref.DimOp})
_STRUCTURE = frozenset({scf.ForOp, scf.IfOp, scf.WhileOp, scf.YieldOp, scf.ConditionOp})


class FuseLoops(Pass):
    name = "fuse-loops"

    def run(self, module: Operation) -> None:
        for op in list(module.walk()):
            for region in op.regions:
                for block in region.blocks:
                    _fuse_block(block)


def _fuse_block(block: Block) -> None:
    changed = True
    while changed:
        changed = False
        loops = [op for op in block.ops if _candidate(op)]
        for first, second in zip(loops, loops[1:], strict=False):
            between = _between(block, first, second)
            if between is not None and _legal(first, second):
                _fuse(block, first, second, between)
                changed = True
                break


def _candidate(op: Operation) -> bool:
    return (isinstance(op, scf.ForOp) and not op.results
            and (scf.PARALLEL in op.attributes or scf.INDEPENDENT in op.attributes)
            and effects_allowed(op))


def _same(a, b) -> bool:
    if a is b:
        return True
    ca, cb = a.owner_op(), b.owner_op()
    return (isinstance(ca, arith.ConstantOp) and isinstance(cb, arith.ConstantOp)
            and ca.attributes.get("value") == cb.attributes.get("value") and a.type == b.type)


def _between(block: Block, first: Operation, second: Operation):
    """The ops between the two loops when they can move before ``first``, else None."""
    if not all(_same(a, b) for a, b in zip(first.operands[:3], second.operands[:3], strict=True)):
        return None
    ops = list(block.ops)
    middle = ops[ops.index(first) + 1:ops.index(second)]
    for op in middle:
        if op.regions or not (op.has_trait(Pure) or isinstance(op, memref.AllocOp)):
            return None
    return middle


def effects_allowed(loop: Operation) -> bool:
    for op in loop.walk():
        if op is loop:
            continue
        if not (op.has_trait(Pure) or op.has_trait(Terminator) or type(op) in _MEMORY
                or type(op) in _STRUCTURE):
            return False
    return True


def accesses(loop: Operation):
    """{buffer: [(is_store, first index)]} of the loads and stores in ``loop`` to buffers
    defined outside it."""
    out: dict = {}
    for op in loop.walk():
        if isinstance(op, memref.LoadOp):
            buf, idx, store = op.memref, op.indices, False
        elif isinstance(op, memref.StoreOp):
            buf, idx, store = op.memref, op.indices, True
        else:
            continue
        if defined_inside(loop, buf):
            continue   # a private buffer of the body
        out.setdefault(buf, []).append((store, idx[0] if idx else None))
    return out


def defined_inside(loop: Operation, v) -> bool:
    where = v.owner_op() if isinstance(v, OpResult) else v.block.parent_op()
    return where is not None and loop.is_ancestor_of(where)


def plain_buffer(buf) -> bool:
    """A function argument, a fresh allocation or a constant's read-only buffer: distinct
    from every other such buffer that is written (the API runs calls whose written arguments
    alias others eagerly)."""
    if isinstance(buf, BlockArgument):
        parent = buf.block.parent_op()
        return isinstance(parent, func.FuncOp)
    owner = buf.owner_op()
    return isinstance(owner, (memref.AllocOp, grafo.ConstantOp))


def _legal(first: Operation, second: Operation) -> bool:
    a, b = accesses(first), accesses(second)
    iv_a, iv_b = first.induction_var, second.induction_var
    for buf in set(a) | set(b):
        if not plain_buffer(buf):
            return False
        uses_a, uses_b = a.get(buf, []), b.get(buf, [])
        written = any(s for s, _ in uses_a) or any(s for s, _ in uses_b)
        if not (uses_a and uses_b and written):
            continue
        if any(i is not iv_a for _, i in uses_a) or any(i is not iv_b for _, i in uses_b):
            return False
    return True


def _fuse(block: Block, first: scf.ForOp, second: scf.ForOp, between: list) -> None:
    for op in between:
        op.detach()
        block.insert_before(first, op)
    second.induction_var.replace_all_uses_with(first.induction_var)
    body, yield_ = first.body, first.body.terminator
    for op in list(second.body.ops):
        if op.has_trait(Terminator):
            continue
        op.detach()
        body.insert_before(yield_, op)
    wa, wb = first.attributes.get(scf.WORK), second.attributes.get(scf.WORK)
    if wa is not None and wb is not None:
        first.attributes[scf.WORK] = IntegerAttr(wa.value + wb.value)
    else:
        first.attributes.pop(scf.WORK, None)
    if scf.PARALLEL in second.attributes:   # the fused loop is as large as either
        first.attributes[scf.PARALLEL] = UnitAttr()
    if scf.PARALLEL in first.attributes:
        first.attributes.pop(scf.INDEPENDENT, None)
    second.erase()
