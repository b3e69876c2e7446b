"""Independent regions of a function body: the analysis behind ``task-groups``
(``task_groups.py``), TensorFlow's inter-op parallelism found statically on loop-level IR.

The top-level ops of a ``func.func`` body are split into windows at every op whose effects
this analysis does not model (``grafo.print``, ``func.call``, the ``lapack`` ops, anything
neither Pure nor a load, store, allocation, deallocation, check or structured control flow):
those keep their place, and with it the order of output and of calls. Inside a window

- Pure ops without regions whose operands are available before the window, and
  ``memref.alloc`` ops with such sizes that no op that can fail or writes what the caller
  sees precedes in the window, are *hoisted* in front of it (an allocation failure is then
  still the first error);
- Pure ops without regions whose results only feed such ops or the code after the window,
  and deallocations of buffers defined before it, are *sunk* behind it;
- the other ops, in program order, form *segments*: an op joins the segment of the first op
  it depends on, merging every segment from there on (segments stay contiguous in program
  order), or starts a new one. A segment without an op with regions joins its neighbour.

Op ``b`` depends on an earlier op ``a`` when ``b`` (or an op nested in it) uses a result of
``a``; when one writes a buffer the other reads or writes (buffers are named by their root:
a function argument, a ``memref.alloc`` or a ``grafo.constant``, through iteration values of
``scf.for`` that are yielded unchanged; two distinct arguments do not overlap when either is
written, as the API runs such calls eagerly, ``aliasing.py``; a buffer with no known root
conflicts with every write, and views of one array are index arithmetic on its root, so they
conflict too); or when ``a`` can fail (``grafo.check``, an allocation) and ``b`` writes an
argument (an input array or a ``Variable``): sequentially such a write never happens after
the error.

Because segments are contiguous, the first failing check in program order lies in the
lowest-numbered segment that fails, which is the failure the parallel loop records
(``backend/llvm/parallel.py``); writes the caller sees happen only in segments before any
that can fail, or in the failing one, in program order.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import types as T
from ..dialects import func, grafo, memref, scf
from ..ir.core import Block, BlockArgument, Operation, OpResult
from ..ir.opdef import Pure, Terminator

UNKNOWN = None   # the root of a buffer the analysis cannot name
_STRUCTURE = (scf.ForOp, scf.IfOp, scf.WhileOp)
SCALAR = (T.IntegerType, T.FloatType, T.IndexType)


@dataclass
class Footprint:
    """What an op (with everything nested in it) does besides computing its results:
    buffer roots it reads and writes, whether it can fail at run time, whether it writes
    memory the caller sees, and whether it has effects the analysis does not model."""

    reads: set = field(default_factory=set)
    writes: set = field(default_factory=set)
    fails: bool = False
    visible: bool = False
    barrier: bool = False
    uses: set = field(default_factory=set)


@dataclass
class TaskPlan:
    """One window turned into tasks: ``hoisted`` ops move before the tasks, ``sunk`` ops
    after them; ``tasks`` lists each task's ops in program order (at least two)."""

    hoisted: list
    tasks: list
    sunk: list
    after: Operation


def root(buf):
    """The buffer ``buf`` (a memref value) is a view of: a function argument, a
    ``memref.alloc`` or a ``grafo.constant`` result; UNKNOWN for any other value."""
    seen = set()
    while buf not in seen:
        seen.add(buf)
        if isinstance(buf, BlockArgument):
            owner = buf.block.parent_op()
            if isinstance(owner, func.FuncOp):
                return buf
            if isinstance(owner, scf.ForOp) and buf.index > 0 and _passes_through(owner,
                                                                                    buf.index - 1):
                buf = owner.iter_inits[buf.index - 1]
                continue
            return UNKNOWN
        op = buf.owner_op()
        if isinstance(op, (memref.AllocOp, grafo.ConstantOp)):
            return buf
        if isinstance(op, scf.ForOp) and _passes_through(op, buf.index):
            buf = op.iter_inits[buf.index]
            continue
        return UNKNOWN
    return UNKNOWN


def _passes_through(loop: scf.ForOp, k: int) -> bool:
    """Whether iteration value ``k`` of ``loop`` is yielded unchanged by its body."""
    return loop.body.terminator.operands[k] is loop.body.args[k + 1]


def is_argument(r) -> bool:
    return isinstance(r, BlockArgument) and isinstance(r.block.parent_op(), func.FuncOp)


def footprint(op: Operation) -> Footprint:
    fp = Footprint()
    for o in op.walk():
        if isinstance(o, memref.LoadOp):
            fp.reads.add(root(o.memref))
        elif isinstance(o, (memref.StoreOp, memref.DeallocOp)):
            fp.writes.add(root(o.memref))
        elif isinstance(o, (memref.AllocOp, grafo.CheckOp)):
            fp.fails = True
        elif not (o.has_trait(Pure) or o.has_trait(Terminator) or isinstance(o, _STRUCTURE)):
            fp.barrier = True
        for v in o.operands:
            if not _inside(op, v):
                fp.uses.add(v)
    fp.visible = any(r is UNKNOWN or is_argument(r) for r in fp.writes)
    return fp


def _inside(op: Operation, v) -> bool:
    where = v.owner_op() if isinstance(v, OpResult) else v.block.parent_op()
    return where is not None and where is not op and op.is_ancestor_of(where)


def _conflict(writes: set, other: set) -> bool:
    if not writes or not other:
        return False
    return UNKNOWN in writes or UNKNOWN in other or bool(writes & other)


def depends(a: Operation, fa: Footprint, fb: Footprint) -> bool:
    """Whether an op with footprint ``fb`` must stay after op ``a`` (footprint ``fa``)."""
    if fa.barrier or fb.barrier:
        return True
    if any(r in fb.uses for r in a.results):
        return True
    if _conflict(fa.writes, fb.reads | fb.writes) or _conflict(fb.writes, fa.reads):
        return True
    return fa.fails and fb.visible


def plan_tasks(block: Block) -> list[TaskPlan]:
    """The task plans of ``block`` (a function body), one per window that splits into two
    or more segments."""
    ops = [o for o in block.ops if not o.has_trait(Terminator)]
    fps = {o: footprint(o) for o in ops}
    plans, window = [], []
    for o in [*ops, block.terminator]:
        if o is block.terminator or fps[o].barrier:
            plan = _plan_window(window, fps, o)
            if plan is not None:
                plans.append(plan)
            window = []
        else:
            window.append(o)
    return plans


def _plan_window(ops: list, fps: dict, after: Operation) -> TaskPlan | None:
    if len(ops) < 2:
        return None
    inside = set(ops)
    hoisted: list = []
    moved = set()
    ordered = False   # a non-hoisted op that can fail or writes what the caller sees
    for o in ops:
        ready = not o.regions and all(
            v.owner_op() not in inside or v.owner_op() in moved
            for v in o.operands if isinstance(v, OpResult))
        if ready and (o.has_trait(Pure) or (isinstance(o, memref.AllocOp) and not ordered)):
            hoisted.append(o)
            moved.add(o)
        elif fps[o].fails or fps[o].visible:
            ordered = True
    sunk_set = set()
    for o in reversed(ops):
        if o in moved:
            continue
        pure = o.has_trait(Pure) and not o.regions
        freed = isinstance(o, memref.DeallocOp) and (
            o.memref.owner_op() not in inside or o.memref.owner_op() in moved)
        if (pure or freed) and all(_top(u, inside) in sunk_set or _top(u, inside) is None
                                   for r in o.results for u in r.users()):
            sunk_set.add(o)
    sunk = [o for o in ops if o in sunk_set]
    segments: list[list] = []
    for o in ops:
        if o in moved or o in sunk_set:
            continue
        first = next((k for k, seg in enumerate(segments)
                      if any(depends(x, fps[x], fps[o]) for x in seg)), None)
        if first is None:
            segments.append([o])
        else:
            segments[first:] = [[x for seg in segments[first:] for x in seg] + [o]]
    tasks = _merge_light(segments)
    if len(tasks) < 2:
        return None
    return TaskPlan(hoisted, tasks, sunk, after)


def _merge_light(segments: list) -> list:
    """Segments without an op with regions joined to the next one (the last to the one
    before it): a task worth a thread runs a loop."""
    out: list = []
    carry: list = []
    for seg in segments:
        seg = carry + seg
        if any(o.regions for o in seg):
            out.append(seg)
            carry = []
        else:
            carry = seg
    if carry:
        if not out:
            return []
        out[-1] = out[-1] + carry
    return out


def _top(op: Operation, inside: set):
    """The op of the window that is or holds ``op``, or None when ``op`` lies outside it."""
    while op is not None and op not in inside:
        op = op.parent_op()
    return op
