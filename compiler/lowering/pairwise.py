"""NumPy's pairwise summation in float32, in NumPy's exact order, for float16 sums.

NumPy's ``HALF_add`` reduction adds an inner loop's float16 elements as float32 with
``HALF_pairwise_sum`` and rounds the total to float16 once per inner loop; its
``FLOAT_add`` does the same in float32 for ``np.sum(x, dtype=np.float32)`` and ``np.mean``
of float16, which cast the input in buffers of ``BUFFER`` (NumPy's ``NPY_BUFSIZE``) elements,
one inner loop each (``numpy/_core/src/umath/loops_utils.h.src``):

- ``n < 8``: a sum from 0 in order;
- ``n <= 128``: 8 partial sums of every 8th element, combined
  ``((r0 + r1) + (r2 + r3)) + ((r4 + r5) + (r6 + r7))``, then the last ``n % 8`` in order;
- else the sums of the first ``n2 = n / 2 - (n / 2) % 8`` elements and of the rest, added.

``pairwise`` emits that recursion as an ``scf.while`` over an explicit stack of pending
ranges (a buffer of ``STACK`` entries: each level pushes three and pops one, and a size
below 2^63 has fewer than 60 levels) and a stack of partial sums. Blocks of at most 128
elements are ``block``, the loops ``reduction._kahan_blocks`` compensates, their 8 partial
sums in one vector register (``grafo.lanes``).
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith, memref, scf
from .context import Emitter

BLOCK = 128
LANES = 8
BUFFER = 8192
STACK = 192
_COMBINE = -1   # a stacked size that means "add the two partial sums on top"


def _add(em: Emitter, a, b):
    return em.op(arith.AddFOp, a, b)


def block(em: Emitter, t: T.Type, off, n, load1, lanes=LANES):
    """The sum of ``load1(off + j)`` (loop-level float type ``t``) for ``j < n <= BLOCK`` in
    NumPy's order, its ``lanes`` partial sums in one vector (a zero start changes only the sign
    of a zero total, which NumPy's ``+ 0.0`` initial value of the result removes too; a complex
    sum's parts take half the lanes, NumPy's pairwise sum running over interleaved floats)."""
    zero = em.const(0.0, t)
    full = em.mul(em.floordiv(n, lanes), lanes)
    acc = em.loop(full, lambda j, *acc: [_add(em, acc[i], load1(em.add(em.add(off, j), i)))
                                         for i in range(lanes)],
                  [zero] * lanes, step=lanes, lanes=lanes)
    while len(acc) > 1:
        acc = [_add(em, acc[i], acc[i + 1]) for i in range(0, len(acc), 2)]
    (s,) = em.loop(n, lambda j, s: [_add(em, s, load1(em.add(off, j)))], acc, lb=full)
    return s


def pairwise(em: Emitter, n, load1, off=0):
    """The float32 pairwise sum of ``load1(j)`` (float32) for ``off <= j < off + n``."""
    if isinstance(n, int) and n <= BLOCK:
        return block(em, T.f32, off, n, load1)
    if isinstance(n, int):
        return _stacked(em, n, load1, off)
    small = em.cmpi("sle", em.index(n), em.index(BLOCK))
    return em.if_(small, lambda: [block(em, T.f32, off, n, load1)],
                  lambda: [_stacked(em, n, load1, off)], [T.f32])[0]


def _stacked(em: Emitter, n, load1, off):
    """``pairwise`` with the recursion on explicit stacks."""
    ranges = em.alloc((2 * STACK,), T.index)   # offsets, then sizes
    sums = em.alloc((STACK,), T.f32)
    em.store(em.index(off), ranges, (0,))
    em.store(em.index(n), ranges, (STACK,))
    ix = lambda v: em.index(v)  # noqa: E731
    loop = scf.WhileOp.create([ix(1), ix(0)])
    em.b.insert(loop)
    with em.b.at_end(loop.before):
        sp, vp = loop.before.args
        em.b.create(scf.ConditionOp, [em.cmpi("sgt", sp, ix(0)), sp, vp])
    with em.b.at_end(loop.after):
        sp, vp = loop.after.args
        top = em.sub(sp, 1)
        start, size = em.load(ranges, (top,)), em.load(ranges, (em.add(top, STACK),))

        def combine():
            below = em.sub(vp, 2)
            em.store(_add(em, em.load(sums, (below,)), em.load(sums, (em.sub(vp, 1),))),
                     sums, (below,))
            return [top, em.sub(vp, 1)]

        def leaf():
            em.store(block(em, T.f32, start, size, load1), sums, (vp,))
            return [top, em.add(vp, 1)]

        def split():
            half = em.floordiv(size, 2)
            left = em.sub(half, em.mod(half, LANES))
            for k, (o, m) in enumerate(((start, ix(_COMBINE)),
                                        (em.add(start, left), em.sub(size, left)),
                                        (start, left))):
                em.store(o, ranges, (em.add(top, k),))
                em.store(m, ranges, (em.add(em.add(top, k), STACK),))
            return [em.add(top, 3), vp]

        def expand():
            return em.if_(em.cmpi("sle", size, ix(BLOCK)), leaf, split, [T.index] * 2)

        nxt = em.if_(em.cmpi("eq", size, ix(_COMBINE)), combine, expand, [T.index] * 2)
        em.b.create(scf.YieldOp, nxt)
    total = em.load(sums, (0,))
    em.effect(memref.DeallocOp, ranges)
    em.effect(memref.DeallocOp, sums)
    return total


def buffered(em: Emitter, n, load1):
    """NumPy's float32 sum of a cast input: the pairwise sums of consecutive ``BUFFER``
    element pieces, added in order to a float32 total from 0."""
    if isinstance(n, int) and n <= BUFFER:
        return pairwise(em, n, load1)

    def piece(c, acc):
        return [_add(em, acc, pairwise(em, em.min(em.sub(n, c), BUFFER), load1, off=c))]
    return em.loop(n, piece, [em.const(0.0, T.f32)], step=BUFFER)[0]
