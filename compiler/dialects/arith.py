"""The ``arith`` dialect (upstream MLIR semantics) on signless scalars at loop level.

Integer ops name their signedness (``divsi``/``divui``); ``cmpi``/``cmpf`` take MLIR's
``predicate`` enum as an i64 attribute (``CMPI`` / ``CMPF`` below give the numbering).
"""

from ..ir.attributes import DialectAttr
from ..ir.opdef import Commutative, ConstantLike, Op, Pure

CMPI = {"eq": 0, "ne": 1, "slt": 2, "sle": 3, "sgt": 4, "sge": 5,
        "ult": 6, "ule": 7, "ugt": 8, "uge": 9}
# What upstream MLIR prints for an op without fast-math or overflow flags (no flags is
# what grafo's code means).
FASTMATH = {"fastmath": DialectAttr("#arith.fastmath<none>")}
OVERFLOW = {"overflowFlags": DialectAttr("#arith.overflow<none>")}

CMPF = {"false": 0, "oeq": 1, "ogt": 2, "oge": 3, "olt": 4, "ole": 5, "one": 6, "ord": 7,
        "ueq": 8, "ugt": 9, "uge": 10, "ult": 11, "ule": 12, "une": 13, "uno": 14, "true": 15}


class ConstantOp(Op):
    """``arith.constant {value}``: a scalar constant of the result type."""

    name = "arith.constant"
    traits = frozenset({Pure, ConstantLike})
    num_operands = 0
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        raise TypeError("arith.constant needs an explicit result type")

    def verify(self):
        super().verify()
        from ..ir.verifier import verify_integer_value
        verify_integer_value(self, signless=True)


class _Same(Op):
    """Result type = first operand's type."""

    traits = frozenset({Pure})
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]


def _define(name: str, arity: int, base=_Same, commutative=False):
    traits = frozenset({Pure, Commutative}) if commutative else frozenset({Pure})
    mnemonic = name.split(".")[1]
    cls = type(mnemonic.title() + "Op", (base,),
               {"name": name, "num_operands": arity, "traits": traits,
                "default_properties": _DEFAULTS.get(mnemonic, {})})
    globals()[cls.__name__] = cls
    return cls


_DEFAULTS = {**dict.fromkeys(("addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf",
                              "subf", "divf", "remf", "negf"), FASTMATH),
             **dict.fromkeys(("addi", "subi", "muli", "shli"), OVERFLOW)}
for _n in ("addi", "muli", "andi", "ori", "xori", "maxsi", "maxui", "minsi", "minui",
           "addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf"):
    _define("arith." + _n, 2, commutative=True)
for _n in ("subi", "divsi", "divui", "remsi", "remui", "floordivsi", "ceildivsi",
           "shli", "shrsi", "shrui", "subf", "divf", "remf"):
    _define("arith." + _n, 2)
_define("arith.negf", 1)


class CmpIOp(Op):
    name = "arith.cmpi"
    traits = frozenset({Pure})
    num_operands = 2
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        from .. import types as T
        return [T.i1]


class CmpFOp(CmpIOp):
    name = "arith.cmpf"
    default_properties = FASTMATH


class SelectOp(Op):
    name = "arith.select"
    traits = frozenset({Pure})
    num_operands = 3
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[1]]


class _Cast(Op):
    """Casts: result type explicit."""

    traits = frozenset({Pure})
    num_operands = 1
    num_results = 1


for _n in ("extsi", "extui", "trunci", "extf", "truncf", "sitofp", "uitofp", "fptosi",
           "fptoui", "index_cast", "index_castui", "bitcast"):
    _define("arith." + _n, 1, base=_Cast)
