"""Matrix products by NumPy's BLAS: ``np.blas_matmul`` and its calls of ``?gemm`` / ``?gemv``.

The CPU backends rewrite (``prepare``) every float32/float64 ``np.matmul`` that is not a dot
product of two vectors into ``np.blas_matmul``, whose lowering (``matmul.py``) calls CBLAS
(``blas.gemm`` / ``blas.gemv`` ops) for products of at least ``GEMM_MIN_FLOPS`` multiply-adds
(``GEMV_MIN_ELEMENTS`` matrix elements for a matrix times a vector) and keeps the generated
kernel below that, choosing at run time where the sizes are dynamic. The CUDA backend does not
rewrite them: its products stay generated code. The thresholds come from timing square
products on an AMD EPYC (Zen 3, 2 cores) against NumPy's OpenBLAS (Haswell kernel): at n = 32
and 48 the generated code, which has no call and no set-up, was faster (about 4 against 6 us at
32), from n = 64 the library (docs/benchmarks.md).

Operands are passed where they lie (Numba's and NumPy's own ``is_blasable`` rule): a matrix
whose rows or columns are contiguous with a leading dimension at least their length (a
transpose, a slice of columns) goes as it is, with ``CblasTrans`` when its columns are the
contiguous axis, and a vector with a positive increment; any other layout (negative or zero
strides, both axes strided) and any computed operand is copied into a contiguous buffer first.
A batch (``@`` of stacks, broadcast as in NumPy) is a serial loop of calls: OpenBLAS runs each
on its own threads, and the calls are never placed in a parallel loop (a loop holding them has
effects, so ``parallelize-loops`` leaves it serial), so the two thread pools never nest.

Floats differ from the generated kernel's in rounding only (BLAS sums in its own blocked order,
as NumPy's results do).
"""

from __future__ import annotations

from dataclasses import dataclass

from .. import types as T
from ..dialects import blas, memref
from ..dialects import np as npd
from ..ir.constraints import NpValue
from ..ir.opdef import ConstantLike, InferredTypes, Op, Pure, TensorLevel, register_ops
from .index_expr import Expr, materialize, of_buffer

GEMM_MIN_FLOPS = 48 * 48 * 48   # multiply-adds from which ?gemm beats the generated kernel
GEMV_MIN_ELEMENTS = 96 * 96     # matrix elements from which ?gemv beats the generated loop


class BlasMatmulOp(Op):
    """``np.blas_matmul``: ``np.matmul`` of float32 or float64 operands on the CPU, lowered to
    CBLAS calls where they win (see the module docstring). Same semantics and errors as
    ``np.matmul``."""

    name = "np.blas_matmul"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = (NpValue, NpValue)
    result_defs = (NpValue,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return npd.MatmulOp.infer(operand_types, attributes)


register_ops("np", (BlasMatmulOp,))


def prepare(module):
    """Rewrite each float32/float64 ``np.matmul`` of ``module`` (tensor level, in place) other
    than a vector dot product into ``np.blas_matmul``; returns ``module``."""
    for op in list(module.walk()):
        if not isinstance(op, npd.MatmulOp):
            continue
        a, b = (v.type for v in op.operands)
        if (T.element_type(a) not in (T.f32, T.f64)
                or max(len(T.shape_of(a)), len(T.shape_of(b))) < 2):
            continue
        new = BlasMatmulOp.build(list(op.operands), None, [op.result.type], None, op.loc)
        op.parent.insert_before(op, new)
        op.result.replace_all_uses_with(new.result)
        op.erase()
    return module


@dataclass
class View:
    """An operand as BLAS sees it: its ``expr``, the ``memref`` it reads, the ``offset`` of
    its element 0 from the memref's element 0, and its strides (in elements, one per axis)."""

    expr: Expr
    memref: object
    offset: object
    strides: tuple

    @property
    def shape(self) -> tuple:
        return self.expr.shape

    def own(self, em, bidx: tuple) -> tuple:
        """The operand's batch index at ``bidx``, an index of the broadcast batch (whose
        trailing dims are the operand's; a size-1 dim reads index 0)."""
        n = len(self.shape) - (2 if len(self.shape) >= 2 else 1)
        return tuple(em.pick(em.cmp("eq", d, 1), 0, i)
                     for i, d in zip(bidx[len(bidx) - n:] if n else (), self.shape[:n],
                                     strict=True))

    def at(self, em, bidx: tuple):
        """The offset of the operand's matrix (or vector) at batch index ``bidx``."""
        off = self.offset
        for i, s in zip(self.own(em, bidx), self.strides, strict=False):
            off = em.add(off, em.mul(i, s))
        return off


def view(em, x: Expr) -> View:
    """``x`` as a ``View``: where it lies when its loads are plain reads of one memref with
    known strides, else a contiguous copy."""
    if x.strides is not None:
        block = em.b.block
        before = {id(op) for op in block.ops}
        v = x.load(tuple(0 for _ in x.shape))
        op = v.owner_op()
        if isinstance(op, memref.LoadOp) and op.parent is block:
            buf, idx = op.memref, op.indices
            op.erase()
            off = 0
            for i, s in zip(idx, of_buffer(em, buf, x.element).strides, strict=True):
                off = em.add(off, em.mul(i, s))
            return View(x, buf, off, tuple(x.strides))
        for new in reversed(list(block.ops)):   # the probe's ops (constants are shared)
            if id(new) not in before and not new.has_trait(ConstantLike):
                new.erase()
    buf = materialize(em, x)
    copy = of_buffer(em, buf, x.element)
    copy.shape = tuple(x.shape)
    return View(copy, buf, 0, copy.strides)


def matrix_layout(em, shape, strides):
    """``(direct, trans, ld)`` of a matrix of ``shape`` (rows, cols) and ``strides``:
    ``direct`` when BLAS reads it where it lies, row-major (``trans`` False) or as the row-major
    transpose (``trans`` True), with leading dimension ``ld``. Empty matrices and size-1 axes
    accept any stride. Each is a Python value when the layout is known at compile time."""
    (r, c), (sr, sc) = shape, strides
    empty = em.either(em.cmp("eq", r, 0), em.cmp("eq", c, 0))
    rows_ok = em.both(em.either(em.cmp("eq", sc, 1), em.cmp("sle", c, 1)),
                      em.either(em.cmp("sge", sr, em.max(c, 1)), em.cmp("sle", r, 1)))
    rows_ok = em.either(rows_ok, empty)
    cols_ok = em.both(em.either(em.cmp("eq", sr, 1), em.cmp("sle", r, 1)),
                      em.either(em.cmp("sge", sc, em.max(r, 1)), em.cmp("sle", c, 1)))
    direct = em.either(rows_ok, cols_ok)
    trans = em.both(cols_ok, _not(em, rows_ok))
    ld_rows = em.pick(em.either(em.cmp("sle", r, 1), empty), em.max(c, 1), sr)
    ld_cols = em.pick(em.cmp("sle", c, 1), em.max(r, 1), sc)
    return direct, trans, em.pick(trans, ld_cols, ld_rows)


def _not(em, c):
    return (not c) if isinstance(c, bool) else em.select(c, em.false(), em.true())


def _flag(em, c):
    return (em.true() if c else em.false()) if isinstance(c, bool) else c


def _choose(em, cond, then, otherwise) -> None:
    if isinstance(cond, bool):
        (then if cond else otherwise)()
    else:
        em.if_(cond, lambda: then() or [], lambda: otherwise() or [])


def with_matrix(em, x: View, bidx: tuple, body) -> None:
    """``body(memref, offset, trans, ld)`` for the matrix of ``x`` at ``bidx``: where it lies
    when BLAS can read it so, else from a contiguous copy (freed after ``body``)."""
    shape, strides = x.shape[-2:], x.strides[-2:]
    direct, trans, ld = matrix_layout(em, shape, strides)

    def copied():
        tmp = em.alloc(shape, T.lowered(x.expr.element))
        own = x.own(em, bidx)
        em.nest(shape, lambda ij: em.store(x.expr.load(own + tuple(ij)), tmp, ij))
        body(tmp, 0, False, em.max(shape[1], 1))
        em.effect(memref.DeallocOp, tmp)
    _choose(em, direct, lambda: body(x.memref, x.at(em, bidx), trans, ld), copied)


def with_vector(em, x: View, body) -> None:
    """``body(memref, offset, inc)`` for the vector ``x``: where it lies when its stride is
    positive, else from a contiguous copy."""
    (n,), (s,) = x.shape, x.strides
    direct = em.either(em.cmp("sge", s, 1), em.cmp("sle", n, 1))

    def copied():
        tmp = em.alloc((n,), T.lowered(x.expr.element))
        em.loop(n, lambda i: em.store(x.expr.load((i,)), tmp, (i,)))
        body(tmp, 0, 1)
        em.effect(memref.DeallocOp, tmp)
    _choose(em, direct, lambda: body(x.memref, x.offset, em.pick(em.cmp("sle", n, 1), 1, s)),
            copied)


def gemm(em, t: T.Type, a: View, b: View, c, c_offset, m, n, k, bidx) -> None:
    """``c[c_offset:] = a @ b`` for one matrix of each (row-major ``c``, leading dimension
    ``max(n, 1)``)."""
    lt = T.lowered(t)
    one, zero = em.const(1.0, lt), em.const(0.0, lt)

    def with_b(am, ao, at, lda):
        def call(bm, bo, bt, ldb):
            em.effect(blas.GemmOp, _flag(em, at), _flag(em, bt), em.index(m), em.index(n),
                      em.index(k), one, am, em.index(ao), em.index(lda), bm, em.index(bo),
                      em.index(ldb), zero, c, em.index(c_offset), em.index(em.max(n, 1)))
        with_matrix(em, b, bidx, call)
    with_matrix(em, a, bidx, with_b)


def gemv(em, t: T.Type, a: View, x: View, y, y_offset, bidx, left: bool) -> None:
    """``y[y_offset:] = a @ x`` (``left`` False) or ``x @ a`` (``left``: the vector on the
    left) for the matrix of ``a`` at ``bidx``; ``y`` contiguous."""
    lt = T.lowered(t)
    one, zero = em.const(1.0, lt), em.const(0.0, lt)
    r, c = a.shape[-2:]

    def with_x(am, ao, at, lda):
        # the stored matrix is a (or a.T when ``at``); gemv's m x n are its dims
        trans = _not(em, at) if left else at
        rows, cols = em.pick(at, c, r), em.pick(at, r, c)

        def call(xm, xo, inc):
            em.effect(blas.GemvOp, _flag(em, trans), em.index(rows), em.index(cols), one, am,
                      em.index(ao), em.index(lda), xm, em.index(xo), em.index(inc), zero, y,
                      em.index(y_offset), em.index(1))
        with_vector(em, x, call)
    with_matrix(em, a, bidx, with_x)
