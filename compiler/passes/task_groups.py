"""Task groups: independent regions of a function body run at the same time, on loop-level
IR (TensorFlow's inter-op parallelism; OpenMP's ``sections``).

``independence.py`` splits each function body into windows of segments with no dependence
between them. A window becomes one task group when its cost model says the threads pay:

- it has at least two tasks, each holding a loop (or another op with regions);
- no task holds a ``grafo.parallel`` loop that could be worth threading by itself (its trip
  counts unknown or reaching ``PARALLEL_MIN_ELEMENTS``): inside a task such loops run on one
  thread, so a task group only gathers work that is serial or small;
- the tasks' work is not known to be below ``PARALLEL_MIN_ELEMENTS`` (an upper bound from
  loop bounds that are constants, or arithmetic of constants and enclosing induction
  variables, ``_static_work``);
- every value a task defines and later code uses is a scalar (it crosses through a
  one-element buffer) or a buffer allocated before the tasks.

The group is ``scf.for %t = 0 to N step 1`` marked ``grafo.parallel`` and ``grafo.tasks``,
whose body dispatches on ``%t`` through a chain of ``scf.if`` (task ``k`` in the then region
of the ``k``-th): the backend's parallel loops (``backend/llvm/parallel.py``) run it, so
threads take contiguous runs of tasks, a task's nested parallel loops run serially, the
failure of the lowest task (the first in program order) is the one raised, and at run time
the group stays serial unless the tasks' loops do enough work and more than one thread is
free. Each task runs its ops in program order, so results are bit-identical to the
sequential code.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith, func, memref, scf
from ..ir.attributes import IntegerAttr, UnitAttr
from ..ir.core import Block, Operation
from ..lowering.context import PARALLEL_MIN_ELEMENTS
from . import independence as ind
from .manager import Pass

TASKS = scf.TASKS


class TaskGroups(Pass):
    name = "task-groups"

    def run(self, module: Operation) -> None:
        for fn in [o for o in module.walk() if isinstance(o, func.FuncOp)]:
            block = fn.regions[0].block
            _forward_unchanged(block)
            for plan in ind.plan_tasks(block):
                if _pays(plan):
                    _build(block, plan)


def _forward_unchanged(block: Block) -> None:
    """Uses of a top-level ``scf.for`` result whose iteration value is yielded unchanged
    read its initial value instead (MLIR's scf.for canonicalization), so a buffer carried
    through a loop is not a value the loop defines."""
    for op in block.ops:
        if isinstance(op, scf.ForOp):
            for k, r in enumerate(op.results):
                if ind._passes_through(op, k):
                    r.replace_all_uses_with(op.iter_inits[k])


def _static_work(op: Operation, ivs: dict | None = None) -> int | None:
    """An upper bound on the iterations of the ``scf.for`` loops in ``op`` when their bounds
    are constants or arithmetic of constants and enclosing induction variables (a blocked
    loop's inner bounds), else None (``scf.while`` loops: None)."""
    if isinstance(op, scf.WhileOp):
        return None
    ivs = {} if ivs is None else ivs
    trips = 1
    if isinstance(op, scf.ForOp):
        ranges = [_range(v, ivs) for v in op.operands[:3]]
        if None in ranges or ranges[2][0] <= 0:
            return None
        (lb, _), (_, ub), (step, _) = ranges
        trips = max(0, -(-(ub - lb) // step))
        ivs = {**ivs, op.regions[0].block.args[0]: (lb, max(lb, ub - 1))}
    inner = 0
    for region in op.regions:
        for o in region.block.ops:
            if o.regions:
                w = _static_work(o, ivs)
                if w is None:
                    return None
                inner += w
    return trips * max(inner, 1) if isinstance(op, scf.ForOp) else inner


def _range(v, ivs: dict) -> tuple[int, int] | None:
    """``(lowest, highest)`` value of the index ``v``: a constant, an enclosing induction
    variable of ``ivs``, or ``+ - * / min max`` of such; None otherwise."""
    if v in ivs:
        return ivs[v]
    op = v.owner_op()
    if isinstance(op, arith.ConstantOp):
        c = op.attr("value")
        return (c, c) if isinstance(c, int) else None
    combine = _COMBINE.get(getattr(op, "name", None))
    if combine is None or len(op.operands) != 2:
        return None
    a, b = (_range(o, ivs) for o in op.operands)
    if a is None or b is None or (op.name == "arith.divsi" and b[0] <= 0):
        return None
    corners = [combine(x, y) for x in a for y in b]
    return min(corners), max(corners)


_COMBINE = {"arith.addi": lambda x, y: x + y, "arith.subi": lambda x, y: x - y,
            "arith.muli": lambda x, y: x * y, "arith.divsi": lambda x, y: int(x / y),
            "arith.minsi": min, "arith.maxsi": max}


def _pays(plan: ind.TaskPlan) -> bool:
    total = 0
    for task in plan.tasks:
        for op in task:
            for o in op.walk():
                if isinstance(o, scf.ForOp) and scf.PARALLEL in o.attributes:
                    w = _static_work(o)
                    if w is None or w >= PARALLEL_MIN_ELEMENTS:
                        return False
            if op.regions:
                w = _static_work(op)
                total = None if w is None or total is None else total + w
    if total is not None and total < PARALLEL_MIN_ELEMENTS:
        return False
    return _escapes(plan) is not None


def _escapes(plan: ind.TaskPlan) -> list | None:
    """``[(task number, value)]`` of the scalars tasks define and later code uses; None
    when a task defines another value used outside it."""
    out = []
    for k, task in enumerate(plan.tasks):
        mine = set(task)
        for op in task:
            for r in op.results:
                if all(_owner_in(u, mine) for u in r.users()):
                    continue
                if not isinstance(r.type, ind.SCALAR):
                    return None
                out.append((k, r))
    return out


def _owner_in(op: Operation, ops: set) -> bool:
    while op is not None:
        if op in ops:
            return True
        op = op.parent_op()
    return False


def _index(block: Block, anchor: Operation, n: int, loc):
    c = arith.ConstantOp.build([], {"value": IntegerAttr(n, T.index)}, [T.index], loc=loc)
    block.insert_before(anchor, c)
    return c.result


def _build(block: Block, plan: ind.TaskPlan) -> None:
    escapes = _escapes(plan)
    anchor = plan.tasks[0][0]
    loc = anchor.loc
    for op in plan.hoisted:
        op.detach()
        block.insert_before(anchor, op)
    slots = {}
    for _, v in escapes:
        slot = memref.AllocOp.build([], {}, [T.MemRefType((1,), v.type)], loc=loc)
        block.insert_before(anchor, slot)
        slots[v] = slot.result
    zero, one = _index(block, anchor, 0, loc), _index(block, anchor, 1, loc)
    n = len(plan.tasks)
    cases = [zero] + [_index(block, anchor, k, loc) for k in range(1, n - 1)]
    loop = scf.ForOp.create(zero, _index(block, anchor, n, loc), one, loc=loc)
    loop.attributes[scf.PARALLEL] = UnitAttr()
    loop.attributes[TASKS] = UnitAttr()
    block.insert_before(anchor, loop)
    where = loop.body
    for k, task in enumerate(plan.tasks):
        if k < n - 1:
            cond = arith.CmpIOp.build([loop.induction_var, cases[k]],
                                      {"predicate": IntegerAttr(arith.CMPI["eq"])}, loc=loc)
            branch = scf.IfOp.create(cond.result, [], loc=loc)
            where.append(cond)
            where.append(branch)
            where.append(scf.YieldOp.build([], {}, [], loc=loc))
            target, where = branch.then_block, branch.else_block
        else:
            target = where
        for op in task:
            op.detach()
            target.append(op)
        for j, v in escapes:
            if j == k:
                target.append(memref.StoreOp.build([v, slots[v], zero], {}, [], loc=loc))
        target.append(scf.YieldOp.build([], {}, [], loc=loc))
    for _, v in escapes:
        load = memref.LoadOp.build([slots[v], zero], {}, [v.type], loc=loc)
        block.insert_before(plan.after, load)
        for use in list(v.uses):
            if not loop.is_ancestor_of(use.owner):
                use.owner._set_operand(use.index, load.result)
        block.insert_before(plan.after, memref.DeallocOp.build([slots[v]], {}, [], loc=loc))
    for op in plan.sunk:
        op.detach()
        block.insert_before(plan.after, op)
