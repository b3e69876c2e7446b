"""The ``math`` dialect (upstream MLIR semantics): elementary functions on floats (and
``absi``/``ipowi`` on integers). Result type = first operand's type."""

from ..ir.opdef import Op, Pure
from .arith import FASTMATH


class _MathOp(Op):
    traits = frozenset({Pure})
    num_results = 1
    default_properties = FASTMATH

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]


UNARY = ("absf", "absi", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
         "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
         "asinh", "acosh", "atanh", "floor", "ceil", "trunc", "roundeven", "erf")
BINARY = ("atan2", "powf", "ipowi", "fpowi", "copysign")

for _n in UNARY + BINARY:
    _cls = type(_n.title() + "Op", (_MathOp,),
                {"name": "math." + _n, "num_operands": 1 if _n in UNARY else 2,
                 "default_properties": {} if _n in ("absi", "ipowi") else FASTMATH})
    globals()[_cls.__name__] = _cls


class FmaOp(_MathOp):
    name = "math.fma"
    num_operands = 3
