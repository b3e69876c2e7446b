"""The ``math`` dialect (upstream MLIR semantics): elementary functions on floats (and
``absi``/``ipowi`` on integers, ``fpowi`` of a float to an integer power). Result type =
first operand's type."""

from ..ir.constraints import Float, SignlessInteger, named
from ..ir.opdef import Op, Pure, SameOperandsAndResultType, register_ops
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

def _define(cls_name: str, mnemonic: str):
    """The class ``cls_name`` of ``math.<mnemonic>`` (assigned to that name below): operand
    ``operand``, or ``lhs`` and ``rhs``."""
    kind = SignlessInteger if mnemonic in INTEGER else Float
    names = ("operand",) if mnemonic in UNARY else ("lhs", "rhs")
    return type(cls_name, (_MathOp,),
                {"name": "math." + mnemonic, "operand_defs": named(**dict.fromkeys(names, kind)),
                 "result_defs": (kind,),
                 "default_properties": {} if mnemonic in INTEGER else FASTMATH})


# Class names follow upstream MLIR's C++ op names (``math::ExpM1Op``).
AbsFOp = _define("AbsFOp", "absf")
AbsIOp = _define("AbsIOp", "absi")
ExpOp = _define("ExpOp", "exp")
Exp2Op = _define("Exp2Op", "exp2")
ExpM1Op = _define("ExpM1Op", "expm1")
LogOp = _define("LogOp", "log")
Log2Op = _define("Log2Op", "log2")
Log10Op = _define("Log10Op", "log10")
Log1pOp = _define("Log1pOp", "log1p")
SqrtOp = _define("SqrtOp", "sqrt")
CbrtOp = _define("CbrtOp", "cbrt")
SinOp = _define("SinOp", "sin")
CosOp = _define("CosOp", "cos")
TanOp = _define("TanOp", "tan")
AsinOp = _define("AsinOp", "asin")
AcosOp = _define("AcosOp", "acos")
AtanOp = _define("AtanOp", "atan")
SinhOp = _define("SinhOp", "sinh")
CoshOp = _define("CoshOp", "cosh")
TanhOp = _define("TanhOp", "tanh")
AsinhOp = _define("AsinhOp", "asinh")
AcoshOp = _define("AcoshOp", "acosh")
AtanhOp = _define("AtanhOp", "atanh")
FloorOp = _define("FloorOp", "floor")
CeilOp = _define("CeilOp", "ceil")
TruncOp = _define("TruncOp", "trunc")
RoundEvenOp = _define("RoundEvenOp", "roundeven")
ErfOp = _define("ErfOp", "erf")
Atan2Op = _define("Atan2Op", "atan2")
PowFOp = _define("PowFOp", "powf")
IPowIOp = _define("IPowIOp", "ipowi")
CopySignOp = _define("CopySignOp", "copysign")


class FPowIOp(_MathOp):
    """``math.fpowi(%x, %n)``: a float raised to a signless integer power."""

    name = "math.fpowi"
    traits = frozenset({Pure})
    operand_defs = named(lhs=Float, rhs=SignlessInteger)
    result_defs = (Float,)

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        if self.result.type != self.lhs.type:
            raise VerifyError(self, f"result type {self.result.type} is not the type of the "
                                    f"base {self.lhs.type}")


class FmaOp(_MathOp):
    """``math.fma(%a, %b, %c)``: ``a * b + c``."""

    name = "math.fma"
    operand_defs = named(a=Float, b=Float, c=Float)
    result_defs = (Float,)


register_ops("math", (
    AbsFOp, AbsIOp, ExpOp, Exp2Op, ExpM1Op, LogOp, Log2Op, Log10Op, Log1pOp, SqrtOp, CbrtOp,
    SinOp, CosOp, TanOp, AsinOp, AcosOp, AtanOp, SinhOp, CoshOp, TanhOp, AsinhOp, AcoshOp,
    AtanhOp, FloorOp, CeilOp, TruncOp, RoundEvenOp, ErfOp, Atan2Op, PowFOp, IPowIOp,
    CopySignOp, FPowIOp, FmaOp))
