"""Lowering of ``math`` ops (upstream MLIR semantics).

``exp``, ``expm1``, ``log``, ``tanh`` and float32 ``powf`` are inline branch-free code that
LLVM vectorizes (``vecmath.py``, with its accuracy bounds). Other functions LLVM has
intrinsics for use them (``llvm.sqrt``, ``llvm.floor`` ...); the others call the C math
library (``cbrt`` / ``cbrtf`` ...), which the JIT resolves in-process (``target.py`` loads
libm). ``fpowi`` is ``pow(x, (double)n)``, NumPy's result for a float array raised to an
integer power.
``ipowi`` is exponentiation by squaring with wrap-around; a negative exponent gives
``1 / x**-n`` truncated toward zero (1 for x == 1, +-1 for x == -1, else 0), as MLIR's
expansion does.
"""

from __future__ import annotations

from llvmlite import ir

from ....dialects import math
from .. import vecmath
from .registry import rule

INLINE = {math.ExpOp: vecmath.exp, math.ExpM1Op: vecmath.expm1, math.LogOp: vecmath.log,
          math.TanhOp: vecmath.tanh}
INTRINSIC = {math.Exp2Op: "exp2", math.Log2Op: "log2", math.Log10Op: "log10",
             math.SqrtOp: "sqrt", math.AbsFOp: "fabs", math.FloorOp: "floor",
             math.CeilOp: "ceil", math.TruncOp: "trunc", math.RoundEvenOp: "roundeven",
             math.SinOp: "sin", math.CosOp: "cos", math.CopySignOp: "copysign",
             math.FmaOp: "fma"}
LIBM = {math.Log1pOp: "log1p", math.CbrtOp: "cbrt", math.TanOp: "tan", math.AsinOp: "asin",
        math.AcosOp: "acos", math.AtanOp: "atan", math.SinhOp: "sinh", math.CoshOp: "cosh",
        math.AsinhOp: "asinh", math.AcoshOp: "acosh", math.AtanhOp: "atanh",
        math.ErfOp: "erf", math.Atan2Op: "atan2"}


def _intrinsic(name: str):
    def lower(fe, op):
        args = fe.operands(op)
        return [fe.b.call(fe.mod.intrinsic(name, args[0].type, len(args)), args)]
    return lower


def _libm(name: str):
    def lower(fe, op):
        args = fe.operands(op)
        cname = name + ("f" if isinstance(args[0].type, ir.FloatType) else "")
        fn = fe.mod.external(cname, args[0].type, [a.type for a in args])
        return [fe.b.call(fn, args)]
    return lower


def _inline(fn):
    def lower(fe, op):
        return [fn(fe.mod, fe.b, fe.operand(op, 0))]
    return lower


for _cls, _fn in INLINE.items():
    rule(_cls)(_inline(_fn))
for _cls, _name in INTRINSIC.items():
    rule(_cls)(_intrinsic(_name))
for _cls, _name in LIBM.items():
    rule(_cls)(_libm(_name))


@rule(math.PowFOp)
def powf(fe, op):
    a, b = fe.operands(op)
    if a.type == ir.FloatType():   # inline, vectorizable (vecmath.pow_f32)
        return [vecmath.pow_f32(fe.mod, fe.b, a, b)]
    return [fe.b.call(fe.mod.intrinsic("pow", a.type, 2), [a, b])]


@rule(math.AbsIOp)
def absi(fe, op):
    x = fe.operand(op, 0)
    fn = fe.mod.intrinsic_typed("llvm.abs", [x.type], x.type, [x.type, ir.IntType(1)])
    return [fe.b.call(fn, [x, ir.Constant(ir.IntType(1), 0)])]


@rule(math.FPowIOp)
def fpowi(fe, op):
    x, n = fe.operands(op)
    y = fe.b.sitofp(n, x.type)
    return [fe.b.call(fe.mod.intrinsic("pow", x.type, 2), [x, y])]


@rule(math.IPowIOp)
def ipowi(fe, op):
    x, n = fe.operands(op)
    return [fe.b.call(_ipowi_function(fe.mod.ll, x.type), [x, n])]


def _ipowi_function(m: ir.Module, ty: ir.IntType) -> ir.Function:
    name = f"grafo.rt.ipowi.i{ty.width}"
    if name in m.globals:
        return m.globals[name]
    fn = ir.Function(m, ir.FunctionType(ty, [ty, ty]), name)
    fn.linkage = "internal"
    x, n = fn.args
    entry, negative, head, body, done = (fn.append_basic_block(s) for s in (
        "entry", "negative", "head", "body", "done"))
    b = ir.IRBuilder(entry)
    c = lambda v: ir.Constant(ty, v)  # noqa: E731
    b.cbranch(b.icmp_signed("<", n, c(0)), negative, head)
    b.position_at_end(negative)
    odd = b.icmp_unsigned("!=", b.and_(n, c(1)), c(0))
    minus_one = b.select(odd, c(-1), c(1))
    b.ret(b.select(b.icmp_unsigned("==", x, c(1)), c(1),
                   b.select(b.icmp_unsigned("==", x, c(-1)), minus_one, c(0))))
    b.position_at_end(head)
    acc, base, e = b.phi(ty), b.phi(ty), b.phi(ty)
    for phi, v in ((acc, c(1)), (base, x), (e, n)):
        phi.add_incoming(v, entry)
    b.cbranch(b.icmp_unsigned("==", e, c(0)), done, body)
    b.position_at_end(body)
    take = b.icmp_unsigned("!=", b.and_(e, c(1)), c(0))
    acc.add_incoming(b.select(take, b.mul(acc, base), acc), body)
    base.add_incoming(b.mul(base, base), body)
    e.add_incoming(b.lshr(e, c(1)), body)
    b.branch(head)
    b.position_at_end(done)
    b.ret(acc)
    return fn
