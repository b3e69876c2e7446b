"""Helpers that build loop-level IR by hand (the lowering's output format) for backend tests."""

from __future__ import annotations

from contextlib import contextmanager

from compiler import types as T
from compiler.dialects import arith, builtin, func, memref, scf
from compiler.ir.builder import Builder


def strided(shape, el) -> T.MemRefType:
    return T.MemRefType(tuple(shape), el, strided=True)


def contiguous(shape, el) -> T.MemRefType:
    return T.MemRefType(tuple(shape), el)


class Fn:
    """A ``func.func`` under construction; ``b`` inserts at the end of the current block."""

    def __init__(self, name, inputs, results, module=None, loc=None):
        self.module = module or builtin.ModuleOp.empty()
        self.op = func.FuncOp.create(name, T.FunctionType(tuple(inputs), tuple(results)))
        self.module.body.append(self.op)
        self.b = Builder(self.op.body, loc=loc)
        self.args = list(self.op.body.args)

    def op_(self, cls, operands=(), attrs=None, types=None):
        return self.b.create(cls, list(operands), attrs, types)

    def v(self, cls, *operands, attrs=None, type=None):
        """Create an op and return its single result."""
        return self.op_(cls, operands, attrs, [type] if type is not None else None).result

    def const(self, value, t=T.index):
        return self.v(arith.ConstantOp, attrs={"value": _attr(value, t)}, type=t)

    def dim(self, m, k: int):
        return self.v(memref.DimOp, m, self.const(k))

    def alloc(self, t, *dyn):
        return self.v(memref.AllocOp, *dyn, type=t)

    def load(self, m, *idx):
        return self.v(memref.LoadOp, m, *idx)

    def store(self, value, m, *idx):
        self.op_(memref.StoreOp, [value, m, *idx])

    @contextmanager
    def loop(self, lb, ub, step=None, inits=()):
        """An ``scf.for``; the body must end with ``self.yield_(...)``. Yields the op."""
        lb = lb if not isinstance(lb, int) else self.const(lb)
        ub = ub if not isinstance(ub, int) else self.const(ub)
        step = self.const(1) if step is None else step
        op = scf.ForOp.create(lb, ub, step, list(inits))
        self.b.insert(op)
        with self.b.at_end(op.body):
            yield op

    def yield_(self, *values):
        self.op_(scf.YieldOp, values)

    def ret(self, *values):
        self.op_(func.ReturnOp, values)
        return self.module


def _attr(value, t):
    from compiler.ir.attributes import FloatAttr, IntegerAttr
    if isinstance(t, T.FloatType):
        return FloatAttr(float(value), t)
    return IntegerAttr(int(value), t)


def elementwise(name, el_in, el_out, op_cls, rank=1, shape=None, in_strided=True, n_in=2,
                attrs=None, module=None):
    """``out[i...] = op(x0[i...], x1[i...], ...)`` over dynamic (or ``shape``) dims."""
    shape = shape or (None,) * rank
    mk = strided if in_strided else contiguous
    f = Fn(name, [mk(shape, el_in)] * n_in, [contiguous(shape, el_out)], module)
    xs = f.args
    sizes = [f.dim(xs[0], k) for k in range(rank)]
    dynamic = [s for s, d in zip(sizes, shape, strict=True) if d is None]
    out = f.alloc(contiguous(shape, el_out), *dynamic)

    def nest(k, idx):
        if k == rank:
            vals = [f.load(x, *idx) for x in xs]
            r = f.v(op_cls, *vals, attrs=attrs, type=None if el_out == el_in else el_out)
            f.store(r, out, *idx)
            return
        with f.loop(0, sizes[k]) as lp:
            nest(k + 1, idx + [lp.induction_var])
            f.yield_()

    nest(0, [])
    return f.ret(out)

