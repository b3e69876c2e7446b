"""The TensorFlow guide examples and real kernels, compiled unchanged, against NumPy."""

import kernels as K
import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

finite32 = st.floats(-100, 100, width=32)


def compiled_equals_eager(fn, *args, rtol=None, atol=None):
    want = fn(*args)
    got = compiler.function(fn)(*args)
    assert_same(got, want, rtol, atol)
    return got


def test_a_regular_function():
    rng = np.random.default_rng(1)
    x, y, b = (rng.standard_normal(s).astype(np.float32) for s in [(1, 2), (2, 2), (1, 2)])
    compiled_equals_eager(K.a_regular_function, x, y, b)


def test_outer_calls_inner():
    got = compiled_equals_eager(K.outer_function, np.array([[1.0, 2.0]]))
    assert got.tolist() == [[12.0]]  # the guide's printed value


@pytest.mark.parametrize("x", [np.float32(3.0), np.float32(-2.5), np.float64(0.0)])
def test_simple_relu_data_dependent_if(x):
    compiled_equals_eager(K.simple_relu, x)


def test_my_relu_polymorphism():
    f = compiler.function(K.my_relu)
    inputs = [5.5, np.array([1.0, -1.0]), np.array([3.0, -3.0], dtype=np.float32)]
    for x in inputs:
        assert_same(f(x), K.my_relu(x))
    assert len(f.concrete_functions()) == 3
    for x in inputs:  # same signatures again: no new specialization
        f(x)
    assert f.tracing_count == 3
    assert f(np.array([7.0, -7.0])).tolist() == [7.0, 0.0]
    assert f.tracing_count == 3
    lines = f.pretty_printed_concrete_signatures().splitlines()
    assert len(lines) == 3 and "x=5.5" in lines[0] and "f64[2]" in lines[1]


def test_get_mse_int32():
    rng = np.random.default_rng(2)
    y_true = rng.integers(0, 100, 50, dtype=np.int32)
    y_pred = rng.integers(0, 100, 50, dtype=np.int32)
    got = compiled_equals_eager(K.get_MSE, y_true, y_pred)
    assert got.dtype == np.float64


def test_power_int32_wraps_like_numpy():
    x = np.random.default_rng(3).integers(-5, 6, (10, 10), dtype=np.int32)
    got = compiled_equals_eager(K.power, x, 100)
    assert got.dtype == np.int32


def test_unused_out_of_range_gather_is_not_executed():
    x = np.array([1.0])
    with pytest.raises(IndexError):
        K.unused_return(x)
    assert_same(compiler.function(K.unused_return)(x), x)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float64, st.integers(2, 200), elements=st.floats(-10, 10)))
def test_rosenbrock(x):
    compiled_equals_eager(K.rosenbrock, x, rtol=1e-12)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=2, max_dims=2, max_side=40),
                  elements=finite32))
def test_row_l2_norm(a):
    compiled_equals_eager(K.row_l2_norm, a, rtol=1e-5)


@settings(max_examples=25, deadline=None)
@given(hnp.arrays(np.float32, hnp.array_shapes(min_dims=1, max_dims=3, max_side=20),
                  elements=finite32))
def test_softmax(x):
    compiled_equals_eager(K.softmax, x, rtol=1e-5)


def test_softmax_non_contiguous():
    x = np.random.default_rng(4).standard_normal((64, 48)).astype(np.float32)
    compiled_equals_eager(K.softmax, x.T, rtol=1e-5)
    compiled_equals_eager(K.softmax, x[::-2, 1::3], rtol=1e-5)


@settings(max_examples=20, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=3,
                                               max_side=30), elements=st.floats(-5, 5)))
def test_laplacian(img):
    want = K.laplacian(img)
    if not np.all(np.isfinite(want)):
        return  # an all-zero Laplacian divides 0 by 0; covered by NaN tests elsewhere
    compiled_equals_eager(K.laplacian, img, rtol=1e-12)


def test_go_fast():
    a = np.arange(100.0).reshape(10, 10)
    compiled_equals_eager(K.go_fast, a)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_gemm(dtype):
    rng = np.random.default_rng(5)
    a = rng.standard_normal((33, 17)).astype(dtype)
    b = rng.standard_normal((17, 18)).astype(dtype)
    c = rng.standard_normal((33, 18)).astype(dtype)
    # Summation order differs from BLAS: bound the error by the magnitude of the terms.
    scale = 1.5 * np.abs(a) @ np.abs(b) + 0.5 * np.abs(c)
    eps = np.finfo(dtype).eps
    got = compiler.function(K.gemm)(1.5, a, b, 0.5, c)
    want = K.gemm(1.5, a, b, 0.5, c)
    assert got.dtype == want.dtype and got.shape == want.shape
    assert np.all(np.abs(got - want) <= 4 * a.shape[1] * eps * scale)


def test_mse_compile_with_signature_string():
    cf = compiler.compile(K.mse, "f32[?], f32[?]")
    rng = np.random.default_rng(6)
    for n in (1, 7, 1000):
        a, b = rng.standard_normal(n).astype(np.float32), rng.standard_normal(n).astype(
            np.float32)
        assert_same(cf(a, b), K.mse(a, b), rtol=1e-5)
