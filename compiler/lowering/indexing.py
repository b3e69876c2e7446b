"""Lowering of structural ops by index arithmetic: subscript, transpose, broadcast_to,
reshape and dim. None of them copies: each maps the result's index tuple to the operand's.

Semantics: NumPy basic indexing (integer indices wrap once when negative and raise
IndexError("index {i} is out of bounds for axis {a} with size {n}") otherwise; slices clamp
as Python's ``slice.indices``; a zero step raises ValueError("slice step cannot be zero")),
``np.broadcast_to`` and C-order ``np.reshape`` with NumPy's run-time error messages.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import np as npd
from .context import Dim, Emitter
from .index_expr import Expr, broadcast
from .lowerer import Lowerer, rule


def _slice(em: Emitter, n: Dim, start, stop, step):
    """(first index, step, length) of ``range(n)[start:stop:step]``; None bounds are
    defaults. Folds to Python ints when everything is static."""
    if step is None:
        step = 1
    em.check(em.cmp("ne", step, 0), "ValueError", "slice step cannot be zero")
    neg = em.cmp("slt", step, 0)
    lower = em.pick(neg, -1, 0)
    upper = em.pick(neg, em.sub(n, 1), n)

    def clamp(v, default):
        if v is None:
            return default
        wrapped = em.max(em.add(v, n), lower)
        return em.pick(em.cmp("slt", v, 0), wrapped, em.min(v, upper))

    first = clamp(start, em.pick(neg, upper, lower))
    last = clamp(stop, em.pick(neg, lower, upper))
    size = em.pick(neg, em.sub(first, last), em.sub(last, first))
    # (size - 1) // |step| + 1, dividing by the signed step: |-2**63| does not fit in 64 bits
    q = em.truncdiv(em.sub(size, 1), step)
    count = em.pick(neg, em.sub(1, q), em.add(q, 1))
    length = em.pick(em.cmp("sgt", size, 0), count, 0)
    return first, step, length



def checked_index(em, raw, n, dim: int):
    """The integer index ``raw`` into an axis of size ``n`` (negative counts from the end),
    with NumPy's IndexError naming axis ``dim`` when it is out of range."""
    i = em.index(raw)
    wrapped = em.pick(em.cmp("slt", i, 0), em.add(i, n), i)
    ok = em.both(em.cmp("sge", wrapped, 0), em.cmp("slt", wrapped, n))
    em.check(ok, "IndexError", "index {0} is out of bounds for axis %d with size {1}" % dim,
             [raw, n])
    return wrapped

def planned_index(em: Emitter, plan, idx) -> tuple:
    """The array index that region index ``idx`` denotes under ``plan``: per array dim,
    ``("fixed", i)`` or ``("slice", region dim, first, step)``."""
    return tuple(p[1] if p[0] == "fixed" else em.add(p[2], em.mul(idx[p[1]], p[3]))
                 for p in plan)


@rule(npd.SubscriptOp)
def lower_subscript(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    vals = iter(op.indices)
    bounds = list(op.attr("bounds", ()))
    out_shape, plan, dim = [], [], 0  # plan: per input dim ("fixed", i) | ("slice", out, a, s)
    for item in op.attr("spec"):
        if item == "n":
            out_shape.append(1)
            continue
        n = x.shape[dim]
        if item == "i":
            plan.append(("fixed", checked_index(em, lw.scalar(next(vals)), n, dim)))
        else:
            b = []
            for v in bounds[:3]:
                b.append(None if v == "none" else (em.index(lw.scalar(next(vals))) if v == "?"
                                                   else v))
            del bounds[:3]
            first, step, length = _slice(em, n, *b)
            plan.append(("slice", len(out_shape), first, step))
            out_shape.append(length)
        dim += 1
    for k in range(dim, x.rank):
        plan.append(("slice", len(out_shape), 0, 1))
        out_shape.append(x.shape[k])
    static = T.shape_of(op.result.type)
    out_shape = tuple(s if s is not None else d for s, d in zip(static, out_shape, strict=True))

    def load(idx):
        return x.load(planned_index(em, plan, idx))

    e = Expr(out_shape, x.element, load, x.cost + 1,
             strides=_planned_strides(em, x.strides, plan, len(out_shape)))
    return [e.load(()) if not isinstance(op.result.type, T.TensorType) else e]


def _planned_strides(em: Emitter, strides, plan, rank: int):
    """The strides of the region ``plan`` selects (see ``planned_index``) from an array of
    ``strides`` (None when those are unknown): a slice's axis has its array dim's stride times
    the step, a new axis stride 0, and a fixed index no axis."""
    if strides is None:
        return None
    out = [0] * rank
    for s, p in zip(strides, plan, strict=True):
        if p[0] == "slice":
            out[p[1]] = em.mul(s, p[3])
    return tuple(out)


@rule(npd.TransposeOp)
def lower_transpose(lw: Lowerer, op):
    x = lw.expr(op.input)
    perm = op.attr("perm")
    inverse = [perm.index(k) for k in range(len(perm))]
    strides = None if x.strides is None else tuple(x.strides[p] for p in perm)
    return [Expr(tuple(x.shape[p] for p in perm), x.element,
                 lambda idx: x.load(tuple(idx[inverse[k]] for k in range(len(perm)))),
                 x.cost, strides=strides)]


def _shape_text(shape, params) -> str:
    """NumPy's shape text ``(3,4)`` with ``{k}`` placeholders for dynamic dims."""
    items = []
    for d in shape:
        if isinstance(d, int):
            items.append(str(d))
        else:
            items.append("{%d}" % len(params))
            params.append(d)
    return "(" + ",".join(items) + ("," if len(shape) == 1 else "") + ")"


@rule(npd.BroadcastToOp)
def lower_broadcast_to(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    t = op.result.type
    dyn = iter(op.sizes)
    shape = tuple(d if d is not None else em.index(lw.scalar(next(dyn))) for d in t.shape)
    nonneg = True
    for d in shape:
        nonneg = em.both(nonneg, em.cmp("sge", d, 0))
    em.check(nonneg, "ValueError", "all elements of broadcast shape must be non-negative")
    ok = len(shape) >= x.rank
    for d, o in zip(reversed(x.shape), reversed(shape), strict=False):
        ok = em.both(ok, em.either(em.cmp("eq", d, o), em.cmp("eq", d, 1)))
    params = []
    text = ("operands could not be broadcast together with remapped shapes "
            "[original->remapped]: " + _shape_text(x.shape, params) + "  and requested shape "
            + _shape_text(shape, params))
    em.check(ok, "ValueError", text, params)
    return [broadcast(em, x, shape)]


def _groups(in_shape, out_shape):
    """Split the non-unit dims of a reshape into groups of equal products: lists of
    (input dims, output dims) positions. Products are compared symbolically (static
    factor and the multiset of dynamic dims); what cannot be matched forms the last group."""
    ins = [k for k, d in enumerate(in_shape) if d != 1]
    outs = [k for k, d in enumerate(out_shape) if d != 1]

    def key(shape, ks):
        static, dyn = 1, []
        for k in ks:
            if isinstance(shape[k], int):
                static *= shape[k]
            else:
                dyn.append(id(shape[k]))
        return static, sorted(dyn)

    groups, i, j = [], 0, 0
    while i < len(ins) and j < len(outs):
        gi, gj = [ins[i]], [outs[j]]
        i, j = i + 1, j + 1
        while key(in_shape, gi) != key(out_shape, gj):
            a, b = key(in_shape, gi), key(out_shape, gj)
            grow_in = (len(a[1]), a[0]) < (len(b[1]), b[0])
            if grow_in and i < len(ins):
                gi.append(ins[i])
                i += 1
            elif j < len(outs):
                gj.append(outs[j])
                j += 1
            elif i < len(ins):
                gi.append(ins[i])
                i += 1
            else:
                break
        groups.append((gi, gj))
    if i < len(ins) or j < len(outs):
        if groups:
            gi, gj = groups.pop()
        else:
            gi, gj = [], []
        groups.append((gi + ins[i:], gj + outs[j:]))
    return groups


@rule(npd.ReshapeOp)
def lower_reshape(lw: Lowerer, op):
    em = lw.em
    x = lw.expr(op.input)
    t = op.result.type
    dyn = iter(op.sizes)
    shape = tuple(d if d is not None else em.index(lw.scalar(next(dyn)))
                  for d in T.shape_of(t))
    params = [em.product(x.shape)]
    em.check(em.cmp("eq", params[0], em.product(shape)), "ValueError",
             "cannot reshape array of size {0} into shape " + _shape_text(shape, params),
             params)
    groups = _groups(x.shape, shape)

    def load(idx):
        src = [0] * x.rank
        for gi, gj in groups:
            linear = 0
            for k in gj:
                linear = em.add(em.mul(linear, shape[k]), idx[k])
            for k in reversed(gi[1:]):
                src[k] = em.mod(linear, x.shape[k])
                linear = em.floordiv(linear, x.shape[k])
            if gi:
                src[gi[0]] = linear
        return x.load(tuple(src))

    e = Expr(shape, x.element, load, x.cost + 2)
    return [e if isinstance(t, T.TensorType) else e.load(())]


@rule(npd.DimOp)
def lower_dim(lw: Lowerer, op):
    return [lw.em.to_i64(lw.expr(op.input).shape[op.attr("index")])]
