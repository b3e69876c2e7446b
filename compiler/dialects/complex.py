"""The ``complex`` dialect (upstream MLIR's names) on ``complex<f32>``/``complex<f64>`` scalars
at loop level.

``complex.create(%re, %im)``, ``complex.re``/``complex.im`` (the parts), ``complex.constant``
(``value = [re : f64, im : f64]``, as upstream), elementwise ``add``/``sub``/``mul``/``div``/
``neg``/``conj``, ``eq``/``neq`` (``i1``), and ``abs``/``angle`` (a float of the part type).
Semantics are NumPy's complex loops where they differ from upstream's lowering: ``mul`` is the
plain formula ``(ar*br - ai*bi, ar*bi + ai*br)`` and ``div`` is Smith's algorithm as NumPy's
``@TYPE@_divide`` computes it (a zero divisor gives ``a.re / 0, a.im / 0``); ``abs`` is C's
``hypot``, ``angle`` ``atan2(im, re)``. The other complex ufuncs are ``grafo.cmath`` (NumPy's
semantics, which upstream's ops do not promise).
"""

from .. import types as T
from ..ir.attributes import is_complex_attr
from ..ir.constraints import (
    I1,
    Complex,
    Constraint,
    Float,
    attr,
    named,
)
from ..ir.opdef import (
    Commutative,
    ConstantLike,
    Op,
    Pure,
    SameOperandsAndResultType,
    SameTypeOperands,
    register_ops,
)
from .arith import FASTMATH

ComplexValue = Constraint("a complex constant ([re : f, im : f])",
                          lambda a: is_complex_attr(a, T.c64) or is_complex_attr(a, T.c128))


class ConstantOp(Op):
    """``complex.constant {value = [re, im]}``: the parts' type is the result's part type."""

    name = "complex.constant"
    traits = frozenset({Pure, ConstantLike})
    operand_defs = ()
    result_defs = (Complex,)
    attr_defs = {"value": attr(ComplexValue)}

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.ComplexType(attributes["value"].value[0].type)]

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        if not is_complex_attr(self.attributes["value"], self.result.type):
            raise VerifyError(self, f"'value' = {self.attributes['value']} does not hold "
                                    f"parts of the result type {self.result.type}")


class CreateOp(Op):
    """``complex.create(%re, %im)``: a complex of the parts' float type."""

    name = "complex.create"
    traits = frozenset({Pure, SameTypeOperands})
    operand_defs = named(real=Float, imaginary=Float)
    result_defs = (Complex,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.ComplexType(operand_types[0])]

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        if self.result.type != T.ComplexType(self.real.type):
            raise VerifyError(self, f"parts of type {self.real.type} make a "
                                    f"{T.ComplexType(self.real.type)}, not {self.result.type}")


class _ToReal(Op):
    """A complex operand, a float result of its part type."""

    traits = frozenset({Pure})
    operand_defs = named(complex=Complex)
    result_defs = (Float,)
    default_properties = FASTMATH

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0].element]

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        if self.result.type != self.operands[0].type.element:
            raise VerifyError(self, f"the result of a {self.operands[0].type} operand is "
                                    f"{self.operands[0].type.element}")


class _Same(Op):
    traits = frozenset({Pure, SameOperandsAndResultType})
    result_defs = (Complex,)
    default_properties = FASTMATH

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]


class _Compare(Op):
    traits = frozenset({Pure, SameTypeOperands, Commutative})
    operand_defs = named(lhs=Complex, rhs=Complex)
    result_defs = (I1,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.i1]


def _define(base, cls_name: str, mnemonic: str, arity: int, **members):
    names = ("lhs", "rhs") if arity == 2 else ("complex",)
    body = {"name": "complex." + mnemonic, **members}
    if base is not _ToReal:
        body["operand_defs"] = named(**dict.fromkeys(names, Complex))
    return type(cls_name, (base,), body)


# Class names follow upstream MLIR's C++ op names (``complex::AddOp``).
ReOp = _define(_ToReal, "ReOp", "re", 1)
ImOp = _define(_ToReal, "ImOp", "im", 1)
AbsOp = _define(_ToReal, "AbsOp", "abs", 1)
AngleOp = _define(_ToReal, "AngleOp", "angle", 1)
AddOp = _define(_Same, "AddOp", "add", 2, traits=_Same.traits | {Commutative})
SubOp = _define(_Same, "SubOp", "sub", 2)
MulOp = _define(_Same, "MulOp", "mul", 2, traits=_Same.traits | {Commutative})
DivOp = _define(_Same, "DivOp", "div", 2)
NegOp = _define(_Same, "NegOp", "neg", 1)
ConjOp = _define(_Same, "ConjOp", "conj", 1)
EqualOp = _define(_Compare, "EqualOp", "eq", 2)
NotEqualOp = _define(_Compare, "NotEqualOp", "neq", 2)

register_ops("complex", (ConstantOp, CreateOp, ReOp, ImOp, AbsOp, AngleOp, AddOp, SubOp,
                         MulOp, DivOp, NegOp, ConjOp, EqualOp, NotEqualOp))
