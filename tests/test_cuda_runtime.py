"""The CUDA runtime on a GPU: results against NumPy. Skipped without a GPU."""

import numpy as np
import pytest
from test_ptx import checked, ew, mandel, mm, softmax, stencil, total

import compiler
import runtime.cuda as rc

pytestmark = pytest.mark.skipif(not rc.available(),
                                reason=f"no CUDA device: {rc.unavailable_reason()}")
rng = np.random.default_rng(0)


def test_elementwise():
    a, b = rng.random(100_003, np.float32), rng.random(100_003, np.float32)
    cf = compiler.compile(ew, "f32[?], f32[?]", target="cuda")
    np.testing.assert_allclose(cf(a, b), ew(a, b), rtol=1e-6)


def test_reduction():
    a = rng.random(1_000_001, np.float32)
    got = compiler.compile(total, "f32[?]", target="cuda")(a)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, total(a), rtol=1e-5)


def test_softmax_matmul_stencil_mandelbrot():
    x = rng.random((64, 300), np.float32)
    np.testing.assert_allclose(compiler.compile(softmax, "f32[?,?]", target="cuda")(x),
                               softmax(x), rtol=1e-5)
    a, b = rng.random((70, 40), np.float32), rng.random((40, 50), np.float32)
    np.testing.assert_allclose(compiler.compile(mm, "f32[?,?], f32[?,?]", target="cuda")(a, b),
                               a @ b, rtol=1e-4)
    u = rng.random((50, 60))
    np.testing.assert_allclose(compiler.compile(stencil, "f64[?,?]", target="cuda")(u),
                               stencil(u))
    cr, ci = rng.uniform(-2, 1, 4096).astype(np.float32), rng.uniform(-1, 1, 4096).astype(
        np.float32)
    np.testing.assert_array_equal(
        compiler.compile(mandel, "f32[?], f32[?]", target="cuda")(cr, ci), mandel(cr, ci))


def test_device_arrays_without_copies():
    rt = rc.get(0)
    a = rc.to_device(rt, rng.random(1000, np.float32))
    b = rc.to_device(rt, rng.random(1000, np.float32))
    out = compiler.compile(ew, "f32[?], f32[?]", target="cuda")(a, b)
    assert hasattr(out, "__cuda_array_interface__")
    np.testing.assert_allclose(out.read(), ew(a.read(), b.read()), rtol=1e-6)


@pytest.mark.parametrize("sig,shapes,dtype", [
    ("f32[?,?], f32[?,?]", [(300, 129), (129, 70)], np.float32),
    ("f64[?,?,?], f64[?,?]", [(3, 33, 17), (17, 40)], np.float64),
    ("i32[?,2,?,?], i32[2,?,?]", [(2, 2, 19, 5), (2, 5, 23)], np.int32)])
def test_tiled_matmul(sig, shapes, dtype):
    a, b = (rng.integers(-5, 5, s).astype(dtype) for s in shapes)
    got = compiler.compile(mm, sig, target="cuda")(a, b)
    np.testing.assert_allclose(got, a @ b, rtol=1e-5)


def test_kernel_error_names_the_source_line():
    cf = compiler.compile(checked, "f32[?], i64", target="cuda")
    with pytest.raises(IndexError, match="test_ptx.py"):
        cf(np.ones(4, np.float32), 10)
