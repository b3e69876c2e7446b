"""Lowering of ``np.sort`` (and ``np.argsort``): a stable LSD radix sort per line.

Each line along the sorted axis is read once into a contiguous buffer of integer *keys*
whose unsigned order is NumPy's order: unsigned ints and bools as they are, signed ints with
the sign bit flipped, floats with the sign bit flipped (negative ones: every bit), -0.0
given +0.0's key and every NaN the largest key, so that equal values keep their input order
(what ``kind="stable"`` promises). Lines of at most ``SHORT`` elements are insertion-sorted;
longer ones count every digit (``DIGIT_BITS`` bits each) while the keys are read, then
take one stable scatter pass per digit, skipped when every key has the same digit there. Two
halves of one scratch buffer take turns as source and destination, a run-time index saying
which holds the keys.

``np.argsort`` moves the positions with the keys. ``np.sort`` turns the keys back into values;
the zeros and NaNs, whose keys forget their sign and payload, are then written again from the
input in input order at the places their keys took (zeros after the negative numbers, NaNs
last), so the result holds exactly the input's values, as NumPy's does.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith, memref
from ..dialects import complex as complex_dialect
from ..dialects import np_data as nd
from .context import Emitter
from .lowerer import Lowerer, rule

# Bits of the widest digit: 2048 counts (16 KiB) stay in the L1 cache.
DIGIT_BITS = 11
# Lines up to this length are insertion-sorted: the histograms would cost more.
SHORT = 16


def digits(width: int) -> tuple[int, int]:
    """``(passes, bits)``: how many digits of how many bits sort keys of ``width`` bits."""
    passes = -(-width // DIGIT_BITS)
    return passes, -(-width // passes)


def _key(em: Emitter, t: T.Type, v):
    """The unsigned key of the value ``v`` of tensor-level type ``t`` (see the module text)."""
    if T.is_bool(t):
        return em.op(arith.ExtUIOp, v, type=T.i8)
    if not T.is_float(t):
        return v if T.is_unsigned(t) else em.op(arith.XOrIOp, v, _sign(em, v.type))
    kt = T.IntegerType(t.width)
    bits = em.op(arith.BitcastOp, v, type=kt)
    sign = _sign(em, kt)
    ones = em.const(-1, kt)
    flipped = em.select(em.cmpi("slt", bits, em.const(0, kt)), em.op(arith.XOrIOp, bits, ones),
                        em.op(arith.XOrIOp, bits, sign))
    zero = em.cmpf("oeq", v, em.const(0.0, t))
    return em.select(em.cmpf("uno", v, v), ones, em.select(zero, sign, flipped))


def _value(em: Emitter, t: T.Type, k):
    """The value whose key is ``k`` (zeros and NaNs as +0.0 and a NaN)."""
    if T.is_bool(t):
        return em.op(arith.TruncIOp, k, type=T.i1)
    if not T.is_float(t):
        return k if T.is_unsigned(t) else em.op(arith.XOrIOp, k, _sign(em, k.type))
    sign = _sign(em, k.type)
    bits = em.select(em.cmpi("slt", k, em.const(0, k.type)), em.op(arith.XOrIOp, k, sign),
                     em.op(arith.XOrIOp, k, em.const(-1, k.type)))
    return em.op(arith.BitcastOp, bits, type=t)


def _sign(em: Emitter, kt: T.IntegerType):
    return em.const(1 << (kt.width - 1), kt)


def _digit(em: Emitter, k, shift: int, bits: int):
    """Digit ``k >> shift & (2**bits - 1)`` as an index."""
    kt = k.type
    d = k if shift == 0 else em.op(arith.ShRUIOp, k, em.const(shift, kt))
    if shift + bits < kt.width:
        d = em.op(arith.AndIOp, d, em.const((1 << bits) - 1, kt))
    return em.op(arith.IndexCastUIOp, d, type=T.index)


class _Line:
    """The scratch buffers of one line: ``keys`` and ``pos`` (argsort) of shape ``(2, n)``,
    half ``h`` at row ``h``; ``counts`` of shape ``(passes, 2**bits)``."""

    def __init__(self, em: Emitter, n, kt: T.IntegerType, arg: bool):
        self.em, self.n, self.kt = em, n, kt
        self.passes, self.bits = digits(kt.width)
        self.keys = em.alloc((2, n), kt)
        self.pos = em.alloc((2, n), T.i64) if arg else None
        self.counts = em.alloc((self.passes, 1 << self.bits), T.index)

    def buffers(self):
        return [b for b in (self.keys, self.pos, self.counts) if b is not None]

    def put(self, h, i, k, p):
        self.em.store(k, self.keys, (h, i))
        if self.pos is not None:
            self.em.store(p, self.pos, (h, i))

    def get(self, h, i):
        em = self.em
        return em.load(self.keys, (h, i)), (em.load(self.pos, (h, i)) if self.pos is not None
                                             else None)

    def insertion_sort(self) -> None:
        """Stable: each element moves down past the larger keys before it."""
        em = self.em

        def insert(i):
            def step(s):
                hi = em.sub(i, s)
                lo = em.sub(hi, 1)
                (ka, pa), (kb, pb) = self.get(0, lo), self.get(0, hi)
                move = em.cmpi("ult", kb, ka)
                pick = lambda a, b: None if a is None else em.select(move, a, b)  # noqa: E731
                self.put(0, lo, pick(kb, ka), pick(pb, pa))
                self.put(0, hi, pick(ka, kb), pick(pa, pb))
            em.loop(i, step)
        em.loop(self.n, insert, lb=1)

    def clear_counts(self) -> None:
        em = self.em
        em.nest((self.passes, 1 << self.bits), lambda idx: em.store(em.index(0), self.counts, idx))

    def count(self, k) -> None:
        """Add the key ``k`` to the histogram of each digit."""
        em = self.em
        for p in range(self.passes):
            d = _digit(em, k, p * self.bits, self.bits)
            em.store(em.add(em.load(self.counts, (p, d)), 1), self.counts, (p, d))

    def radix_sort(self):
        """Sort half 0, whose keys ``count`` has seen; returns the index of the half that
        holds the sorted keys."""
        em, n, counts = self.em, self.n, self.counts
        buckets = 1 << self.bits
        cur = em.index(0)
        for p in range(self.passes):
            def prefix(b, total, trivial, p=p):
                c = em.load(counts, (p, b))
                em.store(total, counts, (p, b))
                return [em.add(total, c), em.op(arith.OrIOp, trivial, em.cmp("eq", c, n))]
            _, trivial = em.loop(buckets, prefix, [em.index(0), em.false()])

            def scatter(cur=cur, p=p):
                nxt = em.sub(1, cur)

                def move(i):
                    k, q = self.get(cur, i)
                    d = _digit(em, k, p * self.bits, self.bits)
                    at = em.load(counts, (p, d))
                    em.store(em.add(at, 1), counts, (p, d))
                    self.put(nxt, at, k, q)
                em.loop(n, move)
                return [nxt]
            (cur,) = em.if_(em.op(arith.XOrIOp, trivial, em.true()), scatter,
                            lambda cur=cur: [cur], [T.index])
        return cur


@rule(nd.SortOp)
def lower_sort(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    axis, arg, t = op.attr("axis"), bool(op.attr("arg")), x.element
    shape = x.shape
    n = shape[axis]
    kt = T.i8 if T.is_bool(t) else T.IntegerType(t.width)
    out_t = T.i64 if arg else t
    out = em.alloc(shape, T.lowered(out_t))
    line = _Line(em, n, kt, arg)
    fix = T.is_float(t) and not arg
    outer = [d for k, d in enumerate(shape) if k != axis]

    def sort_line(oidx):
        at = lambda i: oidx[:axis] + (i,) + oidx[axis:]  # noqa: E731

        short = em.cmp("sle", n, SHORT)
        # Short lines count their keys too (never read there): one loop for both.
        if not isinstance(short, bool):
            em.if_(short, lambda: None, line.clear_counts)
        elif not short:
            line.clear_counts()

        def read(i, *tally):
            v = x.load(at(i))
            k = _key(em, t, v)
            line.put(0, i, k, em.to_i64(i) if arg else None)
            if short is not True:
                line.count(k)
            return _tally(em, v, tally) if fix else []
        tally = em.loop(n, read, [em.index(0)] * 3 if fix else [])
        if isinstance(short, bool):
            cur = _insertion(line) if short else line.radix_sort()
        else:
            (cur,) = em.if_(short, lambda: [_insertion(line)], lambda: [line.radix_sort()],
                            [T.index])

        def write(i):
            k, p = line.get(cur, i)
            em.store(p if arg else _value(em, t, k), out, at(i))
        em.loop(n, write)
        if fix:
            _restore_specials(em, x, out, at, n, *tally)
    em.nest(outer, sort_line)
    for buf in line.buffers():
        em.effect(memref.DeallocOp, buf)
    return [lw.own(op.result, out, out_t, shape)]


def _insertion(line: _Line):
    line.insertion_sort()
    return line.em.index(0)


def _tally(em: Emitter, v, tally):
    """Counts of negative numbers, zeros and NaNs, updated with the float ``v``."""
    neg, zeros, nans = tally
    zero = em.cmpf("oeq", v, em.const(0.0, v.type))
    nan = em.cmpf("uno", v, v)
    one = lambda c, acc: em.select(c, em.add(acc, 1), acc)  # noqa: E731
    return [one(em.cmpf("olt", v, em.const(0.0, v.type)), neg), one(zero, zeros), one(nan, nans)]


def _restore_specials(em: Emitter, x, out, at, n, neg, zeros, nans) -> None:
    """Write the input's zeros (from position ``neg``) and NaNs (the last ``nans``
    positions) into the sorted line ``out`` in input order."""
    def again():
        def put(i, z, q):
            v = x.load(at(i))
            zero = em.cmpf("oeq", v, em.const(0.0, v.type))
            nan = em.cmpf("uno", v, v)
            dst = em.select(zero, z, q)
            em.if_(em.op(arith.OrIOp, zero, nan), lambda: em.store(v, out, at(dst)), lambda: None)
            return [em.select(zero, em.add(z, 1), z), em.select(nan, em.add(q, 1), q)]
        em.loop(n, put, [neg, em.sub(n, nans)])
    em.if_(em.cmp("ne", em.add(zeros, nans), 0), again, lambda: None)


def _keys(em: Emitter, t: T.Type, v) -> list:
    """The keys of ``v``, most significant first: one for real types; for complex ones
    NumPy's order (``CDOUBLE_LT``): the NaN group (``R + Rj``, ``R + nanj``, ``nan + Rj``,
    ``nan + nanj``), then the real part (the imaginary one for ``nan + Rj``), then the
    imaginary part within ``R + Rj``."""
    if not T.is_complex(t):
        return [_key(em, t, v)]
    f = t.element
    re, im = em.op(complex_dialect.ReOp, v), em.op(complex_dialect.ImOp, v)
    nan_re, nan_im = em.cmpf("uno", re, re), em.cmpf("uno", im, im)
    zero = em.const(0.0, f)
    group = em.op(arith.OrIOp, em.op(arith.ShLIOp, em.op(arith.ExtUIOp, nan_re, type=T.i8),
                                     em.const(1, T.i8)),
                  em.op(arith.ExtUIOp, nan_im, type=T.i8))
    primary = em.select(nan_re, em.select(nan_im, zero, im), re)
    secondary = em.select(em.op(arith.OrIOp, nan_re, nan_im), zero, im)
    return [group, _key(em, f, primary), _key(em, f, secondary)]


def _before(em: Emitter, k: list, key: list, strict: bool):
    """Whether the key tuple ``k`` sorts before ``key`` (``strict``) or not after it."""
    last = em.cmpi("ult" if strict else "ule", k[-1], key[-1])
    for a, b in zip(reversed(k[:-1]), reversed(key[:-1]), strict=True):
        last = em.op(arith.OrIOp, em.cmpi("ult", a, b),
                     em.op(arith.AndIOp, em.cmpi("eq", a, b), last))
    return last


@rule(nd.SearchSortedOp)
def lower_searchsorted(lw: Lowerer, op):
    """A binary search per value over the keys' order (NaN last): ``side="left"`` finds the
    first element not before the value, ``"right"`` the first one after it."""
    em = lw.em
    a, v = lw.expr(op.sorted), lw.expr(op.values)
    t, left = a.element, op.attr("side") == "left"
    n = a.shape[0]

    def find(value):
        key = _keys(em, t, value)

        def halve(_, base, size):
            def probe():
                half = em.floordiv(size, 2)
                k = _keys(em, t, a.load((em.add(base, half),)))
                after = _before(em, k, key, strict=left)
                return [em.pick(after, em.add(base, em.add(half, 1)), base),
                        em.pick(after, em.sub(em.sub(size, half), 1), half)]
            return em.if_(em.cmp("sgt", size, 0), probe, lambda: [base, size],
                          [T.index, T.index])
        base, _ = em.loop(64, halve, [em.index(0), em.index(n)])
        return em.to_i64(base)

    if not isinstance(op.result.type, T.TensorType):
        return [find(v.load(()))]
    out = em.alloc(v.shape, T.i64)
    em.nest(v.shape, lambda idx: em.store(find(v.load(idx)), out, idx), parallel=True)
    return [lw.own(op.result, out, T.i64, v.shape)]
