"""``math`` ops: NumPy's array loops on one-element arrays, in the operands' precision (NumPy's
scalar paths differ, e.g. ``pow(-0., .5)``); ``absi`` and ``ipowi`` wrap as integers."""

from __future__ import annotations

import math

import numpy as np

from ..dialects import math as m
from .registry import scalar_rules
from .values import float_type, signed, width

# The NumPy function of each math op on floats.
UFUNCS = {
    m.AbsFOp: np.abs, m.ExpOp: np.exp, m.Exp2Op: np.exp2, m.ExpM1Op: np.expm1, m.LogOp: np.log,
    m.Log2Op: np.log2, m.Log10Op: np.log10, m.Log1pOp: np.log1p, m.SqrtOp: np.sqrt,
    m.CbrtOp: np.cbrt, m.SinOp: np.sin, m.CosOp: np.cos, m.TanOp: np.tan, m.AsinOp: np.arcsin,
    m.AcosOp: np.arccos, m.AtanOp: np.arctan, m.SinhOp: np.sinh, m.CoshOp: np.cosh,
    m.TanhOp: np.tanh, m.AsinhOp: np.arcsinh, m.AcoshOp: np.arccosh, m.AtanhOp: np.arctanh,
    m.FloorOp: np.floor, m.CeilOp: np.ceil, m.TruncOp: np.trunc, m.RoundEvenOp: np.rint,
    m.ErfOp: np.vectorize(math.erf), m.Atan2Op: np.arctan2, m.PowFOp: np.power,
    m.CopySignOp: np.copysign,
}


def _ufunc(fn):
    def run(op, *xs):
        with np.errstate(all="ignore"):
            return float_type(op.result.type)(fn(*[np.array([x]) for x in xs])[0])
    return run


def _ipowi(op, a, b):
    w = width(op.result.type)
    if b < 0:
        return signed({1: 1, -1: -1 if b % 2 else 1}.get(a, 0), w)
    return signed(pow(a, b, 1 << w), w)


scalar_rules({
    **{cls: _ufunc(fn) for cls, fn in UFUNCS.items()},
    m.AbsIOp: lambda op, a: signed(abs(a), width(op.result.type)),
    m.IPowIOp: _ipowi,
    m.FPowIOp: lambda op, a, n: float_type(op.result.type)(np.power(a, float(n))),
    m.FmaOp: lambda op, a, b, c: float_type(op.result.type)(a * b + c),
})
