"""Differential tests against NumPy of np.bincount, np.histogram, np.digitize, np.interp,
np.average, np.cov and np.corrcoef: dtypes, shapes, values (histogram counts and edges bit
for bit), Python types of scalar results and NumPy's errors, on NaN, infinities, -0.0,
empty and zero-size inputs, non-contiguous and negative-stride views."""

import warnings

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=8, deadline=None)
SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.5, 2.5]


def both(fn, *args, rtol=None):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_both(fn, args, rtol=rtol)


def floats(n, seed=0, dtype=np.float64, special=False):
    rng = np.random.default_rng(seed)
    a = rng.standard_normal(n).astype(dtype)
    if special and n:
        a[rng.integers(0, n, max(n // 5, 1))] = rng.choice(SPECIAL, max(n // 5, 1))
    return a


# np.bincount ---------------------------------------------------------------------------------

def bincount(x):
    return np.bincount(x)


def bincount_min(x):
    return np.bincount(x, minlength=7)


def bincount_weights(x, w):
    return np.bincount(x, weights=w)


def bincount_weights_min(x, w):
    return np.bincount(x, w, 12)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64, np.bool_])
def test_bincount_dtypes(dtype):
    x = np.array([0, 1, 1, 3, 1, 0, 1], dtype=dtype)
    both(bincount, x)
    both(bincount_min, x)
    both(bincount_weights, x, np.linspace(-1, 2, 7).astype(np.float32))


def test_bincount_views_and_empty():
    x = np.arange(40) % 9
    both(bincount, x[::3])
    both(bincount, x[::-2])
    both(bincount_weights_min, x[::-1], floats(40, 1, special=True)[::-1])
    both(bincount_min, np.zeros(0, np.int64))
    both(bincount, np.zeros(0, np.int64))


def test_bincount_errors():
    both(bincount, np.array([3, -1, 2]))
    both(bincount_weights, np.array([1, 2]), np.array([1.0]))
    both(bincount, np.array([1.0, 2.0]))
    both(bincount, np.array([[1, 2]]))
    both(bincount, np.array(1))

    def negative_minlength(x):
        return np.bincount(x, minlength=-1)
    both(negative_minlength, np.array([1, 2]))


def test_bincount_weights_add_in_input_order():
    x = np.zeros(1000, np.int64)
    w = floats(1000, 2) * 1e10
    both(bincount_weights, x, w, rtol=0)


@SETTINGS
@given(hnp.arrays(np.int64, st.integers(0, 60), elements=st.integers(0, 30)))
def test_bincount_hypothesis(x):
    both(bincount, x)
    both(bincount_weights, x, np.linspace(0, 1, len(x)))


# np.histogram -------------------------------------------------------------------------------

def hist(a):
    return np.histogram(a)


def hist_bins(a):
    return np.histogram(a, bins=37)


def hist_range(a):
    return np.histogram(a, bins=8, range=(-1.0, 1.5))


def hist_int_range(a):
    return np.histogram(a, bins=5, range=(0, 7))


def hist_equal_range(a):
    return np.histogram(a, bins=3, range=(2.0, 2.0))


def hist_edges(a, e):
    return np.histogram(a, bins=e)


def hist_density(a):
    return np.histogram(a, bins=6, density=True)


def hist_weights(a, w):
    return np.histogram(a, bins=9, weights=w)


def hist_weights_edges(a, w, e):
    return np.histogram(a, e, weights=w, density=False)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.float16, np.int8, np.int64,
                                   np.uint8, np.uint64, np.bool_])
def test_histogram_uniform_exact(dtype):
    rng = np.random.default_rng(3)
    a = (rng.standard_normal(3000) * 40).astype(dtype)
    for fn in (hist, hist_bins, hist_range, hist_int_range, hist_equal_range, hist_density):
        both(fn, a, rtol=0)


def test_histogram_values_on_edges():
    a = np.linspace(-1.0, 1.5, 81)  # many values fall exactly on an edge
    for fn in (hist, hist_bins, hist_range):
        both(fn, a, rtol=0)
        both(fn, a.astype(np.float32), rtol=0)
    both(hist, np.full(10, 3.0), rtol=0)      # min == max widens the range by 0.5
    both(hist, np.full(10, 3, np.int16), rtol=0)


def test_histogram_out_of_range_and_special():
    a = floats(500, 4, special=True)
    both(hist_range, a, rtol=0)               # NaN and infinities outside the range
    both(hist_edges, a, np.array([-np.inf, -1.0, 0.0, 0.0, 2.0, np.inf]), rtol=0)


def test_histogram_views_empty_zero_size():
    a = floats(401, 5)
    both(hist, a[::3], rtol=0)
    both(hist, a[::-1], rtol=0)
    both(hist_range, a.reshape(1, 401)[:, ::-2], rtol=0)
    both(hist, np.zeros(0), rtol=0)
    both(hist_range, np.zeros((3, 0)), rtol=0)
    both(hist_edges, np.zeros(0), np.array([0.0, 1.0]), rtol=0)


def test_histogram_edges():
    a = floats(700, 6)
    both(hist_edges, a, np.array([-2.0, -0.5, 0.0, 0.1, 3.0]), rtol=0)
    both(hist_edges, a, np.array([-1, 0, 2]), rtol=0)
    both(hist_edges, (a * 10).astype(np.int32), np.array([-5.5, 0.0, 5.0]), rtol=0)
    both(hist_edges, a, np.array([0.0, 0.0, 1.0, 1.0]), rtol=0)
    both(hist_edges, a, np.array([1.0, 0.0]))         # decreasing: ValueError


def test_histogram_weights():
    a = floats(2000, 7, special=True)
    w = floats(2000, 8)
    both(hist_range_weights, a, w)
    both(hist_weights, floats(2000, 9), w, rtol=0)
    both(hist_weights, floats(2000, 9), w.astype(np.float32), rtol=0)
    both(hist_weights, floats(2000, 9), (w * 10).astype(np.int16), rtol=0)
    both(hist_weights_edges, a, w, np.array([-1.0, 0.0, 0.5, 2.0]))


def hist_range_weights(a, w):
    return np.histogram(a, bins=4, range=(-2, 2), weights=w, density=True)


def test_histogram_weights_in_blocks():
    """NumPy sums weights per block of 65536 elements and adds the block sums."""
    n = 65536 * 2 + 1000
    a = np.random.default_rng(10).random(n)
    w = np.random.default_rng(11).random(n) * 1e8
    both(hist_weights, a, w, rtol=0)
    both(hist_weights, a, w.astype(np.float32), rtol=0)


def test_histogram_errors():
    def zero_bins(a):
        return np.histogram(a, bins=0)

    def bad_range(a):
        return np.histogram(a, range=(1.0, 0.0))

    def infinite_range(a):
        return np.histogram(a, range=(0.0, np.inf))

    def two_d_bins(a):
        return np.histogram(a, bins=np.ones((2, 2)))

    def too_many(a):
        return np.histogram(a, bins=10, range=(0.0, 1e-320))

    a = floats(10)
    for fn in (zero_bins, bad_range, infinite_range, two_d_bins, too_many):
        both(fn, a)
    both(hist_weights, a, floats(9))
    with pytest.raises(ValueError):          # NumPy's message names the non-finite values
        compiler.function(hist)(np.array([1.0, np.nan]))


@SETTINGS
@given(hnp.arrays(np.float64, st.integers(0, 80),
                  elements=st.floats(-1e6, 1e6, allow_subnormal=False)),
       st.integers(1, 50))
def test_histogram_hypothesis(a, bins):
    def fn(a):
        return np.histogram(a, bins=bins)

    def ranged(a):
        return np.histogram(a, bins=bins, range=(-3.0, 7.0))
    both(fn, a, rtol=0)
    both(ranged, a, rtol=0)


@SETTINGS
@given(hnp.arrays(np.float32, st.integers(0, 80), elements=st.sampled_from(
    [0.0, -0.0, 1.0, 0.5, -2.5, 3.25, np.nan, np.inf, -np.inf, 0.1, 7.0])))
def test_histogram_special_hypothesis(a):
    both(hist_range, a, rtol=0)
    both(hist_edges, a, np.array([-1.0, 0.0, 0.5, 3.25, 7.0], np.float32), rtol=0)


EQUAL_BIN_VALUES = [0.0, -0.0, 1.0, -1.0, 0.1, 2.5, -3.75, 1e-30, 7.0, 3.0, 2.9999998]


@SETTINGS
@given(st.sampled_from([np.float64, np.float32]), st.integers(1, 23), st.data())
def test_histogram_equal_bins_hypothesis(dtype, bins, data):
    """The one-loop equal-bin count: duplicates, values on edges, all-equal, sorted and
    reversed data, NaN and infinities outside a given range."""
    a = data.draw(hnp.arrays(dtype, st.integers(0, 70), elements=st.sampled_from(
        EQUAL_BIN_VALUES + [np.nan, np.inf, -np.inf])))
    order = data.draw(st.sampled_from(["as drawn", "sorted", "reversed"]))
    a = np.sort(a) if order == "sorted" else np.sort(a)[::-1] if order == "reversed" else a

    def fn(a):
        return np.histogram(a, bins=bins)

    def ranged(a):
        return np.histogram(a, bins=bins, range=(-1.0, 3.0))

    def edged(a, e):
        return np.histogram(a, e)
    both(fn, np.where(np.isfinite(a), a, dtype(2.5)), rtol=0)
    both(ranged, a, rtol=0)
    edges = np.unique(np.array(data.draw(st.lists(st.sampled_from(EQUAL_BIN_VALUES),
                                                  min_size=1, max_size=6)), dtype))
    both(edged, a, edges, rtol=0)


# np.digitize --------------------------------------------------------------------------------

def digitize(x, b):
    return np.digitize(x, b)


def digitize_right(x, b):
    return np.digitize(x, b, right=True)


def test_digitize():
    x = floats(200, 12, special=True)
    for b in ([-1.0, 0.0, 0.0, 1.0, 2.5], [2.5, 1.0, 0.0, 0.0, -1.0], [1.0], [3.0, 3.0],
              [np.nan, 2.0, 1.0], [1.0, 2.0, np.nan], [np.nan]):
        b = np.array(b)
        both(digitize, x, b)
        both(digitize_right, x, b)
        both(digitize, x[::-3], b[::-1])
    both(digitize, np.array([1, 5, -3]), np.array([0, 2, 4]))
    both(digitize, np.float64(0.5), np.array([0.0, 1.0]))
    both(digitize, np.zeros((2, 0)), np.array([0.0, 1.0]))
    both(digitize, x, np.zeros(0))
    both(digitize, x, np.array([0.0, 2.0, 1.0]))     # not monotonic: ValueError


@SETTINGS
@given(hnp.arrays(np.float64, st.integers(0, 30), elements=st.sampled_from(SPECIAL)),
       hnp.arrays(np.float64, st.integers(0, 6), elements=st.sampled_from(SPECIAL)))
def test_digitize_hypothesis(x, b):
    both(digitize, x, np.sort(b))
    both(digitize_right, x, np.sort(b)[::-1])


# np.interp ----------------------------------------------------------------------------------

def interp(x, xp, fp):
    return np.interp(x, xp, fp)


def interp_fill(x, xp, fp):
    return np.interp(x, xp, fp, left=-7.0, right=np.float32(9.5))


def interp_period(x, xp, fp):
    return np.interp(x, xp, fp, period=-360)


def test_interp():
    x = np.concatenate([np.linspace(-3, 5, 101), [np.nan, np.inf, -np.inf, -0.0]])
    xp = np.array([-2.0, -1.0, 0.0, 0.5, 2.0, 4.0])
    fp = np.array([1.0, -1.0, 3.0, np.inf, 2.0, -np.inf])
    for f in (interp, interp_fill):
        both(f, x, xp, fp)
        both(f, x[::-2], xp, fp)
        both(f, x, xp.astype(np.int32), fp.astype(np.float32))
        both(f, x, xp[:1], fp[:1])
        both(f, x, xp[:2], np.array([np.nan, 1.0]))
        both(f, np.float64(0.25), xp, fp)
        both(f, 0.75, xp, fp)
        both(f, np.zeros((2, 0)), xp, fp)
    both(interp, x, xp, fp[:-1])
    both(interp, x, np.zeros(0), np.zeros(0))
    both(interp_period, np.linspace(-720, 720, 77), np.array([350.0, 10.0, 100.0, 190.0]),
         np.array([0.0, 1.0, 5.0, -2.0]))

    def zero_period(x, xp, fp):
        return np.interp(x, xp, fp, period=0)
    both(zero_period, x, xp, fp)


@SETTINGS
@given(hnp.arrays(np.float64, st.integers(0, 20),
                  elements=st.floats(-10, 10) | st.sampled_from(SPECIAL)),
       st.lists(st.floats(-8, 8), min_size=1, max_size=8, unique=True),
       st.data())
def test_interp_hypothesis(x, xp, data):
    xp = np.sort(np.array(xp))
    fp = data.draw(hnp.arrays(np.float64, len(xp), elements=st.floats(-1e3, 1e3)
                              | st.sampled_from(SPECIAL)))
    both(interp, x, xp, fp, rtol=1e-12)


# np.average, np.cov, np.corrcoef ------------------------------------------------------------

def average(a):
    return np.average(a)


def average_axis(a):
    return np.average(a, axis=1, keepdims=True)


def average_returned(a):
    return np.average(a, axis=0, returned=True)


def average_weights(a, w):
    return np.average(a, weights=w, returned=True)


def average_axis_weights(a, w):
    return np.average(a, axis=1, weights=w, returned=True)


def average_axes_weights(a, w):
    return np.average(a, axis=(2, 0), weights=w)


def test_average():
    a = floats(60, 13, special=True).reshape(4, 15)
    both(average, a)
    both(average, a.astype(np.float32))
    both(average, (floats(60, 13) * 10).astype(np.int16).reshape(4, 15).T)
    both(average_axis, a[:, ::-2])
    both(average_returned, a)
    both(average_returned, np.ones((0, 3)))
    both(average_weights, a, floats(60, 14).reshape(4, 15))
    both(average_axis_weights, a, np.arange(15.0))
    both(average_axis_weights, np.arange(60, dtype=np.int8).reshape(4, 15),
         np.arange(15, dtype=np.float32))
    both(average_axes_weights, floats(24, 15).reshape(2, 3, 4), np.ones((4, 2)))


def test_average_errors():
    a = floats(12).reshape(3, 4)
    both(average_weights, a, np.ones(4))                       # TypeError: axis needed
    both(average_axis_weights, a, np.ones(3))                  # ValueError: shape
    both(average_axis_weights, a, np.array([1.0, -1.0, 0.0, 0.0]))  # ZeroDivisionError
    both(average_returned, np.ones((3, 0)))                    # ZeroDivisionError


def cov(m):
    return np.cov(m)


def cov_cols(m, y):
    return np.cov(m, y, rowvar=False)


def cov_options(m):
    return np.cov(m, bias=True), np.cov(m, ddof=3)


def cov_weights(m, f, a):
    return np.cov(m, fweights=f, aweights=a), np.cov(m, fweights=f), np.cov(m, aweights=a,
                                                                           ddof=0)


def corrcoef(m):
    return np.corrcoef(m)


def corrcoef_xy(x, y):
    return np.corrcoef(x, y, rowvar=False)


def test_cov_and_corrcoef():
    m = floats(40, 16).reshape(4, 10)
    both(cov, m, rtol=1e-12)
    both(cov, m[::-1, ::2], rtol=1e-12)
    both(cov, (m * 100).astype(np.int32), rtol=1e-12)
    both(cov, m[0], rtol=1e-12)                   # one variable: a 0-d array
    both(cov_cols, m.T.copy(), m[:2].T.copy(), rtol=1e-12)
    both(cov_options, m, rtol=1e-12)
    both(cov_options, m[:, :2], rtol=1e-12)       # ddof >= samples: inf and NaN
    both(cov_weights, m, np.array([1, 2, 1, 3, 1, 1, 2, 1, 1, 4]), floats(10, 17) ** 2,
         rtol=1e-12)
    both(corrcoef, m, rtol=1e-12)
    both(corrcoef, m[1], rtol=1e-12)
    both(corrcoef, np.array([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [1.0, 1.0, 1.0]]), rtol=1e-12)
    both(corrcoef_xy, m.T.copy(), m[:, ::-1].T.copy(), rtol=1e-12)
    m[1, 3] = np.nan
    both(cov, m, rtol=1e-12)
    both(corrcoef, m, rtol=1e-12)


def test_cov_errors():
    m = floats(12).reshape(3, 4)
    both(cov, np.ones((2, 2, 2)))
    both(cov_weights, m, np.array([1.0, 2.5, 1.0, 1.0]), np.ones(4))
    both(cov_weights, m, np.array([1, -2, 1, 1]), np.ones(4))
    both(cov_weights, m, np.array([1, 2, 1]), np.ones(3))

    def bad_ddof(m):
        return np.cov(m, ddof=1.5)
    both(bad_ddof, m)


@SETTINGS
@given(hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(2, 12)),
                  elements=st.floats(-1e3, 1e3)))
def test_cov_hypothesis(m):
    both(cov, m, rtol=1e-9)
    both(corrcoef, m, rtol=1e-9)


def test_bincount_op_types():
    from compiler import types as T
    from compiler.dialects.np_data import BinCountOp
    vec = T.TensorType((None,), T.i64)
    weights = T.TensorType((5,), T.f64)
    assert BinCountOp.infer([vec], {"minlength": 0}) == [vec]
    assert BinCountOp.infer([vec, weights], {"minlength": 3}) == [T.TensorType((None,), T.f64)]
    for bad in ([T.TensorType((None,), T.i32)], [T.TensorType((2, 2), T.i64)],
                [vec, T.TensorType((5,), T.f32)], [vec, weights, weights]):
        with pytest.raises(TypeError):
            BinCountOp.infer(bad, {"minlength": 0})


def test_complex_inputs():
    z = np.array([1 + 2j, 3 - 1j, 0.5j])
    both(average, z)
    both(average_weights, z, np.array([1.0, 2.0, 0.5]))
    both(bincount_weights, np.array([0, 1, 1]), z)           # NumPy's TypeError
    both(digitize, z, np.array([0.0, 1.0]))                  # TypeError "x may not be complex"
    for fn, args in ((hist, (z,)), (interp, (z.real, z.real, z)), (cov, (z,)),
                     (corrcoef, (np.stack([z, z * 2]),))):
        with pytest.raises(compiler.CompileError, match="complex values is not supported|"
                           "complex values are not supported"):
            compiler.function(fn)(*args)
