"""NumPy's array-manipulation functions (np.nonzero, np.argwhere, np.flatnonzero,
np.count_nonzero, np.diff, np.roll, np.trace, np.diag, np.tril/np.triu, np.fliplr/np.flipud,
np.rot90), differential against NumPy through ``differential_harness.run_both``: result
dtype, shape, values and Python type, NumPy's errors; hypothesis draws shapes with zero-size
dims, values with NaN, inf and -0.0, axes (negative ones too) and non-contiguous views."""

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

SETTINGS = settings(max_examples=6, deadline=None)

FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64) | st.sampled_from(
    [0.0, -0.0, 1.0, np.nan])


def arrays(min_dims=0, max_dims=3, dtype=np.float64, elements=FLOATS):
    return hnp.arrays(dtype, hnp.array_shapes(min_dims=min_dims, max_dims=max_dims,
                                              min_side=0, max_side=4), elements=elements)


def views(min_dims=0, max_dims=3):
    """An array or a reversed, strided view of one."""
    return st.tuples(arrays(min_dims, max_dims), st.booleans()).map(
        lambda p: p[0][..., ::-1][::2] if p[1] and p[0].ndim else p[0])


# nonzero and counting -----------------------------------------------------------------------

def nonzero(x):
    return np.nonzero(x)


def nonzero_method(x):
    return x.nonzero()


def argwhere(x):
    return np.argwhere(x)


def flatnonzero(x):
    return np.flatnonzero(x)


def count_nonzero(x):
    return np.count_nonzero(x)


def count_nonzero_last(x):
    return np.count_nonzero(x, axis=-1)


def count_nonzero_keep(x):
    return np.count_nonzero(x, axis=(0,), keepdims=True)


@SETTINGS
@given(views(min_dims=1))
def test_nonzero(x):
    run_both(nonzero, (x,))
    run_both(nonzero_method, (x,))


@SETTINGS
@given(views())
def test_argwhere_flatnonzero_count(x):
    run_both(argwhere, (x,))
    run_both(flatnonzero, (x,))
    run_both(count_nonzero, (x,))


@SETTINGS
@given(views(min_dims=1))
def test_count_nonzero_axis(x):
    run_both(count_nonzero_last, (x,))
    run_both(count_nonzero_keep, (x,))


@pytest.mark.parametrize("x", [np.array([0, 3, -1, 0], dtype=np.int8),
                               np.array([[True, False], [False, True]]),
                               np.zeros((2, 0), dtype=np.uint16)])
def test_nonzero_integer_and_bool(x):
    for fn in (nonzero, argwhere, flatnonzero, count_nonzero, count_nonzero_last):
        run_both(fn, (x,))


def test_nonzero_of_0d_is_numpys_error():
    run_both(nonzero, (np.float64(1.0),))
    run_both(argwhere, (np.float64(0.0),))


def count_nonzero_axis1(x):
    return np.count_nonzero(x, axis=1)


def test_count_nonzero_bad_axis():
    run_both(count_nonzero_axis1, (np.ones(3),))


# differences, rolls, diagonals, triangles, flips --------------------------------------------

def diff(x):
    return np.diff(x)


def diff_axis0_twice(x):
    return np.diff(x, n=2, axis=0)


def diff_edges(x):
    return np.diff(x, prepend=-0.0, append=np.inf)


def diff_int_edges(x):
    return np.diff(x, prepend=1, append=np.array([7], dtype=np.int8))


def diff_zero_order(x):
    return np.diff(x, n=0)


def diff_negative_order(x):
    return np.diff(x, n=-1)


@SETTINGS
@given(views(min_dims=1))
def test_diff(x):
    run_both(diff, (x,))
    run_both(diff_edges, (x,))
    run_both(diff_zero_order, (x,))


@SETTINGS
@given(views(min_dims=2))
def test_diff_axis(x):
    run_both(diff_axis0_twice, (x,))


@pytest.mark.parametrize("x", [np.array([1, -128, 127, 5], dtype=np.int8),
                               np.array([True, False, False, True]),
                               np.array([3, 1], dtype=np.uint8)])
def test_diff_dtypes(x):
    run_both(diff, (x,))
    run_both(diff_int_edges, (x,))


def test_diff_errors():
    run_both(diff, (np.float64(1.0),))
    run_both(diff_negative_order, (np.ones(3),))


def roll_flat(x, s):
    return np.roll(x, s)


def roll_last(x, s):
    return np.roll(x, s, axis=-1)


def roll_two(x):
    return np.roll(x, (1, -3), axis=(0, -1))


def roll_repeated_axis(x):
    return np.roll(x, (2, 3), axis=(0, 0))


@SETTINGS
@given(views(), st.integers(-9, 9))
def test_roll(x, s):
    run_both(roll_flat, (x, s))
    if x.ndim:
        run_both(roll_last, (x, s))


@SETTINGS
@given(views(min_dims=2))
def test_roll_tuples(x):
    run_both(roll_two, (x,))
    run_both(roll_repeated_axis, (x,))


def trace(x):
    return np.trace(x)


def trace_offset(x):
    return np.trace(x, 1)


def trace_axes(x):
    return np.trace(x, -1, axis1=-1, axis2=0)


def trace_method(x):
    return x.trace(dtype=np.float32)


def trace_same_axes(x):
    return np.trace(x, 0, 1, 1)


@SETTINGS
@given(views(min_dims=2))
def test_trace(x):
    run_both(trace, (x,))
    run_both(trace_offset, (x,))
    run_both(trace_axes, (x,))
    run_both(trace_method, (x,))


def test_trace_integers_and_errors():
    x = np.arange(-6, 6, dtype=np.int8).reshape(3, 4)
    run_both(trace, (x,))
    run_both(trace, (np.ones(3),))
    run_both(trace_same_axes, (np.ones((2, 2)),))


def diag(x):
    return np.diag(x)


def diag_above(x):
    return np.diag(x, 2)


def diag_below(x):
    return np.diag(x, k=-1)


@SETTINGS
@given(views(min_dims=1, max_dims=2))
def test_diag(x):
    run_both(diag, (x,))
    run_both(diag_above, (x,))
    run_both(diag_below, (x,))


def test_diag_errors_and_dtypes():
    run_both(diag, (np.ones((2, 2, 2)),))
    run_both(diag, (np.float64(1.0),))
    run_both(diag_below, (np.array([True, False]),))
    run_both(diag_above, (np.array([3, -1], dtype=np.int16),))


def tril(x):
    return np.tril(x)


def triu_above(x):
    return np.triu(x, 1)


def tril_run_time_k(x, k):
    return np.tril(x, k)


@SETTINGS
@given(views(min_dims=1), st.integers(-4, 4))
def test_triangles(x, k):
    run_both(tril, (x,))
    run_both(triu_above, (x,))
    run_both(tril_run_time_k, (x, k))


def fliplr(x):
    return np.fliplr(x)


def flipud(x):
    return np.flipud(x)


def fliplr_write(x):
    np.fliplr(x)[0, 0] = 7.0
    return x


def rot90(x):
    return np.rot90(x)


def rot90_back(x):
    return np.rot90(x, -1, axes=(1, 0))


def rot90_twice(x):
    return np.rot90(x, 2)


def rot90_none(x):
    return np.rot90(x, 4)


def rot90_last_axes(x):
    return np.rot90(x, 3, axes=(-1, -2))


@SETTINGS
@given(views(min_dims=2))
def test_flips_and_rotations(x):
    for fn in (fliplr, flipud, rot90, rot90_back, rot90_twice, rot90_none, rot90_last_axes):
        run_both(fn, (x,))


def test_flip_write_reaches_the_array():
    run_both(fliplr_write, (np.arange(6.0).reshape(2, 3),))


def rot90_same_axes(x):
    return np.rot90(x, axes=(0, 0))


def rot90_bad_axes(x):
    return np.rot90(x, axes=(0, 2))


def test_flip_and_rotation_errors():
    run_both(fliplr, (np.ones(3),))
    run_both(flipud, (np.float64(1.0),))
    run_both(rot90_same_axes, (np.ones((2, 2)),))
    run_both(rot90_bad_axes, (np.ones((2, 2)),))
