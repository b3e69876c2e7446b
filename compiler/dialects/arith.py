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
    opt_attr,
)
from ..ir.opdef import (
    Commutative,
    ConstantLike,
    Op,
    Pure,
    SameOperandsAndResultType,
    SameTypeOperands,
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


def _define(name: str, arity: int, kind: Constraint, commutative=False, attr_defs=None):
    traits = {Pure, SameOperandsAndResultType}
    if commutative:
        traits.add(Commutative)
    mnemonic = name.split(".")[1]
    cls = type(mnemonic.title() + "Op", (_Same,),
               {"name": name, "traits": frozenset(traits), "operand_defs": (kind,) * arity,
                "result_defs": (kind,), "attr_defs": attr_defs or {},
                "default_properties": _DEFAULTS.get(mnemonic, {})})
    globals()[cls.__name__] = cls
    return cls


_DEFAULTS = {**dict.fromkeys(("addf", "mulf", "maximumf", "minimumf", "maxnumf", "minnumf",
                              "subf", "divf", "remf", "negf"), FASTMATH),
             **dict.fromkeys(("addi", "subi", "muli", "shli"), OVERFLOW)}
# ``grafo.nsz``: the sign of a zero result does not matter (LLVM's ``nsz`` flag).
_EXTREMUM = {"grafo.nsz": opt_attr(Unit)}
for _n in ("addi", "muli", "andi", "ori", "xori", "maxsi", "maxui", "minsi", "minui"):
    _define("arith." + _n, 2, IntOrIndex, commutative=True)
for _n in ("subi", "divsi", "divui", "remsi", "remui", "floordivsi", "ceildivsi",
           "shli", "shrsi", "shrui"):
    _define("arith." + _n, 2, IntOrIndex)
for _n in ("addf", "mulf"):
    _define("arith." + _n, 2, Float, commutative=True)
for _n in ("maximumf", "minimumf", "maxnumf", "minnumf"):
    _define("arith." + _n, 2, Float, commutative=True, attr_defs=_EXTREMUM)
for _n in ("subf", "divf", "remf"):
    _define("arith." + _n, 2, Float)
_define("arith.negf", 1, Float)


class CmpIOp(Op):
    """``arith.cmpi {predicate}``: compare two integers of one type (``CMPI`` numbering)."""

    name = "arith.cmpi"
    traits = frozenset({Pure, SameTypeOperands})
    operand_defs = (IntOrIndex, IntOrIndex)
    result_defs = (I1,)
    attr_defs = {"predicate": attr(enum_attr(CMPI))}

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.i1]


class CmpFOp(CmpIOp):
    """``arith.cmpf {predicate}``: compare two floats of one type (``CMPF`` numbering)."""

    name = "arith.cmpf"
    operand_defs = (Float, Float)
    attr_defs = {"predicate": attr(enum_attr(CMPF))}
    default_properties = FASTMATH


class SelectOp(Op):
    """``arith.select(%cond, %a, %b)``: ``%a`` where the i1 ``%cond`` holds, else ``%b``
    (scalars or memrefs of one type)."""

    name = "arith.select"
    traits = frozenset({Pure})
    operand_defs = (I1, LoopScalar | MemRef, LoopScalar | MemRef)
    result_defs = (LoopScalar | MemRef,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[1]]

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        _, a, b = (v.type for v in self.operands)
        if not a == b == self.result.type:
            raise VerifyError(self, f"requires both values and the result of one type, got "
                                    f"{a}, {b} -> {self.result.type}")


_WIDTHS = {"wider": operator.gt, "narrower": operator.lt, "same": operator.eq}


class _Cast(Op):
    """Casts: result type explicit. ``source`` / ``target`` constrain the operand and result
    types; ``widths`` is how the result's bit width compares with the operand's ("wider",
    "narrower", "same") or None; ``one_index``: exactly one side is ``index``."""

    traits = frozenset({Pure})
    num_operands = 1
    num_results = 1
    widths: str | None = None
    one_index = False

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        a, r = self.operands[0].type, self.result.type
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
for _n, (_src, _dst, _widths) in _CASTS.items():
    _cls = type(_n.title() + "Op", (_Cast,),
                {"name": "arith." + _n, "operand_defs": (_src,), "result_defs": (_dst,),
                 "widths": _widths, "one_index": _n.startswith("index_cast")})
    globals()[_cls.__name__] = _cls
