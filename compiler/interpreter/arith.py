"""``arith`` ops: signless integer arithmetic that wraps as LLVM's, IEEE float arithmetic in
the operands' precision, comparisons, selection and casts. Trapping divisions (by zero,
INT_MIN / -1) and shifts by at least the bit width raise ``UndefinedBehavior``; ``fptosi`` /
``fptoui`` convert as NumPy's ``astype`` does on this machine (the backend's contract)."""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import arith
from .registry import rule, scalar_rules
from .values import UndefinedBehavior, float_type, scalar, signed, storage_dtype, unsigned, width

_CMPI = {v: k for k, v in arith.CMPI.items()}
_CMPF = {v: k for k, v in arith.CMPF.items()}


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _int_binary(fn, is_unsigned=False, trap=False):
    def run(op, a, b):
        w = width(op.result.type)
        if trap and (b == 0 or (not is_unsigned and b == -1 and a == signed(1 << (w - 1), w))):
            raise UndefinedBehavior(f"{op.name} of {a} by {b} at {op.loc}")
        if is_unsigned:
            a, b = unsigned(a, w), unsigned(b, w)
        return signed(fn(a, b), w)
    return run


def _shift(kind: str):
    def run(op, a, b):
        w = width(op.result.type)
        if unsigned(b, w) >= w:
            raise UndefinedBehavior(f"{op.name} by {b} >= {w} bits at {op.loc}")
        if kind == "shl":
            return signed(a << b, w)
        return signed((a if kind == "ashr" else unsigned(a, w)) >> b, w)
    return run


def _float_binary(fn):
    def run(op, a, b):
        with np.errstate(all="ignore"):
            return float_type(op.result.type)(fn(a, b))
    return run


def _maximumf(a, b, big=True):
    if np.isnan(a) or np.isnan(b):
        return a + b
    if a == b:  # -0.0 < +0.0
        return a if (np.signbit(a) != big) else b
    return max(a, b) if big else min(a, b)


def _cmpi(op, a, b):
    pred = _CMPI[op.predicate]
    w = width(op.lhs.type)
    if pred[0] == "u":
        a, b = unsigned(a, w), unsigned(b, w)
    p = pred[1:] if pred[0] in "su" else pred
    return int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                "ge": a >= b}[p])


def _cmpf(op, a, b):
    pred = _CMPF[op.predicate]
    if pred in ("false", "true"):
        return int(pred == "true")
    unordered = bool(np.isnan(a) or np.isnan(b))
    if pred in ("ord", "uno"):
        return int(unordered == (pred == "uno"))
    rel = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b,
           "ne": a != b}[pred[1:]]
    return int(bool(rel) or (pred[0] == "u" and unordered))


# casts --------------------------------------------------------------------------------------

def _sign_extend(op, a):
    return signed(signed(a, width(op.input.type)), width(op.out.type))


def _zero_extend(op, a):
    return signed(unsigned(a, width(op.input.type)), width(op.out.type))


def _float_convert(op, a):
    return float_type(op.out.type)(a)


def _int_to_float(is_unsigned: bool):
    def run(op, a):
        dst = op.out.type
        v = unsigned(a, width(op.input.type)) if is_unsigned else a
        kind = "uint64" if is_unsigned else "int64"
        return float_type(dst)(np.array([v], dtype=kind).astype(storage_dtype(dst))[0])
    return run


def _float_to_int(is_unsigned: bool):
    def run(op, a):
        w = width(op.out.type)
        if w == 1:
            return int(bool(a))
        with np.errstate(all="ignore"):
            kind = ("uint" if is_unsigned else "int") + str(w)
            return signed(int(np.array([a]).astype(kind)[0]), w)
    return run


def _bitcast(op, a):
    src, dst = op.input.type, op.out.type
    if isinstance(dst, T.FloatType):
        raw = np.array([unsigned(a, dst.width)], dtype=f"uint{dst.width}")
        return raw.view(storage_dtype(dst))[0]
    return signed(int(np.array([a], dtype=storage_dtype(src)).view(f"uint{src.width}")[0]),
                  dst.width)


scalar_rules({
    arith.AddIOp: _int_binary(lambda a, b: a + b),
    arith.SubIOp: _int_binary(lambda a, b: a - b),
    arith.MulIOp: _int_binary(lambda a, b: a * b),
    arith.AndIOp: _int_binary(lambda a, b: a & b),
    arith.OrIOp: _int_binary(lambda a, b: a | b),
    arith.XOrIOp: _int_binary(lambda a, b: a ^ b),
    arith.MaxSIOp: _int_binary(max), arith.MinSIOp: _int_binary(min),
    arith.MaxUIOp: _int_binary(max, is_unsigned=True),
    arith.MinUIOp: _int_binary(min, is_unsigned=True),
    arith.DivSIOp: _int_binary(_trunc_div, trap=True),
    arith.RemSIOp: _int_binary(lambda a, b: a - b * _trunc_div(a, b), trap=True),
    arith.FloorDivSIOp: _int_binary(lambda a, b: a // b, trap=True),
    arith.CeilDivSIOp: _int_binary(lambda a, b: -((-a) // b), trap=True),
    arith.DivUIOp: _int_binary(lambda a, b: a // b, is_unsigned=True, trap=True),
    arith.RemUIOp: _int_binary(lambda a, b: a % b, is_unsigned=True, trap=True),
    arith.ShLIOp: _shift("shl"), arith.ShRSIOp: _shift("ashr"), arith.ShRUIOp: _shift("lshr"),
    arith.AddFOp: _float_binary(lambda a, b: a + b),
    arith.SubFOp: _float_binary(lambda a, b: a - b),
    arith.MulFOp: _float_binary(lambda a, b: a * b),
    arith.DivFOp: _float_binary(lambda a, b: a / b),
    arith.RemFOp: _float_binary(np.fmod),
    arith.MaximumFOp: _float_binary(_maximumf),
    arith.MinimumFOp: _float_binary(lambda a, b: _maximumf(a, b, big=False)),
    arith.MaxNumFOp: _float_binary(np.fmax), arith.MinNumFOp: _float_binary(np.fmin),
    arith.NegFOp: lambda op, a: -a,
    arith.CmpIOp: _cmpi, arith.CmpFOp: _cmpf,
    arith.SelectOp: lambda op, c, a, b: a if c else b,
    arith.ExtSIOp: _sign_extend, arith.TruncIOp: _sign_extend, arith.IndexCastOp: _sign_extend,
    arith.ExtUIOp: _zero_extend, arith.IndexCastUIOp: _zero_extend,
    arith.ExtFOp: _float_convert, arith.TruncFOp: _float_convert,
    arith.SIToFPOp: _int_to_float(is_unsigned=False),
    arith.UIToFPOp: _int_to_float(is_unsigned=True),
    arith.FPToSIOp: _float_to_int(is_unsigned=False),
    arith.FPToUIOp: _float_to_int(is_unsigned=True),
    arith.BitcastOp: _bitcast,
})


@rule(arith.ConstantOp)
def _constant(interp, op, xs, env) -> list:
    return [scalar(op.result.type, op.attributes["value"].value)]
