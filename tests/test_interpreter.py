"""The loop-IR reference interpreter: arithmetic of signless integers and its detection of
behaviour the loop level leaves undefined (the lowering must never emit it)."""

import numpy as np
import pytest
from loop_ir import Fn, contiguous, strided

from compiler import types as T
from compiler.backend.llvm import compile_module
from compiler.dialects import arith, grafo, memref
from compiler.interpreter import Interpreter, UndefinedBehavior, run
from compiler.ir.attributes import IntegerAttr, StringAttr
from compiler.ir.opdef import OPS


def _binary(name, t):
    f = Fn("f", [t, t], [t])
    a, b = f.args
    f.ret(f.v(OPS["arith." + name], a, b))
    return f.module


@pytest.mark.parametrize("name,a,b,want", [
    ("addi", 127, 1, -128), ("muli", 16, 16, 0), ("divsi", -7, 2, -3), ("remsi", -7, 2, -1),
    ("divui", -1, 2, 127), ("maxui", -1, 1, -1), ("shrsi", -128, 7, -1), ("shrui", -128, 7, 1),
])
def test_i8_arithmetic_wraps_like_llvm(name, a, b, want):
    assert run(_binary(name, T.i8), "f", a, b) == [want]


@pytest.mark.parametrize("name,a,b", [("divsi", 1, 0), ("divsi", -128, -1), ("remui", 3, 0),
                                      ("shli", 1, 8), ("shrsi", 1, -1)])
def test_undefined_behaviour_is_reported(name, a, b):
    with pytest.raises(UndefinedBehavior):
        run(_binary(name, T.i8), "f", a, b)


def test_out_of_bounds_load_and_double_free():
    f = Fn("f", [strided((None,), T.f32), T.index], [T.f32])
    m, i = f.args
    f.ret(f.load(m, i))
    with pytest.raises(UndefinedBehavior, match="outside shape"):
        run(f.module, "f", np.zeros(3, np.float32), 3)
    g = Fn("g", [], [])
    buf = g.alloc(contiguous((2,), T.f64))
    g.op_(memref.DeallocOp, [buf])
    g.op_(memref.DeallocOp, [buf])
    with pytest.raises(UndefinedBehavior, match="freed"):
        run(g.ret(), "g")


def test_check_raises_its_exception_with_parameters():
    f = Fn("f", [T.i1, T.i64], [])
    ok, p = f.args
    f.op_(grafo.CheckOp, [ok, p], {"kind": StringAttr("IndexError"),
                                   "message": StringAttr("index {0} is out of bounds")})
    module = f.ret()
    Interpreter(module).call("f", True, 5)
    with pytest.raises(IndexError, match="index 5 is out of bounds"):
        run(module, "f", False, 5)


def test_unsigned_arguments_are_viewed_signless():
    f = Fn("f", [strided((None,), T.i32), T.index], [T.i32])
    m, i = f.args
    f.ret(f.load(m, i))
    assert run(f.module, "f", np.array([4294967295], np.uint32), 0) == [-1]


def test_predicates():
    f = Fn("f", [T.f64, T.f64], [T.i1, T.i1])
    a, b = f.args
    une = f.v(arith.CmpFOp, a, b, attrs={"predicate": IntegerAttr(arith.CMPF["une"])})
    oeq = f.v(arith.CmpFOp, a, b, attrs={"predicate": IntegerAttr(arith.CMPF["oeq"])})
    assert run(f.ret(une, oeq), "f", np.nan, np.nan) == [True, False]


def test_stride_is_numpys_element_stride_interpreted_and_compiled():
    """grafo.stride of dim k: the view's byte stride over its item size (negative for a
    reversed view), the same in the interpreter and the CPU backend (descriptor field)."""
    f = Fn("f", [strided((None, None), T.f32), T.index], [T.i64])
    m, k = f.args
    s = f.v(grafo.StrideOp, m, k)
    module = f.ret(f.v(OPS["arith.index_cast"], s, type=T.i64))
    native = compile_module(module).entry("f")
    x = np.zeros((6, 10), np.float32)
    for view in (x, x.T, np.asfortranarray(x), x[::-2, 1::3], x[:, :1]):
        for dim in (0, 1):
            want = view.strides[dim] // view.itemsize
            assert run(module, "f", view, dim) == [want]
            assert native(view, dim) == want


def test_every_loop_level_op_has_a_rule():
    """Each op of the loop-level dialects runs by the rule of its class; terminators end the
    block that runs them and ``func.func`` is run through ``run_function``."""
    from compiler.dialects import func, scf
    from compiler.interpreter import RULES
    by_block = {func.FuncOp, func.ReturnOp, scf.YieldOp, scf.ConditionOp}
    loop_level = [c for n, c in OPS.items()
                  if n.split(".")[0] in ("arith", "math", "memref", "scf", "func", "grafo",
                                         "lapack", "blas")]
    assert [c.name for c in loop_level if c not in RULES and c not in by_block] == []


def test_evaluate_runs_one_op_on_the_values_of_its_operands():
    module = _binary("muli", T.i8)
    op = module.functions()[0].body.ops[0]
    a, b = op.operands
    assert Interpreter(module).evaluate(op, {a: 16, b: 9}) == [-112]
