"""``complex`` ops and ``grafo.cmath``: NumPy's complex loops on one-element arrays, in the
operands' precision, so division and the ufuncs give NumPy's bits and special values."""

from __future__ import annotations

import numpy as np

from ..dialects import complex as cx
from ..dialects import grafo
from .registry import scalar_rules
from .values import complex_type, float_type


def _loop(fn, result=complex_type):
    def run(op, *xs):
        with np.errstate(all="ignore"):
            return result(op.result.type)(fn(*[np.array([x]) for x in xs])[0])
    return run


def _part(fn):
    return _loop(fn, lambda t: float_type(t))


def _cmath(op, *xs):
    return _loop(getattr(np, op.callee))(op, *xs)


scalar_rules({
    cx.ConstantOp: lambda op: complex_type(op.result.type)(
        complex(*op.attr("value"))),
    cx.CreateOp: lambda op, r, i: complex_type(op.result.type)(complex(r, i)),
    cx.ReOp: _part(np.real), cx.ImOp: _part(np.imag), cx.AbsOp: _part(np.abs),
    cx.AngleOp: _part(np.angle), cx.AddOp: _loop(np.add), cx.SubOp: _loop(np.subtract),
    cx.MulOp: _loop(np.multiply), cx.DivOp: _loop(np.divide), cx.NegOp: _loop(np.negative),
    cx.ConjOp: _loop(np.conjugate),
    cx.EqualOp: lambda op, a, b: int(a == b), cx.NotEqualOp: lambda op, a, b: int(a != b),
    grafo.CMathOp: _cmath,
})
