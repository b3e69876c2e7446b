"""Declarative constraints of op definitions: what an attribute or a value's type may be.

An op kind lists them (see ``opdef.Op``): ``operand_defs`` / ``result_defs`` hold one type
constraint per operand or result (one of them may be ``Variadic``: any number of values
there), usually under a name (``named(lhs=IntOrIndex, rhs=IntOrIndex)``) that becomes the
op's accessor of that value; ``attr_defs`` maps attribute names to ``attr(constraint)``
(required) or ``opt_attr(constraint)``. ``Op.verify`` checks them before the kind's own
``verify``, so passes, lowering rules and backend rules may rely on them. A constraint is a
predicate with the text of what it accepts (``"an i64 integer in 0..9"``), which the
verifier's message quotes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .. import types as T
from .attributes import (
    ArrayAttr,
    DenseAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
)


class Constraint:
    """A predicate on attributes or types; ``str`` says what it accepts."""

    def __init__(self, text: str, test: Callable[[object], bool]):
        self.text = text
        self.test = test

    def accepts(self, x) -> bool:
        return self.test(x)

    def __or__(self, other: "Constraint") -> "Constraint":
        return Constraint(f"{self} or {other}", lambda x: self.test(x) or other.test(x))

    def __str__(self) -> str:
        return self.text


@dataclass(frozen=True)
class Variadic:
    """Any number (``min`` or more) of values, each accepted by ``constraint``."""

    constraint: Constraint
    min: int = 0


class NamedDefs(tuple):
    """Operand or result constraints in order, with ``names``: one accessor name each."""

    names: tuple = ()


def named(**defs) -> NamedDefs:
    """Operand or result constraints in order under their accessor names:
    ``operand_defs = named(memref=MemRef, indices=Variadic(Index))`` gives the op kind the
    read-only properties ``memref`` (a value) and ``indices`` (a tuple, being variadic)."""
    out = NamedDefs(defs.values())
    out.names = tuple(defs)
    return out


@dataclass(frozen=True)
class AttrDef:
    constraint: Constraint
    optional: bool = False


def attr(constraint: Constraint) -> AttrDef:
    """A required attribute."""
    return AttrDef(constraint)


def opt_attr(constraint: Constraint) -> AttrDef:
    """An attribute that may be absent (its absence has a documented meaning)."""
    return AttrDef(constraint, optional=True)


# types --------------------------------------------------------------------------------------

def _dtype(t) -> bool:
    return isinstance(t, (T.IntegerType, T.FloatType, T.ComplexType))


AnyType = Constraint("any type", lambda t: isinstance(t, T.Type))
I1 = Constraint("i1", lambda t: t == T.i1)
SignlessInteger = Constraint("a signless integer", lambda t: isinstance(t, T.IntegerType)
                             and not t.unsigned)
Index = Constraint("index", lambda t: isinstance(t, T.IndexType))
IntOrIndex = Constraint("a signless integer or index", lambda t: SignlessInteger.test(t)
                        or isinstance(t, T.IndexType))
Float = Constraint("a float (f32 or f64)", lambda t: isinstance(t, T.FloatType))
# Loop level: the scalars of registers and buffers, and buffers of them.
Complex = Constraint("a complex (complex<f32> or complex<f64>)",
                     lambda t: isinstance(t, T.ComplexType))
LoopScalar = Constraint("a signless integer, index, float or complex scalar",
                        lambda t: IntOrIndex.test(t) or isinstance(t, (T.FloatType,
                                                                       T.ComplexType)))
# Buffers may hold any integers (upstream memrefs do); loads and stores keep that type.
LoopElement = Constraint("an integer, index, float or complex scalar", lambda t: isinstance(
    t, (T.IntegerType, T.IndexType, T.FloatType, T.ComplexType)))
MemRef = Constraint("a memref of integers, index, floats or complexes",
                    lambda t: isinstance(t, T.MemRefType) and LoopElement.test(t.element))
# Tensor level: NumPy dtypes and Python's weak scalars, and tensors of dtypes.
Tensor = Constraint("a tensor of a dtype (i1, i8..i64, ui8..ui64, f32, f64, complex<f32>, "
                    "complex<f64>)",
                    lambda t: isinstance(t, T.TensorType) and _dtype(t.element))
NpScalar = Constraint("a dtype or Python scalar", lambda t: _dtype(t)
                      or isinstance(t, T.WeakType))
NpValue = Constraint("a tensor of a dtype or a scalar (a dtype or Python scalar)",
                     lambda t: Tensor.test(t) or NpScalar.test(t))
NpInteger = Constraint("an integer scalar", lambda t: NpScalar.test(t) and T.is_integer(t))
NpBool = Constraint("a bool scalar (i1 or !py.bool)", lambda t: t in (T.i1, T.py_bool))
# Either level: what functions take and return, and regions carry.
ValueType = Constraint("a tensor, memref or scalar", lambda t: NpValue.test(t) or MemRef.test(t)
                   or LoopScalar.test(t))


# attributes ---------------------------------------------------------------------------------

I64_MIN, I64_MAX = -2 ** 63, 2 ** 63 - 1


def int_attr(lo: int = I64_MIN, hi: int = I64_MAX) -> Constraint:
    """An ``i64`` integer attribute in ``lo..hi``."""
    text = "an i64 integer" + ("" if (lo, hi) == (I64_MIN, I64_MAX) else
                               f" >= {lo}" if hi == I64_MAX else f" in {lo}..{hi}")
    return Constraint(text, lambda a: isinstance(a, IntegerAttr) and a.type == T.i64
                      and lo <= a.value <= hi)


def enum_attr(names: dict[str, int]) -> Constraint:
    """An ``i64`` integer attribute numbering one of ``names`` (MLIR's enum attributes)."""
    values = set(names.values())
    listed = ", ".join(f"{v} ({k})" for k, v in names.items())
    return Constraint(f"an i64 integer naming one of {listed}",
                      lambda a: isinstance(a, IntegerAttr) and a.type == T.i64
                      and a.value in values)


def str_attr(choices=None) -> Constraint:
    """A string attribute, one of ``choices`` when given."""
    text = "a string" if choices is None else \
        "one of the strings " + ", ".join(f'"{c}"' for c in choices)
    return Constraint(text, lambda a: isinstance(a, StringAttr)
                      and (choices is None or a.value in choices))


def array_of(element: Constraint) -> Constraint:
    """An array attribute whose elements ``element`` accepts."""
    return Constraint(f"an array of ({element})",
                      lambda a: isinstance(a, ArrayAttr) and all(element.test(x)
                                                                 for x in a.value))


def type_attr(of: Constraint) -> Constraint:
    return Constraint(f"a type attribute ({of})",
                      lambda a: isinstance(a, TypeAttr) and of.test(a.value))


BoolAttr = Constraint("a bool (true or false)", lambda a: isinstance(a, IntegerAttr)
                      and a.type == T.i1)
Unit = Constraint("a unit attribute", lambda a: isinstance(a, UnitAttr))
SymbolRef = Constraint("a symbol reference (@name)", lambda a: isinstance(a, SymbolRefAttr))
Dense = Constraint("a dense elements attribute", lambda a: isinstance(a, DenseAttr))
FunctionTypeAttr = type_attr(Constraint("a function type",
                                        lambda t: isinstance(t, T.FunctionType)))
