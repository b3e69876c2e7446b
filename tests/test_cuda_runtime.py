"""The CUDA runtime: results against NumPy, on a GPU (skipped without one) and on the
simulated driver (``runtime/cuda/simulator.py``), which runs with smaller sizes: its kernels
are interpreted."""

import traceback

import numpy as np
import pytest
from test_ptx import (
    checked,
    ew,
    mandel,
    mm,
    row_any,
    row_max,
    row_mean,
    row_min,
    row_sum,
    softmax,
    stencil,
    total,
    trailing_sum,
)

import compiler
import runtime.cuda as rc
from runtime.cuda import driver

rng = np.random.default_rng(0)
ON_GPU = [True]


@pytest.fixture(autouse=True, params=["cuda", "simulator"])
def cuda_driver(request):
    """Each test on the real driver (skipped without a GPU) and on the simulated one."""
    driver.select(request.param)
    try:
        if not rc.available():
            pytest.skip(f"no CUDA device: {rc.unavailable_reason()}")
        ON_GPU[0] = request.param == "cuda"
        yield request.param
    finally:
        driver.select(None)


def n(gpu: int, simulated: int) -> int:
    """A problem size: ``gpu`` on a GPU, ``simulated`` on the simulator."""
    return gpu if ON_GPU[0] else simulated


def test_elementwise():
    a, b = rng.random(n(100_003, 20_003), np.float32), rng.random(n(100_003, 20_003),
                                                                       np.float32)
    cf = compiler.compile(ew, "f32[?], f32[?]", target="cuda")
    np.testing.assert_allclose(cf(a, b), ew(a, b), rtol=1e-6)


def test_reduction():
    a = rng.random(n(1_000_001, 30_001), np.float32)
    got = compiler.compile(total, "f32[?]", target="cuda")(a)
    assert got.dtype == np.float32
    np.testing.assert_allclose(got, total(a), rtol=1e-5)


def test_softmax_matmul_stencil_mandelbrot():
    x = rng.random((n(64, 6), 300), np.float32)
    np.testing.assert_allclose(compiler.compile(softmax, "f32[?,?]", target="cuda")(x),
                               softmax(x), rtol=1e-5)
    a, b = rng.random((n(70, 20), 40), np.float32), rng.random((40, n(50, 18)), np.float32)
    np.testing.assert_allclose(compiler.compile(mm, "f32[?,?], f32[?,?]", target="cuda")(a, b),
                               a @ b, rtol=1e-4)
    u = rng.random((n(50, 20), 60))
    np.testing.assert_allclose(compiler.compile(stencil, "f64[?,?]", target="cuda")(u),
                               stencil(u))
    cr, ci = (rng.uniform(lo, 1, n(4096, 300)).astype(np.float32) for lo in (-2, -1))
    np.testing.assert_array_equal(
        compiler.compile(mandel, "f32[?], f32[?]", target="cuda")(cr, ci), mandel(cr, ci))


def test_device_arrays_without_copies():
    rt = rc.get(0)
    a = rc.to_device(rng.random(1000, np.float32), rt)
    b = rc.to_device(rng.random(1000, np.float32), rt)
    out = compiler.compile(ew, "f32[?], f32[?]", target="cuda")(a, b)
    assert hasattr(out, "__cuda_array_interface__")
    np.testing.assert_allclose(out.read(), ew(a.read(), b.read()), rtol=1e-6)


@pytest.mark.parametrize("sig,shapes,dtype", [
    ("f32[?,?], f32[?,?]", [(30, 29), (29, 17)], np.float32),
    ("f64[?,?,?], f64[?,?]", [(3, 17, 9), (9, 20)], np.float64),
    ("i32[?,2,?,?], i32[2,?,?]", [(2, 2, 19, 5), (2, 5, 23)], np.int32)])
def test_tiled_matmul(sig, shapes, dtype):
    a, b = (rng.integers(-5, 5, s).astype(dtype) for s in shapes)
    got = compiler.compile(mm, sig, target="cuda")(a, b)
    np.testing.assert_allclose(got, a @ b, rtol=1e-5)


def test_kernel_error_names_the_source_line():
    cf = compiler.compile(checked, "f32[?], i64", target="cuda")
    with pytest.raises(IndexError, match="test_ptx.py") as info:
        cf(np.ones(4, np.float32), 10)
    frame = traceback.extract_tb(info.value.__traceback__)[-1]   # as on the CPU
    code = checked.__code__
    assert (frame.filename, frame.lineno, frame.name) == (code.co_filename,
                                                          code.co_firstlineno + 1, "checked")


@pytest.mark.parametrize("cols", [1, 31, 1024, 1025, 70_000])
def test_row_reductions(cols):
    """Rows of at most 1024 elements run a warp each, longer rows a block each."""
    if not ON_GPU[0] and cols > 2000:
        pytest.skip("too large for the simulator")
    x = rng.standard_normal((n(37, 5), cols)).astype(np.float32)
    x[3, cols // 2] = np.nan
    np.testing.assert_allclose(compiler.compile(row_sum, "f32[?,?]", target="cuda")(x),
                               row_sum(x), rtol=1e-5, atol=1e-5)
    for fn in (row_max, row_min):
        np.testing.assert_array_equal(compiler.compile(fn, "f32[?,?]", target="cuda")(x), fn(x))
    np.testing.assert_allclose(compiler.compile(row_mean, "f32[?,?]", target="cuda")(x),
                               row_mean(x), rtol=1e-5, atol=1e-6)
    b = x > 2.5
    np.testing.assert_array_equal(compiler.compile(row_any, "bool[?,?]", target="cuda")(b),
                                  row_any(b))
    i = rng.integers(-1000, 1000, (5, cols)).astype(np.int32)
    np.testing.assert_array_equal(compiler.compile(row_sum, "i32[?,?]", target="cuda")(i),
                                  row_sum(i))


def test_trailing_axes_and_empty_rows():
    t = rng.random((n(6, 3), 40, n(50, 10)))
    np.testing.assert_allclose(compiler.compile(trailing_sum, "f64[?,?,?]", target="cuda")(t),
                               trailing_sum(t), rtol=1e-12)
    cf = compiler.compile(row_max, "f32[?,?]", target="cuda")
    with pytest.raises(ValueError, match="zero-size array"):
        cf(np.zeros((3, 0), np.float32))
