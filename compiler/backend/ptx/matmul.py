"""Matrix products on the GPU: a shared-memory tiled kernel for ``np.matmul``.

The CPU lowering of ``np.matmul`` is a cache-blocked kernel (packing into a heap buffer,
register tiles) that suits neither the GPU nor a partition into kernels. The CUDA backend
therefore rewrites, before lowering (``prepare``), every ``np.matmul`` of two operands of rank
>= 2 and a real numeric (not bool, not complex) dtype into ``np.gpu_matmul``. Its lowering
rule emits the plain loop nest ``C[..., i, j] = sum_k A[..., i, k] * B[..., k, j]`` (batch
dims broadcast as in NumPy, floats with ``math.fma``, integers wrapping) with the outermost
loop marked ``grafo.matmul``; the nest is the semantics (the loop-level interpreter runs it),
and the partition turns the marked loop into one ``matmul`` kernel (``emit_matmul``):

- blocks of ``TILE x TILE`` threads, block ``(x, y)`` computing the output tile at rows
  ``y * TILE``, columns ``x * TILE``; grid z strides over the batch;
- per step of ``TILE`` along k, each thread stages one element of A and one of B in shared
  memory (address space 3; out-of-range elements as 0), ``llvm.nvvm.barrier0``, then
  accumulates ``TILE`` products from shared memory, and a second barrier before the next step
  (Kirk & Hwu, "Programming Massively Parallel Processors", ch. 5).
"""

from __future__ import annotations

from llvmlite import ir

from ... import types as T
from ...dialects import memref, scf
from ...dialects import np as npd
from ...ir.attributes import UnitAttr
from ...ir.constraints import Tensor
from ...ir.opdef import InferredTypes, Op, Pure, TensorLevel, register_ops
from ...lowering.index_expr import broadcast, broadcast_shape, materialize
from ...lowering.lowerer import Lowerer, rule
from ...lowering.matmul import multiply_add
from ..llvm.types import I64, storage
from .kernels import Kernel, KernelEmitter, PTXModuleEmitter

TILE = 16
MAX_GRID_Z = 65535


class GpuMatmulOp(Op):
    """``np.gpu_matmul``: ``np.matmul`` of operands of rank >= 2 with one numeric element
    type, lowered for the tiled GPU kernel (see the module docstring)."""

    name = "np.gpu_matmul"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = (Tensor, Tensor)
    result_defs = (Tensor,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return npd.MatmulOp.infer(operand_types, attributes)


register_ops("np", (GpuMatmulOp,))


def prepare(module):
    """Rewrite each eligible ``np.matmul`` of the tensor-level ``module`` into
    ``np.gpu_matmul`` (in place); returns ``module``."""
    for op in list(module.walk()):
        if not isinstance(op, npd.MatmulOp):
            continue
        a, b = (v.type for v in op.operands)
        # the tiled kernel multiplies real numbers; complex products stay loop nests
        element = T.element_type(a)
        if min(len(T.shape_of(a)), len(T.shape_of(b))) < 2 or T.is_bool(element) or \
                isinstance(T.strong(element), T.ComplexType):
            continue
        new = GpuMatmulOp.build(list(op.operands), None, [op.result.type], None, op.loc)
        op.parent.insert_before(op, new)
        op.result.replace_all_uses_with(new.result)
        op.erase()
    return module


@rule(GpuMatmulOp)
def lower_gpu_matmul(lw: Lowerer, op):
    """The marked loop nest of ``op`` (see the module docstring); NumPy's ValueError for a
    core-dimension mismatch."""
    em = lw.em
    a, b = (lw.expr(v) for v in op.operands)
    a, b = (x if x.buffer is not None else lw.own(None, materialize(em, x), x.element, x.shape)
            for x in (a, b))
    t = T.element_type(op.result.type)
    ka, kb = a.shape[-1], b.shape[-2]
    em.check(em.cmp("eq", ka, kb), "ValueError",
             "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
             "signature (n?,k),(k,m?)->(n?,m?) (size {0} is different from {1})", [kb, ka])
    batch = tuple(broadcast_shape(em, [a.shape[:-2], b.shape[:-2]]))
    out_shape = batch + (a.shape[-2], b.shape[-1])
    buf = em.alloc(out_shape, T.lowered(t))
    ab = broadcast(em, a, batch + tuple(a.shape[-2:]))
    bb = broadcast(em, b, batch + tuple(b.shape[-2:]))
    mac = multiply_add(em, t)

    def cell(idx):
        (acc,) = em.loop(ka, lambda k, acc: [mac(acc, ab.load(idx[:-1] + (k,)),
                                                 bb.load(idx[:-2] + (k, idx[-1])))],
                         [em.const(0, T.lowered(t))])
        em.store(acc, buf, idx)
    em.nest(out_shape, cell, parallel=True)
    home = buf.owner_op().parent
    loop = next(u.owner for u in buf.uses if isinstance(u.owner, memref.StoreOp))
    while loop.parent is not home:
        loop = loop.parent_op()
    loop.attributes[scf.MATMUL] = UnitAttr()
    return [lw.own(op.result, buf, t, out_shape)]


def operands(loop) -> list:
    """``[A, B, C]``: the memrefs a loop marked ``grafo.matmul`` reads and writes."""
    loads = [o.memref for o in loop.walk() if isinstance(o, memref.LoadOp)]
    store = next(o for o in loop.walk() if isinstance(o, memref.StoreOp))
    return [loads[0], loads[1], store.memref]


def emit_matmul(mod: PTXModuleEmitter, k: Kernel) -> None:
    """The tiled kernel of ``k`` (params ``A, B, C``; launched with ``TILE x TILE`` threads
    and a grid of ``(ceil(m / TILE), ceil(n / TILE), min(batch, MAX_GRID_Z))``)."""
    ke = KernelEmitter(mod, k, with_out=False)
    b = ke.b
    a, bm, c = (ke.values[v] for v in k.params)
    ty_ = storage(k.params[2].type.element)
    is_float = isinstance(ty_, (ir.FloatType, ir.DoubleType))
    nb = c.type.rank - 2
    n, m, depth = c.sizes[nb], c.sizes[nb + 1], a.sizes[-1]
    tile = ir.Constant(I64, TILE)
    one, zero_i = ir.Constant(I64, 1), ir.Constant(I64, 0)
    zero = ir.Constant(ty_, 0.0 if is_float else 0)
    tx, ty, bx, by, bz, gz = (mod.sreg(b, r) for r in ("tid.x", "tid.y", "ctaid.x", "ctaid.y",
                                                        "ctaid.z", "nctaid.z"))
    row, col = b.add(b.mul(by, tile), ty), b.add(b.mul(bx, tile), tx)
    a_s, b_s = (mod.shared_array(f"{k.name}.{x}", ty_, TILE * TILE) for x in ("a", "b"))
    barrier = mod.external("llvm.nvvm.barrier0", ir.VoidType(), [])
    fma = mod.intrinsic("fma", ty_, 3) if is_float else None
    nbatch = one
    for d in c.sizes[:nb]:
        nbatch = b.mul(nbatch, d)

    def clamp(i, size):
        return b.select(b.icmp_signed("<", i, size), i, b.sub(size, one))

    def element(ref, batch_idx, i, j, ok):
        """``ref[batch..., i, j]`` (indices clamped in range) when ``ok``, else 0."""
        off = nb - (ref.type.rank - 2)
        idx = [b.select(b.icmp_signed("==", ref.sizes[d], one), zero_i, batch_idx[off + d])
               for d in range(ref.type.rank - 2)]
        ptr = ref.address(b, idx + [clamp(i, ref.sizes[-2]), clamp(j, ref.sizes[-1])])
        return b.select(ok, b.load(ptr, typ=ty_), zero)

    def batch(z):
        idx = []
        for d in reversed(c.sizes[:nb]):
            idx.insert(0, b.urem(z, d))
            z = b.udiv(z, d)

        def step(k0, acc):
            ka, kb = b.add(k0, tx), b.add(k0, ty)
            slot = b.add(b.mul(ty, tile), tx)
            ok_a = b.and_(b.icmp_signed("<", row, n), b.icmp_signed("<", ka, depth))
            ok_b = b.and_(b.icmp_signed("<", kb, depth), b.icmp_signed("<", col, m))
            b.store(element(a, idx, row, ka, ok_a), mod.shared_slot(b, a_s, slot))
            b.store(element(bm, idx, kb, col, ok_b), mod.shared_slot(b, b_s, slot))
            b.call(barrier, [])
            for kk in range(TILE):
                x = b.load(mod.shared_slot(b, a_s, b.add(b.mul(ty, tile), ir.Constant(I64, kk))),
                           typ=ty_)
                y = b.load(mod.shared_slot(b, b_s, b.add(ir.Constant(I64, kk * TILE), tx)),
                           typ=ty_)
                acc = b.call(fma, [x, y, acc]) if is_float else b.add(acc, b.mul(x, y))
            b.call(barrier, [])
            return [acc]
        (acc,) = ke.loop(zero_i, depth, tile, step, [zero])
        inside = b.and_(b.icmp_signed("<", row, n), b.icmp_signed("<", col, m))
        with b.if_then(inside):
            b.store(acc, c.address(b, idx + [row, col]))
    ke.loop(bz, nbatch, gz, batch)
    ke.finish()


def grid(shape: tuple) -> tuple:
    """``(blocks, threads)`` of the launch for an output of ``shape``."""
    batch = 1
    for d in shape[:-2]:
        batch *= d
    blocks = (-(-shape[-1] // TILE), -(-shape[-2] // TILE), max(1, min(batch, MAX_GRID_Z)))
    return blocks, (TILE, TILE, 1)


__all__ = ["GpuMatmulOp", "TILE", "emit_matmul", "grid", "operands", "prepare"]
