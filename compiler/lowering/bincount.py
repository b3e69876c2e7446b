"""Lowering of ``np.bincount`` (``dialects/np_data.py``): NumPy's ``arr_bincount``.

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
