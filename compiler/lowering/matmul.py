"""Lowering of ``np.matmul``: a cache-blocked, register-tiled kernel for matrix products and
plain loop nests for dot products and vector operands.

Semantics: NumPy ``matmul`` for ranks >= 1: 1-D x 1-D is a dot product (a scalar), a 1-D
operand is treated as a row (left) or column (right) whose added axis is removed, batch dims
broadcast. Integers wrap; bool is or-of-ands. A core-dimension mismatch raises NumPy's
ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, ...").
Operands are read through their ``Expr`` (views such as transposes are not copied); an
operand with arithmetic in its loads is materialized first, since each element is read
many times.

Matrix products of numbers (the GotoBLAS/BLIS structure, Goto & van de Geijn, "Anatomy of
high-performance matrix multiplication", 2008): for each block of ``KC`` rows of B, B is
packed into ``NR``-wide column panels (contiguous, k-major); rows are processed in blocks of
``MC`` (the parallel loop), and each ``MR x NR`` tile of the result is a micro-kernel whose
k-loop carries the ``MR * NR`` accumulators as loop values, so LLVM's SLP vectorizer turns
each row of the tile into ``NR / lanes`` vector registers and the update into vector FMAs.
Rows and columns left over by the tiles are done by an i-k-j loop nest. Floats accumulate
with ``math.fma`` (one rounding per step, like OpenBLAS), integers with wrapping mul + add.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import np as npd
from . import scalar as S
from .index_expr import broadcast, broadcast_shape, materialize
from .lowerer import Lowerer, rule

CHEAP_OPERAND = 1  # an operand with any arithmetic in its loads is computed once first
MR = 4           # rows of a micro-kernel tile
TILE_BYTES = 128  # bytes of a tile row: two AVX-512 registers
MAX_NR = 32
MAX_NR_INT = 8  # integer tiles: wider ones make LLVM's optimizer take seconds
KC = 256         # rows of B per packed block (a panel of KC x NR stays in L1)
MC = 16 * MR     # rows of A per block of the parallel loop (MC x KC stays in L2)
PARALLEL_MIN_FLOPS = 1 << 22
SMALL_FLOPS = 16 * 16 * 16


def _small(n, m, k) -> bool:
    """Static products of at most SMALL_FLOPS multiply-adds use the plain loop nest: LLVM
    vectorizes it fully, it compiles in a fraction of the blocked kernel's time, and packing
    would cost more than it saves."""
    return all(isinstance(d, int) for d in (n, m, k)) and n * m * k <= SMALL_FLOPS


@rule(npd.MatmulOp)
def lower_matmul(lw: Lowerer, op):
    em = lw.em
    a, b = (lw.expr(v) for v in op.operands)
    a, b = (x if x.buffer is not None or x.cost <= CHEAP_OPERAND
            else lw.own(None, materialize(em, x), x.element, x.shape) for x in (a, b))
    t = T.element_type(op.result.type)
    ka = a.shape[-1]
    kb = b.shape[0] if b.rank == 1 else b.shape[-2]
    em.check(em.cmp("eq", ka, kb), "ValueError",
             "matmul: Input operand 1 has a mismatch in its core dimension 0, with gufunc "
             "signature (n?,k),(k,m?)->(n?,m?) (size {0} is different from {1})", [kb, ka])
    batch = broadcast_shape(em, [a.shape[:-2], b.shape[:-2]])
    if a.rank > 2 or batch:
        a = broadcast(em, a, batch + tuple(a.shape[-2:])) if a.rank > 1 else a
    if b.rank > 2 or batch:
        b = broadcast(em, b, batch + tuple(b.shape[-2:])) if b.rank > 1 else b
    rows = (a.shape[-2],) if a.rank > 1 else ()
    cols = (b.shape[-1],) if b.rank > 1 else ()
    out_shape = tuple(batch) + rows + cols
    nb = len(batch)
    zero = em.const(0, T.lowered(t))
    mul = lambda x, y: S.multiply(em, t, x, y)  # noqa: E731
    add = lambda x, y: S.add(em, t, x, y)  # noqa: E731

    def a_at(outer, k):  # outer = batch index + row index
        return a.load((outer[:nb] if a.rank > 2 else ()) + outer[nb:] + (k,)
                      if a.rank > 1 else (k,))

    def b_at(outer, k, j=None):
        if b.rank == 1:
            return b.load((k,))
        return b.load((outer[:nb] if b.rank > 2 else ()) + (k, j))

    if not cols:  # dot products: a scalar accumulator per output element
        def dot(outer):
            (acc,) = em.loop(ka, lambda k, acc: [add(acc, mul(a_at(outer, k), b_at(outer, k)))],
                             [zero])
            return acc
        if not out_shape:
            return [dot(())]
        buf = em.alloc(out_shape, T.lowered(t))
        em.nest(out_shape, lambda idx: em.store(dot(idx), buf, idx), parallel=True)
        return [lw.own(op.result, buf, t, out_shape)]

    buf = em.alloc(out_shape, T.lowered(t))
    (m,) = cols
    if rows and not T.is_bool(t) and not _small(rows[0], m, ka):
        _blocked(em, lw, t, buf, nb, tuple(batch), rows[0], m, ka, a_at, b_at)
        return [lw.own(op.result, buf, t, out_shape)]

    def row(outer):
        em.loop(m, lambda j: em.store(zero, buf, outer + (j,)))

        def k_step(k):
            aik = a_at(outer, k)

            def j_step(j):
                dst = outer + (j,)
                em.store(add(em.load(buf, dst), mul(aik, b_at(outer, k, j))), buf, dst)
            em.loop(m, j_step)
        em.loop(ka, k_step)

    em.nest(tuple(batch) + rows, row, parallel=True)
    return [lw.own(op.result, buf, t, out_shape)]


def _blocked(em, lw: Lowerer, t: T.Type, buf, nb: int, batch: tuple, rows, cols, depth,
             a_at, b_at) -> None:
    """``buf[batch, i, j] = sum_k a_at(batch + (i,), k) * b_at(batch, k, j)`` by the blocked
    kernel (see the module docstring)."""
    lt = T.lowered(t)
    nr = min(MAX_NR if T.is_float(t) else MAX_NR_INT, TILE_BYTES // (lt.width // 8))
    zero = em.const(0, lt)
    if T.is_float(t):
        def mac(acc, x, y):
            return em.op("math.fma", x, y, acc)
    else:
        def mac(acc, x, y):
            return S.add(em, t, acc, S.multiply(em, t, x, y))
    em.nest(tuple(batch) + (rows, cols), lambda idx: em.store(zero, buf, idx), parallel=True)
    m_full = em.mul(em.floordiv(rows, MR), MR)
    panels = em.floordiv(cols, nr)
    n_full = em.mul(panels, nr)
    kcap = em.min(depth, KC)
    packed = em.alloc((panels, kcap, nr), lt)
    lw.own(None, packed, t)
    flops = em.product([rows, cols, depth] + list(batch))
    parallel = not isinstance(flops, int) or flops >= PARALLEL_MIN_FLOPS

    def matrix(bidx):
        def k_block(kc):
            kb = em.min(em.sub(depth, kc), KC)
            em.nest((panels, kb, nr), lambda i: em.store(
                b_at(bidx, em.add(kc, i[1]), em.add(em.mul(i[0], nr), i[2])), packed, i))

            def row_block(ic):
                i_end = em.min(em.add(ic, MC), m_full)

                def panel(p):
                    em.loop(i_end, lambda i0: _tile(em, buf, bidx, i0, p, kc, kb, nr, packed,
                                                     a_at, mac), lb=ic, step=MR)
                em.loop(panels, panel)
            em.loop(m_full, row_block, step=MC, parallel=parallel)
        em.loop(depth, k_block, step=KC)

        def ikj(i, j_lb):
            def k_step(k):
                aik = a_at(bidx + (i,), k)

                def j_step(j):
                    dst = bidx + (i, j)
                    em.store(mac(em.load(buf, dst), aik, b_at(bidx, k, j)), buf, dst)
                em.loop(cols, j_step, lb=j_lb)
            em.loop(depth, k_step)
        em.loop(rows, lambda i: ikj(i, 0), lb=m_full)          # rows below the tiles
        em.loop(m_full, lambda i: ikj(i, n_full))              # columns right of the tiles

    em.nest(batch, matrix)


def _tile(em, buf, bidx, i0, p, kc, kb, nr, packed, a_at, mac) -> None:
    """One ``MR x nr`` tile at row ``i0``, panel ``p``: accumulators carried by the k-loop."""
    j0 = em.mul(p, nr)
    cells = [(em.add(i0, i), em.add(j0, j)) for i in range(MR) for j in range(nr)]
    inits = [em.load(buf, bidx + c) for c in cells]

    def step(k, *acc):
        a = [a_at(bidx + (em.add(i0, i),), em.add(kc, k)) for i in range(MR)]
        b = [em.load(packed, (p, k, j)) for j in range(nr)]
        return [mac(acc[i * nr + j], a[i], b[j]) for i in range(MR) for j in range(nr)]
    acc = em.loop(kb, step, inits)
    for v, c in zip(acc, cells, strict=True):
        em.store(v, buf, bidx + c)
