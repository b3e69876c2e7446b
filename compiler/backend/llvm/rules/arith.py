"""Lowering of ``arith`` ops (upstream MLIR semantics) where LLVM's are defined; NumPy's
results where LLVM's would be undefined or trap.

- Division never traps (x86 ``idiv`` faults on ``x / 0`` and ``INT_MIN / -1``): ``x / 0`` and
  ``x % 0`` give 0 for every division op (NumPy's result for integer ``//`` and ``%`` by zero);
  ``INT_MIN / -1`` gives ``INT_MIN`` (wraps, as NumPy's ``floor_divide``) and
  ``INT_MIN % -1`` gives 0.
- Shifts by ``>= width`` bits (or negative amounts, read unsigned) give NumPy's
  ``npy_lshift``/``npy_rshift`` results: 0, or the sign fill for ``shrsi``.
- ``fptosi``/``fptoui`` give NumPy's ``astype`` results on x86-64 for NaN, infinities and
  out-of-range values (the ``cvttss2si``/``cvttsd2si`` pattern ``INT_MIN`` of 32 or 64 bits,
  truncated to narrower types), computed with range checks and selects, never with LLVM's
  poison-producing out-of-range ``fptosi``.
- ``maximumf``/``minimumf`` propagate NaN (``llvm.maximum``), ``maxnumf``/``minnumf`` ignore it
  (``llvm.maxnum``), as in MLIR.
"""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from ....dialects import arith
from ....ir.attributes import FloatAttr, IntegerAttr
from .. import half
from ..types import scalar
from .registry import rule


def _const(ty: ir.Type, v) -> ir.Constant:
    if ty == half.HALF:   # by its bits: LLVM's text takes only exactly representable doubles
        with np.errstate(over="ignore"):
            bits = int(np.array(v, np.float16).view(np.uint16))
        return ir.Constant(half.I16, bits).bitcast(ty)
    if isinstance(ty, ir.IntType):
        v = int(v) & ((1 << ty.width) - 1)
        if ty.width > 1:
            v -= (v >> (ty.width - 1)) << ty.width   # two's complement text for LLVM
    return ir.Constant(ty, v)


@rule(arith.ConstantOp)
def constant(fe, op):
    a = op.attributes["value"]
    if not isinstance(a, (IntegerAttr, FloatAttr)):
        raise TypeError(f"arith.constant: unsupported value attribute {a}")
    return [_const(scalar(op.result.type), a.value)]


def _simple(method: str):
    def lower(fe, op):
        return [getattr(fe.b, method)(*fe.operands(op))]
    return lower


for _cls, _method in ((arith.AddIOp, "add"), (arith.SubIOp, "sub"), (arith.MulIOp, "mul"),
                      (arith.AndIOp, "and_"), (arith.OrIOp, "or_"), (arith.XOrIOp, "xor"),
                      (arith.AddFOp, "fadd"), (arith.SubFOp, "fsub"), (arith.MulFOp, "fmul"),
                      (arith.DivFOp, "fdiv"), (arith.RemFOp, "frem")):
    rule(_cls)(_simple(_method))


@rule(arith.NegFOp)
def negf(fe, op):
    return [fe.b.fneg(fe.operand(op, 0))]


# --- integer division ----------------------------------------------------------------------

def _guarded(b: ir.IRBuilder, a, d):
    """(d == 0, d == -1, a divisor that is neither: 1 in those cases)."""
    ty = a.type
    zero = b.icmp_unsigned("==", d, _const(ty, 0))
    minus_one = b.icmp_unsigned("==", d, _const(ty, -1))
    safe = b.select(b.or_(zero, minus_one), _const(ty, 1), d)
    return zero, minus_one, safe


@rule(arith.DivSIOp)
def divsi(fe, op):
    b, (a, d) = fe.b, fe.operands(op)
    zero, minus_one, safe = _guarded(b, a, d)
    q = b.select(minus_one, b.sub(_const(a.type, 0), a), b.sdiv(a, safe))
    return [b.select(zero, _const(a.type, 0), q)]


@rule(arith.RemSIOp)
def remsi(fe, op):
    b, (a, d) = fe.b, fe.operands(op)
    zero, minus_one, safe = _guarded(b, a, d)
    return [b.select(b.or_(zero, minus_one), _const(a.type, 0), b.srem(a, safe))]


def _rounded_div(fe, op, floor: bool):
    b, (a, d) = fe.b, fe.operands(op)
    ty = a.type
    zero, minus_one, safe = _guarded(b, a, d)
    q, r = b.sdiv(a, safe), b.srem(a, safe)
    inexact = b.icmp_unsigned("!=", r, _const(ty, 0))
    signs_differ = b.icmp_signed("<", b.xor(r, safe), _const(ty, 0))
    if floor:
        q = b.select(b.and_(inexact, signs_differ), b.sub(q, _const(ty, 1)), q)
    else:
        q = b.select(b.and_(inexact, b.not_(signs_differ)), b.add(q, _const(ty, 1)), q)
    q = b.select(minus_one, b.sub(_const(ty, 0), a), q)
    return [b.select(zero, _const(ty, 0), q)]


@rule(arith.FloorDivSIOp)
def floordivsi(fe, op):
    return _rounded_div(fe, op, floor=True)


@rule(arith.CeilDivSIOp)
def ceildivsi(fe, op):
    return _rounded_div(fe, op, floor=False)


def _unsigned_div(method: str):
    def lower(fe, op):
        b, (a, d) = fe.b, fe.operands(op)
        zero = b.icmp_unsigned("==", d, _const(a.type, 0))
        res = getattr(b, method)(a, b.select(zero, _const(a.type, 1), d))
        return [b.select(zero, _const(a.type, 0), res)]
    return lower


rule(arith.DivUIOp)(_unsigned_div("udiv"))
rule(arith.RemUIOp)(_unsigned_div("urem"))


# --- shifts, min/max -------------------------------------------------------------------------

def _shift(method: str, arithmetic: bool):
    def lower(fe, op):
        b, (a, n) = fe.b, fe.operands(op)
        width = a.type.width
        too_far = b.icmp_unsigned(">=", n, _const(a.type, width))
        shifted = getattr(b, method)(a, b.select(too_far, _const(a.type, 0), n))
        fill = b.ashr(a, _const(a.type, width - 1)) if arithmetic else _const(a.type, 0)
        return [b.select(too_far, fill, shifted)]
    return lower


rule(arith.ShLIOp)(_shift("shl", False))
rule(arith.ShRUIOp)(_shift("lshr", False))
rule(arith.ShRSIOp)(_shift("ashr", True))


def _int_extremum(pred: str, signed: bool):
    def lower(fe, op):
        b, (x, y) = fe.b, fe.operands(op)
        cmp = b.icmp_signed if signed else b.icmp_unsigned
        return [b.select(cmp(pred, x, y), x, y)]
    return lower


rule(arith.MaxSIOp)(_int_extremum(">", True))
rule(arith.MinSIOp)(_int_extremum("<", True))
rule(arith.MaxUIOp)(_int_extremum(">", False))
rule(arith.MinUIOp)(_int_extremum("<", False))


def _float_intrinsic(intrinsic: str):
    def lower(fe, op):
        args = fe.operands(op)
        flags = ("nsz",) if arith.NSZ in op.attributes else ()   # see lowering/reduction.py
        return [fe.b.call(fe.mod.intrinsic(intrinsic, args[0].type, len(args)), args,
                          fastmath=flags)]
    return lower


for _cls, _intr in ((arith.MaximumFOp, "maximum"), (arith.MinimumFOp, "minimum"),
                    (arith.MaxNumFOp, "maxnum"), (arith.MinNumFOp, "minnum")):
    rule(_cls)(_float_intrinsic(_intr))


# --- comparisons, select -------------------------------------------------------------------

_ICMP = {"eq": ("==", True), "ne": ("!=", True), "slt": ("<", True), "sle": ("<=", True),
         "sgt": (">", True), "sge": (">=", True), "ult": ("<", False), "ule": ("<=", False),
         "ugt": (">", False), "uge": (">=", False)}
_FCMP = {"oeq": "==", "ogt": ">", "oge": ">=", "olt": "<", "ole": "<=", "one": "!=",
         "ord": "ord", "ueq": "==", "ugt": ">", "uge": ">=", "ult": "<", "ule": "<=",
         "une": "!=", "uno": "uno"}


def _predicate(op, table: dict) -> str:
    """The name of ``op``'s ``predicate`` (an MLIR enum number the verifier checked)."""
    return {v: k for k, v in table.items()}[op.attr("predicate")]


@rule(arith.CmpIOp)
def cmpi(fe, op):
    pred, signed = _ICMP[_predicate(op, arith.CMPI)]
    cmp = fe.b.icmp_signed if signed else fe.b.icmp_unsigned
    return [cmp(pred, *fe.operands(op))]


@rule(arith.CmpFOp)
def cmpf(fe, op):
    name = _predicate(op, arith.CMPF)
    if name in ("false", "true"):
        return [ir.Constant(ir.IntType(1), int(name == "true"))]
    cmp = fe.b.fcmp_ordered if name[0] == "o" else fe.b.fcmp_unordered
    return [cmp(_FCMP[name], *fe.operands(op))]


@rule(arith.SelectOp)
def select(fe, op):
    from ..descriptor import MemRef
    c, x, y = fe.operands(op)
    if isinstance(x, MemRef):
        return [MemRef.unflatten(x.type, [fe.b.select(c, u, v)
                                          for u, v in zip(x.flatten(), y.flatten(), strict=True)])]
    return [fe.b.select(c, x, y)]


# --- casts -----------------------------------------------------------------------------------

def _cast(method: str):
    def lower(fe, op):
        return [getattr(fe.b, method)(fe.operand(op, 0), scalar(op.result.type))]
    return lower


for _cls, _method in ((arith.ExtSIOp, "sext"), (arith.ExtUIOp, "zext"),
                      (arith.TruncIOp, "trunc"), (arith.SIToFPOp, "sitofp"),
                      (arith.UIToFPOp, "uitofp"), (arith.BitcastOp, "bitcast")):
    rule(_cls)(_cast(_method))


@rule(arith.ExtFOp)
def extf(fe, op):
    x, ty = fe.operand(op, 0), scalar(op.result.type)
    return [half.extend(fe.b, x, ty) if x.type == half.HALF else fe.b.fpext(x, ty)]


@rule(arith.TruncFOp)
def truncf(fe, op):
    x, ty = fe.operand(op, 0), scalar(op.result.type)
    return [half.truncate(fe.b, x) if ty == half.HALF else fe.b.fptrunc(x, ty)]


def _resize(b: ir.IRBuilder, v, ty: ir.IntType, signed: bool):
    if v.type.width == ty.width:
        return v
    if v.type.width > ty.width:
        return b.trunc(v, ty)
    return b.sext(v, ty) if signed else b.zext(v, ty)


@rule(arith.IndexCastOp)
def index_cast(fe, op):
    return [_resize(fe.b, fe.operand(op, 0), scalar(op.result.type), True)]


@rule(arith.IndexCastUIOp)
def index_castui(fe, op):
    return [_resize(fe.b, fe.operand(op, 0), scalar(op.result.type), False)]


def _exact_in(value: int, fty: ir.Type) -> bool:
    dt = np.float32 if isinstance(fty, ir.FloatType) else np.float64
    return int(dt(value)) == value


def truncate_to_int(b: ir.IRBuilder, x, bits: int):
    """x86 ``cvtt`` semantics: ``trunc(x)`` as an int of ``bits`` (32/64) when it fits, else
    (NaN, inf, out of range) the pattern ``INT_MIN``; no poison."""
    ity = ir.IntType(bits)
    lo, hi = -(1 << (bits - 1)), 1 << (bits - 1)
    above = (b.fcmp_ordered(">", x, ir.Constant(x.type, float(lo - 1)))
             if _exact_in(lo - 1, x.type) else
             b.fcmp_ordered(">=", x, ir.Constant(x.type, float(lo))))
    fits = b.and_(above, b.fcmp_ordered("<", x, ir.Constant(x.type, float(hi))))
    safe = b.select(fits, x, ir.Constant(x.type, 0.0))
    return b.select(fits, b.fptosi(safe, ity), _const(ity, lo))


def _to_unsigned(b: ir.IRBuilder, x, bits: int):
    """``(uintN_t)x`` as compiled for x86-64: values >= 2**(N-1) convert ``x - 2**(N-1)``
    and set the top bit; everything else (NaN included) converts as signed."""
    half = float(1 << (bits - 1))
    high = b.fcmp_ordered(">=", x, ir.Constant(x.type, half))
    shifted = b.xor(truncate_to_int(b, b.fsub(x, ir.Constant(x.type, half)), bits),
                    _const(ir.IntType(bits), 1 << (bits - 1)))
    return b.select(high, shifted, truncate_to_int(b, x, bits))


@rule(arith.FPToSIOp)
def fptosi(fe, op):
    ity = scalar(op.result.type)
    v = truncate_to_int(fe.b, fe.operand(op, 0), 64 if ity.width == 64 else 32)
    return [_resize(fe.b, v, ity, True)]


@rule(arith.FPToUIOp)
def fptoui(fe, op):
    ity = scalar(op.result.type)
    x = fe.operand(op, 0)
    v = (_to_unsigned(fe.b, x, ity.width) if ity.width >= 32
         else truncate_to_int(fe.b, x, 32))
    return [_resize(fe.b, v, ity, True)]

