"""Regression: the loop IR of softmax — passes over the data, temporaries and exp count."""

import numpy as np

import compiler


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
    # max pass, exp pass (exp computed once, into a temporary), sum pass, scaling pass
    assert ir.count('"math.exp"') == 1
    assert _top_level_ops(ir, "scf.for") == 4
    assert ir.count('"memref.alloc"') == 4       # row max, exp values, row sums, result
    assert "<16 x float>" in cf.llvm_ir          # exp loop vectorized
    x = np.random.default_rng(0).standard_normal((37, 301)).astype(np.float32) * 30
    np.testing.assert_allclose(cf(x), softmax(x), rtol=3e-6, atol=1e-30)
