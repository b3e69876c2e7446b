"""Unit tests of the passes (fold, canonicalize, cse, dce) and the pass manager.

IR is built with ``Builder``; expected values come from NumPy or from hand reasoning."""

from __future__ import annotations

import io
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

from compiler import types as T
from compiler.dialects import arith, func, grafo, scf
from compiler.dialects import np as npd
from compiler.ir.attributes import SymbolRefAttr
from compiler.ir.builder import Builder
from compiler.ir.core import Location
from compiler.ir.opdef import ConstantLike
from compiler.ir.verifier import VerifyError, verify
from compiler.passes import DEFAULT_PIPELINE, PassManager, known_passes
from compiler.passes.fold import MAX_FOLD_ELEMENTS


def make_func(arg_types, result_types):
    """A module holding one empty function; returns (module, function, builder, args)."""
    from compiler.dialects.builtin import ModuleOp
    module = ModuleOp.empty()
    f = func.FuncOp.create("f", T.FunctionType(tuple(arg_types), tuple(result_types)))
    module.body.append(f)
    return module, f, Builder(f.body, loc=Location("t.py", 1, 1)), f.body.args


def ret(b, *values):
    b.create(func.ReturnOp, list(values))


def const(b, value, t):
    return b.insert(npd.ConstantOp.of(value, t)).result


def run(module, pipeline):
    PassManager.parse(pipeline, verify_each=True).run(module)
    return module


def op_names(f):
    return [op.name for op in f.body.ops]


def returned(f):
    return f.body.terminator.operands


def constant_value(v):
    op = v.owner_op()
    assert op is not None and op.has_trait(ConstantLike), f"{v} is not a constant"
    return op.value if isinstance(op, npd.ConstantOp) else op.attr("value")


# pass manager ------------------------------------------------------------------------------

def test_known_passes_and_default_pipeline():
    assert {"canonicalize", "cse", "dce", "fold"} <= set(known_passes())
    assert PassManager.parse(DEFAULT_PIPELINE).pipeline == "canonicalize,cse,dce"


def test_unknown_pass_names_it_and_lists_known():
    with pytest.raises(ValueError) as e:
        PassManager.parse("cse,frobnicate")
    assert "frobnicate" in str(e.value)
    assert "canonicalize" in str(e.value) and "dce" in str(e.value)


def test_empty_entry_rejected_and_mlir_wrapper_accepted():
    with pytest.raises(ValueError, match="empty pass name"):
        PassManager.parse("cse,,dce")
    assert PassManager.parse("builtin.module(cse, dce)").pipeline == "cse,dce"
    assert PassManager.parse("").passes == []


def test_print_ir_after_each_pass_and_timing():
    module, f, b, (x,) = make_func([T.f32], [T.f32])
    ret(b, x)
    seen = []
    pm = PassManager.parse("cse,dce", print_ir_after=lambda name, m: seen.append(name),
                           timing=True)
    pm.run(module)
    assert seen == ["cse", "dce"]
    assert [n for n, _ in pm.timings] == ["cse", "dce"]
    assert all(t >= 0 for _, t in pm.timings)
    report = pm.timing_report()
    assert "Execution time report" in report and "cse" in report and "Total" in report


def test_ir_dump_to_stream():
    module, f, b, (x,) = make_func([T.f32], [T.f32])
    ret(b, x)
    out = io.StringIO()
    PassManager.parse("dce", print_ir_after=out).run(module)
    assert "IR Dump After dce" in out.getvalue()
    assert '"func.return"' in out.getvalue()


def test_verify_each_names_the_pass():
    from compiler.passes.manager import Pass

    class BreakReturn(Pass):
        def run(self, module):
            module.body.ops[0].body.terminator.drop_operands()

    module, f, b, (x,) = make_func([T.f32], [T.f32])
    ret(b, x)
    with pytest.raises(VerifyError, match="after pass"):
        PassManager([BreakReturn()], verify_each=True).run(module)


# fold --------------------------------------------------------------------------------------

def test_fold_scalar_chain_matches_numpy():
    module, f, b, _ = make_func([], [T.f32])
    two, three = const(b, 2.5, T.f32), const(b, 3.0, T.f32)
    s = b.create(npd.AddOp, [two, three]).result
    p = b.create(npd.MultiplyOp, [s, s]).result
    r = b.create(npd.SqrtOp, [p]).result
    ret(b, r)
    run(module, "fold,dce")
    assert op_names(f) == ["np.constant", "func.return"]
    want = np.sqrt((np.float32(2.5) + np.float32(3.0)) ** 2)
    got = constant_value(returned(f)[0])
    assert got.dtype == np.float32 and got == want


def test_fold_tensor_matches_numpy():
    t = T.TensorType((2, 3), T.i32)
    module, f, b, _ = make_func([], [t])
    a = const(b, np.arange(6).reshape(2, 3), t)
    c = const(b, np.array([[7, -1, 2], [0, 5, -9]]), t)
    r = b.create(npd.FloorDivideOp, [c, const(b, 2, t)]).result
    r = b.create(npd.SubtractOp, [r, a]).result
    ret(b, r)
    run(module, "fold,dce")
    want = np.array([[7, -1, 2], [0, 5, -9]], np.int32) // 2 - np.arange(6).reshape(2, 3)
    got = constant_value(returned(f)[0])
    assert got.dtype == np.int32 and np.array_equal(got, want)


def test_fold_comparison_gives_bool():
    module, f, b, _ = make_func([], [T.i1])
    r = b.create(npd.LessOp, [const(b, 3, T.i64), const(b, 4, T.i64)]).result
    ret(b, r)
    run(module, "fold")
    assert constant_value(returned(f)[0]) == np.True_


def test_fold_reduction():
    t = T.TensorType((3, 4), T.f64)
    module, f, b, _ = make_func([], [T.TensorType((4,), T.f64)])
    data = np.linspace(-1, 1, 12).reshape(3, 4)
    r = b.create(npd.ReduceOp, [const(b, data, t)], {"kind": "sum", "axes": (0,),
                                                    "keepdims": False}).result
    ret(b, r)
    run(module, "fold")
    assert np.array_equal(constant_value(returned(f)[0]), data.sum(axis=0))


def test_no_fold_when_evaluation_raises():
    """An out-of-range index must stay and fail at run time (non-strict semantics)."""
    t = T.TensorType((3,), T.i64)
    module, f, b, _ = make_func([], [T.i64])
    x = const(b, [1, 2, 3], t)
    r = b.create(npd.SubscriptOp, [x, const(b, 5, T.py_int)], {"spec": ("i",)}).result
    ret(b, r)
    run(module, "fold")
    assert returned(f)[0].owner_op().name == "np.subscript"


def test_no_fold_of_weak_int_division_by_zero():
    module, f, b, _ = make_func([], [T.py_int])
    r = b.create(npd.FloorDivideOp, [const(b, 1, T.py_int), const(b, 0, T.py_int)]).result
    ret(b, r)
    run(module, "canonicalize")
    assert returned(f)[0].owner_op().name == "np.floor_divide"


def _raw_int_const(b, value, t, cls=npd.ConstantOp):
    from compiler.ir.attributes import IntegerAttr
    return b.create(cls, [], {"value": IntegerAttr(value, t)}, [t]).result


def test_verifier_rejects_integer_constants_that_do_not_fit():
    """np.constant takes the dtype's range; signless arith.constant also the unsigned one."""
    for cls, ok, bad in ((npd.ConstantOp, (-128, 127), (128, -129, 10 ** 23)),
                         (arith.ConstantOp, (-128, 255), (256, -129, 10 ** 23))):
        for value in ok:
            module, f, b, _ = make_func([], [T.i8])
            ret(b, _raw_int_const(b, value, T.i8, cls))
            verify(module)
        for value in bad:
            module, f, b, _ = make_func([], [T.i8])
            ret(b, _raw_int_const(b, value, T.i8, cls))
            with pytest.raises(VerifyError, match=f"t.py:1:1: .*{value} does not fit"):
                verify(module)


def test_fold_and_canonicalize_never_raise_on_out_of_range_integer_constants():
    module, f, b, _ = make_func([], [T.i8])
    big = _raw_int_const(b, 10 ** 23, T.i8)
    r = b.create(npd.MultiplyOp, [big, const(b, 1, T.i8)]).result
    ret(b, b.create(npd.AddOp, [r, big]).result)
    PassManager.parse("canonicalize,fold").run(module)
    assert returned(f)[0].owner_op().name == "np.add"


def test_fold_reads_signless_unsigned_range_as_twos_complement():
    from compiler.ir.attributes import IntegerAttr
    from compiler.passes.fold import numpy_value
    got = numpy_value(IntegerAttr(255, T.i8), T.i8)
    assert got.dtype == np.int8 and got == -1


def test_no_fold_of_large_tensor():
    n = MAX_FOLD_ELEMENTS + 1
    t = T.TensorType((n,), T.f32)
    module, f, b, _ = make_func([], [t])
    r = b.create(npd.NegativeOp, [const(b, 1.0, t)]).result
    ret(b, r)
    run(module, "fold")
    assert returned(f)[0].owner_op().name == "np.negative"


def test_fold_at_the_size_limit():
    t = T.TensorType((MAX_FOLD_ELEMENTS,), T.f32)
    module, f, b, _ = make_func([], [t])
    r = b.create(npd.NegativeOp, [const(b, 1.0, t)]).result
    ret(b, r)
    run(module, "fold")
    assert np.all(constant_value(returned(f)[0]) == -1.0)


def test_no_fold_of_non_constant_operands():
    module, f, b, (x,) = make_func([T.f32], [T.f32])
    r = b.create(npd.AddOp, [x, const(b, 1.0, T.f32)]).result
    ret(b, r)
    run(module, "fold")
    assert returned(f)[0].owner_op().name == "np.add"


def test_fold_nan_and_integer_wraparound_follow_numpy():
    module, f, b, _ = make_func([], [T.f64, T.i8])
    nan = b.create(npd.MultiplyOp, [const(b, math.inf, T.f64), const(b, 0.0, T.f64)]).result
    wrap = b.create(npd.AddOp, [const(b, 127, T.i8), const(b, 1, T.i8)]).result
    ret(b, nan, wrap)
    run(module, "fold")
    got_nan, got_wrap = (constant_value(v) for v in returned(f))
    assert np.isnan(got_nan)
    with np.errstate(over="ignore"):
        assert got_wrap == np.int8(127) + np.int8(1) == -128


def test_fold_inside_nested_region():
    module, f, b, (c,) = make_func([T.i1], [T.f32])
    if_op = b.insert(scf.IfOp.create(c, [T.f32]))
    with b.at_end(if_op.then_block):
        s = b.create(npd.AddOp, [const(b, 1.0, T.f32), const(b, 2.0, T.f32)]).result
        b.create(scf.YieldOp, [s])
    with b.at_end(if_op.else_block):
        b.create(scf.YieldOp, [const(b, 0.0, T.f32)])
    ret(b, if_op.result)
    run(module, "fold")
    then_yield = if_op.then_block.terminator
    assert constant_value(then_yield.operands[0]) == np.float32(3.0)


# canonicalize ------------------------------------------------------------------------------

def _binary_identity(op_cls, t, c, swap=False):
    """Build ``op(x, c)`` (or ``op(c, x)``), canonicalize; the returned value and x.

    ``c`` is a constant of x's element type and, where x has a static shape, x's shape."""
    module, f, b, (x,) = make_func([t], [t])
    k = const(b, c, t if None not in T.shape_of(t) else T.element_type(t))
    r = b.create(op_cls, [k, x] if swap else [x, k]).result
    ret(b, r)
    run(module, "canonicalize")
    return returned(f)[0], x, f


@pytest.mark.parametrize("op_cls, t, c", [
    (npd.AddOp, T.i32, 0),
    (npd.AddOp, T.i1, False),
    (npd.AddOp, T.f32, -0.0),
    (npd.SubtractOp, T.i64, 0),
    (npd.SubtractOp, T.f64, 0.0),
    (npd.MultiplyOp, T.i16, 1),
    (npd.MultiplyOp, T.f32, 1.0),
    (npd.DivideOp, T.f64, 1.0),
    (npd.FloorDivideOp, T.i32, 1),
    (npd.PowerOp, T.i64, 1),
    (npd.BitwiseOrOp, T.u8, 0),
    (npd.BitwiseXorOp, T.i32, 0),
    (npd.LeftShiftOp, T.i32, 0),
    (npd.AddOp, T.TensorType((None, 4), T.f32), -0.0),
    (npd.MultiplyOp, T.TensorType((3,), T.i64), 1),
])
def test_identity_rewrites(op_cls, t, c):
    got, x, f = _binary_identity(op_cls, t, c)
    assert got is x
    assert op_names(f) == ["func.return"]


@pytest.mark.parametrize("op_cls, t, c", [
    (npd.AddOp, T.f32, 0.0),         # -0.0 + 0.0 == +0.0
    (npd.SubtractOp, T.f64, -0.0),   # -0.0 - (-0.0) == +0.0
    (npd.MultiplyOp, T.i32, 0),
    (npd.AddOp, T.i32, 1),
    (npd.FloorDivideOp, T.f64, 1.0),  # x // 1.0 == floor(x)
])
def test_inexact_identities_not_applied(op_cls, t, c):
    got, x, f = _binary_identity(op_cls, t, c)
    assert got is not x
    assert got.owner_op().name == op_cls.name


def test_negative_zero_plus_zero_is_positive_zero():
    """Why x + 0.0 must stay: NumPy gives +0.0 for -0.0 + 0.0, and folding agrees."""
    assert not np.signbit(np.float32(-0.0) + np.float32(0.0))
    module, f, b, _ = make_func([], [T.f32])
    r = b.create(npd.AddOp, [const(b, -0.0, T.f32), const(b, 0.0, T.f32)]).result
    ret(b, r)
    run(module, "canonicalize")
    got = constant_value(returned(f)[0])
    assert got == 0.0 and not np.signbit(got)


def test_commutative_constant_moves_second_then_simplifies():
    got, x, f = _binary_identity(npd.MultiplyOp, T.f32, 1.0, swap=True)
    assert got is x


def test_commutative_constant_moves_second():
    module, f, b, (x,) = make_func([T.i32], [T.i32])
    k = const(b, 5, T.i32)
    r = b.create(npd.AddOp, [k, x]).result
    ret(b, r)
    run(module, "canonicalize")
    assert r.owner_op().operands == (x, k)


def test_non_commutative_operands_stay_in_order():
    module, f, b, (x,) = make_func([T.i32], [T.i32])
    k = const(b, 5, T.i32)
    r = b.create(npd.SubtractOp, [k, x]).result
    ret(b, r)
    run(module, "canonicalize")
    assert r.owner_op().operands == (k, x)


def test_broadcasting_identity_not_applied():
    """x + zeros((3, 4)) with x of shape (4,) has shape (3, 4): not x."""
    module, f, b, (x,) = make_func([T.TensorType((4,), T.i32)], [T.TensorType((3, 4), T.i32)])
    r = b.create(npd.AddOp, [x, const(b, 0, T.TensorType((3, 4), T.i32))]).result
    ret(b, r)
    run(module, "canonicalize")
    assert returned(f)[0].owner_op().name == "np.add"


@pytest.mark.parametrize("op_cls, t", [
    (npd.NegativeOp, T.f32), (npd.NegativeOp, T.i8), (npd.InvertOp, T.i64),
    (npd.LogicalNotOp, T.i1),
])
def test_double_application_cancels(op_cls, t):
    module, f, b, (x,) = make_func([t], [t])
    r = b.create(op_cls, [b.create(op_cls, [x]).result]).result
    ret(b, r)
    run(module, "canonicalize")
    assert returned(f)[0] is x and op_names(f) == ["func.return"]


def test_logical_not_twice_of_int_stays():
    """not(not(x)) of an int is a bool, not x."""
    module, f, b, (x,) = make_func([T.i32], [T.i1])
    r = b.create(npd.LogicalNotOp, [b.create(npd.LogicalNotOp, [x]).result]).result
    ret(b, r)
    run(module, "canonicalize")
    assert returned(f)[0].owner_op().name == "np.logical_not"


def test_idempotent_absolute():
    module, f, b, (x,) = make_func([T.f32], [T.f32])
    inner = b.create(npd.AbsoluteOp, [x]).result
    ret(b, b.create(npd.AbsoluteOp, [inner]).result)
    run(module, "canonicalize")
    assert returned(f)[0] is inner and op_names(f) == ["np.absolute", "func.return"]


def test_astype_to_same_type_removed_other_kept():
    module, f, b, (x,) = make_func([T.f32], [T.f32, T.f64])
    same = b.create(npd.AsTypeOp, [x], result_types=[T.f32]).result
    wide = b.create(npd.AsTypeOp, [x], result_types=[T.f64]).result
    ret(b, same, wide)
    run(module, "canonicalize")
    assert returned(f)[0] is x
    assert returned(f)[1].owner_op().name == "np.astype"


def test_transpose_of_transpose():
    t = T.TensorType((2, 3, 4), T.f32)
    module, f, b, (x,) = make_func([t], [t, T.TensorType((3, 2, 4), T.f32)])
    once = b.create(npd.TransposeOp, [x], {"perm": (2, 0, 1)}).result
    back = b.create(npd.TransposeOp, [once], {"perm": (1, 2, 0)}).result
    other = b.create(npd.TransposeOp, [once], {"perm": (2, 1, 0)}).result
    ret(b, back, other)
    run(module, "canonicalize")
    assert returned(f)[0] is x
    composed = returned(f)[1].owner_op()
    assert composed.name == "np.transpose" and composed.operands[0] is x
    a = np.arange(24).reshape(2, 3, 4)
    want = np.transpose(np.transpose(a, (2, 0, 1)), (2, 1, 0))
    assert np.array_equal(np.transpose(a, composed.attr("perm")), want)
    assert op_names(f) == ["np.transpose", "func.return"]


def test_where_with_equal_branches_and_true_condition():
    module, f, b, (c, x, y) = make_func([T.i1, T.f32, T.f32], [T.f32, T.f32])
    same = b.create(npd.WhereOp, [c, x, x]).result
    true = b.create(npd.WhereOp, [const(b, True, T.i1), x, y]).result
    ret(b, same, true)
    run(module, "canonicalize")
    assert returned(f)[0] is x and returned(f)[1] is x


def test_arith_identities():
    module, f, b, (i, x) = make_func([T.i32, T.f64], [T.i32, T.f64, T.f64])
    zero = b.insert(arith.ConstantOp.build([], {"value": 0}, [T.i32])).result
    nzero = b.insert(arith.ConstantOp.build([], {"value": -0.0}, [T.f64])).result
    pzero = b.insert(arith.ConstantOp.build([], {"value": 0.0}, [T.f64])).result
    r1 = b.create(arith.AddIOp, [zero, i]).result
    r2 = b.create(arith.AddFOp, [x, nzero]).result
    r3 = b.create(arith.AddFOp, [x, pzero]).result
    ret(b, r1, r2, r3)
    run(module, "canonicalize")
    assert returned(f)[0] is i and returned(f)[1] is x
    assert returned(f)[2].owner_op().name == "arith.addf"


def test_canonicalize_removes_dead_pure_ops_keeps_effects():
    module, f, b, (x, ok) = make_func([T.f32, T.i1], [T.f32])
    b.create(npd.ExpOp, [x])
    b.create(grafo.CheckOp, [ok], {"kind": "ValueError", "message": "bad"})
    ret(b, x)
    run(module, "canonicalize")
    assert op_names(f) == ["grafo.check", "func.return"]


# cse ---------------------------------------------------------------------------------------

def test_cse_merges_equal_pure_ops():
    module, f, b, (x, y) = make_func([T.f32, T.f32], [T.f32, T.f32])
    a1 = b.create(npd.AddOp, [x, y]).result
    a2 = b.create(npd.AddOp, [x, y]).result
    a3 = b.create(npd.AddOp, [y, x]).result   # commutative: same value
    ret(b, a1, b.create(npd.MultiplyOp, [a2, a3]).result)
    run(module, "cse")
    mul = returned(f)[1].owner_op()
    assert returned(f)[0] is a1 and mul.operands == (a1, a1)
    assert op_names(f).count("np.add") == 1


def test_cse_keeps_different_attributes_types_and_order():
    module, f, b, (x, y) = make_func([T.f32, T.f32], [T.f32, T.f32, T.f64, T.f64])
    s1 = b.create(npd.SubtractOp, [x, y]).result
    s2 = b.create(npd.SubtractOp, [y, x]).result   # not commutative
    c1 = b.create(npd.AsTypeOp, [x], result_types=[T.f64]).result
    c2 = b.create(npd.AsTypeOp, [x], result_types=[T.f64]).result
    ret(b, s1, s2, c1, c2)
    run(module, "cse")
    assert returned(f)[0] is not returned(f)[1]
    assert returned(f)[2] is returned(f)[3]


def test_cse_merges_nan_constants():
    module, f, b, _ = make_func([], [T.f32, T.f32, T.TensorType((2,), T.f64)])
    n1, n2 = const(b, math.nan, T.f32), const(b, math.nan, T.f32)
    t = T.TensorType((2,), T.f64)
    d1, d2 = const(b, [math.nan, 1.0], t), const(b, [math.nan, 1.0], t)
    ret(b, n1, n2, b.create(npd.AddOp, [d1, d2]).result)
    run(module, "cse")
    assert returned(f)[0] is returned(f)[1]
    add = returned(f)[2].owner_op()
    assert add.operands[0] is add.operands[1]


def test_cse_distinguishes_zero_signs():
    module, f, b, _ = make_func([], [T.f32, T.f32])
    ret(b, const(b, 0.0, T.f32), const(b, -0.0, T.f32))
    run(module, "cse")
    assert returned(f)[0] is not returned(f)[1]


def test_cse_never_merges_side_effects_or_reads():
    from compiler.dialects import memref
    mt = T.MemRefType((4,), T.f32)
    module, f, b, (m, i, v) = make_func([mt, T.index, T.f32], [T.f32, T.f32])
    l1 = b.create(memref.LoadOp, [m, i]).result
    b.create(memref.StoreOp, [v, m, i])
    l2 = b.create(memref.LoadOp, [m, i]).result
    ret(b, l1, l2)
    run(module, "cse")
    assert returned(f)[0] is not returned(f)[1]


def test_cse_reuses_outer_value_in_nested_region_not_across_siblings():
    module, f, b, (c, x) = make_func([T.i1, T.f32], [T.f32, T.f32])
    outer = b.create(npd.ExpOp, [x]).result
    if_op = b.insert(scf.IfOp.create(c, [T.f32, T.f32]))
    with b.at_end(if_op.then_block):
        inner = b.create(npd.ExpOp, [x]).result
        t1 = b.create(npd.SinOp, [x]).result
        b.create(scf.YieldOp, [inner, t1])
    with b.at_end(if_op.else_block):
        e1 = b.create(npd.SinOp, [x]).result
        b.create(scf.YieldOp, [e1, e1])
    ret(b, *if_op.results)
    run(module, "cse")
    then_ops = if_op.then_block.terminator.operands
    else_ops = if_op.else_block.terminator.operands
    assert then_ops[0] is outer                 # dominating outer op reused
    assert then_ops[1] is not else_ops[0]       # siblings stay separate
    assert then_ops[1].owner_op().parent is if_op.then_block
    assert else_ops[0].owner_op().parent is if_op.else_block


def test_cse_nested_value_not_hoisted_out():
    module, f, b, (c, x) = make_func([T.i1, T.f32], [T.f32, T.f32])
    if_op = b.insert(scf.IfOp.create(c, [T.f32]))
    with b.at_end(if_op.then_block):
        b.create(scf.YieldOp, [b.create(npd.ExpOp, [x]).result])
    with b.at_end(if_op.else_block):
        b.create(scf.YieldOp, [x])
    after = b.create(npd.ExpOp, [x]).result
    ret(b, if_op.result, after)
    run(module, "cse")
    assert after.owner_op().parent is f.body
    verify(module)


# dce ---------------------------------------------------------------------------------------

def test_dce_removes_unused_pure_chain():
    module, f, b, (x,) = make_func([T.f32], [T.f32])
    a = b.create(npd.ExpOp, [x]).result
    c = b.create(npd.SinOp, [a]).result
    b.create(npd.AddOp, [c, const(b, 1.0, T.f32)])
    ret(b, x)
    run(module, "dce")
    assert op_names(f) == ["func.return"]


def test_dce_keeps_side_effects():
    from compiler.dialects import memref
    mt = T.MemRefType((4,), T.f32)
    module, f, b, (m, i, ok) = make_func([mt, T.index, T.i1], [])
    v = b.create(npd.ExpOp, [b.create(memref.LoadOp, [m, i]).result]).result
    b.create(memref.StoreOp, [v, m, i])
    b.create(grafo.CheckOp, [ok], {"kind": "IndexError", "message": "out of range"})
    g = func.FuncOp.create("g", T.FunctionType((), (T.f32,)))
    module.body.append(g)
    gb = Builder(g.body)
    ret(gb, const(gb, 1.0, T.f32))
    b.insert(func.CallOp([], [T.f32], {"callee": SymbolRefAttr("g")}))
    b.insert(memref.AllocOp([], [mt]))
    ret(b)
    run(module, "dce")
    assert op_names(f) == ["memref.load", "np.exp", "memref.store", "grafo.check",
                           "func.call", "memref.alloc", "func.return"]


def test_dce_removes_pure_region_op_and_keeps_effectful_one():
    module, f, b, (c, x, ok) = make_func([T.i1, T.f32, T.i1], [T.f32])
    pure_if = b.insert(scf.IfOp.create(c, [T.f32]))
    with b.at_end(pure_if.then_block):
        b.create(scf.YieldOp, [b.create(npd.ExpOp, [x]).result])
    with b.at_end(pure_if.else_block):
        b.create(scf.YieldOp, [x])
    effect_if = b.insert(scf.IfOp.create(c, [T.f32]))
    with b.at_end(effect_if.then_block):
        dead = b.create(npd.SinOp, [x])
        b.create(grafo.CheckOp, [ok], {"kind": "ValueError", "message": "bad"})
        b.create(scf.YieldOp, [x])
    with b.at_end(effect_if.else_block):
        b.create(scf.YieldOp, [x])
    ret(b, x)
    run(module, "dce")
    assert op_names(f) == ["scf.if", "func.return"]
    kept = f.body.ops[0]
    assert kept is effect_if
    assert [op.name for op in kept.then_block.ops] == ["grafo.check", "scf.yield"]
    assert dead.parent is None


def test_dce_removes_unused_pure_loop():
    module, f, b, (x,) = make_func([T.f32], [T.f32])
    lb = b.insert(arith.ConstantOp.build([], {"value": IndexAttr(0)}, [T.index])).result
    ub = b.insert(arith.ConstantOp.build([], {"value": IndexAttr(4)}, [T.index])).result
    loop = b.insert(scf.ForOp.create(lb, ub, lb, [x]))
    with b.at_end(loop.body):
        acc = loop.body.args[1]
        b.create(scf.YieldOp, [b.create(arith.AddFOp, [acc, acc]).result])
    ret(b, x)
    run(module, "dce")
    assert op_names(f) == ["func.return"]


def IndexAttr(v):
    from compiler.ir.attributes import IntegerAttr
    return IntegerAttr(v, T.index)


def test_dce_keeps_functions_and_terminators():
    module, f, b, (x,) = make_func([T.f32], [T.f32])
    ret(b, x)
    run(module, "dce")
    assert module.body.ops == [f] and op_names(f) == ["func.return"]


# pipelines -----------------------------------------------------------------------------------

def test_default_pipeline_end_to_end():
    """(x * 1.0 + exp(x)) + (exp(x) + (2 * 3)) with one exp and one constant 6 left."""
    module, f, b, (x,) = make_func([T.f64], [T.f64])
    e1 = b.create(npd.ExpOp, [x]).result
    e2 = b.create(npd.ExpOp, [x]).result
    m = b.create(npd.MultiplyOp, [const(b, 1.0, T.f64), x]).result
    six = b.create(npd.MultiplyOp, [const(b, 2.0, T.f64), const(b, 3.0, T.f64)]).result
    lhs = b.create(npd.AddOp, [m, e1]).result
    rhs = b.create(npd.AddOp, [e2, six]).result
    b.create(npd.SinOp, [lhs])                   # unused
    ret(b, b.create(npd.AddOp, [lhs, rhs]).result)
    run(module, DEFAULT_PIPELINE)
    assert sorted(op_names(f)) == sorted(["np.exp", "np.constant", "np.add", "np.add",
                                          "np.add", "func.return"])
    consts = [op for op in f.body.ops if op.name == "np.constant"]
    assert consts[0].value == 6.0
    verify(module)


# folding against NumPy on random inputs ----------------------------------------------------

_FOLD_CASES = [(npd.AddOp, np.add), (npd.SubtractOp, np.subtract),
               (npd.MultiplyOp, np.multiply), (npd.MaximumOp, np.maximum),
               (npd.FloorDivideOp, np.floor_divide)]


@settings(max_examples=60, deadline=None)
@given(case=st.sampled_from(_FOLD_CASES), dtype=st.sampled_from([np.int32, np.float32]),
       data=st.data())
def test_fold_agrees_with_numpy(case, dtype, data):
    op_cls, ufunc = case
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=2, max_side=4))
    a = data.draw(hnp.arrays(dtype, shape))
    b = data.draw(hnp.arrays(dtype, shape))
    t = T.TensorType(shape, T.from_dtype(dtype))
    module, f, bld, _ = make_func([], [t])
    ret(bld, bld.create(op_cls, [const(bld, a, t), const(bld, b, t)]).result)
    run(module, "fold")
    with np.errstate(all="ignore"):
        want = ufunc(a, b)
    got = constant_value(returned(f)[0])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)
    assert np.array_equal(np.signbit(got), np.signbit(want))
