"""Lowering of ``np.partition`` (and ``np.argpartition``, ``np.median``'s middle elements):
introselect per line, as NumPy's ``npy_partition``.

Each line along the axis is copied into the result, where it is selected in place
(``arg``: the values into a contiguous scratch line, their positions into the result). For
each wanted position ``k`` the search range is first narrowed by the positions already
placed (an element placed at ``p`` splits the line: nothing before ``p`` is greater,
nothing after smaller), so positions taken from the last down shrink the work as NumPy's
sorted ``kth`` list does. Then quickselect: the median of the elements at a quarter, half
and three quarters of the range is the pivot of a branchless Lomuto partition (a swap and a
conditional increment per element, no data-dependent branch), and the side holding ``k``
is kept; after a split with under an eighth of the range below the pivot, the elements
equal to it are gathered after it (a second pass), so runs of duplicates end in one step.
After ``2 * floor(log2(n))`` partitions that have not reached a range of ``SMALL`` elements
(inputs that defeat the pivot samples) the rest of the range is heapsorted, so a line never
costs more than ``O(n log n)``; short ranges are insertion-sorted.

The order is NumPy's ``*_LT``: NaN after every number (NaNs are moved to the end of the line
while it is copied in, so the select compares numbers only), integers signed or unsigned as
their type; -0.0 and 0.0 are equal and both kept as they are.
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
    """The line being selected, in place: its values (and, for ``arg``, int64 positions) as
    ``places``, pairs of a buffer and the index of a line position in it, set per line."""

    def __init__(self, em: Emitter, t: T.Type, n, arg: bool):
        self.em, self.t = em, t
        # argpartition's values live in a scratch line; its positions are the result.
        self.scratch = [em.alloc((n,), T.lowered(t))] if arg else []
        self.places: list = []

    def bind(self, out, at) -> None:
        self.places = [(b, lambda i: (i,)) for b in self.scratch] + [(out, at)]

    def get(self, i):
        buf, at = self.places[0]
        return self.em.load(buf, at(i))

    def put(self, i, values) -> None:
        for (buf, at), v in zip(self.places, values, strict=True):
            self.em.store(v, buf, at(i))

    def less(self, a, b):
        """The order of numbers (NaNs never reach it: ``read`` puts them last)."""
        em, t = self.em, self.t
        if T.is_float(t):
            return em.cmpf("olt", a, b)
        return em.cmpi("ult" if T.is_unsigned(t) or T.is_bool(t) else "slt", a, b)

    def swap(self, i, j) -> None:
        em = self.em
        for buf, at in self.places:
            a, b = em.load(buf, at(i)), em.load(buf, at(j))
            em.store(b, buf, at(i))
            em.store(a, buf, at(j))

    def order(self, i, j) -> None:
        """Swap ``i`` and ``j`` when the element at ``j`` is less."""
        em = self.em
        em.if_(self.less(self.get(j), self.get(i)), lambda: self.swap(i, j), lambda: None)

    def partition(self, lo, hi, keep_left):
        """Branchless Lomuto partition of ``lo..hi`` (``hi - lo >= 2``) around the median of
        its elements at a quarter, half and three quarters, moved to ``lo``: the elements for which
        ``keep_left(v, pivot)`` holds move before the pivot. Returns the pivot's final
        position."""
        em = self.em
        mid = em.add(lo, em.floordiv(em.sub(hi, lo), 2))
        # Samples at the quartiles: the ends of a range that earlier partitions left hold
        # their pivots and extremes, and made median-of-3 pivots poor.
        quarter = em.floordiv(em.sub(hi, lo), 4)
        first, last = em.add(lo, quarter), em.sub(hi, quarter)
        self.order(first, mid)
        self.order(mid, last)
        self.order(first, mid)
        self.swap(lo, mid)
        pivot = self.get(lo)

        def step(j, i):
            left = keep_left(self.get(j), pivot)
            # a[j], a[i] = a[i], a[j]; i += left: no branch on the data.
            for buf, at in self.places:
                v, w = em.load(buf, at(j)), em.load(buf, at(i))
                em.store(w, buf, at(j))
                em.store(v, buf, at(i))
            return [em.select(left, em.add(i, 1), i)]
        (i,) = em.loop(em.add(hi, 1), step, [em.index(em.add(lo, 1))], lb=em.add(lo, 1))
        p = em.sub(i, 1)
        self.swap(lo, p)
        return p

    def partition_equal(self, lo, hi):
        """Move the elements of ``lo..hi`` equal to the one at ``lo - 1`` (every one is at
        least that) to the front; returns the position of the last of them."""
        em = self.em
        pivot = self.get(em.sub(lo, 1))

        def step(j, i):
            same = em.op(arith.XOrIOp, self.less(pivot, self.get(j)), em.true())
            for buf, at in self.places:
                v, w = em.load(buf, at(j)), em.load(buf, at(i))
                em.store(w, buf, at(j))
                em.store(v, buf, at(i))
            return [em.select(same, em.add(i, 1), i)]
        (i,) = em.loop(em.add(hi, 1), step, [em.index(lo)], lb=lo)
        return em.sub(i, 1)

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
            j = self.partition(lo, hi, self.less)
            right = em.cmpi("sgt", k, j)
            # Few elements below the pivot: many may equal it; gather those after it
            # (a second pass, elements not greater) so that equal runs end in one step.
            bad = em.cmpi("slt", em.mul(em.sub(j, lo), 8), em.sub(hi, lo))

            def gather():
                q = self.partition_equal(em.add(j, 1), hi)
                return [em.select(em.cmpi("sgt", k, q), em.add(q, 1), em.add(hi, 1)), hi]

            def narrow():
                return [em.select(right, em.add(j, 1), lo),
                        em.select(em.cmpi("slt", k, j), em.sub(j, 1), hi)]
            lo, hi = em.if_(em.op(arith.AndIOp, right, bad), gather, narrow, [T.index] * 2)
            return [lo, hi, em.sub(d, 1)]
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
        line.bind(out, at)

        def read(i, front, nans):
            # NaNs go to the end (filled from the back), numbers to the front.
            v = x.load(at(i))
            nan = em.cmpf("uno", v, v) if T.is_float(t) else em.false()
            dst = em.select(nan, em.index(em.sub(em.sub(n, 1), nans)), front)
            line.put(dst, [v, em.to_i64(i)] if arg else [v])
            return [em.select(nan, front, em.add(front, 1)), em.select(nan, em.add(nans, 1), nans)]
        numbers, _ = em.loop(n, read, [em.index(0), em.index(0)])

        def select_all():
            depth = _depth(em, n)
            done = []
            for k in map(em.index, _positions(em, op, n)):
                lo, hi = em.index(0), em.index(em.sub(numbers, 1))
                same = em.cmpi("sge", k, numbers)
                for p in done:
                    lo = em.select(em.cmpi("slt", p, k), em.max(lo, em.add(p, 1)), lo)
                    hi = em.select(em.cmpi("sgt", p, k), em.min(hi, em.sub(p, 1)), hi)
                    same = em.op(arith.OrIOp, same, em.cmpi("eq", p, k))
                line.select(k, lo, em.select(same, em.sub(lo, 1), hi), depth)
                done.append(k)
        positive = em.cmp("sgt", n, 0)
        if positive is True:
            select_all()
        elif positive is not False:
            em.if_(positive, select_all, lambda: None)

    em.nest(outer, part_line)
    for buf in line.scratch:
        em.effect(memref.DeallocOp, buf)
    return [lw.own(op.result, out, out_t, shape)]
