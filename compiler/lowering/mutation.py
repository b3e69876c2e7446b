"""Lowering of side effects and array updates: ``grafo.check`` (``assert``), ``np.setitem``
(basic-index assignment as a value), ``np.scatter`` / ``np.mask_assign`` (integer-array and
boolean-mask assignment) and ``np.write_back`` (copy a parameter's final value into the
caller's buffer, after the function's results are computed).

Each update writes a buffer that holds the target, then stores the value, read first and
broadcast as NumPy broadcasts assignment values, into the indexed region. The buffer is the
target's own (a fresh buffer of the current scope, or an argument's buffer: the update is in
place) when the target's old value is dead: every other read of it is over
(``in_place.reading``).
An operand that reads the old value (``a[1:] = a[:-1]``) is then computed into a temporary
first, NumPy's copy-first semantics. Otherwise the buffer is a copy of the target.

Updating an argument's buffer is safe because a call in which a written argument shares
memory with another argument runs eagerly (``api.ConcreteFunction``); ``np.write_back`` of a
value held in the argument's own buffer is then no copy.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith
from ..dialects import np as npd
from ..dialects import np_data as nd
from ..dialects.grafo import CheckOp
from . import in_place
from . import scalar as S
from .context import Emitter
from .control_flow import buffer_type
from .data import IntegerIndex, checked_mask_count
from .index_expr import Expr, broadcast, materialize, of_buffer
from .indexing import _shape_text, _slice, checked_index, planned_index
from .lowerer import Lowerer, _inside_loop_below, rule


def _region(lw: Lowerer, shape, index_operands, spec, bounds):
    """(region shape, index map) of ``x[spec]`` for an array of ``shape``: the map takes an
    index of the region to the index of the array it denotes."""
    em = lw.em
    vals = iter(index_operands)
    bounds = list(bounds)
    out_shape, plan, dim = [], [], 0
    for item in spec:
        if item == "n":
            out_shape.append(1)
            continue
        n = shape[dim]
        if item == "i":
            plan.append(("fixed", checked_index(em, lw.scalar(next(vals)), n, dim)))
        else:
            b = [None if v == "none" else (em.index(lw.scalar(next(vals))) if v == "?" else v)
                 for v in bounds[:3]]
            del bounds[:3]
            first, step, length = _slice(em, n, *b)
            plan.append(("slice", len(out_shape), first, step))
            out_shape.append(length)
        dim += 1
    for k in range(dim, len(shape)):
        plan.append(("slice", len(out_shape), 0, 1))
        out_shape.append(shape[k])

    def index_map(idx):
        return planned_index(em, plan, idx)

    return tuple(out_shape), index_map


def _fit(em: Emitter, v: Expr, shape,
         message: str = "could not broadcast input array from shape {v} into shape {r}") -> Expr:
    """``v`` broadcast to the region ``shape`` as NumPy broadcasts an assigned value (extra
    leading dims must be 1); ValueError(``message`` with the two shapes) otherwise."""
    extra = max(v.rank - len(shape), 0)
    ok = True
    for d in v.shape[:extra]:
        ok = em.both(ok, em.cmp("eq", d, 1))
    for d, o in zip(reversed(v.shape[extra:]), reversed(shape), strict=False):
        ok = em.both(ok, em.either(em.cmp("eq", d, o), em.cmp("eq", d, 1)))
    if ok is not True:
        params = []
        vt = _shape_text(v.shape, params)
        em.check(ok, "ValueError", message.format(v=vt, r=_shape_text(shape, params)), params)
    if extra:
        inner = v
        v = Expr(v.shape[extra:], v.element,
                 lambda idx: inner.load((0,) * extra + tuple(idx)), v.cost)
    return broadcast(em, v, tuple(shape))


@rule(npd.SetItemOp)
def lower_setitem(lw: Lowerer, op):
    em = lw.em
    buf, out, operand = _update(lw, op)
    shape, index_map = _region(lw, out.shape, op.indices, op.attr("spec"),
                               op.attr("bounds", ()))
    v = _fit(em, operand(1), shape)
    em.nest(shape, lambda idx: em.store(v.load(idx), buf, index_map(idx)), parallel=True)
    return [out]


def _update(lw: Lowerer, op):
    """``(buffer, result, operand)`` for the update ``op`` of its target (operand 0): the
    buffer it writes, the ``Expr`` of its result (reading that buffer) and ``operand(k)``, the
    ``Expr`` of operand ``k`` (a temporary when it reads the target's old value)."""
    target = op.target
    scope = lw.scopes[-1]
    element = target.type.element
    buf = scope.fresh.get(target)
    if buf is None or buf not in scope.owned or buf.type != buffer_type(target.type):
        buf = lw.homes.get(target)
    reading = None
    if buf is not None and not _inside_loop_below(op, target):
        reading = in_place.reading(lw, target, op, buf)
    if reading is None:
        buf = materialize(lw.em, lw.expr(target), buffer_type(target.type))
        out = lw.own(op.result, buf, element)
    elif buf in scope.owned:
        scope.owned.remove(buf)
        out = lw.own(op.result, buf, element)
    else:
        lw.homes[op.result] = buf
        out = of_buffer(lw.em, buf, element)

    def operand(k: int) -> Expr:
        e = lw.expr(op.operands[k])
        if k not in (reading or ()):
            return e
        return lw.own(None, materialize(lw.em, e), e.element, e.shape)
    return buf, out, operand


_MISMATCH = "shape mismatch: value array of shape {v} could not be broadcast to indexing " \
    "result of shape {r}"


@rule(nd.ScatterOp)
def lower_scatter(lw: Lowerer, op):
    """The index shapes, the value's shape and the indices are checked first, in NumPy's
    order (no partial update on an error), then one sequential nest in C order writes, so
    the last of repeated indices wins; with ``combine`` each store combines the element it
    replaces (read in that order, so repeated indices accumulate)."""
    em = lw.em
    buf, out, operand = _update(lw, op)
    count = len(op.indices)
    index = IntegerIndex(em, op, out.shape, [operand(1 + m) for m in range(count)])
    v = _fit(em, operand(1 + count), index.region, _MISMATCH)  # NumPy checks the value first
    index_map = index.check()
    kind = op.attr("combine")
    if kind is None:
        em.nest(index.region, lambda ridx: em.store(v.load(ridx), buf, index_map(ridx)))
        return [out]
    combine, el, t = S.SCALAR[nd.COMBINING[kind]], out.element, v.element

    def step(ridx):
        dst = index_map(ridx)
        old = S.astype(em, el, t, em.load(buf, dst))
        em.store(S.astype(em, t, el, combine(em, t, old, v.load(ridx))), buf, dst)
    em.nest(index.region, step)
    return [out]


@rule(nd.MaskAssignOp)
def lower_mask_assign(lw: Lowerer, op):
    """Mask dims checked, the true elements counted, the value checked against the count,
    then the selected rows written in C order."""
    em = lw.em
    buf, out, operand = _update(lw, op)
    mask, v = operand(1), operand(2)
    k = mask.rank
    count = checked_mask_count(em, out.shape, mask)
    rest = tuple(out.shape[k:])
    if not rest and v.rank == 1:
        n = v.shape[0]
        em.check(em.either(em.cmp("eq", n, 1), em.cmp("eq", n, count)), "ValueError",
                 "NumPy boolean array indexing assignment cannot assign {0} input values to "
                 "the {1} output values where the mask is true", [n, count])
        v = broadcast(em, v, (count,))
    else:
        v = _fit(em, v, (count,) + rest, _MISMATCH)

    def fill(midx, p):
        def put():
            em.nest(rest, lambda ridx: em.store(v.load((p,) + ridx), buf, midx + ridx))
            return [em.op(arith.AddIOp, p, em.const(1, T.index))]
        return em.if_(mask.load(midx), put, lambda: [p], [T.index])
    em.nest(mask.shape, fill, [em.const(0, T.index)])
    return [out]


@rule(npd.WriteBackOp)
def lower_write_back(lw: Lowerer, op):
    """Deferred to the function's return (``Lowerer.write_back``), after its results: a
    result may read the parameter's old elements (``t = a * 2; a[:] = 0; return t``)."""
    lw.write_backs.append((lw.expr(op.param), lw.expr(op.value)))
    return []


@rule(CheckOp)
def lower_check(lw: Lowerer, op):
    """A tensor-level ``grafo.check`` (``assert``): the same check on the lowered bool."""
    lw.em.check(lw.scalar(op.condition), op.attr("kind"), op.attr("message"),
                [lw.scalar(v) for v in op.params])
    return []
