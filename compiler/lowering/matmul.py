"""Lowering of ``np.matmul``: a cache-blocked, register-tiled kernel for matrix products (a
1-D left operand is one row of it), rows summed in vector lanes for a matrix times a vector
(``_matvec``; a transposed matrix takes the kernel as ``b @ A.T``), and plain loops for the
dot product of two vectors and for products small enough to vectorize whole.

Semantics: NumPy ``matmul`` for ranks >= 1: 1-D x 1-D is a dot product (a scalar), a 1-D
operand is treated as a row (left) or column (right) whose added axis is removed, batch dims
broadcast. Integers wrap; bool is or-of-ands. A core-dimension mismatch raises NumPy's
ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, ...").
Operands are read through their ``Expr`` (views such as transposes are not copied); an
operand with arithmetic in its loads is materialized first, since each element is read
many times.

Matrix products of numbers (the GotoBLAS/BLIS structure, Goto & van de Geijn, "Anatomy of high-
performance matrix multiplication", 2008): B is packed block by block (``KC`` rows by ``NC``
columns) into a contiguous row-major buffer whose rows are padded by ``PAD`` bytes (the copy is
a plain 2-D loop that LLVM vectorizes, and the padding keeps the rows of a tile's column strip
apart in the L1 sets; integers keep ``NR``-wide k-major panels, since LLVM vectorizes their
tiles across k with gathers otherwise). The copy runs down B's columns when B's k stride is the
smaller (a transposed B), so that it reads along memory. When the threads take blocks of rows,
they make the copy of each shared block together first. Rows are processed in an even number of
equal blocks of at most ``MC`` (the parallel loop; two threads get equal shares); with fewer
than ``2 * MC`` rows the threads instead take parts of the columns, each packing its own
panels, so that a product of a few rows with a wide B (``x @ W.T`` for one sample) runs on
every thread and reads B once. Each ``MR x NR`` tile of the result is a micro-kernel whose
k-loop carries the ``MR * NR`` accumulators as loop values, so LLVM's SLP vectorizer turns each
row of the tile into ``NR / lanes`` vector registers and the update into vector FMAs. Float
tiles are 8 x 2 vectors (16 accumulators of AVX-512's 32 registers, one B load per 8 FMAs),
with 4-row and then 1-row tiles for rows left under them; integer tiles stay 4 rows high to
bound compile time. The k-loop is marked ``grafo.no_unroll``: unrolled by two, its 8 row
broadcasts per step no longer fit beside the accumulators, and the spills it then needs in the
innermost loop cost up to a fifth of the time (more where the stack slots straddle cache lines,
so the loss changed with the caller's stack alignment). Accumulators start from zero in the
first block of k and from the result in later ones, so the result is never zero-filled first.
Columns past the last multiple of ``NR`` are packed as zeros up to it (BLIS's edge handling):
their tiles write a result padded as wide, whose real columns are copied into the result at the
end. Floats accumulate with ``math.fma`` in k order (one rounding per step, like OpenBLAS),
integers with wrapping mul + add.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import math, memref
from ..dialects import np as npd
from . import blas
from . import scalar as S
from .index_expr import Expr, broadcast, broadcast_shape, materialize
from .lowerer import Lowerer, rule

CHEAP_OPERAND = 1  # an operand with any arithmetic in its loads is computed once first
MR = 8           # rows of a float tile: 8 x 2 vector accumulators
MR_INT = 4       # rows of an integer tile
TILE_BYTES = 128  # bytes of a tile row: two AVX-512 registers
MAX_NR = 32
MAX_NR_INT = 8  # integer tiles: wider ones make LLVM's optimizer take seconds
KC = 256         # rows of B per packed block (a KC x NR strip stays in L1)
NC = 256         # columns of B per packed block (KC x NC stays in L2)
PAD = 64         # bytes added to each packed row
MC = 128         # rows of A per block of the parallel loop (MC x KC stays in L2)
MV_ROWS = 4      # rows of a matrix-vector product summed together
MV_PARALLEL_MIN = 1 << 18   # elements of A from which it runs on the threads (memory-bound)
MIN_PARTS = 4    # column parts for few rows, at least (when there are that many tiles)
PARALLEL_MIN_FLOPS = 1 << 22
SMALL_FLOPS = 16 * 16 * 16


def _small(n, m, k) -> bool:
    """Static products of at most SMALL_FLOPS multiply-adds use the plain loop nest: LLVM
    vectorizes it fully, it compiles in a fraction of the blocked kernel's time, and packing
    would cost more than it saves."""
    return all(isinstance(d, int) for d in (n, m, k)) and n * m * k <= SMALL_FLOPS


@rule(npd.MatmulOp)
def lower_matmul(lw: Lowerer, op):
    return _lower(lw, op, False)


@rule(blas.BlasMatmulOp)
def lower_blas_matmul(lw: Lowerer, op):
    """``np.blas_matmul``: BLAS calls for products large enough (``blas.py``), the generated
    kernel for the others."""
    return _lower(lw, op, True)


def _library_use(em, a: Expr, b: Expr, batch) -> bool | object:
    """Whether (an ``i1`` when known at run time only) the product of ``a`` and ``b`` is
    large enough for a BLAS call."""
    rows = (a.shape[-2],) if a.rank > 1 else ()
    cols = (b.shape[-1],) if b.rank > 1 else ()
    work = em.product(list(batch) + list(rows) + list(cols) + [a.shape[-1]])
    least = blas.GEMM_MIN_FLOPS if rows and cols else blas.GEMV_MIN_ELEMENTS
    return em.cmp("sge", work, least)


def _lower(lw: Lowerer, op, library: bool):
    em = lw.em
    a, b = (lw.expr(v) for v in op.operands)
    views = None
    if library and a.rank + b.rank > 2:
        batch = broadcast_shape(em, [a.shape[:-2], b.shape[:-2]])
        use = _library_use(em, a, b, batch)
        if use is not False:
            views = (blas.view(em, a), blas.view(em, b), use)
            a, b = views[0].expr, views[1].expr
    if views is None:
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

    if not cols and rows and not T.is_bool(t) and not _small(rows[0], 1, ka):
        buf = em.alloc(out_shape, T.lowered(t))

        def across_memory():   # A's rows run across memory (a transpose): b @ A.T, one row
            row = em.alloc(tuple(batch) + (1, rows[0]), T.lowered(t))
            _blocked(em, lw, t, row, nb, tuple(batch), 1, rows[0], ka,
                     lambda outer, k: b.load((k,)),
                     lambda outer, k, j: a_at(outer[:nb] + (j,), k), a.strides[:-3:-1])
            em.nest(out_shape, lambda idx: em.store(
                em.load(row, idx[:nb] + (0,) + idx[nb:]), buf, idx))
            em.effect(memref.DeallocOp, row)
        across = False if a.strides is None else em.cmp(
            "slt", em.abs(a.strides[-2]), em.abs(a.strides[-1]))

        def generated():
            _choose(em, across, across_memory,
                    lambda: _matvec(em, t, buf, tuple(batch), rows[0], ka, a_at, b_at))
        if views is None:
            generated()
        else:
            _choose(em, views[2], lambda: _calls(em, out_shape, nb, lambda bidx, off: blas.gemv(
                em, t, views[0], views[1], buf, off, bidx, False)), generated)
        return [lw.own(op.result, buf, t, out_shape)]
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

    (m,) = cols
    b_strides = None if b.strides is None else b.strides[-2:]
    # complex products take the plain nest below: the kernel's tiles are sized for reals
    if not T.is_bool(t) and not T.is_complex(t) and not _small(rows[0] if rows else 1, m, ka):
        if rows:
            buf = em.alloc(out_shape, T.lowered(t))

            def generated():
                _blocked(em, lw, t, buf, nb, tuple(batch), rows[0], m, ka, a_at, b_at,
                         b_strides)
            if views is None:
                generated()
            else:
                _choose(em, views[2], lambda: _calls(em, out_shape, nb, lambda bidx, off: (
                    blas.gemm(em, t, views[0], views[1], buf, off, rows[0], m, ka, bidx))),
                    generated)
            return [lw.own(op.result, buf, t, out_shape)]
        # a 1-D left operand is a row: the kernel fills a (batch..., 1, m) buffer
        one_row = em.alloc(tuple(batch) + (1, m), T.lowered(t))

        def generated():
            _blocked(em, lw, t, one_row, nb, tuple(batch), 1, m, ka, a_at, b_at, b_strides)
        if views is None:
            generated()
        else:
            _choose(em, views[2], lambda: _calls(em, tuple(batch) + (1, m), nb, lambda bidx, off: (
                blas.gemv(em, t, views[1], views[0], one_row, off, bidx, True))), generated)
        lw.own(None, one_row, t)
        return [Expr(out_shape, t, lambda idx: em.load(one_row, idx[:nb] + (0,) + idx[nb:]))]

    buf = em.alloc(out_shape, T.lowered(t))

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


def _calls(em, out_shape, nb: int, call) -> None:
    """``call(bidx, offset)`` for each batch index of the contiguous result of ``out_shape``
    (``offset``: where its matrix starts), in a serial loop: each BLAS call runs on BLAS's
    own threads."""
    strides = [1] * len(out_shape)
    for k in range(len(out_shape) - 2, -1, -1):
        strides[k] = em.mul(strides[k + 1], out_shape[k + 1])

    def one(bidx):
        off = 0
        for i, s in zip(bidx, strides, strict=False):
            off = em.add(off, em.mul(i, s))
        call(tuple(bidx), off)
    em.nest(tuple(out_shape[:nb]), one)


def multiply_add(em, t: T.Type):
    """``mac(acc, x, y) = acc + x * y`` in element type ``t``: one fused multiply-add for
    floats (one rounding per k step, the order every matmul kernel keeps), NumPy's wrapping
    integer arithmetic otherwise."""
    if T.is_float(t):
        return lambda acc, x, y: em.op(math.FmaOp, x, y, acc)
    return lambda acc, x, y: S.add(em, t, acc, S.multiply(em, t, x, y))


def _blocked(em, lw: Lowerer, t: T.Type, buf, nb: int, batch: tuple, rows, cols, depth,
             a_at, b_at, b_strides) -> None:
    """``buf[batch, i, j] = sum_k a_at(batch + (i,), k) * b_at(batch, k, j)`` by the blocked
    kernel (see the module docstring); ``buf`` need not be initialized. ``b_strides``: the
    element strides of B's k and j axes (None when unknown, taken as row-major).

    The threads take blocks of rows, or, when there are fewer than ``2 * MC`` rows, parts of
    the columns: each part packs its own panels of B (a part is one iteration of the outer
    loop, which the backend runs on the threads when it has several; with one part, the loop
    over row blocks inside it takes the threads). Columns past the last multiple of ``NR``
    are packed with zeros up to it and their tiles write a result padded as wide, which is
    copied into ``buf`` at the end."""
    lt = T.lowered(t)
    size = lt.width // 8
    nr = min(MAX_NR if T.is_float(t) else MAX_NR_INT, TILE_BYTES // size)
    mr = MR if T.is_float(t) else MR_INT
    zero = em.const(0, lt)
    mac = multiply_add(em, t)
    m_full = em.mul(em.floordiv(rows, mr), mr)
    m_half = m_full if mr == MR_INT else em.mul(em.floordiv(rows, MR_INT), MR_INT)
    n_pad = em.mul(_ceil_div(em, cols, nr), nr)
    flops = em.product([rows, cols, depth] + list(batch))
    parallel = not isinstance(flops, int) or flops >= PARALLEL_MIN_FLOPS
    few_rows = parallel and em.cmp("slt", m_full, 2 * MC)
    tiles_n = em.floordiv(n_pad, nr)
    parts = em.pick(few_rows, em.max(_ceil_div(em, n_pad, NC), em.min(tiles_n, MIN_PARTS)), 1)
    part = em.max(em.mul(_ceil_div(em, tiles_n, em.max(parts, 1)), nr), nr)
    # row blocks of at most MC rows, an even number of them of equal height (in tiles), so
    # that two threads get equal shares (296 rows: 4 x 80, not 128 + 128 + 40)
    blocks = em.mul(_ceil_div(em, _ceil_div(em, m_full, MC), 2), 2)
    mc = em.max(em.mul(_ceil_div(em, em.floordiv(m_full, mr), em.max(blocks, 1)), mr), mr)
    # known several parts: they take the threads, so the row blocks need no parallel version;
    # parts known at run time only: the row blocks, which then sit in the serial copy of the
    # parts' loop, keep one copy of their tiles (``grafo.serial_outlined``)
    rows_parallel = parallel and not (isinstance(parts, int) and parts > 1)
    ncap, kcap = em.min(n_pad, em.min(part, NC)), em.min(depth, KC)
    if T.is_float(t):  # copied row by row: a loop that LLVM vectorizes
        packed_shape = (kcap, em.add(ncap, PAD // size))
        slot = lambda k, j0, j: (k, em.add(j0, j))  # noqa: E731
    else:  # NR-wide k-major panels: LLVM would turn the row-major form into gathers
        packed_shape = (em.floordiv(ncap, nr), kcap, nr)
        slot = lambda k, j0, j: (em.floordiv(j0, nr), k, j)  # noqa: E731
        pack_shape = lambda kb, nc: (em.floordiv(nc, nr), kb, nr)  # noqa: E731
        pack_at = lambda i: (i[1], em.add(em.mul(i[0], nr), i[2]))  # noqa: E731
        along_j, across_k = (0, 1, 2), (0, 2, 1)
    # B with k nearer in memory than j (a transpose): copy it down its columns, so the reads
    # run along memory (rows of B.T a power of two apart would all fall in one L1 set)
    down_columns = False if b_strides is None else em.cmp(
        "slt", em.abs(b_strides[0]), em.abs(b_strides[1]))
    # (when only known at run time, the tiles write the padded buffer whatever the width: a
    # choice between it and ``buf`` would hide from LLVM which buffer the tiles write, and
    # it would no longer vectorize them)
    padded = em.cmp("ne", n_pad, cols) is not False
    out = buf
    if padded:
        wide = em.alloc(tuple(batch) + (rows, n_pad), lt)
        out = wide

    def pack(packed, bidx, kc, kb, jc, nc):
        """B's block of ``kb`` rows from ``kc`` and ``nc`` columns from ``jc`` into
        ``packed``, columns from ``cols`` on as zeros; down B's columns when
        ``down_columns``."""
        valid = em.min(nc, em.max(em.sub(cols, jc), 0))   # at least 1: jc < cols
        if T.is_float(t):   # the valid columns, then zeros: loops LLVM vectorizes
            def copy(order):
                dims = (kb, valid)
                em.nest([dims[d] for d in order], lambda o: em.store(b_at(
                    bidx, em.add(kc, o[order.index(0)]), em.add(jc, o[order.index(1)])),
                    packed, (o[order.index(0)], o[order.index(1)])),
                    parallel=rows_parallel)   # shared panels: the threads copy them too
            _choose(em, down_columns, lambda: copy((1, 0)), lambda: copy((0, 1)))
            if em.cmp("eq", valid, nc) is not True:
                em.nest((kb, em.sub(nc, valid)), lambda i: em.store(
                    zero, packed, (i[0], em.add(valid, i[1]))))
            return

        def copy(order):   # the last panel's columns past ``valid`` read as zeros
            inverse = [order.index(d) for d in range(len(order))]

            def element(o):
                i = [o[d] for d in inverse]
                k, j = pack_at(i)
                v = b_at(bidx, em.add(kc, k), em.add(jc, em.min(j, em.sub(valid, 1))))
                em.store(em.select(em.cmp("slt", j, valid), v, zero), packed, i)
            shape = pack_shape(kb, nc)
            em.nest([shape[d] for d in order], element, parallel=rows_parallel)
        _choose(em, down_columns, lambda: copy(across_k), lambda: copy(along_j))

    def column_part(bidx, jp, end):
        packed = em.alloc(packed_shape, lt)

        def col_block(jc):
            nc = em.min(em.sub(end, jc), NC)

            def k_block(kc):
                kb = em.min(em.sub(depth, kc), KC)
                pack(packed, bidx, kc, kb, jc, nc)
                first = em.cmp("eq", kc, 0)

                def tiles(lb, ub, height):
                    em.loop(nc, lambda j0: em.loop(ub, lambda i0: _tile(
                        em, out, bidx, (i0, height), (jc, j0, nr), (kc, kb, first), packed,
                        slot, a_at, mac), lb=lb, step=height), step=nr)
                if em.cmp("eq", m_full, 0) is not True:   # (one copy of the tiles, see below)
                    em.loop(m_full, lambda ic: tiles(ic, em.min(em.add(ic, mc), m_full), mr),
                            step=mc, parallel=rows_parallel, work=MC * NC * KC,
                            outlined=not isinstance(parts, int))
                for lb, ub, height in ((m_full, m_half, MR_INT), (m_half, rows, 1)):
                    if em.cmp("eq", lb, ub) is not True:  # rows left by taller tiles
                        tiles(lb, ub, height)
            _blocks(em, depth, KC, k_block)
        if jp == 0 and end is n_pad:
            _blocks(em, n_pad, NC, col_block)
        else:
            em.loop(end, col_block, lb=jp, step=NC)
        em.effect(memref.DeallocOp, packed)

    def matrix(bidx):
        def fill():   # a depth of 0: no k-block writes the tiles
            return em.nest((rows, n_pad), lambda ij: em.store(zero, out, bidx + ij))
        empty = em.cmp("eq", depth, 0)
        if empty is True:
            fill()
        elif empty is not False:
            em.if_(empty, fill, lambda: [])
        if isinstance(parts, int) and parts == 1:
            column_part(bidx, 0, n_pad)
        else:
            em.loop(n_pad, lambda jp: column_part(bidx, jp, em.min(em.add(jp, part), n_pad)),
                    step=part, parallel=parallel, work=MC * NC * KC)

    em.nest(batch, matrix)

    def narrow():   # the columns of the padded result that the result has
        em.nest(tuple(batch) + (rows, cols), lambda i: em.store(em.load(out, i), buf, i),
                parallel=True)
    if padded:
        narrow()
        em.effect(memref.DeallocOp, wide)


def _matvec(em, t: T.Type, buf, batch: tuple, rows, depth, a_at, b_at) -> None:
    """``buf[batch, i] = sum_k a_at(batch + (i,), k) * b_at(batch, k)``: ``MV_ROWS`` rows at a
    time, each summed in the lanes of one vector register (``grafo.lanes``: a vector load of
    the row and of the vector per step, as BLAS's gemv kernels keep partial sums), the lanes
    then added pairwise and the last ``depth % lanes`` products in order; the threads take
    blocks of rows. The order is not the blocked kernel's (one fma per step of k)."""
    lt = T.lowered(t)
    lanes = min(MAX_NR, TILE_BYTES // 2 // (lt.width // 8))   # one 64-byte vector
    mac = multiply_add(em, t)
    zero = em.const(0, lt)
    full = em.mul(em.floordiv(rows, MV_ROWS), MV_ROWS)
    split = em.mul(em.floordiv(depth, lanes), lanes)
    elements = em.product([rows, depth] + list(batch))
    parallel = not isinstance(elements, int) or elements >= MV_PARALLEL_MIN

    def block(bidx, i0, height):
        def step(k, *acc):
            x = [b_at(bidx, em.add(k, j)) for j in range(lanes)]
            return [mac(acc[r * lanes + j], a_at(bidx + (em.add(i0, r),), em.add(k, j)), x[j])
                    for r in range(height) for j in range(lanes)]
        acc = em.loop(split, step, [zero] * (height * lanes), step=lanes, lanes=lanes)
        for r in range(height):
            part = acc[r * lanes:(r + 1) * lanes]
            while len(part) > 1:
                part = [S.add(em, t, part[j], part[j + 1]) for j in range(0, len(part), 2)]
            row = bidx + (em.add(i0, r),)
            (total,) = em.loop(depth, lambda k, s, row=row: [mac(s, a_at(row, k), b_at(bidx, k))],
                               part,
                               lb=split)
            em.store(total, buf, row)

    def matrix(bidx):
        em.loop(full, lambda i0: block(bidx, i0, MV_ROWS), step=MV_ROWS, parallel=parallel,
                work=MV_ROWS * KC)
        em.loop(rows, lambda i: block(bidx, i, 1), lb=full)
    em.nest(batch, matrix)


def _ceil_div(em, a, b):
    return em.floordiv(em.add(a, em.sub(b, 1)), b)


def _choose(em, cond, then, otherwise) -> None:
    """``then()`` or ``otherwise()``: at compile time when ``cond`` is a Python bool, else
    both under an ``scf.if``."""
    if isinstance(cond, bool):
        (then if cond else otherwise)()
    else:
        em.if_(cond, lambda: then() or [], lambda: otherwise() or [])


def _blocks(em, extent, block: int, body) -> None:
    """``body(start)`` for each block of ``extent``; a static extent of one block is emitted
    without a loop, so its sizes stay constants (the packing copy then has static trip counts
    and LLVM vectorizes it, and the tiles start from literal zeros)."""
    if isinstance(extent, int) and extent <= block:
        body(0)
    else:
        em.loop(extent, body, step=block)


def _tile(em, buf, bidx, rows, cols, ks, packed, slot, a_at, mac) -> None:
    """One tile of ``mr`` rows from ``i0`` and ``nr`` columns from ``jc + j0`` (``j0`` within
    the packed block, whose element (k, j) is at index ``slot(k, j0, j - j0)``), over ``kb``
    steps of k from ``kc``: accumulators carried by the k-loop, starting from zero when
    ``first`` (the first block of k), else from ``buf``."""
    (i0, mr), (jc, j0, nr), (kc, kb, first) = rows, cols, ks
    cells = [(em.add(i0, i), em.add(em.add(jc, j0), j)) for i in range(mr) for j in range(nr)]
    zero = em.const(0, packed.type.element)
    if first is True:
        inits = [zero] * len(cells)
    else:
        inits = em.if_(first, lambda: [zero] * len(cells),
                       lambda: [em.load(buf, bidx + c) for c in cells], [zero.type] * len(cells))

    def step(k, *acc):
        a = [a_at(bidx + (em.add(i0, i),), em.add(kc, k)) for i in range(mr)]
        b = [em.load(packed, slot(k, j0, j)) for j in range(nr)]
        return [mac(acc[i * nr + j], a[i], b[j]) for i in range(mr) for j in range(nr)]
    acc = em.loop(kb, step, inits, unroll=False)
    for v, c in zip(acc, cells, strict=True):
        em.store(v, buf, bidx + c)
