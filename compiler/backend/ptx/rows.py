"""Row reductions on the GPU: a group of threads per output element, coalesced loads.

A ``rows`` kernel is a parallel loop nest (``partition.py``; the kept axes of a reduction)
whose innermost body is

- scalar ops without effects (index arithmetic, loads), run by every thread of the group;
- one reduction ``scf.for`` (``reduce.groups``: monoids or a compensated sum), whose
  iterations the group's threads share: thread ``tx`` runs iterations ``tx, tx + ntid.x,
  ...`` from the identity, so for a step-1 loop over a contiguous row (``gpu_reduce.py``)
  consecutive threads read consecutive elements; then ``reduce.block_combine`` (warp
  shuffles, shared memory across warps) combines the threads' values, a tree of depth
  log2(threads), and the loop's initial value is combined last;
- scalar ops and ``memref.store`` s after the loop, run by thread ``tx == 0``.

No ``grafo.check`` may occur in the body (a thread leaving early would leave the others
waiting at a barrier). Launch shape (``launch_shape``): blocks of ``ROW_BLOCK`` threads as
``(threads per row, rows per block)``; a row of at most ``WARP_ROW`` iterations gets one
warp (8 rows per block, no shared memory or barrier), a longer row the whole block (so short
rows do not leave most of a block idle, and long rows get 8 warps of loads in flight). Rows
are grid-strided over ``ctaid.x`` (row ``ctaid.x * ntid.y + tid.y``, step ``nctaid.x *
ntid.y``).

Float sums of the compensated loop: each thread's compensated partial, then the tree; the
error is that of Kahan summation per thread plus log2(threads) rounding levels, at least as
good as NumPy's pairwise summation (depth log2(n / 128) plus a 16-element serial base).
"""

from __future__ import annotations

from llvmlite import ir

from ...dialects import grafo, memref, scf
from ...ir.opdef import Pure, ReadOnly
from ..llvm.types import I64, scalar
from . import reduce as R
from .kernels import KernelEmitter, flat_nest

WARP_ROW = 1024
ROW_BLOCK = 256


def _effects(op) -> bool:
    return not (op.traits & {Pure, ReadOnly})


def plan(body) -> tuple | None:
    """``(reduction loop, groups)`` when ``body`` (the innermost block of a parallel nest) has
    the shape of a ``rows`` kernel (see the module docstring), else None."""
    from .partition import MEMORY, nested
    loops = [o for o in body.ops if o.regions]
    if len(loops) != 1 or not isinstance(loops[0], scf.ForOp):
        return None
    red = loops[0]
    groups = R.groups(red)
    inner = list(nested(red))
    if groups is None or not any(isinstance(o, MEMORY) for o in inner):
        return None
    if any(isinstance(o, grafo.CheckOp) for o in inner):
        return None
    at = body.ops.index(red)
    before, after = body.ops[:at], body.ops[at + 1:-1]
    if any(_effects(o) for o in before):
        return None
    if any(_effects(o) and not isinstance(o, memref.StoreOp) for o in after):
        return None
    return red, groups


def launch_shape(rows: int, row_trips: int | None, max_blocks: int) -> tuple:
    """``(grid, block)`` for ``rows`` output elements of ``row_trips`` iterations each (None
    when the host cannot know it before the launch)."""
    group = R.WARP if row_trips is not None and row_trips <= WARP_ROW else ROW_BLOCK
    per_block = ROW_BLOCK // group
    blocks = max(1, min(-(-rows // per_block), max_blocks))
    return (blocks, 1, 1), (group, per_block, 1)


def emit_rows(mod, k, loops: list, red, groups: list, constants: list) -> None:
    """The ``rows`` kernel ``k`` of the nest ``loops`` around reduction loop ``red`` (see the
    module docstring)."""
    ke = KernelEmitter(mod, k, with_out=False)
    ke.emit_constants(constants)
    b = ke.b
    tx, ty, ntx, nty, bid, nbid = (mod.sreg(b, r) for r in ("tid.x", "tid.y", "ntid.x",
                                                             "ntid.y", "ctaid.x", "nctaid.x"))
    rows, bind = flat_nest(ke, k, loops)
    body = loops[-1].body
    at = body.ops.index(red)
    types = [scalar(a.type) for a in red.body.args[1:]]
    idents = [None] * len(types)
    for g in groups:
        for i in g.iter_indices:
            idents[i] = R.identity(g.combiner, types[i])
    smem = [R.shared_for(ke, f"{k.name}.smem{gi}", types[g.iter_indices[0]])
            for gi, g in enumerate(groups)]
    provided = {g.output.owner_op() for g in groups if len(g.iter_indices) == 2}

    def row(lin):
        bind(lin)
        for op in body.ops[:at]:
            ke.emit_op(op)
        lb, ub, step = (ke.values[v] for v in red.operands[:3])

        def iteration(j, *accs):
            ke.bind(red.body.args, [b.add(lb, b.mul(j, step)), *accs])
            return ke.operands(ke.emit_ops(red.body))
        accs = ke.loop(tx, ke.trip_count(lb, ub, step), ntx, iteration, idents)
        for gi, g in enumerate(groups):
            if len(g.iter_indices) == 1:
                i = g.iter_indices[0]
                v = R.block_combine(ke, accs[i], g.combiner, smem[gi], tx, ntx)
                ke.values[red.results[i]] = R.combine(b, mod, g.combiner,
                                                      ke.values[red.iter_inits[i]], v)
            else:
                total, comp = (accs[i] for i in g.iter_indices)
                ke.values[g.output] = R.block_combine(ke, b.fsub(total, comp), g.combiner,
                                                      smem[gi], tx, ntx)
        with b.if_then(b.icmp_unsigned("==", tx, ir.Constant(I64, 0))):
            for op in body.ops[at + 1:-1]:
                if op not in provided:
                    ke.emit_op(op)
    ke.loop(b.add(b.mul(bid, nty), ty), rows, b.mul(nbid, nty), row)
    ke.finish()


__all__ = ["ROW_BLOCK", "WARP_ROW", "emit_rows", "launch_shape", "plan"]
