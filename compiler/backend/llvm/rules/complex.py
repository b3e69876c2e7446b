"""Lowering of ``complex`` ops: a complex is the struct ``{float, float}`` / ``{double,
double}`` of its (re, im) parts, as NumPy lays it out in memory.

Semantics are NumPy's complex loops (``dialects/complex.py``): ``mul`` is the plain formula,
``div`` Smith's algorithm as NumPy's ``@TYPE@_divide``, ``abs`` the C library's ``hypot``,
``angle`` its ``atan2``; ``eq`` compares both parts (ordered), ``neq`` is its negation.
"""

from __future__ import annotations

from llvmlite import ir

from ....dialects import complex as cx
from ....dialects import grafo
from .. import complexmath
from ..types import scalar
from .registry import rule


def parts(b: ir.IRBuilder, z) -> tuple:
    """The (re, im) values of the complex struct value ``z``."""
    return b.extract_value(z, 0), b.extract_value(z, 1)


def make(b: ir.IRBuilder, re, im):
    """The complex struct value of parts ``re`` and ``im``."""
    z = ir.Constant(ir.LiteralStructType([re.type, re.type]), ir.Undefined)
    return b.insert_value(b.insert_value(z, re, 0), im, 1)


def _libm(fe, name: str, *args):
    cname = name + ("f" if isinstance(args[0].type, ir.FloatType) else "")
    return fe.b.call(fe.mod.external(cname, args[0].type, [a.type for a in args]), list(args))


@rule(cx.ConstantOp)
def constant(fe, op):
    re, im = op.attr("value")
    ty = scalar(op.result.type)
    part = ty.elements[0]
    return [ir.Constant(ty, [ir.Constant(part, re), ir.Constant(part, im)])]


@rule(cx.CreateOp)
def create(fe, op):
    return [make(fe.b, *fe.operands(op))]


@rule(cx.ReOp)
def re(fe, op):
    return [fe.b.extract_value(fe.operand(op, 0), 0)]


@rule(cx.ImOp)
def im(fe, op):
    return [fe.b.extract_value(fe.operand(op, 0), 1)]


@rule(cx.AddOp)
def add(fe, op):
    b = fe.b
    (ar, ai), (br, bi) = (parts(b, v) for v in fe.operands(op))
    return [make(b, b.fadd(ar, br), b.fadd(ai, bi))]


@rule(cx.SubOp)
def sub(fe, op):
    b = fe.b
    (ar, ai), (br, bi) = (parts(b, v) for v in fe.operands(op))
    return [make(b, b.fsub(ar, br), b.fsub(ai, bi))]


@rule(cx.MulOp)
def mul(fe, op):
    b = fe.b
    (ar, ai), (br, bi) = (parts(b, v) for v in fe.operands(op))
    return [make(b, b.fsub(b.fmul(ar, br), b.fmul(ai, bi)),
                 b.fadd(b.fmul(ar, bi), b.fmul(ai, br)))]


def smith_divide(fe, a: tuple, d: tuple) -> tuple:
    """NumPy's complex division ``a / d`` (``loops_arithm_fp``'s ``@TYPE@_divide``):
    Smith's algorithm on the larger part of ``d``; ``d == 0`` divides each part of ``a`` by
    ``|d.re|`` (complex infinities and NaNs as NumPy gives them)."""
    b = fe.b
    (ar, ai), (br, bi) = a, d
    ty = ar.type
    one, zero = ir.Constant(ty, 1.0), ir.Constant(ty, 0.0)
    fabs = fe.mod.intrinsic("fabs", ty, 1)
    br_abs, bi_abs = b.call(fabs, [br]), b.call(fabs, [bi])
    real_larger = b.fcmp_ordered(">=", br_abs, bi_abs)
    both_zero = b.and_(b.fcmp_ordered("==", br_abs, zero), b.fcmp_ordered("==", bi_abs, zero))
    # |d.re| >= |d.im|, d != 0
    rat1 = b.fdiv(bi, br)
    scl1 = b.fdiv(one, b.fadd(br, b.fmul(bi, rat1)))
    re1 = b.fmul(b.fadd(ar, b.fmul(ai, rat1)), scl1)
    im1 = b.fmul(b.fsub(ai, b.fmul(ar, rat1)), scl1)
    # d == 0
    re0, im0 = b.fdiv(ar, br_abs), b.fdiv(ai, br_abs)
    # otherwise (|d.im| larger, or a NaN part)
    rat2 = b.fdiv(br, bi)
    scl2 = b.fdiv(one, b.fadd(bi, b.fmul(br, rat2)))
    re2 = b.fmul(b.fadd(b.fmul(ar, rat2), ai), scl2)
    im2 = b.fmul(b.fsub(b.fmul(ai, rat2), ar), scl2)
    re_ = b.select(real_larger, b.select(both_zero, re0, re1), re2)
    im_ = b.select(real_larger, b.select(both_zero, im0, im1), im2)
    return re_, im_


@rule(cx.DivOp)
def div(fe, op):
    a, d = (parts(fe.b, v) for v in fe.operands(op))
    return [make(fe.b, *smith_divide(fe, a, d))]


@rule(cx.NegOp)
def neg(fe, op):
    b = fe.b
    r, i = parts(b, fe.operand(op, 0))
    return [make(b, b.fneg(r), b.fneg(i))]


@rule(cx.ConjOp)
def conj(fe, op):
    b = fe.b
    r, i = parts(b, fe.operand(op, 0))
    return [make(b, r, b.fneg(i))]


@rule(cx.EqualOp)
def eq(fe, op):
    b = fe.b
    (ar, ai), (br, bi) = (parts(b, v) for v in fe.operands(op))
    return [b.and_(b.fcmp_ordered("==", ar, br), b.fcmp_ordered("==", ai, bi))]


@rule(cx.NotEqualOp)
def neq(fe, op):
    b = fe.b
    (ar, ai), (br, bi) = (parts(b, v) for v in fe.operands(op))
    return [b.or_(b.fcmp_unordered("!=", ar, br), b.fcmp_unordered("!=", ai, bi))]


@rule(cx.AbsOp)
def abs_(fe, op):
    return [_libm(fe, "hypot", *parts(fe.b, fe.operand(op, 0)))]


@rule(cx.AngleOp)
def angle(fe, op):
    r, i = parts(fe.b, fe.operand(op, 0))
    return [_libm(fe, "atan2", i, r)]


@rule(grafo.CMathOp)
def cmath(fe, op):
    """NumPy's complex ufunc through ``complexmath``."""
    b = fe.b
    args = [parts(b, v) for v in fe.operands(op)]
    if len(args) == 1:
        return [make(b, *complexmath.unary(b, op.callee, *args[0]))]
    return [make(b, *complexmath.binary(b, op.callee, *args))]
