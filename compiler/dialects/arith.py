"""The ``arith`` dialect (upstream MLIR semantics) on signless scalars at loop level.

Integer ops name their signedness (``divsi``/``divui``); ``cmpi``/``cmpf`` take MLIR's
``predicate`` enum as an i64 attribute (``CMPI`` / ``CMPF`` below give the numbering).
"""

import operator

from .. import types as T
from ..ir.attributes import DialectAttr, FloatAttr, IntegerAttr
from ..ir.constraints import (
    I1,
    Constraint,
    Float,
    IntOrIndex,
    LoopScalar,
    MemRef,
    SignlessInteger,
    Unit,
    attr,
    enum_attr,
    named,
    opt_attr,
)
from ..ir.opdef import (
    Commutative,
    ConstantLike,
    Op,
    Pure,
    SameOperandsAndResultType,
    SameTypeOperands,
    SignExtendingCast,
    register_ops,
)

CMPI = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5,
        "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
# What upstream MLIR prints for an op without fast-math or overflow flags (no flags is
# what grafo's code means).
FASTMATH = {"fastmath": DialectAttr("#arith.fastmath<none>")}
OVERFLOW = {"overflowFlags": DialectAttr("#arith.overflow<none>")}

CMPF = {"false": 0, "oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "one": 6, "ord": 7,
        "ueq": 8, "ugt": 9, "uge": 10, "ult": 11, "ule": 12, "une": 13, "uno": 14, "true": 15}

ScalarAttr = Constraint("an integer or float attribute",
                        lambda a: isinstance(a, (IntegerAttr, FloatAttr)))


class ConstantOp(Op):
    """``arith.constant {value}``: a scalar constant of the result type (the attribute's
    type is the result type, as upstream requires)."""

    name = "arith.constant"
    traits = frozenset({Pure, ConstantLike})
    operand_defs = ()
    result_defs = (LoopScalar,)
    attr_defs = {"value": attr(ScalarAttr)}

    @classmethod
    def infer(cls, operand_types, attributes):
        raise TypeError("arith.constant needs an explicit result type")

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError, verify_integer_value
        a = self.attributes["value"]
        if a.type != self.result.type:
            raise VerifyError(self, f"'value' = {a} does not have the result type "
                                    f"{self.result.type}")
        verify_integer_value(self, signless=True)


class _Same(Op):
    """Operands and result of one type; result type = first operand's type."""

    traits = frozenset({Pure, SameOperandsAndResultType})
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]


def _define(cls_name: str, name: str, arity: int, kind: Constraint, commutative=False,
            attr_defs=None, **members):
    """The class ``cls_name`` of the same-type op ``name`` (assigned to that name below):
    operands ``lhs``, ``rhs`` (``operand`` when unary); ``members`` join the class."""
    traits = {Pure, SameOperandsAndResultType}
    if commutative:
        traits.add(Commutative)
    mnemonic = name.split(".")[1]
    names = ("lhs", "rhs") if arity == 2 else ("operand",)
    return type(cls_name, (_Same,),
                {"name": name, "traits": frozenset(traits),
                 "operand_defs": named(**dict.fromkeys(names, kind)),
                 "result_defs": (kind,), "attr_defs": attr_defs or {},
                 "default_properties": _DEFAULTS.get(mnemonic, {}), **members})


def _sum_range(op, range_of):
    x, y = range_of(op.lhs), range_of(op.rhs)
    return None if x is None or y is None else (x[0] + y[0], x[1] + y[1])


def _difference_range(op, range_of):
    x, y = range_of(op.lhs), range_of(op.rhs)
    return None if x is None or y is None else (x[0] - y[1], x[1] - y[0])


_DEFAULTS = {**dict.fromkeys(("addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf",
                              "subf", "divf", "remf", "negf"), FASTMATH),
             **dict.fromkeys(("addi", "subi", "muli", "shli"), OVERFLOW)}
# The sign of a zero result does not matter (LLVM's ``nsz`` flag), on the extremum ops.
NSZ = "grafo.nsz"
_EXTREMUM = {NSZ: opt_attr(Unit)}

# Class names follow upstream MLIR's C++ op names (``arith::AddIOp``).
AddIOp = _define("AddIOp", "arith.addi", 2, IntOrIndex, commutative=True,
                 int_range=_sum_range)
MulIOp = _define("MulIOp", "arith.muli", 2, IntOrIndex, commutative=True)
AndIOp = _define("AndIOp", "arith.andi", 2, IntOrIndex, commutative=True)
OrIOp = _define("OrIOp", "arith.ori", 2, IntOrIndex, commutative=True)
XOrIOp = _define("XOrIOp", "arith.xori", 2, IntOrIndex, commutative=True)
MaxSIOp = _define("MaxSIOp", "arith.maxsi", 2, IntOrIndex, commutative=True)
MaxUIOp = _define("MaxUIOp", "arith.maxui", 2, IntOrIndex, commutative=True)
MinSIOp = _define("MinSIOp", "arith.minsi", 2, IntOrIndex, commutative=True)
MinUIOp = _define("MinUIOp", "arith.minui", 2, IntOrIndex, commutative=True)
SubIOp = _define("SubIOp", "arith.subi", 2, IntOrIndex, int_range=_difference_range)
DivSIOp = _define("DivSIOp", "arith.divsi", 2, IntOrIndex)
DivUIOp = _define("DivUIOp", "arith.divui", 2, IntOrIndex)
RemSIOp = _define("RemSIOp", "arith.remsi", 2, IntOrIndex)
RemUIOp = _define("RemUIOp", "arith.remui", 2, IntOrIndex)
FloorDivSIOp = _define("FloorDivSIOp", "arith.floordivsi", 2, IntOrIndex)
CeilDivSIOp = _define("CeilDivSIOp", "arith.ceildivsi", 2, IntOrIndex)
ShLIOp = _define("ShLIOp", "arith.shli", 2, IntOrIndex)
ShRSIOp = _define("ShRSIOp", "arith.shrsi", 2, IntOrIndex)
ShRUIOp = _define("ShRUIOp", "arith.shrui", 2, IntOrIndex)
AddFOp = _define("AddFOp", "arith.addf", 2, Float, commutative=True)
MulFOp = _define("MulFOp", "arith.mulf", 2, Float, commutative=True)
MaximumFOp = _define("MaximumFOp", "arith.maximumf", 2, Float, commutative=True,
                      attr_defs=_EXTREMUM)
MinimumFOp = _define("MinimumFOp", "arith.minimumf", 2, Float, commutative=True,
                      attr_defs=_EXTREMUM)
MaxNumFOp = _define("MaxNumFOp", "arith.maxnumf", 2, Float, commutative=True,
                     attr_defs=_EXTREMUM)
MinNumFOp = _define("MinNumFOp", "arith.minnumf", 2, Float, commutative=True,
                     attr_defs=_EXTREMUM)
SubFOp = _define("SubFOp", "arith.subf", 2, Float)
DivFOp = _define("DivFOp", "arith.divf", 2, Float)
RemFOp = _define("RemFOp", "arith.remf", 2, Float)
NegFOp = _define("NegFOp", "arith.negf", 1, Float)


class CmpIOp(Op):
    """``arith.cmpi {predicate}``: compare two integers of one type (``CMPI`` numbering)."""

    name = "arith.cmpi"
    traits = frozenset({Pure, SameTypeOperands})
    operand_defs = named(lhs=IntOrIndex, rhs=IntOrIndex)
    result_defs = (I1,)
    attr_defs = {"predicate": attr(enum_attr(CMPI))}

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.i1]


class CmpFOp(CmpIOp):
    """``arith.cmpf {predicate}``: compare two floats of one type (``CMPF`` numbering)."""

    name = "arith.cmpf"
    operand_defs = named(lhs=Float, rhs=Float)
    attr_defs = {"predicate": attr(enum_attr(CMPF))}
    default_properties = FASTMATH


class SelectOp(Op):
    """``arith.select(%cond, %a, %b)``: ``%a`` where the i1 ``%cond`` holds, else ``%b``
    (scalars or memrefs of one type)."""

    name = "arith.select"
    traits = frozenset({Pure})
    operand_defs = named(condition=I1, true_value=LoopScalar | MemRef,
                         false_value=LoopScalar | MemRef)
    result_defs = (LoopScalar | MemRef,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[1]]

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        a, b = self.true_value.type, self.false_value.type
        if not a == b == self.result.type:
            raise VerifyError(self, f"requires both values and the result of one type, got "
                                    f"{a}, {b} -> {self.result.type}")


_WIDTHS = {"wider": operator.gt, "narrower": operator.lt, "same": operator.eq}


class _Cast(Op):
    """Casts ``input`` -> ``out``: result type explicit. ``source`` / ``target`` constrain the
    operand and result types; ``widths`` is how the result's bit width compares with the
    operand's ("wider", "narrower", "same") or None; ``one_index``: exactly one side is
    ``index``."""

    traits = frozenset({Pure})
    num_operands = 1
    num_results = 1
    widths: str | None = None
    one_index = False

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        a, r = self.input.type, self.out.type
        if self.one_index and (isinstance(a, T.IndexType) == isinstance(r, T.IndexType)):
            raise VerifyError(self, f"casts between index and a signless integer, got {a} -> "
                                    f"{r}")
        if self.widths is not None and not _WIDTHS[self.widths](r.width, a.width):
            raise VerifyError(self, f"needs a {self.widths} result type than its operand, "
                                    f"got {a} -> {r}")


_CASTS = {
    "extsi": (SignlessInteger, SignlessInteger, "wider"),
    "extui": (SignlessInteger, SignlessInteger, "wider"),
    "trunci": (SignlessInteger, SignlessInteger, "narrower"),
    "extf": (Float, Float, "wider"),
    "truncf": (Float, Float, "narrower"),
    "sitofp": (SignlessInteger, Float, None),
    "uitofp": (SignlessInteger, Float, None),
    "fptosi": (Float, SignlessInteger, None),
    "fptoui": (Float, SignlessInteger, None),
    "index_cast": (IntOrIndex, IntOrIndex, None),
    "index_castui": (IntOrIndex, IntOrIndex, None),
    "bitcast": (SignlessInteger | Float, SignlessInteger | Float, "same"),
}


def _cast(cls_name: str, mnemonic: str, traits=()):
    """The class ``cls_name`` of ``arith.<mnemonic>`` as ``_CASTS`` describes it."""
    source, target, widths = _CASTS[mnemonic]
    return type(cls_name, (_Cast,),
                {"name": "arith." + mnemonic, "traits": frozenset({Pure, *traits}),
                 "operand_defs": named(input=source), "result_defs": named(out=target),
                 "widths": widths, "one_index": mnemonic.startswith("index_cast")})


ExtSIOp = _cast("ExtSIOp", "extsi", (SignExtendingCast,))
ExtUIOp = _cast("ExtUIOp", "extui")
TruncIOp = _cast("TruncIOp", "trunci")
ExtFOp = _cast("ExtFOp", "extf")
TruncFOp = _cast("TruncFOp", "truncf")
SIToFPOp = _cast("SIToFPOp", "sitofp")
UIToFPOp = _cast("UIToFPOp", "uitofp")
FPToSIOp = _cast("FPToSIOp", "fptosi")
FPToUIOp = _cast("FPToUIOp", "fptoui")
IndexCastOp = _cast("IndexCastOp", "index_cast", (SignExtendingCast,))
IndexCastUIOp = _cast("IndexCastUIOp", "index_castui")
BitcastOp = _cast("BitcastOp", "bitcast")

register_ops("arith", (
    ConstantOp, AddIOp, MulIOp, AndIOp, OrIOp, XOrIOp, MaxSIOp, MaxUIOp, MinSIOp, MinUIOp,
    SubIOp, DivSIOp, DivUIOp, RemSIOp, RemUIOp, FloorDivSIOp, CeilDivSIOp, ShLIOp, ShRSIOp,
    ShRUIOp, AddFOp, MulFOp, MaximumFOp, MinimumFOp, MaxNumFOp, MinNumFOp, SubFOp, DivFOp,
    RemFOp, NegFOp, CmpIOp, CmpFOp, SelectOp, ExtSIOp, ExtUIOp, TruncIOp, ExtFOp, TruncFOp,
    SIToFPOp, UIToFPOp, FPToSIOp, FPToUIOp, IndexCastOp, IndexCastUIOp, BitcastOp))
