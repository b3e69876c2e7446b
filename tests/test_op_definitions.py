"""Op definitions: the registry the dialects fill, the named accessors that op kinds derive
from their operand, result and attribute definitions (the layering of ``compiler/ir`` is
checked in test_architecture.py)."""


import pytest

from compiler import types as T
from compiler.dialects import arith, memref, scf
from compiler.dialects import np as npd
from compiler.ir.accessors import Accessor
from compiler.ir.attributes import IntegerAttr
from compiler.ir.constraints import AnyType, NamedDefs, Variadic, named
from compiler.ir.core import Value
from compiler.ir.opdef import OPS, Op, lookup, register_ops


def _named_values(cls):
    """(name, operand or result, position or slice) of each value ``cls`` names, for ops
    built with two values in place of each variadic entry."""
    out = []
    for attr, what in (("operand_defs", "operand"), ("result_defs", "result")):
        defs = getattr(cls, attr)
        if not isinstance(defs, NamedDefs):
            continue
        at = 0
        for name, d in zip(defs.names, defs, strict=True):
            span = 2 if isinstance(d, Variadic) else 1
            out.append((name, what, slice(at, at + 2) if span == 2 else at))
            at += span
    return out


def _count(defs) -> int:
    return sum(2 if isinstance(d, Variadic) else 1 for d in defs or ())


@pytest.mark.parametrize("name", sorted(n for n, c in OPS.items() if _named_values(c)))
def test_every_named_operand_and_result_has_its_accessor(name):
    cls = OPS[name]
    operands = [Value(T.i64) for _ in range(_count(cls.operand_defs))]
    op = cls(operands, [T.i64] * _count(cls.result_defs), {}, cls.num_regions)
    for attr, what, at in _named_values(cls):
        assert isinstance(getattr(cls, attr), Accessor)
        values = op.operands if what == "operand" else tuple(op.results)
        assert getattr(op, attr) == values[at], (name, attr)
    with pytest.raises(AttributeError):
        op.no_such_accessor  # noqa: B018


def test_named_accessors_of_loop_and_memory_ops():
    lb, ub, step, init = (Value(T.index) for _ in range(4))
    loop = scf.ForOp.create(lb, ub, step, [init])
    assert (loop.lower, loop.upper, loop.step, loop.inits) == (lb, ub, step, (init,))
    assert loop.iter_inits == loop.inits and loop.induction_var is loop.body.args[0]
    m, i, j, x = Value(T.MemRefType((None, 4), T.f32)), Value(T.index), Value(T.index), \
        Value(T.f32)
    store = memref.StoreOp.build([x, m, i, j])
    assert (store.value, store.memref, store.indices) == (x, m, (i, j))
    with pytest.raises(AttributeError):
        store.indexes  # noqa: B018


def test_attribute_accessors_read_the_attribute_value():
    a, b = Value(T.i64), Value(T.i64)
    cmp = arith.CmpIOp.build([a, b], {"predicate": IntegerAttr(arith.CMPI["slt"], T.i64)})
    assert (cmp.lhs, cmp.rhs, cmp.predicate) == (a, b, arith.CMPI["slt"])
    x = Value(T.TensorType((3, 4), T.f32))
    red = npd.ReduceOp.build([x], {"kind": "sum", "axes": [1]})
    assert (red.input, red.kind, red.axes, red.keepdims) == (x, "sum", (1,), None)
    with pytest.raises(AttributeError):
        red.axis  # noqa: B018


def test_an_accessor_may_not_hide_a_member():
    with pytest.raises(TypeError, match="'result' would hide a member"):
        class Bad(Op):
            operand_defs = named(result=AnyType)
    with pytest.raises(TypeError, match="'x' would hide a member"):
        class Twice(Op):
            operand_defs = named(x=AnyType)
            result_defs = named(x=AnyType)


def test_every_op_class_of_the_dialects_is_registered_under_its_name():
    def kinds(cls):
        for sub in cls.__subclasses__():
            yield sub
            yield from kinds(sub)
    named_kinds = {c for c in kinds(Op) if "name" in c.__dict__
                   and c.__module__.startswith("compiler.")}
    assert named_kinds and all(lookup(c.name) is c for c in named_kinds)


def test_registering_a_name_twice_or_outside_its_namespace_fails():
    class Again(Op):
        name = "arith.addi"
    with pytest.raises(ValueError, match="defined twice"):
        register_ops("arith", (Again,))
    assert OPS["arith.addi"] is arith.AddIOp
    with pytest.raises(ValueError, match="not in the 'scf' namespace"):
        register_ops("scf", (Again,))
