"""Lowering of the data-dependent ``np`` ops (``dialects/np_data.py``) into loops over buffers.

- ``np.concatenate``: each operand is copied into its slab of a fresh buffer.
- ``np.scan``: one sequential loop along the axis per outer index, carrying the running
  sum/product or the value of the scan's ufunc (NumPy's accumulate order).
- ``np.gather``: the index shapes are broadcast (IndexError when they do not), each index
  array is checked in one pass (IndexError naming its first bad index), then the result is a
  lazy ``Expr`` reading ``x`` at the wrapped indices.
- ``np.mask_select``: mask dims checked, selected elements counted, then a buffer of that
  run-time length is filled in C order.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith
from ..dialects import np_data as nd
from . import scalar as S
from .context import Emitter
from .index_expr import Expr, broadcast, broadcast_shape
from .lowerer import Lowerer, rule


@rule(nd.ConcatenateOp)
def lower_concatenate(lw: Lowerer, op):
    em = lw.em
    axis = op.attr("axis")
    xs = [lw.expr(v) for v in op.operands]
    t = T.element_type(op.result.type)
    first = xs[0]
    for k in range(first.rank):
        if k == axis:
            continue
        for j, x in enumerate(xs[1:], 1):
            em.check(em.cmp("eq", x.shape[k], first.shape[k]), "ValueError",
                     "all the input array dimensions except for the concatenation axis must "
                     "match exactly, but along dimension %d, the array at index 0 has size {0} "
                     "and the array at index %d has size {1}" % (k, j),
                     [first.shape[k], x.shape[k]])
    total = 0
    for x in xs:
        total = em.add(total, x.shape[axis])
    out_shape = tuple(total if k == axis else first.shape[k] for k in range(first.rank))
    static = T.shape_of(op.result.type)
    out_shape = tuple(s if s is not None else d for s, d in zip(static, out_shape, strict=True))
    buf = em.alloc(out_shape, T.lowered(t))
    offset = 0
    for x in xs:
        def copy(idx, x=x, offset=offset):
            dst = tuple(em.add(i, offset) if k == axis else i for k, i in enumerate(idx))
            em.store(x.load(idx), buf, dst)
        em.nest(x.shape, copy, parallel=True)
        offset = em.add(offset, x.shape[axis])
    return [lw.own(op.result, buf, t, out_shape)]


@rule(nd.ScanOp)
def lower_scan(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    axis, t = op.attr("axis"), x.element
    kind = op.attr("kind")
    combine = {"sum": S.add, "prod": S.multiply}.get(kind) or S.SCALAR[nd.COMBINING[kind]]
    ident = em.const(0 if kind == "sum" else 1, T.lowered(t))   # never read (i == 0)
    buf = em.alloc(x.shape, T.lowered(t))
    outer = [d for k, d in enumerate(x.shape) if k != axis]

    def line(oidx):
        def step(i, acc):
            idx = oidx[:axis] + (i,) + oidx[axis:]
            v = x.load(idx)
            nxt = em.select(em.cmp("eq", i, 0), v, combine(em, t, acc, v))  # keeps x[0]: -0.0
            em.store(nxt, buf, idx)
            return [nxt]
        em.loop(x.shape[axis], step, [ident])
    em.nest(outer, line, parallel=True)
    return [lw.own(op.result, buf, t, x.shape)]


def checked_index_array(em: Emitter, idx: Expr, n, axis_name: int, skip=False):
    """Check every index of ``idx`` against an axis of size ``n`` (IndexError naming the
    first bad index, as NumPy's) unless ``skip`` (an i1 value or bool) holds, and return
    ``wrap(raw) -> index`` (negative indices count from the end)."""
    it = idx.element

    def wrap(j):
        j = em.index(S.astype(em, it, T.i64, j)) if T.lowered(it) != T.i64 else em.index(j)
        return em.pick(em.cmp("slt", j, 0), em.add(j, n), j)

    def check(iidx, ok, bad):
        raw = idx.load(iidx)
        j = wrap(raw)
        good = em.both(em.cmp("sge", j, 0), em.cmp("slt", j, n))
        wide = S.astype(em, it, T.i64, raw)
        return [em.op(arith.AndIOp, ok, good), em.select(ok, em.select(good, bad, wide), bad)]
    if skip is True:
        return wrap
    ok, bad = em.nest(idx.shape, check, [em.true(), em.const(0, T.i64)])
    em.check(em.either(ok, skip), "IndexError",
             "index {0} is out of bounds for axis %d with size {1}" % axis_name, [bad, n])
    return wrap


_INDEX_MISMATCH = ("IndexError",
                   "shape mismatch: indexing arrays could not be broadcast together with shapes ")


class IntegerIndex:
    """NumPy's integer-array index of an ``np.gather``/``np.scatter`` ``op`` into an array
    of ``shape``, whose index arrays are ``idx`` (Exprs): ``region`` is the indexed shape
    (the array's other dims with the broadcast index shape at ``axis``), checked at run time
    as NumPy checks (index shapes first); ``check()`` checks the indices and returns
    ``index_map``, which takes an index of the region to the array's."""

    def __init__(self, em: Emitter, op, shape, idx: list):
        self.em, self.shape, self.idx = em, tuple(shape), idx
        self.axes, self.axis = nd.indexed_axes(op.attr("axis"), op.attr("axes"), len(idx))
        self.names = op.attr("index_axes") or self.axes
        self.both = broadcast_shape(em, [i.shape for i in idx], error=_INDEX_MISMATCH)
        rest = [d for k, d in enumerate(self.shape) if k not in self.axes]
        self.region = (*rest[:self.axis], *self.both, *rest[self.axis:])

    def check(self):
        em, r = self.em, len(self.both)
        # NumPy checks no index when the broadcast index is empty (x[[], [9]] is fine)
        skip = len(self.idx) > 1 and em.cmp("eq", em.product(self.both), 0)
        wraps = [checked_index_array(em, i, self.shape[a], name, skip)
                 for i, a, name in zip(self.idx, self.axes, self.names, strict=True)]
        reads = [broadcast(em, i, self.both) for i in self.idx]

        def index_map(ridx):
            at = ridx[self.axis:self.axis + r]
            js = {a: w(e.load(at)) for a, w, e in zip(self.axes, wraps, reads, strict=True)}
            others = iter(ridx[:self.axis] + ridx[self.axis + r:])
            return tuple(js[k] if k in js else next(others) for k in range(len(self.shape)))
        return index_map


@rule(nd.GatherOp)
def lower_gather(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    idx = [lw.expr(v) for v in op.indices]
    index = IntegerIndex(em, op, x.shape, idx)
    index_map = index.check()
    e = Expr(index.region, x.element, lambda ridx: x.load(index_map(ridx)),
             x.cost + sum(i.cost + 2 for i in idx))
    return [e if isinstance(op.result.type, T.TensorType) else e.load(())]


def checked_mask_count(em, shape, mask: Expr):
    """The number of true elements of ``mask``, after NumPy's IndexError when its dims differ
    from the leading dims of ``shape`` (the indexed array's)."""
    for a in range(mask.rank):
        em.check(em.cmp("eq", shape[a], mask.shape[a]), "IndexError",
                 "boolean index did not match indexed array along axis %d; size of axis is "
                 "{0} but size of corresponding boolean axis is {1}" % a,
                 [shape[a], mask.shape[a]])
    (count,) = em.nest(mask.shape, lambda midx, c: [
        em.select(mask.load(midx), em.op(arith.AddIOp, c, em.const(1, T.index)), c)],
        [em.const(0, T.index)])
    return count


@rule(nd.MaskSelectOp)
def lower_mask_select(lw: Lowerer, op):
    em = lw.em
    x, mask = (lw.expr(v) for v in op.operands)
    k = mask.rank
    count = checked_mask_count(em, x.shape, mask)
    rest = tuple(x.shape[k:])
    buf = em.alloc((count,) + rest, T.lowered(x.element))

    def fill(midx, p):
        def take():
            em.nest(rest, lambda ridx: em.store(x.load(midx + ridx), buf, (p,) + ridx))
            return [em.op(arith.AddIOp, p, em.const(1, T.index))]
        return em.if_(mask.load(midx), take, lambda: [p], [T.index])
    em.nest(mask.shape, fill, [em.const(0, T.index)])
    return [lw.own(op.result, buf, x.element, (count,) + rest)]
