"""Interrupt polls on loop-level IR: where long loops check for a Ctrl-C.

Compiled code runs without the GIL, so Python's SIGINT handler waits for the call to end.
Loops therefore poll an interrupt flag that a C signal handler sets (``runtime/interrupt.py``,
``backend/llvm/interrupt.py``) and stop with status ``INTERRUPTED`` when it is set. This pass
marks each loop that needs polls with ``grafo.poll = N`` (an ``i64``): the backend polls once
every N iterations. Work is counted in units, an iteration of an innermost loop being one:

- a loop is *bounded* when it is an ``scf.for`` with a constant step whose bounds show a
  trip count (constants, or an upper bound such as ``min(lb + c, n)`` in lowering's blocked
  loops) that, times its body's work, is at most ``POLL_WORK`` units, and all loops in its
  body are bounded (lowering's tile loops and the k-steps of the matmul kernel, the
  128-element blocks of float sums, short user loops): it gets no poll, and its work counts
  in the body of the loop around it;
- a loop whose body holds a loop that is not bounded (inside ``scf.if`` too) polls at each
  iteration (N = 1), and so does a loop whose body's work (one unit plus the work of its
  bounded loops) is at least ``LONG_ITERATION`` units, where a poll costs nothing next to
  an iteration;
- every other loop (innermost loops, and loops around bounded loops only) polls every
  ``N = POLL_WORK // work`` iterations. An ``scf.for`` runs in chunks of N iterations with
  a poll between chunks, its loop as before inside each (vectorized as before); an
  ``scf.while`` polls every N iterations, counting down.

So an elementwise loop over 10^7 elements polls every 65536 elements, and a loop over the
rows of a 2-D array at each row, its inner loop between chunks of 65536. A poll costs two
loads and two branches (one of each where no interrupt state is bound: C callers). Loops in
parallel bodies poll on each thread; an interrupt of the thread that started the region ends
it on all of them (``backend/llvm/parallel.py``).
"""

from __future__ import annotations

from ..dialects import arith, scf
from ..ir.attributes import IntegerAttr
from ..ir.core import Operation, Value
from ..ir.ranges import int_constant
from .manager import Pass

POLL_WORK = 1 << 16
LONG_ITERATION = 1 << 8
SLT, SLE = arith.CMPI["slt"], arith.CMPI["sle"]


class InterruptPolls(Pass):
    name = "interrupt-polls"

    def run(self, module: Operation) -> None:
        for op in module.walk():
            if isinstance(op, (scf.ForOp, scf.WhileOp)) and _bounded_work(op) is None:
                work = _body_work(op)
                every = 1 if work is None or work >= LONG_ITERATION else POLL_WORK // work
                op.attributes[scf.POLL] = IntegerAttr(every)


def _trip_bound(loop: scf.ForOp) -> int | None:
    """An upper bound of the trip count of ``loop`` that its bounds show, else None."""
    step = int_constant(loop.step)
    span = _span(loop.lower, loop.upper)
    if step is None or step <= 0 or span is None:
        return None
    return max(0, -(-span // step))


def _span(lb: Value, ub: Value) -> int | None:
    """An upper bound of ``ub - lb`` that the IR shows, else None: both constants, equal
    values, ``ub = x + c`` with ``x - lb`` bounded, ``ub`` the minimum (``arith.minsi``, or
    lowering's ``select(x < y, x, y)``) of values one of which is so bounded, and the two
    sides of a float sum's 8-lane split (``lb = (ub / c) * c``, and ``ub = (x / c) * c``
    from ``lb = 0``)."""
    low, high = int_constant(lb), int_constant(ub)
    if low is not None and high is not None:
        return high - low
    if ub is lb:
        return 0
    down = _rounded_down(lb)
    if down is not None and down[0] is ub:
        return down[1] - 1
    op = ub.owner_op()
    if op is None:
        return None
    if isinstance(op, arith.AddIOp):
        for x, y in (op.operands, reversed(op.operands)):
            c, inner = int_constant(y), _span(lb, x)
            if c is not None and inner is not None:
                return inner + c
    if isinstance(op, arith.MinSIOp) or _is_min(op):
        spans = [s for s in (_span(lb, v) for v in op.operands[-2:]) if s is not None]
        return min(spans) if spans else None
    down = _rounded_down(ub)
    if down is not None and low == 0:
        inner = _span(lb, down[0])
        return None if inner is None else max(0, inner)
    return None


def _rounded_down(v: Value) -> tuple | None:
    """``(x, c)`` when ``v = (x / c) * c`` (``arith.divsi``, ``arith.muli``) with ``c > 0``."""
    op = v.owner_op()
    if not isinstance(op, arith.MulIOp):
        return None
    div, c = op.lhs.owner_op(), int_constant(op.rhs)
    if not isinstance(div, arith.DivSIOp) or c is None or c <= 0 \
            or int_constant(div.rhs) != c:
        return None
    return div.lhs, c


def _is_min(op: Operation) -> bool:
    """Whether ``op`` is ``select(cmpi slt/sle (x, y), x, y)``."""
    if not isinstance(op, arith.SelectOp):
        return False
    cond = op.condition.owner_op()
    return type(cond) is arith.CmpIOp \
        and cond.attr("predicate") in (SLT, SLE) \
        and tuple(cond.operands) == (op.true_value, op.false_value)


def _bounded_work(loop: Operation) -> int | None:
    """The total work of ``loop`` when it is bounded, else None."""
    if not isinstance(loop, scf.ForOp):
        return None
    trip = _trip_bound(loop)
    work = None if trip is None else _body_work(loop)
    if work is None or trip * work > POLL_WORK:
        return None
    return trip * work


def _body_work(loop: Operation) -> int | None:
    """One unit plus the work of the loops in ``loop``'s body; None when one of them is not
    bounded."""
    return _work_in(loop, 1)


def _work_in(op: Operation, own: int) -> int | None:
    """``own`` plus the work of the loops nested in ``op``'s regions (None: one is not
    bounded)."""
    total = own
    for region in op.regions:
        for block in region.blocks:
            for inner in block.ops:
                if isinstance(inner, (scf.ForOp, scf.WhileOp)):
                    work = _bounded_work(inner)
                else:
                    work = _work_in(inner, 0)
                if work is None:
                    return None
                total += work
    return total
