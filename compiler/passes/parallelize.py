"""Parallelization of explicit loops on loop-level IR: the loops of the user's ``for i in
range(n)``, whose induction variable is a Python int (``i64``). The ``index`` loops of array
operations are lowering's, which marks the ones worth threading itself.

A Python ``for`` loop lowers to an ``scf.for`` that carries the loop variable's last value
(Python keeps it after the loop); when nothing reads it, ``dce`` has dropped it. A loop
without iteration values is marked ``grafo.parallel`` (its iterations then run on the
threads at run time, ``backend/llvm/parallel.py``) when its iterations are independent by
the rule of ``fuse_loops.py``:

- its step is a positive constant, it is not nested in a loop already marked parallel, and
  it is not known to be too small for the threads (constant trip counts, nested loops'
  included, below ``PARALLEL_MIN_ELEMENTS``);
- its body holds no op with effects other than loads, stores and private buffers (no
  ``grafo.check`` left after canonicalization removed the bounds checks the loop range
  decides, no print, no call), so the order of the iterations cannot be observed through
  an error or output;
- every buffer the body reads or writes is a function argument or a ``memref.alloc`` (calls
  whose written arguments alias others run eagerly, so distinct buffers do not overlap),
  and every load and store of a buffer it writes indexes its first dim with the induction
  variable itself: iteration ``i`` touches only row ``i`` of what the loop writes.

So ``for i in range(n): a[i] = b[i] + s * c[i]`` and a loop over image rows writing
``out[y, x]`` run on the threads, while a loop reading ``a[i - 1]`` of an array it writes, or
accumulating into a scalar, stays serial. Numba parallelizes such loops only when written
with ``prange``.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith, memref, scf
from ..ir.attributes import UnitAttr
from ..ir.core import Operation
from ..ir.ranges import uncast
from ..lowering.context import PARALLEL_MIN_ELEMENTS
from .fuse_loops import accesses, defined_inside, effects_allowed, plain_buffer
from .manager import Pass


class ParallelizeLoops(Pass):
    name = "parallelize-loops"

    def run(self, module: Operation) -> None:
        for op in list(module.walk()):
            if isinstance(op, scf.ForOp) and _independent(op):
                op.attributes[scf.PARALLEL] = UnitAttr()


def _static_work(loop: scf.ForOp) -> int | None:
    """Iterations of ``loop`` and of the loops nested in it when all are constant, else
    None."""
    bounds = [v.owner_op() for v in loop.operands[:3]]
    if not all(isinstance(b, arith.ConstantOp) for b in bounds):
        return None
    lb, ub, step = (b.attr("value") for b in bounds)
    inner = 0
    for op in loop.walk():
        if op is not loop and isinstance(op, scf.ForOp) and op.parent_op() is loop:
            w = _static_work(op)
            if w is None:
                return None
            inner += w
    return max(0, -(-(ub - lb) // step)) * max(inner, 1)


def _independent(loop: scf.ForOp) -> bool:
    if loop.results or scf.PARALLEL in loop.attributes \
            or isinstance(loop.induction_var.type, T.IndexType):   # lowering's own loop
        return False
    step = loop.step.owner_op()
    if not isinstance(step, arith.ConstantOp) or step.attr("value") <= 0:
        return False
    work = _static_work(loop)
    if work is not None and work < PARALLEL_MIN_ELEMENTS:
        return False   # would stay serial at run time: no outlined copy to compile
    outer = loop.parent_op()
    while outer is not None:
        if scf.PARALLEL in outer.attributes:
            return False
        outer = outer.parent_op()
    if not effects_allowed(loop) or any(
            isinstance(op, memref.DeallocOp) and not defined_inside(loop, op.memref)
            for op in loop.walk()):
        return False
    iv = loop.induction_var
    for buf, uses in accesses(loop).items():
        if not plain_buffer(buf):   # a view or carried array may alias a written buffer
            return False
        if any(store for store, _ in uses) and any(
                i is None or uncast(i) is not iv for _, i in uses):
            return False
    return True
