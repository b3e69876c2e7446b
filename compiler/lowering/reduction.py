"""Lowering of ``np.reduce`` and ``np.argreduce``: loops that read their input's ``Expr``
directly, so ``np.mean((a - b) ** 2)`` is one loop nest without a temporary.

A costly value that a trailing-axes sum or product reads is written to its buffer by that
reduction's loop nest (``materialize_with_row_reduction``).

Strategies: a full reduction carries its accumulator through the loop nest (a scalar; for a
static size of at least ``2 * CHUNK`` elements, one per chunk of ``CHUNK`` elements, the chunks
reduced by a parallel loop and their results combined in order); when the innermost axis is
reduced, each output element is reduced by an inner loop (outer loop parallel); otherwise the
output buffer is the accumulator and the input is read in its own order, adding along the
reduced axes one element at a time. That is NumPy's order for a float sum whose reduced axis
is not innermost in memory. NumPy's iterator puts the axis of smallest stride innermost,
though, and sums an inner-loop reduction pairwise, so a float sum over one axis that has the
smallest stride (``x.T.sum(0)`` of a C-ordered ``x``, ``x.sum(0)`` of a Fortran-ordered one)
is reduced per output element too; the strides of the input's view (``Expr.strides``)
decide, at run time when only then known (``_innermost_in_memory``). The same rule turns a
float sum over a last axis that is not innermost (``x.sum(1)`` of a Fortran-ordered matrix,
``x.T.sum(1)``) into the accumulating nest, run down the columns for a matrix, which is
NumPy's order and reads memory contiguously. Float sums add blocks
of 128 elements in 8 partial sums combined pairwise (NumPy's pairwise base case, so up to 128
elements add in NumPy's order; the partial sums stay in one vector register,
``grafo.lanes``) and accumulate the block sums with Kahan compensation, which is at least as
accurate as NumPy's pairwise summation; they start from +0.0, so a sum of -0.0s is +0.0 as
NumPy 2.4's is on every layout. max/min propagate NaN (with both zeros present a zero max is
+0.0 and a zero min -0.0, found by a second pass only when the result is zero; NumPy's choice
varies with length and stride) and, like NumPy, raise ValueError("zero-size array to
reduction operation maximum which has no identity") when the reduced extent is empty;
argmax/argmin return the first occurrence, NaN winning.
"""

from __future__ import annotations

import functools
import math

from .. import types as T
from ..dialects import arith, memref
from ..dialects import complex as complex_dialect
from ..dialects import np as npd
from ..ir.attributes import UnitAttr
from ..ir.core import Value
from . import pairwise as PW
from . import scalar as S
from .context import Emitter
from .index_expr import Expr, of_buffer, splat
from .lowerer import Lowerer, materializer, rule

BLOCK, LANES = PW.BLOCK, PW.LANES
CHUNK = 1 << 16   # elements per partial result of a large full reduction


def monoid(em: Emitter, kind: str, t: T.Type, nsz: bool = False):
    """(combine(acc, x), identity) of reduction ``kind`` in element type ``t``; ``nsz``: a
    float max/min may give either zero (the caller fixes the sign, ``_zero_sign``)."""
    lt = T.lowered(t)
    if kind == "sum":
        return (lambda a, x: S.add(em, t, a, x)), em.const(0, lt)
    if kind == "prod":
        return (lambda a, x: S.multiply(em, t, a, x)), em.const(1, lt)
    if kind in ("any", "all"):
        cls = arith.OrIOp if kind == "any" else arith.AndIOp
        return (lambda a, x: em.op(cls, a, x)), em.const(int(kind == "all"), T.i1)
    big = kind == "max"
    if T.is_complex(t):   # lexicographic, NaN propagates (np.maximum's complex loop)
        fn = S.element_function(npd.MaximumOp if big else npd.MinimumOp, t, False)
        ident = complex(-math.inf, -math.inf) if big else complex(math.inf, math.inf)
        return (lambda a, x: fn(em, t, a, x)), em.const(ident, lt)
    width = lt.width
    if T.is_float(t):
        ident = -math.inf if big else math.inf
    elif T.is_bool(t):
        ident = 0 if big else 1
    elif T.is_unsigned(t):
        ident = 0 if big else -1
    else:
        ident = -(1 << (width - 1)) if big else (1 << (width - 1)) - 1
    if t == T.f16:   # HALF_maximum's reduction: the first of equal values, NaN propagates
        fn = S.maximum if big else S.minimum
        return (lambda a, x: fn(em, t, a, x)), em.const(ident, lt)
    if T.is_float(t):  # IEEE maximum/minimum: NaN propagates, a zero max is +0.0
        cls = arith.MaximumFOp if big else arith.MinimumFOp
        # the sign of a zero result does not matter to the loop (the backend adds LLVM's
        # ``nsz``, which makes the vector max one instruction); ``_zero_sign`` restores it
        attrs = {arith.NSZ: UnitAttr()} if nsz else {}
        return (lambda a, x: em.op(cls, a, x, **attrs)), em.const(ident, lt)
    fn = S.maximum if big else S.minimum
    return (lambda a, x: fn(em, t, a, x)), em.const(ident, lt)


def _kahan_blocks(em: Emitter, t: T.Type, n, load1, total, comp, block=BLOCK, lanes=LANES):
    """Add ``load1(j)`` for j < n to the compensated sum (total, comp), by blocks of
    ``block``. The ``lanes`` partial sums of a block carry in one vector register
    (``grafo.lanes``)."""
    add = lambda a, b: S.add(em, t, a, b)  # noqa: E731

    def one_block(b0, total, comp):
        s = PW.block(em, T.lowered(t), b0, em.min(em.sub(n, b0), block), load1, lanes)
        y = em.op(arith.SubFOp, s, comp)
        nxt = add(total, y)
        c = em.op(arith.SubFOp, em.op(arith.SubFOp, nxt, total), y)
        return [nxt, em.select(S.isfinite(em, t, nxt), c, comp)]  # inf/NaN: no correction

    return em.loop(n, one_block, [total, comp], step=block, version=True)


def _half_point(em, kind, t, red_shape, load_at):
    """A float16 input's sum or product as NumPy's inner loop computes it (``t``: float16, or
    float32 for a sum cast to it, ``np.mean``'s): in float32 over the C-order elements, the
    sum pairwise (``pairwise.py``), rounded to ``t`` once."""
    n = em.product(red_shape)

    def load1(j):
        idx = []
        for d in reversed(red_shape[1:]):
            idx.append(em.mod(j, d))
            j = em.floordiv(j, d)
        return em.cast(arith.ExtFOp, load_at((j, *reversed(idx))), T.f32)
    if kind == "prod":
        (v,) = em.loop(n, lambda j, acc: [em.op(arith.MulFOp, acc, load1(j))],
                       [em.const(1.0, T.f32)])
    else:
        v = (PW.pairwise if t == T.f16 else PW.buffered)(em, n, load1)
    return em.cast(arith.TruncFOp, v, T.f16) if t == T.f16 else v


def _reduce_point(em, kind, t, x_el, red_shape, load_at, block=BLOCK, lanes=LANES):
    """The reduction of ``load_at(reduced index)`` over ``red_shape`` (one output element).
    A complex sum adds its parts as float sums of half the block and lanes: NumPy's pairwise
    sum of a complex array runs over its interleaved floats."""
    if x_el == T.f16 and kind in ("sum", "prod") and red_shape:
        return _half_point(em, kind, t, red_shape, load_at)
    pre = (lambda v: S.truthy(em, x_el, v)) if kind in ("any", "all") else (lambda v: v)
    if kind == "sum" and T.is_complex(t) and red_shape:
        part = T.real_type(t)
        sums = [_reduce_point(em, kind, part, part, red_shape,
                              lambda idx, cls=cls: em.op(cls, load_at(idx)), BLOCK // 2,
                              LANES // 2)
                for cls in (complex_dialect.ReOp, complex_dialect.ImOp)]
        return em.op(complex_dialect.CreateOp, *sums)
    if kind == "sum" and T.is_float(t) and red_shape:
        *outer, n = red_shape
        zero = em.const(0.0, T.lowered(t))
        total, comp = em.nest(outer, lambda oidx, tot, c: _kahan_blocks(
            em, t, n, lambda j: load_at(oidx + (j,)), tot, c, block, lanes), [zero, zero])
        return em.op(arith.SubFOp, total, comp)  # comp is the excess the last add kept
    combine, ident = monoid(em, kind, t, nsz=True)
    (acc,) = em.nest(red_shape, lambda idx, acc: [combine(acc, pre(load_at(idx)))], [ident],
                     version=True)
    if kind in ("max", "min") and T.is_float(t) and t != T.f16:
        return _zero_sign(em, kind, t, acc, red_shape, load_at)
    return acc


def _zero_sign(em, kind, t, acc, red_shape, load_at):
    """A zero max is +0.0 if the input holds a +0.0 (else -0.0), a zero min -0.0 if it holds
    a -0.0 (IEEE maximum/minimum). The loop above ignores zeros' signs (``arith.NSZ``, which
    lets LLVM use the plain vector max), so a zero result rescans the input for that zero."""
    lt = T.lowered(t)
    bits_t = T.IntegerType(lt.width)
    wanted = em.const(0 if kind == "max" else -(1 << (lt.width - 1)), bits_t)

    def rescan():
        def seen(idx, found):
            bits = em.op(arith.BitcastOp, load_at(idx), type=bits_t)
            return [em.op(arith.OrIOp, found, em.cmpi("eq", bits, wanted))]
        (found,) = em.nest(red_shape, seen, [em.false()])
        signed = em.const(0.0 if kind == "max" else -0.0, lt)
        other = em.const(-0.0 if kind == "max" else 0.0, lt)
        return [em.select(found, signed, other)]

    zero = em.cmpf("oeq", acc, em.const(0.0, lt))
    return em.if_(zero, rescan, lambda: [acc], [lt])[0]


def _reduce_all(em, kind, t, x_el, red_shape, load_at):
    """A full reduction: ``_reduce_point``, split, from ``2 * CHUNK`` elements on (a
    run-time choice for dynamic sizes, so a size gives the same bits whatever the
    signature), into ``CHUNK``-element chunks of the outermost dim reduced by a parallel
    loop into a buffer of partial results, which are then reduced in order. The chunks do not
    depend on the thread count, so neither does the result; float sums stay compensated in
    each chunk and across chunks."""
    size = em.product(red_shape)
    if (isinstance(size, int) and size < 2 * CHUNK) or x_el == T.f16:   # f16: NumPy's order
        return _reduce_point(em, kind, t, x_el, red_shape, load_at)
    if not isinstance(size, int):   # the static rule, decided at run time
        small = em.cmpi("slt", size, em.index(2 * CHUNK))
        lt = T.lowered(t)
        return em.if_(small, lambda: [_reduce_point(em, kind, t, x_el, red_shape, load_at)],
                      lambda: [_reduce_chunks(em, kind, t, x_el, red_shape, load_at)], [lt])[0]
    return _reduce_chunks(em, kind, t, x_el, red_shape, load_at)


def _reduce_chunks(em, kind, t, x_el, red_shape, load_at):
    """``_reduce_all``'s chunked reduction."""
    n0, inner = red_shape[0], tuple(red_shape[1:])
    rows = em.max(em.floordiv(CHUNK, em.max(em.product(inner), 1)), 1)
    chunks = em.floordiv(em.add(n0, em.sub(rows, 1)), rows)
    lt = T.lowered(t)
    partials = em.alloc((chunks,), lt)

    def chunk(c):
        lo = em.mul(c, rows)
        n = em.sub(em.min(em.add(lo, rows), n0), lo)
        v = _reduce_point(em, kind, t, x_el, (n,) + inner,
                          lambda r: load_at((em.add(lo, r[0]),) + tuple(r[1:])))
        em.store(v, partials, (c,))
    em.loop(chunks, chunk, parallel=True, work=CHUNK)
    v = _reduce_point(em, kind, t, t, (chunks,), lambda r: em.load(partials, r))
    em.effect(memref.DeallocOp, partials)
    return v


def check_nonempty(em: Emitter, extent, message: str) -> None:
    em.check(em.cmp("ne", extent, 0), "ValueError", message)


@materializer
def materialize_with_row_reduction(lw: Lowerer, result, e: Expr):
    """The buffer of ``e`` written by the loop nest of a later sum or product of ``result``
    over trailing axes (other axes kept) in the same block, which computes that reduction too
    (recorded in ``lw.precomputed``): softmax's ``exp`` and its row sums take one pass. None
    when ``result`` has no such use."""
    for use in result.uses:
        op = use.owner
        axes = sorted(op.attr("axes") or ()) if isinstance(op, npd.ReduceOp) else ()
        if (not axes or op.parent is not result.op.parent or op.attr("kind") not in ("sum", "prod")
                or axes != list(range(e.rank - len(axes), e.rank)) or len(axes) == e.rank
                or op.result in lw.precomputed):
            continue
        return _fill_while_reducing(lw, op, e, e.rank - len(axes))
    return None


def _fill_while_reducing(lw: Lowerer, op, e: Expr, kept: int):
    em = lw.em
    buf = em.alloc(e.shape, T.lowered(e.element))

    def fill_row(kidx):  # a plain loop (vectorized), then the reduction reads it from cache
        em.nest(e.shape[kept:], lambda r: em.store(e.load(kidx + r), buf, kidx + r),
                version=True)
    x = of_buffer(em, buf, e.element)
    x.shape = tuple(e.shape)
    lw.precomputed[op.result] = _lower_reduce(lw, op, x, fill_row)
    return buf


@rule(npd.ReduceOp)
def lower_reduce(lw: Lowerer, op):
    done = lw.precomputed.pop(op.result, None)
    if done is not None:
        return [done]
    return [_lower_reduce(lw, op, _input(lw, op))]


def _input(lw: Lowerer, op):
    """The ``Expr`` a reduction reads: for a float32 sum of a float16 array cast to float32
    (``np.mean``, ``dtype=np.float32``) the float16 array, which ``_half_point`` sums in
    NumPy's buffers."""
    src = op.input.owner_op()
    if (op.attr("kind") == "sum" and isinstance(src, npd.AsTypeOp)
            and T.element_type(src.input.type) == T.f16
            and T.element_type(op.result.type) == T.f32):
        return lw.expr(src.input)
    return lw.expr(op.input)


def _lower_reduce(lw: Lowerer, op, x: Expr, row_prologue=None):
    """The reduction ``op`` of ``x``; ``row_prologue(kept index)`` is emitted before each
    output element's inner reduction (the innermost-axis strategy only)."""
    em = lw.em
    kind, keep = op.attr("kind"), bool(op.attr("keepdims"))
    axes = sorted(op.attr("axes"))
    t = T.element_type(op.result.type)
    out_shape = npd.reduced_shape(tuple(x.shape), axes, keep)
    if not axes:
        if kind in ("any", "all"):
            return Expr(x.shape, t, lambda idx: S.truthy(em, x.element, x.load(idx)), x.cost)
        return x if isinstance(op.result.type, T.TensorType) else x.load(())
    red_shape = tuple(x.shape[a] for a in axes)
    kept = [k for k in range(x.rank) if k not in axes]
    if kind in ("max", "min"):
        check_nonempty(em, em.product(red_shape), "zero-size array to reduction operation "
                        + {"max": "maximum", "min": "minimum"}[kind] + " which has no identity")

    def full_index(kidx, ridx):
        src = [None] * x.rank
        for k, i in zip(kept, kidx, strict=True):
            src[k] = i
        for k, i in zip(axes, ridx, strict=True):
            src[k] = i
        return tuple(src)

    def out_index(kidx):
        if not keep:
            return kidx
        it = iter(kidx)
        return tuple(0 if k in axes else next(it) for k in range(x.rank))

    if not kept:
        v = _reduce_all(em, kind, t, x.element, red_shape, lambda r: x.load(full_index((), r)))
        return splat(out_shape, t, v) if isinstance(op.result.type, T.TensorType) else v
    buf = em.alloc(out_shape, T.lowered(t))

    def per_element():
        def point(kidx):
            if row_prologue is not None:
                row_prologue(kidx)
            v = _reduce_point(em, kind, t, x.element, red_shape,
                              lambda r: x.load(full_index(kidx, r)))
            em.store(v, buf, out_index(kidx))
        em.nest([x.shape[k] for k in kept], point, parallel=True, work=red_shape)

    def into_output(order=tuple(range(x.rank))):
        """``order``: the nest's axes of ``x``, outermost first (each output element still
        adds along the reduced axes in increasing order)."""
        combine, ident = monoid(em, kind, t)
        em.nest(out_shape, lambda idx: em.store(ident, buf, idx), parallel=True)
        pre = (lambda v: S.truthy(em, x.element, v)) if kind in ("any", "all") else (
            lambda v: S.astype(em, x.element, t, v))   # a float16 input of a float32 sum

        def accumulate(nidx):
            idx = [None] * x.rank
            for k, i in zip(order, nidx, strict=True):
                idx[k] = i
            dst = out_index(tuple(idx[k] for k in kept))
            em.store(combine(em.load(buf, dst), pre(x.load(tuple(idx)))), buf, dst)
        em.nest([x.shape[k] for k in order], accumulate, parallel=order[0] in kept,
                version=True)

    last = axes[-1] == x.rank - 1
    if kind == "sum" and T.is_float(t) and len(axes) == 1 and not (last and _unit_last(x)):
        pairwise = _innermost_in_memory(em, x, axes[0], kept) if x.strides else last
    else:   # a contiguous row, order-independent (max, integer sums) or several axes
        pairwise = last
    # the other order of a last-axis sum: a column-major matrix, read down its columns
    accumulate = (lambda: into_output((1, 0))) if last and x.rank == 2 else into_output
    if isinstance(pairwise, bool):
        (per_element if pairwise else accumulate)()
    else:
        em.if_(pairwise, per_element, accumulate)
    return lw.own(op.result, buf, t, out_shape)


def _unit_last(x: Expr) -> bool:
    """Whether ``x``'s last axis is known contiguous (stride 1), hence innermost in memory."""
    return x.strides is None or (isinstance(x.strides[-1], int) and x.strides[-1] == 1)


def _innermost_in_memory(em: Emitter, x: Expr, axis: int, kept) -> bool | Value:
    """Whether NumPy's iterator makes ``axis`` of ``x`` the inner loop of a sum over it, which
    NumPy then adds pairwise: an ``i1`` value, or a Python bool when the strides decide it
    statically (False when ``x.strides`` are unknown).

    NumPy's ``nditer`` (``npyiter_find_best_axis_ordering``) insertion-sorts the axes, last
    first, by the absolute strides of the input (the output's stride 0 along ``axis`` leaves
    the decision to the input), keeping C order between equal strides. A zero stride, which
    a size-1 axis gets too, is ordered against nothing: such an axis stays outside the axes
    after it that were sorted before it. Size-1 axes are then coalesced away. So ``axis`` is
    inner when its stride is nonzero, below the nonzero stride of every longer kept axis (or
    equal to it, for one before ``axis``), and no longer kept axis of stride 0 comes after it
    with only size-1 or stride-0 axes after that; or when its stride is 0 and every kept
    axis after it has size 1."""
    if x.strides is None:
        return False
    st, later = x.strides, [k for k in kept if k > axis]
    unit = {k: em.cmp("eq", x.shape[k], 1) for k in kept}
    unordered = {k: em.either(unit[k], em.cmp("eq", st[k], 0)) for k in kept}
    ordered = {k: em.both(em.cmp("ne", x.shape[k], 1), em.cmp("ne", st[k], 0)) for k in kept}
    size = em.abs(st[axis])
    inner = True
    for k in kept:
        below = em.cmp("sle" if k < axis else "slt", size, em.abs(st[k]))
        inner = em.both(inner, em.either(unordered[k], below))
    for i, k in enumerate(later):   # a broadcast axis that nothing sorted passes
        escaped = functools.reduce(em.either, [ordered[j] for j in later[i + 1:]], False)
        inner = em.both(inner, em.either(em.either(unit[k], em.cmp("ne", st[k], 0)), escaped))
    alone = functools.reduce(em.both, [unit[k] for k in later], True)
    return em.either(em.both(em.cmp("ne", st[axis], 0), inner),
                     em.both(em.cmp("eq", st[axis], 0), alone))


@rule(npd.ArgReduceOp)
def lower_argreduce(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    kind, axis = op.attr("kind"), op.attr("axis")
    skip_nan = kind.startswith("nan")
    kind = kind[3:] if skip_nan else kind
    t = x.element
    strict = {"f": "ogt", "s": "sgt", "u": "ugt"} if kind == "argmax" else \
        {"f": "olt", "s": "slt", "u": "ult"}
    k = "f" if T.is_float(t) else ("s" if T.is_integer(t) and not T.is_unsigned(t) else "u")

    def better(v, best):
        if k == "f" and not skip_nan:  # NaN wins, as in np.argmax
            wins = em.cmpf(strict[k], v, best)
            first_nan = em.op(arith.AndIOp, em.cmpf("uno", v, v), em.cmpf("ord", best, best))
            return em.op(arith.OrIOp, wins, first_nan)
        return em.cmpf(strict[k], v, best) if k == "f" else em.cmpi(strict[k], v, best)

    # np.nanargmax/nanargmin read NaN as -inf/+inf (NumPy's _replace_nan) and raise only for
    # an all-NaN slice, so a NaN before an equal infinity keeps its index.
    fill = em.const(float("-inf") if kind == "argmax" else float("inf"), T.lowered(t)) \
        if skip_nan and k == "f" else None

    def read(v):
        return v if fill is None else em.select(em.cmpf("uno", v, v), fill, v)

    axes = list(range(x.rank)) if axis < 0 else [axis]
    red_shape = [x.shape[a] for a in axes]
    check_nonempty(em, em.product(red_shape), f"attempt to get {kind} of an empty sequence")
    kept = [d for d in range(x.rank) if d not in axes]

    def point(kidx):
        def src(ridx):
            s = [None] * x.rank
            for d, i in zip(kept, kidx, strict=True):
                s[d] = i
            for d, i in zip(axes, ridx, strict=True):
                s[d] = i
            return tuple(s)

        def step(ridx, best, pos, *seen):
            raw = x.load(src(ridx))
            v = read(raw)
            linear = 0
            for d, i in zip(red_shape, ridx, strict=True):
                linear = em.add(em.mul(linear, d), i)
            take = better(v, best)
            out = [em.select(take, v, best), em.select(take, em.to_i64(linear), pos)]
            return out + [em.op(arith.OrIOp, seen[0], em.cmpf("ord", raw, raw))] if seen else out

        first = read(x.load(src((0,) * len(axes))))
        inits = [first, em.const(0, T.i64)] + ([em.const(0, T.i1)] if fill is not None else [])
        best, pos, *seen = em.nest(red_shape, step, inits)
        if seen:
            em.check(seen[0], "ValueError", "All-NaN slice encountered")
        return pos

    if not kept:
        return [point(())]
    out_shape = [x.shape[d] for d in kept]
    buf = em.alloc(out_shape, T.i64)
    em.nest(out_shape, lambda kidx: em.store(point(kidx), buf, kidx), parallel=True,
            work=red_shape)
    return [lw.own(op.result, buf, T.i64, out_shape)]
