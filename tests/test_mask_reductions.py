"""``x[mask].sum()``, ``x[mask].mean()`` and ``len(x[mask])`` with a mask over every dim of
``x`` (``compiler/dialects/canonicalization/masks.py``: one loop over ``x`` and ``mask``, no
gather), against NumPy: dtype, shape and values, NaN/inf/-0.0, empty and zero-size inputs,
non-contiguous views, negative integers, and NumPy's IndexError for a mask of other dims."""

import warnings

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=30, deadline=None)


def masked_sum(x, m):
    return x[m].sum()


def masked_mean(x, m):
    return x[m].mean()


def masked_len(x, m):
    return len(x[m])


def band_mean(r, v, lo, hi):
    m = (lo <= r) & (r < hi)
    return v[m].mean()


def _eager(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # the mean of nothing is NaN
        return fn(*args)


def _same(got, want, rtol=1e-12):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    if np.issubdtype(want.dtype, np.floating):
        np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-12, equal_nan=True)
        exact = (want == 0) | np.isinf(want)   # the sign of a NaN is not NumPy's to define
        np.testing.assert_array_equal(np.signbit(got[exact]), np.signbit(want[exact]))
    else:
        np.testing.assert_array_equal(got, want)


floats = hnp.arrays(np.float64, st.integers(0, 40),
                    elements=st.floats(allow_nan=True, allow_infinity=True, width=64)
                    | st.sampled_from([0.0, -0.0, 1.5]))


@SETTINGS
@given(floats, st.data())
@pytest.mark.parametrize("fn", [masked_sum, masked_mean, masked_len])
def test_float_mask_reductions_match_numpy(fn, x, data):
    m = data.draw(hnp.arrays(np.bool_, x.shape))
    with np.errstate(all="ignore"):
        want = _eager(fn, x, m)
        got = compiler.function(fn)(x, m)
    _same(got, want)


@SETTINGS
@given(hnp.arrays(np.int64, st.integers(0, 40), elements=st.integers(-2**40, 2**40)),
       st.data())
def test_integer_masked_sum_matches_numpy(x, data):
    m = data.draw(hnp.arrays(np.bool_, x.shape))
    _same(compiler.function(masked_sum)(x, m), masked_sum(x, m))


@pytest.mark.parametrize("dt", [np.float32, np.int32, np.int8, np.uint16])
def test_dtypes_match_numpy(dt):
    rng = np.random.default_rng(0)
    x = (rng.standard_normal(100) * 50).astype(dt)
    m = rng.random(100) < 0.4
    for fn in (masked_sum, masked_mean):
        _same(compiler.function(fn)(x, m), _eager(fn, x, m), rtol=1e-5)


def test_only_negative_zeros_keep_their_sign():
    x = np.array([-0.0, 3.0, -0.0])
    m = np.array([True, False, True])
    _same(compiler.function(masked_sum)(x, m), masked_sum(x, m))
    _same(compiler.function(masked_mean)(x, m), masked_mean(x, m))


def test_two_dimensional_mask_and_strided_views():
    rng = np.random.default_rng(1)
    x = rng.standard_normal((9, 14))[::2, 1::3]
    m = (rng.random((10, 5)) < 0.5)[::2, :]
    for fn in (masked_sum, masked_mean, masked_len):
        _same(compiler.function(fn)(x, m), _eager(fn, x, m))
    z = np.empty((0, 3))
    for fn in (masked_sum, masked_mean, masked_len):
        _same(compiler.function(fn)(z, z > 0), _eager(fn, z, z > 0))


@pytest.mark.parametrize("fn", [masked_sum, masked_mean, masked_len])
def test_mask_of_other_length_raises_numpys_index_error(fn):
    x, m = np.arange(5.0), np.ones(4, dtype=bool)
    with pytest.raises(IndexError) as want:
        fn(x, m)
    with pytest.raises(IndexError) as got:
        compiler.function(fn)(x, m)
    assert str(want.value) in str(got.value)


def test_mask_of_other_shape_raises_on_the_second_axis():
    x, m = np.ones((3, 4)), np.ones((3, 5), dtype=bool)
    with pytest.raises(IndexError, match="along axis 1; size of axis is 4 but size of "
                                         "corresponding boolean axis is 5"):
        compiler.function(masked_sum)(x, m)


def test_band_mean_in_a_loop_matches_numpy():
    rng = np.random.default_rng(2)
    r, v = rng.random(2000), rng.standard_normal(2000)
    f = compiler.function(band_mean)
    for lo, hi in [(0.0, 0.1), (0.5, 0.5), (0.9, 2.0), (-1.0, 0.0)]:
        _same(f(r, v, np.float64(lo), np.float64(hi)),
              _eager(band_mean, r, v, np.float64(lo), np.float64(hi)))


@pytest.mark.parametrize("fn", [masked_sum, masked_mean, masked_len])
@pytest.mark.parametrize("n", [4, 1])
def test_dynamic_mask_of_other_length_raises_at_run_time(fn, n):
    x, m = np.arange(5.0), np.ones(n, dtype=bool)   # a length-1 mask does not broadcast
    cf = compiler.compile(fn, "f64[?], bool[?]")
    with pytest.raises(IndexError) as want:
        fn(x, m)
    with pytest.raises(IndexError) as got:
        cf(x, m)
    assert str(want.value) in str(got.value)
    _same(cf(x, x > 1.0), _eager(fn, x, x > 1.0))
