"""Float max/min reductions (np.max, np.min, np.amax, axis variants, softmax's row max)
against NumPy, with the zero-sign rule grafo documents: NumPy's sign of a zero max/min
varies with length and stride, grafo's is IEEE maximum/minimum's (+0.0 for a max over data
holding a +0.0, -0.0 for a min over data holding a -0.0). The loops ignore zero signs and
rescan a zero result (lowering/reduction.py), so these tests mix zeros, NaN and infinities
in every position."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler

SPECIAL = [0.0, -0.0, np.nan, np.inf, -np.inf, 1.5, -2.25, 5e-45]


def full_max(x):
    return np.max(x)


def full_min(x):
    return np.min(x)


def row_max(x):
    return np.max(x, axis=-1)


def row_min(x):
    return np.min(x, axis=-1, keepdims=True)


def col_max(x):
    return np.max(x, axis=0)


def ieee_reduce(x, axis, big):
    """The reference: NumPy's values, with IEEE's sign for a zero result."""
    with np.errstate(invalid="ignore"):
        want = np.max(x, axis=axis) if big else np.min(x, axis=axis)
    data = np.moveaxis(x, axis, -1) if axis is not None else x.reshape(1, -1)
    pos = (data == 0) & ~np.signbit(data)
    neg = (data == 0) & np.signbit(data)
    seen = (pos if big else neg).any(axis=-1)
    zero = np.where(seen, 0.0 if big else -0.0, -0.0 if big else 0.0).astype(x.dtype)
    want = np.asarray(want)
    return np.where(want == 0, zero.reshape(want.shape), want)


def same_bits_or_nan(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype and got.shape == want.shape
    nan = np.isnan(want)
    assert np.array_equal(np.isnan(got), nan)
    assert np.array_equal(got[~nan], want[~nan])
    assert np.array_equal(np.signbit(got[~nan]), np.signbit(want[~nan])), (got, want)


values = st.lists(st.sampled_from(SPECIAL) | st.floats(-1e3, 1e3, width=32), min_size=1,
                  max_size=300)


@settings(max_examples=30, deadline=None)
@given(values, st.sampled_from([np.float32, np.float64]))
def test_full_reductions(xs, dtype):
    x = np.array(xs, dtype=dtype)
    for fn, big in ((full_max, True), (full_min, False)):
        got = compiler.function(fn)(x)
        same_bits_or_nan(got, ieee_reduce(x, None, big).reshape(()))


@settings(max_examples=20, deadline=None)
@given(st.integers(1, 7), st.integers(1, 130), st.data())
def test_row_and_column_reductions(rows, cols, data):
    flat = data.draw(st.lists(st.sampled_from(SPECIAL), min_size=rows * cols,
                              max_size=rows * cols))
    x = np.array(flat, dtype=np.float32).reshape(rows, cols)
    same_bits_or_nan(compiler.function(row_max)(x), ieee_reduce(x, -1, True))
    same_bits_or_nan(compiler.function(row_min)(x)[:, 0], ieee_reduce(x, -1, False))
    same_bits_or_nan(compiler.function(col_max)(x), ieee_reduce(x, 0, True))


@pytest.mark.parametrize("n", [1, 15, 16, 17, 79, 80, 81, 500, 4097])
def test_zero_results_at_vector_lengths(n):
    """Every length around the vector loop's width and remainder: all -0.0 but one +0.0
    (anywhere) gives +0.0 for max; all +0.0 but one -0.0 gives -0.0 for min."""
    f_max, f_min = compiler.function(full_max), compiler.function(full_min)
    for k in sorted({0, n // 2, n - 1}):
        x = np.full(n, -0.0, np.float32)
        x[k] = 0.0
        assert f_max(x) == 0 and not np.signbit(f_max(x))
        assert np.signbit(f_max(np.full(n, -0.0, np.float32)))
        y = np.zeros(n, np.float32)
        y[k] = -0.0
        assert f_min(y) == 0 and np.signbit(f_min(y))
        assert not np.signbit(f_min(np.zeros(n, np.float32)))


def test_strided_views():
    x = np.random.default_rng(5).standard_normal((40, 90)).astype(np.float32)
    x[::3, ::7] = -0.0
    x[5, :] = -0.0
    x[5, 40] = 0.0
    view = x[::2, ::-3]
    same_bits_or_nan(compiler.function(row_max)(view), ieee_reduce(view, -1, True))
    same_bits_or_nan(compiler.function(full_min)(view), ieee_reduce(view, None, False).reshape(()))
