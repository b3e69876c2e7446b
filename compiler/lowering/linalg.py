"""Lowering of the ``np.linalg`` gufuncs (``dialects/linalg.py``) to LAPACK calls.

Each matrix of the stack is copied into a column-major float64 work buffer (its leading
dimension ``max(rows, 1)``, as NumPy's ``linearize_matrix``), the routine NumPy's
``umath_linalg.cpp`` calls runs on it (``lapack`` ops, called from the generated code), and
NumPy's post-processing writes the row-major results: so the results are NumPy's, bit for bit.
Work buffers and workspace (sized by LAPACK's query, ``lwork = -1``, once per op) are allocated
once per op and reused by every matrix of the stack. A nonzero ``info`` is NumPy's
``LinAlgError`` (``grafo.check``), raised at the first failing matrix.
"""

from __future__ import annotations

import math as pymath

from .. import types as T
from ..dialects import arith, grafo, lapack, memref
from ..dialects import linalg as la
from ..ir.attributes import StringAttr
from .lowerer import Lowerer, rule

F64 = T.f64
_QR_ERROR = "Incorrect argument found while performing QR factorization"


class _Work:
    """Buffers of one op: allocated in order, freed together by ``free``."""

    def __init__(self, em):
        self.em = em
        self.buffers = []

    def new(self, size, element=F64):
        buf = self.em.alloc((self.em.max(size, 1),), element)
        self.buffers.append(buf)
        return buf

    def free(self):
        for buf in self.buffers:
            self.em.effect(memref.DeallocOp, buf)


def _at(em, ld, i, j):
    """The column-major position of ``(i, j)`` with leading dimension ``ld``."""
    return (em.add(em.mul(j, ld), i),)


def _copy_in(em, x, bidx, rows, cols, buf, ld):
    em.nest((cols, rows), lambda ji: em.store(x.load(bidx + (ji[1], ji[0])), buf,
                                              _at(em, ld, ji[1], ji[0])))


def _copy_out(em, buf, ld, rows, cols, out, bidx, keep=None):
    """``out[bidx][i, j] = buf(i, j)``; zero where ``keep(i, j)`` (a dim comparison) fails."""
    zero = em.const(0.0, F64)

    def body(ij):
        i, j = ij
        v = em.load(buf, _at(em, ld, i, j))
        if keep is not None:
            inside = em.cmp(keep, j, i)
            v = (v if inside else zero) if isinstance(inside, bool) else em.select(inside, v, zero)
        em.store(v, out, bidx + (i, j))
    em.nest((rows, cols), body)


def _identity(em, buf, ld, rows, cols):
    one, zero = em.const(1.0, F64), em.const(0.0, F64)
    em.nest((cols, rows), lambda ji: em.store(
        em.select(em.cmpi("eq", em.index(ji[0]), em.index(ji[1])), one, zero), buf,
        _at(em, ld, ji[1], ji[0])))


def _fail_unless_zero(em, info, message: str):
    em.check(em.cmpi("eq", info, em.const(0, T.i64)), la.LINALG_ERROR, message)


def _stack(lw, value):
    """``(Expr, batch dims, rows, cols)`` of a stack of matrices."""
    x = lw.expr(value)
    return x, tuple(x.shape[:-2]), x.shape[-2], x.shape[-1]


def _square(em, m, n):
    em.check(em.cmp("eq", m, n), la.LINALG_ERROR, "Last 2 dimensions of the array must be square")


def _results(lw, op, shapes):
    """Row-major result buffers of ``op`` (owned by the current scope) and their Exprs."""
    bufs = [lw.em.alloc(s, F64) for s in shapes]
    return bufs, [lw.own(r, b, F64, s) for r, b, s in zip(op.results, bufs, shapes, strict=True)]


def _over_stack(em, batch, body):
    em.nest(batch, lambda bidx: body(tuple(bidx)))


def _query(em, cls, args, work_at, iwork_at=None, attrs=None):
    """LAPACK's workspace query (``lwork = -1``): the optimal ``lwork`` (and ``liwork``)."""
    attrs = attrs or {}
    args = list(args)
    args[work_at + 1] = em.const(-1, T.i64)
    if iwork_at is not None:
        args[iwork_at + 1] = em.const(-1, T.i64)
    em.op(cls, *args, **attrs)
    lwork = em.op(arith.FPToSIOp, em.load(args[work_at], (0,)), type=T.i64)
    liwork = em.load(args[iwork_at], (0,)) if iwork_at is not None else None
    return em.max(em.index(lwork), 1), (None if liwork is None else em.max(em.index(liwork), 1))


# det, slogdet (getrf) --------------------------------------------------------------------------

def _slogdet_one(em, x, bidx, m, a, ld, piv):
    """NumPy's ``slogdet_single_element``: sign and log|det| of one matrix."""
    _copy_in(em, x, bidx, m, m, a, ld)
    info = em.op(lapack.GetrfOp, em.index(m), em.index(m), a, em.index(ld), piv)
    one = em.const(1.0, F64)

    def pivot(i, sign):
        moved = em.cmpi("ne", em.load(piv, (i,)), em.to_i64(em.add(i, 1)))
        return [em.select(moved, em.op(arith.NegFOp, sign), sign)]
    (sign,) = em.loop(m, pivot, [one])

    def diagonal(i, sign, logdet):
        e = em.load(a, _at(em, ld, i, i))
        negative = em.cmpf("olt", e, em.const(0.0, F64))
        sign = em.select(negative, em.op(arith.NegFOp, sign), sign)
        e = em.select(negative, em.op(arith.NegFOp, e), e)
        log = em.op(grafo.LibmOp, e, callee=StringAttr("log"))
        return [sign, em.op(arith.AddFOp, logdet, log)]
    sign, logdet = em.loop(m, diagonal, [sign, em.const(0.0, F64)])
    ok = em.cmpi("eq", info, em.const(0, T.i64))
    return (em.select(ok, sign, em.const(0.0, F64)),
            em.select(ok, logdet, em.const(-pymath.inf, F64)))


def _lower_slogdet(lw, op, det: bool):
    em = lw.em
    x, batch, m, n = _stack(lw, op.a)
    _square(em, m, n)
    work = _Work(em)
    ld = em.max(m, 1)
    a, piv = work.new(em.mul(ld, m)), work.new(m, T.i64)

    def finish(sign, logdet):
        if not det:
            return [sign, logdet]
        return [em.op(arith.MulFOp, sign, em.op(grafo.LibmOp, logdet, callee=StringAttr("exp")))]

    if not batch:
        out = finish(*_slogdet_one(em, x, (), m, a, ld, piv))
        work.free()
        return out
    bufs, outs = _results(lw, op, [batch] * len(op.results))

    def body(bidx):
        for buf, v in zip(bufs, finish(*_slogdet_one(em, x, bidx, m, a, ld, piv)), strict=True):
            em.store(v, buf, bidx)
    _over_stack(em, batch, body)
    work.free()
    return outs


@rule(la.DetOp)
def lower_det(lw: Lowerer, op):
    return _lower_slogdet(lw, op, det=True)


@rule(la.SlogdetOp)
def lower_slogdet(lw: Lowerer, op):
    return _lower_slogdet(lw, op, det=False)


# inv, solve (gesv) -----------------------------------------------------------------------------

def _lower_gesv(lw, op, b_value):
    em = lw.em
    x, batch, m, n = _stack(lw, op.a)
    _square(em, m, n)
    if b_value is None:
        rhs, k = None, m
    else:
        rhs, _, _, k = _stack(lw, b_value)
    work = _Work(em)
    ld = em.max(m, 1)
    a, b, piv = work.new(em.mul(ld, m)), work.new(em.mul(ld, k)), work.new(m, T.i64)
    shape = batch + (m, k)
    (out,), outs = _results(lw, op, [shape])

    def body(bidx):
        _copy_in(em, x, bidx, m, m, a, ld)
        if rhs is None:
            _identity(em, b, ld, m, m)
        else:
            _copy_in(em, rhs, bidx, m, k, b, ld)
        info = em.op(lapack.GesvOp, em.index(m), em.index(k), a, em.index(ld), piv, b,
                     em.index(ld))
        _fail_unless_zero(em, info, "Singular matrix")
        _copy_out(em, b, ld, m, k, out, bidx)
    _over_stack(em, batch, body)
    work.free()
    return outs


@rule(la.InvOp)
def lower_inv(lw: Lowerer, op):
    return _lower_gesv(lw, op, None)


@rule(la.SolveOp)
def lower_solve(lw: Lowerer, op):
    return _lower_gesv(lw, op, op.b)


# cholesky (potrf) ------------------------------------------------------------------------------

@rule(la.CholeskyOp)
def lower_cholesky(lw: Lowerer, op):
    em = lw.em
    x, batch, m, n = _stack(lw, op.a)
    _square(em, m, n)
    upper = bool(op.attr("upper"))
    work = _Work(em)
    ld = em.max(m, 1)
    a = work.new(em.mul(ld, m))
    (out,), outs = _results(lw, op, [batch + (m, m)])

    def body(bidx):
        _copy_in(em, x, bidx, m, m, a, ld)
        info = em.op(lapack.PotrfOp, em.index(m), a, em.index(ld),
                     uplo=StringAttr("U" if upper else "L"))
        _fail_unless_zero(em, info, "Matrix is not positive definite")
        _copy_out(em, a, ld, m, m, out, bidx, keep="sge" if upper else "sle")
    _over_stack(em, batch, body)
    work.free()
    return outs


# eigh, eigvalsh (syevd) ------------------------------------------------------------------------

@rule(la.EighOp)
def lower_eigh(lw: Lowerer, op):
    em = lw.em
    x, batch, m, n = _stack(lw, op.a)
    _square(em, m, n)
    vectors = bool(op.attr("vectors"))
    attrs = {"jobz": StringAttr("V" if vectors else "N"), "uplo": StringAttr(op.attr("uplo"))}
    work = _Work(em)
    ld = em.max(m, 1)
    a, w = work.new(em.mul(ld, m)), work.new(m)
    query = [work.new(1), work.new(1, T.i64)]
    args = [em.index(m), a, em.index(ld), w, query[0], None, query[1], None]
    lwork, liwork = _query(em, lapack.SyevdOp, args, 4, 6, attrs)
    args[4:8] = [work.new(lwork), em.index(lwork), work.new(liwork, T.i64), em.index(liwork)]
    shapes = [batch + (m,)] + ([batch + (m, m)] if vectors else [])
    bufs, outs = _results(lw, op, shapes)

    def body(bidx):
        _copy_in(em, x, bidx, m, m, a, ld)
        info = em.op(lapack.SyevdOp, *args, **attrs)
        _fail_unless_zero(em, info, "Eigenvalues did not converge")
        em.loop(m, lambda i: em.store(em.load(w, (i,)), bufs[0], bidx + (i,)))
        if vectors:
            _copy_out(em, a, ld, m, m, bufs[1], bidx)
    _over_stack(em, batch, body)
    work.free()
    return outs


# svd (gesdd) -----------------------------------------------------------------------------------

@rule(la.SvdOp)
def lower_svd(lw: Lowerer, op):
    em = lw.em
    x, batch, m, n = _stack(lw, op.a)
    mode = op.attr("mode")
    k = em.min(m, n)
    ucols, vrows = {"full": (m, n), "reduced": (k, k), "none": (1, 1)}[mode]
    urows = 1 if mode == "none" else m
    attrs = {"jobz": StringAttr({"full": "A", "reduced": "S", "none": "N"}[mode])}
    work = _Work(em)
    lda, ldu, ldvt = em.max(m, 1), em.max(urows, 1), em.max(vrows, 1)
    a, s = work.new(em.mul(lda, n)), work.new(k)
    u, vt = work.new(em.mul(ldu, ucols)), work.new(em.mul(ldvt, n if mode != "none" else 1))
    iwork = work.new(em.mul(8, k), T.i64)
    args = [em.index(m), em.index(n), a, em.index(lda), s, u, em.index(ldu), vt,
            em.index(ldvt), work.new(1), None, iwork]
    lwork, _ = _query(em, lapack.GesddOp, args, 9, None, attrs)
    args[9:11] = [work.new(lwork), em.index(lwork)]
    if mode == "none":
        shapes = [batch + (k,)]
    else:
        shapes = [batch + (m, ucols), batch + (k,), batch + (vrows, n)]
    bufs, outs = _results(lw, op, shapes)

    def body(bidx):
        _copy_in(em, x, bidx, m, n, a, lda)
        if mode != "none":  # LAPACK leaves them alone for an empty matrix: NumPy's identity
            _identity(em, u, ldu, m, ucols)
            _identity(em, vt, ldvt, vrows, n)
        info = em.op(lapack.GesddOp, *args, **attrs)
        _fail_unless_zero(em, info, "SVD did not converge")
        sbuf = bufs[0] if mode == "none" else bufs[1]
        em.loop(k, lambda i: em.store(em.load(s, (i,)), sbuf, bidx + (i,)))
        if mode != "none":
            _copy_out(em, u, ldu, m, ucols, bufs[0], bidx)
            _copy_out(em, vt, ldvt, vrows, n, bufs[2], bidx)
    _over_stack(em, batch, body)
    work.free()
    return outs


# qr (geqrf, orgqr) -----------------------------------------------------------------------------

@rule(la.QrOp)
def lower_qr(lw: Lowerer, op):
    em = lw.em
    x, batch, m, n = _stack(lw, op.a)
    mode = op.attr("mode")
    k = em.min(m, n)
    c = T.shape_of(op.results[0].type)[-1] if mode != "r" else k
    if c is None:
        c = k
    work = _Work(em)
    lda = em.max(m, 1)
    a, tau = work.new(em.mul(lda, n)), work.new(k)
    geqrf = [em.index(m), em.index(n), a, em.index(lda), tau, work.new(1), None]
    lwork, _ = _query(em, lapack.GeqrfOp, geqrf, 5)
    lwork = em.max(lwork, n)
    geqrf[5:7] = [work.new(lwork), em.index(lwork)]
    if mode != "r":
        q = work.new(em.mul(lda, c))
        orgqr = [em.index(m), em.index(c), em.index(k), q, em.index(lda), tau, work.new(1), None]
        qwork, _ = _query(em, lapack.OrgqrOp, orgqr, 6)
        qwork = em.max(qwork, c)
        orgqr[6:8] = [work.new(qwork), em.index(qwork)]
    rrows = k if mode == "r" else c
    shapes = [batch + (rrows, n)] if mode == "r" else [batch + (m, c), batch + (rrows, n)]
    bufs, outs = _results(lw, op, shapes)

    def body(bidx):
        _copy_in(em, x, bidx, m, n, a, lda)
        info = em.op(lapack.GeqrfOp, *geqrf)
        _fail_unless_zero(em, info, _QR_ERROR)
        if mode != "r":  # q starts as a's columns, then zeros (NumPy's qr_complete)
            copied = em.min(c, n)
            em.nest((copied, m), lambda ji: em.store(
                em.load(a, _at(em, lda, ji[1], ji[0])), q, _at(em, lda, ji[1], ji[0])))
            zero = em.const(0.0, F64)
            em.loop(c, lambda j: em.loop(m, lambda i: em.store(zero, q, _at(em, lda, i, j))),
                    lb=copied)
            info = em.op(lapack.OrgqrOp, *orgqr)
            _fail_unless_zero(em, info, _QR_ERROR)
            _copy_out(em, q, lda, m, c, bufs[0], bidx)
        _copy_out(em, a, lda, rrows, n, bufs[-1], bidx, keep="sge")
    _over_stack(em, batch, body)
    work.free()
    return outs


# lstsq (gelsd) ---------------------------------------------------------------------------------

@rule(la.LstsqOp)
def lower_lstsq(lw: Lowerer, op):
    """NumPy's ``lstsq`` gufunc: ``b`` in a ``max(M, N)``-row buffer, ``gelsd``, then ``x``
    from its first N rows and the residuals (the sums of squares of the rows below, in
    order) when the rank is N and M > N. ``b`` gets a zero column when it has none, as
    NumPy's ``lstsq`` adds one."""
    em = lw.em
    x, _, m, n = _stack(lw, op.a)
    rhs, _, _, k = _stack(lw, op.b)
    rcond = lw.scalar(op.rcond)
    work = _Work(em)
    lda, ldb = em.max(m, 1), em.max(em.max(m, n), 1)
    mn, columns = em.min(m, n), em.max(k, 1)   # LAPACK needs a column: NumPy adds one
    a, b, s, rank = (work.new(em.mul(lda, n)), work.new(em.mul(ldb, columns)), work.new(mn),
                     work.new(1, T.i64))
    args = [em.index(m), em.index(n), em.index(columns), a, em.index(lda), b, em.index(ldb), s,
            rcond, rank, work.new(1), None, work.new(1, T.i64)]
    lwork, liwork = _query(em, lapack.GelsdOp, args, 10, None)
    liwork = em.max(em.index(em.load(args[12], (0,))), 1)
    args[10:13] = [work.new(lwork), em.index(lwork), work.new(liwork, T.i64)]
    _copy_in(em, x, (), m, n, a, lda)
    zero = em.const(0.0, F64)   # x is 0 for M == 0, as NumPy sets it
    em.loop(em.mul(ldb, columns), lambda i: em.store(zero, b, (i,)))
    _copy_in(em, rhs, (), m, k, b, ldb)
    info = em.op(lapack.GelsdOp, *args)
    _fail_unless_zero(em, info, "SVD did not converge in Linear Least Squares")
    r = em.load(rank, (0,))
    full = em.both(em.cmpi("eq", r, em.to_i64(n)), em.cmp("sgt", m, n))
    count = em.pick(full, k, 0)
    xs = em.alloc((n, k), F64)
    _copy_out(em, b, ldb, n, k, xs, ())
    resids = em.alloc((count,), F64, T.MemRefType((None,), F64))

    def residual(j):
        def add(i, acc):
            v = em.load(b, _at(em, ldb, i, j))
            return [em.op(arith.AddFOp, acc, em.op(arith.MulFOp, v, v))]
        (total,) = em.loop(m, add, [em.const(0.0, F64)], lb=n)
        em.store(total, resids, (j,))
    em.loop(count, residual)
    sv = em.alloc((mn,), F64)
    em.loop(mn, lambda i: em.store(em.load(s, (i,)), sv, (i,)))
    work.free()
    x_out, resid_out, s_out = (lw.own(res, buf, F64, shape) for res, buf, shape in (
        (op.results[0], xs, (n, k)), (op.results[1], resids, (count,)),
        (op.results[3], sv, (mn,))))
    return [x_out, resid_out, em.op(arith.TruncIOp, r, type=T.i32), s_out]
