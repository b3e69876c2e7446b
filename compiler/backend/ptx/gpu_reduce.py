"""Reductions over trailing axes for the GPU: ``np.gpu_reduce`` and its loop nest.

The CPU lowering of ``np.reduce`` adds float sums by blocks of 128 elements (8 partial sums
per block, ``lowering/reduction.py``), so a GPU thread running one block's iteration reads
128 consecutive elements: the threads of a warp would read addresses 512 bytes apart. The
CUDA backend therefore rewrites, before lowering (``prepare``), every ``np.reduce`` over
trailing axes (a row reduction ``np.sum(x, axis=-1)``, or a full reduction) into
``np.gpu_reduce``, whose lowering rule emits one step-1 loop over the reduced elements
(flattened, row-major) per output element:

- float sums: Kahan compensated, ``(total, comp)`` from ``(+0.0, +0.0)``, the result
  ``total - comp``; the compensation is kept when the running total is not finite, so an
  inf or NaN element gives NumPy's inf or NaN. Starting from +0.0, a sum of -0.0s is +0.0
  (NumPy 2.4's result on every layout);
- float16 sums and products: in float32 over the extended elements, rounded to float16 once
  (NumPy's ``HALF_add`` reduction accumulates in float; ``np.mean``'s float32 sum of float16
  is not rounded);
- complex sums: the real and imaginary parts as two compensated float sums in one loop
  (NumPy adds the parts independently);
- other kinds: the CPU lowering's monoid (``max``/``min`` propagate NaN; a zero max is +0.0
  and a zero min -0.0; integers wrap) from its identity; ``max``/``min`` of an empty extent
  raise NumPy's ValueError.

The kept axes are a parallel nest around that loop. The nest is the semantics (the
loop-level interpreter runs it serially); the GPU kernels split each reduced loop among
threads with consecutive threads at consecutive elements (``rows.py`` for row reductions,
``reduce.py`` for full ones) and combine the threads' values by a tree.
"""

from __future__ import annotations

from ... import types as T
from ...dialects import arith
from ...dialects import complex as cx
from ...dialects import np as npd
from ...ir.opdef import InferredTypes, Op, Pure, TensorLevel, register_ops
from ...lowering import scalar as S
from ...lowering.index_expr import splat
from ...lowering.lowerer import Lowerer, rule
from ...lowering.reduction import check_nonempty, monoid


class GpuReduceOp(Op):
    """``np.gpu_reduce {kind, axes, keepdims}``: ``np.reduce`` over trailing ``axes``,
    lowered for the GPU kernels (see the module docstring)."""

    name = "np.gpu_reduce"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = npd.ReduceOp.operand_defs
    result_defs = npd.ReduceOp.result_defs
    attr_defs = npd.ReduceOp.attr_defs

    @classmethod
    def infer(cls, operand_types, attributes):
        return npd.ReduceOp.infer(operand_types, attributes)


register_ops("np", (GpuReduceOp,))


def _trailing(op) -> bool:
    rank = len(T.shape_of(op.input.type))
    axes = sorted(op.attr("axes") or ())
    return bool(axes) and axes == list(range(rank - len(axes), rank))


def prepare(module):
    """Rewrite each ``np.reduce`` over trailing axes of the tensor-level ``module`` into
    ``np.gpu_reduce`` (in place); returns ``module``."""
    for op in list(module.walk()):
        if not isinstance(op, npd.ReduceOp) or not _trailing(op):
            continue
        new = GpuReduceOp.build(list(op.operands), dict(op.attributes), [op.result.type], None,
                                op.loc)
        op.parent.insert_before(op, new)
        op.result.replace_all_uses_with(new.result)
        op.erase()
    return module


def _kahan(em, t, n, *elements):
    """``[sum(element(i) for i < n) for element in elements]``, compensated (see the module
    docstring), all in one loop."""
    zero = em.const(0.0, T.lowered(t))

    def step(i, *accs):
        out = []
        for element, total, comp in zip(elements, accs[::2], accs[1::2], strict=True):
            y = S.subtract(em, t, element(i), comp)
            nxt = S.add(em, t, total, y)
            c = S.subtract(em, t, S.subtract(em, t, nxt, total), y)
            out += [nxt, em.select(S.isfinite(em, t, nxt), c, comp)]
        return out
    accs = em.loop(n, step, [zero, zero] * len(elements))
    return [S.subtract(em, t, total, comp) for total, comp in zip(accs[::2], accs[1::2],
                                                                   strict=True)]


def _point(em, kind, t, x_el, n, element):
    """The reduction ``kind`` of ``element(i)`` for ``i < n`` (elements of type ``x_el``)
    into type ``t`` (see the module docstring)."""
    if x_el == T.f16 and kind in ("sum", "prod"):
        wide = lambda i: em.cast(arith.ExtFOp, element(i), T.f32)  # noqa: E731
        v = _point(em, kind, T.f32, T.f32, n, wide)
        return em.cast(arith.TruncFOp, v, T.f16) if t == T.f16 else v
    if kind == "sum" and T.is_complex(t):
        part = T.real_type(t)
        re, im = _kahan(em, part, n, *(lambda i, cls=cls: em.op(cls, element(i))
                                       for cls in (cx.ReOp, cx.ImOp)))
        return em.op(cx.CreateOp, re, im)
    if kind == "sum" and T.is_float(t):
        return _kahan(em, t, n, element)[0]
    combine, ident = monoid(em, kind, t)
    (acc,) = em.loop(n, lambda i, acc: [combine(acc, element(i))], [ident])
    return acc


@rule(GpuReduceOp)
def lower_gpu_reduce(lw: Lowerer, op):
    """The loop nest of ``op`` (see the module docstring)."""
    em = lw.em
    x = lw.expr(op.input)
    kind, keep = op.attr("kind"), bool(op.attr("keepdims"))
    axes = sorted(op.attr("axes"))
    t = T.element_type(op.result.type)
    nkept = x.rank - len(axes)
    red_shape, kept_shape = tuple(x.shape[nkept:]), tuple(x.shape[:nkept])
    n = em.product(red_shape)
    if kind in ("max", "min"):
        check_nonempty(em, n, "zero-size array to reduction operation "
                        + {"max": "maximum", "min": "minimum"}[kind] + " which has no identity")
    pre = (lambda v: S.truthy(em, x.element, v)) if kind in ("any", "all") else (lambda v: v)

    def point(kidx):
        def element(i):
            ridx = []
            for d in reversed(red_shape[1:]):
                ridx.insert(0, em.mod(i, d))
                i = em.floordiv(i, d)
            return pre(x.load(kidx + (i, *ridx)))
        return _point(em, kind, t, x.element, n, element)

    out_shape = npd.reduced_shape(tuple(x.shape), axes, keep)
    if not kept_shape:
        v = point(())
        return [splat(out_shape, t, v) if isinstance(op.result.type, T.TensorType) else v]
    buf = em.alloc(out_shape, T.lowered(t))
    ones = (0,) * len(axes) if keep else ()
    em.nest(kept_shape, lambda kidx: em.store(point(kidx), buf, kidx + ones), parallel=True)
    return [lw.own(op.result, buf, t, out_shape)]


__all__ = ["GpuReduceOp", "lower_gpu_reduce", "prepare"]
