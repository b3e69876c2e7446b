"""Lowering of elementwise ops, casts, ``np.where``, constants and fills to lazy ``Expr`` s.

An elementwise op on tensors broadcasts its operands (run-time checked where dims are
dynamic) and composes their loads with its scalar function from ``scalar.py``; nothing is
written to memory here. On scalars (rank-0 results) the scalar function is emitted directly.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.attributes import DenseAttr
from . import scalar as S
from .index_expr import Expr, broadcast, broadcast_shape, column_major_strides, of_buffer, splat
from .lowerer import Lowerer, rule


def fused_map(lw: Lowerer, op, fn, cost: int) -> Expr:
    """The ``Expr`` applying ``fn(*elements)`` to ``op``'s broadcast operands."""
    em = lw.em
    ins = [lw.expr(v) for v in op.operands]
    shape = broadcast_shape(em, [e.shape for e in ins], T.shape_of(op.result.type))
    readers = [broadcast(em, e, shape) for e in ins]
    return Expr(shape, T.element_type(op.result.type),
                lambda idx: fn(*[r.load(idx) for r in readers]),
                cost + sum(r.cost for r in readers), strides=_common_layout(em, ins, len(shape)))


def _common_layout(em, ins, rank: int):
    """The strides whose memory order NumPy gives a ufunc's result (order "K": that of its
    operands): those of the operands of ``rank`` dims when they all have the same known
    strides and every other operand is a scalar; else None (C order, or not modelled)."""
    arrays = [e for e in ins if e.rank]
    if not arrays or any(e.rank != rank or e.strides is None for e in arrays):
        return None
    first = arrays[0].strides
    same = all(em.cmp("eq", a, b) is True for e in arrays[1:]
               for a, b in zip(e.strides, first, strict=True))
    return first if same else None


def _elementwise_rule(cls: type[npd.ElementwiseOp]):
    cost = S.COST.get(cls, 1)

    def lower(lw: Lowerer, op):
        t = T.element_type(op.x.type)
        # NumPy runs its array loops when any operand is an array, a 0-d one too
        array = any(isinstance(v.type, T.TensorType) for v in op.operands)
        fn = S.element_function(cls, t, array)
        if not isinstance(op.result.type, T.TensorType):
            return [fn(lw.em, t, *[lw.scalar(v) for v in op.operands])]
        return [fused_map(lw, op, lambda *xs: fn(lw.em, t, *xs), cost)]
    return lower


for _cls in npd.NUMPY_OPS.values():
    if issubclass(_cls, npd.ElementwiseOp) and _cls is not npd.PowerOp:   # lower_power
        rule(_cls)(_elementwise_rule(_cls))


@rule(npd.PowerOp)
def lower_power(lw: Lowerer, op):
    """``np.power``; a float array raised to a run-time scalar exponent takes ``sqrt`` when
    the exponent is 0.5, as NumPy's loop does for a scalar exponent (see ``power_half`` in
    ``dialects/canonicalization/np.py`` for a constant one)."""
    x, y = op.operands
    t = T.element_type(x.type)
    if not (isinstance(x.type, T.TensorType) and T.is_float(t) and not T.shape_of(y.type)):
        return _elementwise_rule(npd.PowerOp)(lw, op)
    em = lw.em

    def power(a, b):
        half = em.cmpf("oeq", b, em.const(0.5, T.lowered(t)))
        return em.select(half, S.SCALAR[npd.SqrtOp](em, t, a), S.power(em, t, a, b))
    return [fused_map(lw, op, power, S.COST[npd.PowerOp])]


@rule(npd.WhereOp)
def lower_where(lw: Lowerer, op):
    t = T.element_type(op.x.type)
    if not isinstance(op.result.type, T.TensorType):
        return [S.where(lw.em, t, *[lw.scalar(v) for v in op.operands])]
    return [fused_map(lw, op, lambda c, a, b: S.where(lw.em, t, c, a, b), 1)]


@rule(npd.AsTypeOp)
def lower_astype(lw: Lowerer, op):
    src, dst = T.element_type(op.input.type), T.element_type(op.result.type)
    if not isinstance(op.result.type, T.TensorType):
        return [S.astype(lw.em, src, dst, lw.scalar(op.input))]
    e = fused_map(lw, op, lambda x: S.astype(lw.em, src, dst, x), 1)
    if "order" in op.attributes:   # a copy in C (``ndarray.copy``) or Fortran memory order
        e.strides = None if op.attr("order") == "C" else column_major_strides(lw.em, e.shape)
    return [e]


@rule(npd.ConstantOp)
def lower_constant(lw: Lowerer, op):
    """Scalars and splats become ``arith.constant`` s; other arrays are read from a read-only
    ``grafo.constant`` buffer (not owned: an update copies it first)."""
    em, t = lw.em, op.result.type
    el = T.lowered(T.element_type(t))
    attr = op.attributes["value"]
    if not isinstance(attr, DenseAttr):
        return [em.const(op.value, el)]
    flat = attr.value.reshape(-1)
    bits = flat.view(np.uint8).reshape(flat.size, -1) if flat.size else flat
    if flat.size == 0 or (bits == bits[0]).all():
        return [splat(t.shape, t.element, em.const(flat[0].item() if flat.size else 0, el))]
    return [of_buffer(em, em.dense(attr, T.MemRefType(t.shape, el)), t.element)]


def _sizes(lw: Lowerer, t: T.TensorType, operands) -> tuple:
    """The shape of ``t`` with its dynamic dims taken from ``operands`` (checked >= 0)."""
    em, it = lw.em, iter(operands)
    shape = tuple(d if d is not None else em.index(lw.scalar(next(it))) for d in t.shape)
    ok = True
    for d in shape:
        ok = em.both(ok, em.cmp("sge", d, 0))
    em.check(ok, "ValueError", "negative dimensions are not allowed")
    return shape


@rule(npd.FullOp)
def lower_full(lw: Lowerer, op):
    em, t = lw.em, op.result.type
    v = lw.scalar(op.fill_value)
    v = S.astype(em, T.element_type(op.fill_value.type), t.element, v)
    return [splat(_sizes(lw, t, op.sizes), t.element, v)]


@rule(npd.ArangeOp)
def lower_arange(lw: Lowerer, op):
    """``start + step * i`` computed in the promotion of start, step and int64 (as
    ``(start + step * np.arange(n)).astype(dtype)`` does), then cast."""
    em, t = lw.em, op.result.type
    start_v, step_v = op.operands[:2]
    ct = T.strong(T.promote(start_v.type, step_v.type, T.i64))
    start = S.astype(em, start_v.type, ct, lw.scalar(start_v))
    step = S.astype(em, step_v.type, ct, lw.scalar(step_v))
    n = t.shape[0] if t.shape[0] is not None else em.max(em.index(lw.scalar(op.sizes[0])), 0)

    def load(idx):
        i = S.astype(em, T.i64, ct, em.to_i64(em.index(idx[0])))
        return S.astype(em, ct, t.element, S.add(em, ct, start, S.multiply(em, ct, step, i)))
    return [Expr((n,), t.element, load, 3)]


@rule(npd.EyeOp)
def lower_eye(lw: Lowerer, op):
    em, t = lw.em, op.result.type
    el = T.lowered(t.element)
    k = op.attr("k", 0)

    def load(idx):
        on = em.cmpi("eq", em.index(em.sub(idx[1], idx[0])), em.index(k))
        return em.select(on, em.const(1, el), em.const(0, el))
    return [Expr(t.shape, t.element, load, 3)]
