"""Splitting a loop-level function into kernels and a host program.

Walking the function body in order, each top-level op is

- host work: scalar ops, ``memref.alloc``/``dealloc``/``dim``, ``grafo.check``, and control
  flow (``scf.for``/``if``/``while``) around kernels, which the host program walks
  (``host.py``);
- a ``parallel`` kernel: an ``scf.for`` marked ``grafo.parallel``, or one whose iterations
  are independent (no carried values but buffers passed through unchanged; no buffer both
  stored and loaded; every store's indices depend on the loop variable), with the perfectly
  nested parallel loops below it flattened into one iteration space;
- a ``rows`` kernel: such a nest whose innermost body is one reduction loop with scalar
  work around it (a row reduction; ``rows.py``), a group of threads per iteration;
- a ``matmul`` kernel: an ``scf.for`` marked ``grafo.matmul`` (``matmul.py``), its params
  the memrefs ``A, B, C``;
- a ``reduce`` kernel: an ``scf.for`` whose carried values are reductions (``reduce.py``);
- a ``serial`` kernel (one thread): any other op that reads or writes memory.
"""

from __future__ import annotations

from ... import types as T
from ...dialects import arith, blas, func, grafo, lapack, memref, scf
from ...errors import unsupported
from . import matmul as MM
from . import reduce as R
from . import rows as RW
from .kernels import Kernel

MEMORY = (memref.LoadOp, memref.StoreOp, *lapack.ROUTINE_OPS,   # LAPACK and BLAS write
          *blas.ROUTINE_OPS)                                  # buffers
NOT_IN_KERNELS = (memref.AllocOp, memref.DeallocOp, grafo.PrintOp, func.CallOp)
CONTROL = (scf.ForOp, scf.IfOp, scf.WhileOp)


def nested(op):
    """Every op nested in ``op``'s regions, in order."""
    for r in op.regions:
        for blk in r.blocks:
            for o in blk.ops:
                yield o
                yield from nested(o)


def _passthrough(loop) -> bool:
    term = loop.body.ops[-1]
    return all(isinstance(a.type, T.MemRefType) and y is a
               for a, y in zip(loop.body.args[1:], term.operands, strict=True))


def _depends(v, iv, seen) -> bool:
    if v is iv:
        return True
    op = v.owner_op()
    if op is None or op in seen:
        return False
    seen.add(op)
    return any(_depends(x, iv, seen) for x in op.operands)


def is_parallel(loop) -> bool:
    """Whether the iterations of ``loop`` (an ``scf.for``) may run in any order at once."""
    if not isinstance(loop, scf.ForOp) or not _passthrough(loop):
        return False
    inner = list(nested(loop))
    if any(isinstance(o, NOT_IN_KERNELS) for o in inner):
        return False
    if scf.PARALLEL in loop.attributes:
        return True
    alias = dict(zip(loop.body.args[1:], loop.iter_inits, strict=True))
    iv = loop.body.args[0]
    stored, loaded = set(), set()
    for o in inner:
        if isinstance(o, memref.StoreOp):
            stored.add(alias.get(o.memref, o.memref))
            if not any(_depends(i, iv, set()) for i in o.indices):
                return False
        elif isinstance(o, memref.LoadOp):
            loaded.add(alias.get(o.memref, o.memref))
    return bool(stored) and not stored & loaded


def _chain(loop) -> list:
    """``loop`` and the perfectly nested parallel loops below it whose bounds are defined
    outside the nest."""
    chain = [loop]
    while True:
        body = chain[-1].body.ops
        if len(body) != 2 or not is_parallel(body[0]):
            return chain
        inner = body[0]
        if list(inner.results) and any(r.uses for r in inner.results):
            return chain
        defined = {a for c in chain for a in c.body.args}
        if any(v in defined for v in inner.operands[:3]):
            return chain
        chain.append(inner)


def free_values(op) -> list:
    """Values used in ``op`` (its operands included) but defined outside it, in order."""
    ops = [op, *nested(op)]
    inside = set()
    for o in ops:
        inside.update(o.results)
        for r in o.regions:
            for blk in r.blocks:
                inside.update(blk.args)
    free = []
    for o in ops:
        for v in o.operands:
            if v not in inside and v not in free:
                free.append(v)
    return free


def _is_constant(v) -> bool:
    op = v.owner_op()
    return isinstance(op, arith.ConstantOp)


class Partition:
    """The kernels of one function: ``kernels`` maps each top-level op that runs on the GPU
    to its ``Kernel``; ``provided`` holds host ops whose results a kernel computes."""

    def __init__(self, func):
        self.func = func
        self.kernels: dict = {}
        self.provided: set = set()
        self.plans: list = []   # (kernel, constants, extra) in creation order
        self._block(func.body)

    def _new(self, kind: str, op, **kw) -> Kernel:
        free = free_values(op)
        k = Kernel(f"{self.func.sym_name}_k{len(self.kernels)}", kind, op,
                   [v for v in free if not _is_constant(v)], **kw)
        k.has_checks = any(isinstance(o, grafo.CheckOp) for o in [op, *nested(op)])
        self.kernels[op] = k
        constants = [v.owner_op() for v in free if _is_constant(v)]
        return k, constants

    def _block(self, block) -> None:
        for op in block.ops:
            self._op(op)

    def _op(self, op) -> None:
        if isinstance(op, grafo.PrintOp):
            raise unsupported("print is not supported by the CUDA back end", op.loc)
        if isinstance(op, func.CallOp):
            raise unsupported("calls between compiled functions are not supported by the "
                              "CUDA back end", op.loc)
        inner = list(nested(op))
        if isinstance(op, scf.ForOp) and scf.MATMUL in op.attributes:
            k = Kernel(f"{self.func.sym_name}_k{len(self.kernels)}", "matmul", op,
                       MM.operands(op))
            self.kernels[op] = k
            self.plans.append((k, [], None))
            return
        if is_parallel(op):
            loops = _chain(op)
            dims = [tuple(lp.operands[:3]) for lp in loops]
            row = RW.plan(loops[-1].body)
            if row is not None:
                k, consts = self._new("rows", op, dims=dims, row_loop=row[0])
                self.plans.append((k, consts, (loops, *row)))
                return
            k, consts = self._new("parallel", op, dims=dims)
            self.plans.append((k, consts, loops))
            return
        if not isinstance(op, CONTROL):
            if isinstance(op, MEMORY):
                self._serial(op)
            return
        host_control = any(isinstance(o, NOT_IN_KERNELS) or is_parallel(o)
                           for o in inner) or any(isinstance(r.type, T.MemRefType)
                                                  for r in op.results)
        if not host_control and isinstance(op, scf.ForOp):
            groups = R.groups(op)
            if groups is not None and any(isinstance(o, MEMORY) for o in inner):
                k, consts = self._new("reduce", op, outputs=[g.output for g in groups],
                                      combiners=[g.combiner for g in groups],
                                      inits=[op.iter_inits[g.iter_indices[0]]
                                             if len(g.iter_indices) == 1 else None
                                             for g in groups])
                self.provided.update(g.output.owner_op() for g in groups
                                     if len(g.iter_indices) == 2)
                self.plans.append((k, consts, groups))
                return
        if host_control:
            for r in op.regions:
                for blk in r.blocks:
                    self._block(blk)
        elif any(isinstance(o, MEMORY) for o in inner):
            self._serial(op)

    def _serial(self, op) -> None:
        k, consts = self._new("serial", op, outputs=list(op.results))
        self.plans.append((k, consts, None))
