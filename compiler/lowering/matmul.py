"""Lowering of ``np.matmul``: an i-k-j loop nest accumulating into the result buffer.

Semantics: NumPy ``matmul`` for ranks >= 1: 1-D x 1-D is a dot product (a scalar), a 1-D
operand is treated as a row (left) or column (right) whose added axis is removed, batch dims
broadcast. Integers wrap; bool is or-of-ands. A core-dimension mismatch raises NumPy's
ValueError("matmul: Input operand 1 has a mismatch in its core dimension 0, ...").
Operands are read through their ``Expr`` (views such as transposes are not copied); an
operand with arithmetic in its loads is materialized first, since each element is read
many times.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import np as npd
from . import scalar as S
from .index_expr import broadcast, broadcast_shape, materialize
from .lowerer import Lowerer, rule

CHEAP_OPERAND = 2  # an operand Expr costing more per element is computed once first


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
