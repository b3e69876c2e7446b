"""The ``math`` dialect (upstream MLIR semantics): elementary functions on floats (and
``absi``/``ipowi`` on integers, ``fpowi`` of a float to an integer power). Result type =
first operand's type."""

from ..ir.constraints import Float, SignlessInteger
from ..ir.opdef import Op, Pure, SameOperandsAndResultType
from .arith import FASTMATH


class _MathOp(Op):
    """Operands and result of one float type (``absi``/``ipowi``: one integer type)."""

    traits = frozenset({Pure, SameOperandsAndResultType})
    num_results = 1
    default_properties = FASTMATH

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]


UNARY = ("absf", "absi", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
         "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh", "tanh",
         "asinh", "acosh", "atanh", "floor", "ceil", "trunc", "roundeven", "erf")
BINARY = ("atan2", "powf", "ipowi", "copysign")
INTEGER = ("absi", "ipowi")

for _n in UNARY + BINARY:
    _kind = SignlessInteger if _n in INTEGER else Float
    _arity = 1 if _n in UNARY else 2
    _cls = type(_n.title() + "Op", (_MathOp,),
                {"name": "math." + _n, "operand_defs": (_kind,) * _arity,
                 "result_defs": (_kind,),
                 "default_properties": {} if _n in INTEGER else FASTMATH})
    globals()[_cls.__name__] = _cls


class FpowiOp(_MathOp):
    """``math.fpowi(%x, %n)``: a float raised to a signless integer power."""

    name = "math.fpowi"
    traits = frozenset({Pure})
    operand_defs = (Float, SignlessInteger)
    result_defs = (Float,)

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        if self.result.type != self.operands[0].type:
            raise VerifyError(self, f"result type {self.result.type} is not the type of the "
                                    f"base {self.operands[0].type}")


class FmaOp(_MathOp):
    name = "math.fma"
    operand_defs = (Float,) * 3
    result_defs = (Float,)
