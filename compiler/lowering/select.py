"""Lowering of ``np.partition`` (and ``np.argpartition``, ``np.median``'s middle elements):
introselect per line, as NumPy's ``npy_partition``.

Each line along the axis is copied into a contiguous buffer (with its positions, for
``arg``). For each wanted position ``k`` the search range is first narrowed by the positions
already placed (an element placed at ``p`` splits the line: nothing before ``p`` is greater,
nothing after smaller), so positions taken from the last down shrink the work as NumPy's
sorted ``kth`` list does. Then quickselect: the median of the first, middle and last
elements is the pivot (the other two are sentinels for an unguarded Hoare partition), and
the side holding ``k`` is kept. After ``2 * floor(log2(n))`` partitions that have not reached
a range of ``SMALL`` elements (median-of-3 killer inputs) the rest of the range is heapsorted,
so a line never costs more than ``O(n log n)``; short ranges are insertion-sorted.

The order is NumPy's ``*_LT``: NaN after every number, integers signed or unsigned as their
type; -0.0 and 0.0 are equal and both kept as they are.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith, memref, scf
from ..dialects import np_data as nd
from .context import Emitter
from .lowerer import Lowerer, rule

# Ranges of fewer elements are insertion-sorted.
SMALL = 16


def _while(em: Emitter, inits: list, before, after) -> list:
    """``scf.while``: ``before(*args)`` returns ``(condition, values)``, ``after(*values)``
    the next ``args``. Returns the ``values`` of the failing test."""
    loop = scf.WhileOp.create(inits)
    em.b.insert(loop)
    with em.b.at_end(loop.before):
        cond, values = before(*loop.before.args)
        em.b.create(scf.ConditionOp, [cond, *values])
    with em.b.at_end(loop.after):
        em.b.create(scf.YieldOp, list(after(*loop.after.args)))
    return list(loop.results)


class _Line:
    """The scratch ``vals`` (and ``pos``, int64) of one line and the order of its values."""

    def __init__(self, em: Emitter, t: T.Type, n, arg: bool):
        self.em, self.t = em, t
        self.vals = em.alloc((n,), T.lowered(t))
        self.pos = em.alloc((n,), T.i64) if arg else None

    def buffers(self):
        return [b for b in (self.vals, self.pos) if b is not None]

    def get(self, i):
        return self.em.load(self.vals, (i,))

    def less(self, a, b):
        """NumPy's ``LT``: NaN after every number."""
        em, t = self.em, self.t
        if T.is_float(t):
            nan_b = em.op(arith.AndIOp, em.cmpf("uno", b, b), em.cmpf("ord", a, a))
            return em.op(arith.OrIOp, em.cmpf("olt", a, b), nan_b)
        return em.cmpi("ult" if T.is_unsigned(t) or T.is_bool(t) else "slt", a, b)

    def swap(self, i, j) -> None:
        em = self.em
        for buf in self.buffers():
            a, b = em.load(buf, (i,)), em.load(buf, (j,))
            em.store(b, buf, (i,))
            em.store(a, buf, (j,))

    def order(self, i, j) -> None:
        """Swap ``i`` and ``j`` when the element at ``j`` is less."""
        em = self.em
        em.if_(self.less(self.get(j), self.get(i)), lambda: self.swap(i, j), lambda: None)

    def partition(self, lo, hi):
        """Hoare partition of ``lo..hi`` (``hi - lo >= 2``) around the median of three;
        returns the pivot's final position."""
        em = self.em
        mid = em.add(lo, em.floordiv(em.sub(hi, lo), 2))
        self.order(lo, mid)
        self.order(mid, hi)
        self.order(lo, mid)
        first = em.add(lo, 1)
        self.swap(mid, first)
        pivot = self.get(first)

        def scan(start, step, stop_at):
            return _while(em, [start], lambda i: (stop_at(self.get(em.add(i, step))),
                                                   [em.add(i, step)]),
                          lambda i: [i])[0]

        def before(i, j):
            i = scan(i, 1, lambda v: self.less(v, pivot))
            j = scan(j, -1, lambda v: self.less(pivot, v))
            return em.cmpi("slt", i, j), [i, j]

        def after(i, j):
            self.swap(i, j)
            return [i, j]
        _, j = _while(em, [first, em.index(hi)], before, after)
        self.swap(first, j)
        return j

    def insertion_sort(self, lo, hi) -> None:
        em = self.em

        def insert(i):
            def before(j):
                prev = em.max(em.sub(j, 1), lo)
                go = em.op(arith.AndIOp, em.cmpi("sgt", j, em.index(lo)),
                           self.less(self.get(j), self.get(prev)))
                return go, [j]

            def after(j):
                self.swap(em.sub(j, 1), j)
                return [em.sub(j, 1)]
            _while(em, [em.index(i)], before, after)
        em.loop(em.add(hi, 1), insert, lb=em.add(lo, 1))

    def heapsort(self, lo, hi) -> None:
        em = self.em
        m = em.sub(em.add(hi, 1), lo)

        def sift(root, size):
            def before(r):
                child = em.add(em.mul(r, 2), 1)
                return em.cmpi("slt", child, em.index(size)), [r]

            def after(r):
                child = em.add(em.mul(r, 2), 1)
                right = em.min(em.add(child, 1), em.sub(size, 1))
                big = em.select(self.less(self.get(em.add(lo, child)),
                                          self.get(em.add(lo, right))), right, child)
                down = self.less(self.get(em.add(lo, r)), self.get(em.add(lo, big)))
                em.if_(down, lambda: self.swap(em.add(lo, r), em.add(lo, big)), lambda: None)
                return [em.select(down, big, em.index(size))]
            _while(em, [em.index(root)], before, after)

        half = em.floordiv(m, 2)
        em.loop(half, lambda r: sift(em.sub(em.sub(half, 1), r), m))

        def pop(r):
            end = em.sub(em.sub(m, 1), r)
            self.swap(lo, em.add(lo, end))
            sift(em.index(0), end)
        em.loop(em.max(em.sub(m, 1), 0), pop)

    def select(self, k, lo, hi, depth) -> None:
        """Place the element that belongs at ``k`` (in ``lo..hi``) there."""
        em = self.em
        k = em.index(k)

        def before(lo, hi, d):
            big = em.cmpi("sge", em.sub(hi, lo), em.index(SMALL))
            return em.op(arith.AndIOp, big, em.cmpi("sgt", d, em.index(0))), [lo, hi, d]

        def after(lo, hi, d):
            j = self.partition(lo, hi)
            return [em.select(em.cmpi("sge", k, j), em.add(j, 1), lo),
                    em.select(em.cmpi("sle", k, j), em.sub(j, 1), hi), em.sub(d, 1)]
        lo, hi, d = _while(em, [em.index(lo), em.index(hi), em.index(depth)], before, after)
        em.if_(em.cmpi("sgt", d, em.index(0)), lambda: self.insertion_sort(lo, hi),
               lambda: self.heapsort(lo, hi))


def _depth(em: Emitter, n):
    """``2 * floor(log2(n))`` (0 for ``n <= 1``)."""
    if isinstance(n, int):
        return 2 * max(n.bit_length() - 1, 0)
    _, d = _while(em, [em.index(n), em.index(0)],
                  lambda m, d: (em.cmpi("sgt", m, em.index(1)), [m, d]),
                  lambda m, d: [em.floordiv(m, 2), em.add(d, 2)])
    return d


def _positions(em: Emitter, op, n) -> list:
    """The wanted positions, the largest first where ``n`` is known."""
    if isinstance(n, int):
        return list(reversed(op.kth_of(n)))
    # -1 is the last position, then -2, ...; the non-negative ones after them, largest first.
    ks = [em.index(em.add(n, k) if k < 0 else k)
          for k in sorted(set(op.attr("kth")), key=lambda k: (k >= 0, -k))]
    if op.attr("middle"):
        ks += [em.floordiv(n, 2), em.floordiv(em.sub(n, 1), 2)]
    return ks


@rule(nd.PartitionOp)
def lower_partition(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    axis, arg, t = op.attr("axis"), bool(op.attr("arg")), x.element
    shape = x.shape
    n = shape[axis]
    out_t = T.i64 if arg else t
    out = em.alloc(shape, T.lowered(out_t))
    line = _Line(em, t, n, arg)
    outer = [d for k, d in enumerate(shape) if k != axis]

    def part_line(oidx):
        at = lambda i: oidx[:axis] + (i,) + oidx[axis:]  # noqa: E731

        def read(i):
            em.store(x.load(at(i)), line.vals, (i,))
            if arg:
                em.store(em.to_i64(i), line.pos, (i,))
        em.loop(n, read)

        def select_all():
            depth = _depth(em, n)
            done = []
            for k in _positions(em, op, n):
                lo, hi, same = em.index(0), em.index(em.sub(n, 1)), em.false()
                for p in done:
                    lo = em.select(em.cmpi("slt", p, k), em.max(lo, em.add(p, 1)), lo)
                    hi = em.select(em.cmpi("sgt", p, k), em.min(hi, em.sub(p, 1)), hi)
                    same = em.op(arith.OrIOp, same, em.cmpi("eq", p, k))
                line.select(k, lo, em.select(same, em.sub(lo, 1), hi), depth)
                done.append(em.index(k))
        positive = em.cmp("sgt", n, 0)
        if positive is True:
            select_all()
        elif positive is not False:
            em.if_(positive, select_all, lambda: None)

        def write(i):
            em.store(em.load(line.pos if arg else line.vals, (i,)), out, at(i))
        em.loop(n, write)
    em.nest(outer, part_line)
    for buf in line.buffers():
        em.effect(memref.DeallocOp, buf)
    return [lw.own(op.result, out, out_t, shape)]
