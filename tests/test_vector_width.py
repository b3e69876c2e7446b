"""The vector width per target (``compiler/backend/llvm/target.py``, ``WIDE_VECTORS``):
x86-64 CPUs with AVX-512 get 512-bit vectors in elementwise loops, Intel ones included
(LLVM's own tuning would stop them at 256 bits), CPUs without AVX-512 keep 256, other
architectures keep LLVM's choice. Checked on the code compiled for pinned CPU models, so no
such CPU is needed."""

import re

import numpy as np
import pytest

import compiler
from compiler.backend.llvm.target import WIDE_VECTORS, vector_width_features
from compiler.targets import cpu_model, resolve


def axpy(a, x, y):
    return a * x + y


def _widest_double_vector(llvm_ir: str) -> int:
    return max((int(n) for n in re.findall(r"<(\d+) x double>", llvm_ir)), default=1)


@pytest.mark.parametrize("cpu, lanes", [("skylake-avx512", 8), ("sapphirerapids", 8),
                                        ("icelake-server", 8), ("znver4", 8),
                                        ("haswell", 4), ("znver3", 4)])
def test_elementwise_loop_width_follows_avx512(cpu, lanes):
    cf = compiler.compile(axpy, "f64, f64[?], f64[?]", target=cpu_model(cpu))
    assert _widest_double_vector(cf.llvm_ir) == lanes
    zmm = re.search(r"\bv(mul|add)pd\s[^\n]*zmm", cf.asm)
    assert bool(zmm) == (lanes == 8)


def test_x86_64_v4_gets_512_bit_vectors_and_v3_256():
    wide = compiler.compile(axpy, "f64, f64[?], f64[?]", target="x86-64-v4").llvm_ir
    narrow = compiler.compile(axpy, "f64, f64[?], f64[?]", target="x86-64-v3").llvm_ir
    assert _widest_double_vector(wide) == 8
    assert _widest_double_vector(narrow) == 4


def test_feature_string_choice_per_triple():
    assert vector_width_features("x86_64-unknown-linux-gnu", "") == WIDE_VECTORS
    assert vector_width_features("x86_64-unknown-linux-gnu", "+avx2,+fma") == \
        "+avx2,+fma," + WIDE_VECTORS
    assert vector_width_features("aarch64-unknown-linux-gnu", "+neon") == "+neon"
    assert vector_width_features("nvptx64-nvidia-cuda", "+ptx70") == "+ptx70"


def test_aarch64_keeps_llvm_width():
    cf = compiler.compile(axpy, "f64, f64[?], f64[?]", target=resolve("aarch64-linux-gnu"))
    assert _widest_double_vector(cf.llvm_ir) == 2


def test_host_results_unchanged():
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal(1003), rng.standard_normal(1003)
    x[[0, 5]] = np.nan, -0.0
    got = compiler.function(axpy)(np.float64(2.5), x, y)
    want = np.float64(2.5) * x + y
    assert got.dtype == want.dtype and got.shape == want.shape
    np.testing.assert_allclose(got, want, rtol=1e-15, equal_nan=True)
