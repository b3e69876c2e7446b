"""Regression: the loop IR of softmax — passes over the data, temporaries and exp count."""

import numpy as np
import pytest
from codegen_targets import CPU_MODELS, vector_type

import compiler
from compiler.targets import cpu_model, host


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _top_level_ops(loops_ir: str, name: str) -> int:
    return sum(1 for line in loops_ir.splitlines()
               if line.startswith("    ") and not line.startswith("     ")
               and f'"{name}"' in line)


def test_softmax_loop_nests_and_allocs():
    cf = compiler.compile(softmax, "f32[?,?]")
    ir = cf.ir_stages["loops"]
    # one parallel loop over the rows (fuse-loops): per row the max, exp written into the
    # result buffer while the row is summed, then that row divided in place (no temporary)
    assert ir.count('"math.exp"') == 1
    assert _top_level_ops(ir, "scf.for") == 1
    assert ir.count('"memref.alloc"') == 3       # row max, row sums, result
    assert _top_level_ops(ir, "memref.dealloc") == 2
    assert vector_type(host(), np.float32) in cf.llvm_ir     # exp loop vectorized
    x = np.random.default_rng(0).standard_normal((37, 301)).astype(np.float32) * 30
    np.testing.assert_allclose(cf(x), softmax(x), rtol=3e-6, atol=1e-30)


@pytest.mark.parametrize("model", CPU_MODELS)
def test_softmax_exp_loop_is_vectorized_per_cpu(model):
    t = cpu_model(model)
    assert vector_type(t, np.float32) in compiler.compile(softmax, "f32[?,?]", target=t).llvm_ir


def row_normalize(x):
    e = np.exp(x)
    return e / e.sum(axis=-1, keepdims=True)


def test_row_normalization_fuses_exp_and_sum_in_place():
    cf = compiler.compile(row_normalize, "f64[?,?]")
    ir = cf.ir_stages["loops"]
    assert _top_level_ops(ir, "scf.for") == 1     # exp and sums, then the division, per row
    assert ir.count('"memref.alloc"') == 2       # row sums, result
    x = np.random.default_rng(1).standard_normal((5, 7))
    np.testing.assert_allclose(cf(x), row_normalize(x), rtol=1e-13)


def exp_used_after_sum(x):
    e = np.exp(x)
    s = e.sum(axis=-1, keepdims=True)
    return e / s, e


def test_buffer_not_overwritten_when_returned_too():
    cf = compiler.compile(exp_used_after_sum, "f32[?,?]")
    x = np.random.default_rng(2).standard_normal((4, 9)).astype(np.float32)
    got, want = cf(x), exp_used_after_sum(x)
    for g, w in zip(got, want, strict=True):
        np.testing.assert_allclose(g, w, rtol=3e-6)
