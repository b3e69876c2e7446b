"""Lowering of ``np.bincount`` (``dialects/np_data.py``): NumPy's ``arr_bincount``; and of
``np.bin_counts`` and ``np.uniform_histogram``, histogram's counting loops.

One pass finds the smallest and the largest value (the ValueError for a negative one comes
before any write), a buffer of ``max(max + 1, minlength)`` zeros is allocated, and a
sequential pass adds one, or the element's weight, at each value, so weights add in input
order as NumPy's loop does. An empty input gives ``minlength`` zeros and checks nothing.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith
from ..dialects import np_data as nd
from . import scalar as S
from .lowerer import Lowerer, rule


@rule(nd.BinCountOp)
def lower_bincount(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    w = lw.expr(op.weights[0]) if op.weights else None
    el = T.f64 if w is not None else T.i64
    n = x.shape[0]
    zero = em.const(0, T.i64)

    def extremes(idx, lo, hi):
        v = x.load(idx)
        return [em.select(em.cmpi("slt", v, lo), v, lo), em.select(em.cmpi("sgt", v, hi), v, hi)]
    lo, hi = em.nest(x.shape, extremes, [zero, em.const(-1, T.i64)])
    em.check(em.cmpi("sge", lo, zero), "ValueError",
             "'list' argument must have no negative elements")
    if w is not None:
        em.check(em.either(em.cmp("eq", w.shape[0], n), em.cmp("eq", n, 0)), "ValueError",
             "The weights and list don't have the same length.")
    size = em.max(em.index(em.op(arith.AddIOp, hi, em.const(1, T.i64))), op.attr("minlength"))
    buf = em.alloc((size,), T.lowered(el))
    nothing = em.const(0.0 if w is not None else 0, T.lowered(el))
    em.loop(size, lambda i: em.store(nothing, buf, (i,)), parallel=True)

    def add(i):
        at = em.index(x.load((i,)))
        step = w.load((i,)) if w is not None else em.const(1, T.i64)
        em.store(S.add(em, el, em.load(buf, (at,)), step), buf, (at,))
    em.loop(n, add)
    return [lw.own(op.result, buf, el, (size,))]


@rule(nd.BinCountsOp)
def lower_bin_counts(lw: Lowerer, op):
    """One loop over the (fused) indices adds one at each index in range and nothing, at a
    clamped index, for the others: no branch on the data."""
    em = lw.em
    x = lw.expr(op.input)
    bins = op.attr("bins")
    buf = em.alloc((bins,), T.i64)
    em.loop(bins, lambda i: em.store(em.const(0, T.i64), buf, (i,)))
    zero, top = em.const(0, T.i64), em.const(bins - 1, T.i64)

    def add(i):
        v = x.load((i,))
        inside = em.op(arith.AndIOp, em.cmpi("sge", v, zero), em.cmpi("sle", v, top))
        at = em.index(em.select(inside, v, zero))
        step = em.op(arith.ExtUIOp, inside, type=T.i64)
        em.store(em.op(arith.AddIOp, em.load(buf, (at,)), step), buf, (at,))
    em.loop(x.shape[0], add)
    return [lw.own(op.result, buf, T.i64, (bins,))]


@rule(nd.UniformHistogramOp)
def lower_uniform_histogram(lw: Lowerer, op):
    """One loop over the input: each element's bin by arithmetic, corrected against the two
    edges around it (two loads of a small, cached array), counted without a branch on the
    data (elements not counted add zero at bin 0)."""
    em = lw.em
    x, edges = lw.expr(op.input), lw.expr(op.edges)
    first, last, norm = (lw.scalar(v) for v in (op.first, op.last, op.norm))
    bins, el = op.attr("bins"), x.element
    buf = em.alloc((bins,), T.i64)
    em.loop(bins, lambda i: em.store(em.const(0, T.i64), buf, (i,)))
    top = em.index(bins - 1)
    scale = em.const(float(bins), el)

    def add(i):
        v = x.load((i,))
        inside = em.op(arith.AndIOp, em.cmpf("oge", v, first), em.cmpf("ole", v, last))
        at = em.select(inside, v, first)
        f = em.op(arith.MulFOp, em.op(arith.DivFOp, em.op(arith.SubFOp, at, first), norm),
                  scale)
        idx = em.min(em.index(em.op(arith.FPToSIOp, f, type=T.i64)), top)
        below = em.cmpf("olt", at, edges.load((idx,)))
        idx = em.max(em.pick(below, em.sub(idx, 1), idx), em.index(0))
        above = em.op(arith.AndIOp, em.cmpf("oge", at, edges.load((em.add(idx, 1),))),
                      em.cmp("ne", idx, top))
        idx = em.pick(above, em.add(idx, 1), idx)
        step = em.op(arith.ExtUIOp, inside, type=T.i64)
        em.store(em.op(arith.AddIOp, em.load(buf, (idx,)), step), buf, (idx,))
    em.loop(x.shape[0], add)
    return [lw.own(op.result, buf, T.i64, (bins,))]
