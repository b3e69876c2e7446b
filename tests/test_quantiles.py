"""Differential tests of np.quantile / np.percentile (method "linear") against NumPy:
q as a Python number, a NumPy scalar and an array (compile-time and run-time), axis None,
int and tuple, keepdims, every real dtype (NEP 50 result dtypes), NaN, infinities, -0.0,
empty and zero-size dims, non-contiguous views, and NumPy's errors."""

import warnings

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=15, deadline=None)
FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64) | st.sampled_from(
    [0.0, -0.0, 1.0, np.nan, -np.inf])


def both(fn, *args, rtol=None):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        run_both(fn, args, rtol=rtol)


def python_q(a):
    return (np.quantile(a, 0.3), np.percentile(a, 50), np.percentile(a, 0),
            np.quantile(a, 1.0), np.percentile(a, 99.9), np.quantile(a, 1))


def q_lists(a):
    return (np.quantile(a, [0.0, 0.25, 0.5, 1.0]), np.percentile(a, [10, 90]),
            np.percentile(a, (33.3,)), np.quantile(a, [0, 1]))


def runtime_q(a, q):
    return np.quantile(a, q), np.percentile(a, q * 100)


def axes(a):
    return (np.quantile(a, 0.4, axis=0), np.percentile(a, [10, 75], axis=-1),
            np.quantile(a, 0.6, axis=(0, 1)), np.percentile(a, 20, axis=(1, 0), keepdims=True),
            np.quantile(a, [0.5], axis=1, keepdims=True),
            np.quantile(a, 0.9, axis=None, keepdims=True))


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64, np.uint8,
                                   np.uint64, np.float16, np.float32, np.float64])
@pytest.mark.parametrize("shape", [(1,), (7,), (3, 5)])
def test_dtypes(dtype, shape):
    """Integers give float64; float32 stays float32 for a Python q."""
    rng = np.random.default_rng(sum(shape))
    a = (rng.standard_normal(shape) * 50).astype(dtype)
    both(python_q, a)
    both(q_lists, a)


@pytest.mark.parametrize("qtype", [np.float32, np.float64, np.int64, np.bool_])
@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64])
def test_numpy_scalar_and_array_q(qtype, dtype):
    """A NumPy q is not weak: float32 data with float64 q gives float64; an integer q of
    np.quantile takes the elements in the data's dtype."""
    a = np.arange(11, dtype=dtype)[::-1] * dtype(3)
    for q in (qtype(1), qtype(0), np.array([1, 0, 1], dtype=qtype)):
        both(lambda a, q: np.quantile(a, q), a, q)
    if qtype is not np.bool_ and qtype is not np.int64:
        both(runtime_q, a, np.array([0.1, 0.5, 0.77], dtype=qtype))
        both(runtime_q, a, qtype(0.65))


@SETTINGS
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=1, max_dims=1, max_side=9),
                  elements=FLOATS), st.floats(0, 1))
def test_special_floats(a, q):
    """A NaN gives NaN; infinities interpolate as NumPy's lerp does (inf - inf is NaN)."""
    both(python_q, a) if a.size else None
    both(runtime_q, a, np.float64(q)) if a.size else None


@SETTINGS
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=2, max_dims=2, min_side=1,
                                               max_side=5),
                  elements=st.floats(-1e6, 1e6) | st.just(np.nan)), st.booleans())
def test_axes_and_views(a, reverse):
    if reverse:
        a = a[::-1, ::2]
    both(axes, a, rtol=1e-12)


def test_dynamic_shapes():
    """Run-time sizes: one compiled function for every length."""
    cf = compiler.compile(axes, "f64[?,?]")
    for shape in [(1, 1), (4, 3), (6, 2)]:
        a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)[::-1] ** 1.5
        got, want = cf(a), axes(a)
        for g, w in zip(got, want, strict=True):
            np.testing.assert_array_equal(g, w)
            assert g.dtype == w.dtype and g.shape == w.shape


def test_three_dims_tuple_axis():
    a = np.random.default_rng(3).standard_normal((2, 3, 4))
    both(lambda a: (np.percentile(a, [5, 50], axis=(0, 2)),
                    np.quantile(a, 0.5, axis=(0, 2), keepdims=True),
                    np.quantile(a, 0.1, axis=(2, 0, 1))), a)
    both(lambda a: np.quantile(a[:, ::-1, ::2], np.float32(0.5), axis=(0, 2)), a)


def test_zero_d_and_scalar_data():
    both(python_q, np.array(2.5))
    both(python_q, np.float32(-0.0))
    both(python_q, np.int64(7))


def quantile_q(a, q):
    return np.quantile(a, q)


def percentile_q(a, q):
    return np.percentile(a, q)


@pytest.mark.parametrize("fn, q", [
    (quantile_q, np.float64(1.5)), (quantile_q, np.float64(-0.1)),
    (quantile_q, np.float64(np.nan)), (quantile_q, np.array([0.2, 1.01])),
    (percentile_q, np.float64(101.0)), (percentile_q, np.array([-1.0, 50.0])),
])
def test_q_out_of_range_raises_at_run_time(fn, q):
    both(fn, np.arange(4.0), q)


@pytest.mark.parametrize("fn", [
    lambda a: np.percentile(a, 150),
    lambda a: np.quantile(a, -0.5),
    lambda a: np.quantile(a, [0.5, 2]),
    lambda a: np.percentile(a, [np.nan]),
    lambda a: np.quantile(a, 0.5, axis=(0, 0)),
    lambda a: np.quantile(a.astype(np.complex128), 0.5),
    lambda a: np.quantile(a > 1, 0.5),
])
def test_numpys_errors(fn):
    both(fn, np.arange(4.0))


def test_empty_input():
    """NumPy's IndexError for an empty slice; its reshape error when a kept axis of a
    multi-axis reduction has size 0."""
    both(python_q, np.zeros(0))
    both(lambda a: np.quantile(a, 0.5), np.zeros(0, np.int64))
    both(lambda a: np.quantile(a, 0.5, axis=1), np.zeros((3, 0)))
    both(lambda a: np.quantile(a, 0.5, axis=0), np.zeros((0, 3)))
    both(lambda a: np.quantile(a, 0.5, axis=(0, 2)), np.zeros((2, 0, 3)))
    both(lambda a: np.quantile(a, [0.2, 0.5], axis=0), np.zeros((3, 0)))


def test_options_not_supported_are_compile_errors():
    for fn in (lambda a: np.quantile(a, 0.5, method="nearest"),
               lambda a: np.quantile(a, 0.5, out=a)):
        with pytest.raises(compiler.CompileError):
            compiler.function(fn)(np.arange(3.0))
