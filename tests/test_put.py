"""Differential tests of np.put / ndarray.put against NumPy: every mode, negative and
repeated indices (the last write wins), v repeated cyclically, empty v and indices,
N-d targets and non-contiguous views written through to their base, casting into the
target's dtype, and NumPy's errors (IndexError at run time with the elements before the
bad index already written, as NumPy writes them)."""

import warnings

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=20, deadline=None)


def put_raise(a, ind, v):
    np.put(a, ind, v)
    return a


def put_wrap(a, ind, v):
    np.put(a, ind, v, mode="wrap")
    return a.sum()


def put_clip(a, ind, v):
    a.put(ind, v, mode="clip")


def put_view(a, ind, v):
    b = a[:, ::2]
    np.put(b, ind, v)
    return b


def both(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        run_both(fn, args)


FUNCTIONS = [put_raise, put_wrap, put_clip]


@SETTINGS
@given(hnp.arrays(np.int64, st.integers(1, 8), elements=st.integers(-9, 9)),
       hnp.arrays(np.int64, hnp.array_shapes(min_dims=0, max_dims=2, min_side=0, max_side=4),
                  elements=st.integers(-12, 12)),
       hnp.arrays(np.float64, st.integers(0, 3), elements=st.floats(-50, 50)))
def test_modes(a, ind, v):
    """Out-of-range indices wrap, clip, or raise IndexError; float values truncate."""
    for fn in FUNCTIONS:
        both(fn, a, ind, v)


@pytest.mark.parametrize("ind, v", [
    (np.array([0, 0, 3, 0]), np.array([1.5, 2.5])),
    (np.int64(-1), np.float32(7.0)),
    (np.array([], np.int64), np.array([1.0])),
    (np.array([1, 2]), np.array([], np.float64)),
    (np.array([[1, -2], [3, 4]]), np.array([9.0])),
    (np.array([1, 2], np.uint8), np.array([np.nan, np.inf])),
])
def test_cases(ind, v):
    for fn in FUNCTIONS:
        both(fn, np.arange(6.0).reshape(2, 3), ind, v)


def test_view_writes_through_to_its_base():
    both(put_view, np.arange(12.0).reshape(3, 4), np.array([1, 5, -1]), np.array([-1.0, 2.0]))


def test_errors():
    """NumPy's IndexError: the first bad index (those before it written), and an empty
    target; run time for run-time shapes."""
    both(put_raise, np.arange(6), np.array([2, 10, -7]), np.array([1]))
    both(put_raise, np.arange(6), np.array([-7]), np.array([1]))
    for fn in FUNCTIONS:
        both(fn, np.zeros(0), np.array([0]), np.array([1.0]))
    cf = compiler.compile(put_raise, "f64[?], i64[?], f64[?]")
    a = np.zeros(3)
    with pytest.raises(IndexError, match="index 3 is out of bounds for axis 0 with size 3"):
        cf(a, np.array([1, 3]), np.array([5.0]))
    assert a.tolist() == [0.0, 5.0, 0.0]


def bad_mode(a):
    np.put(a, [0], [1], mode="nearest")


def float_indices(a):
    np.put(a, np.array([0.0]), [1])


def test_bad_mode_and_float_indices_are_numpys_errors():
    for fn in (bad_mode, float_indices):
        both(fn, np.arange(3))


def put_python_int(a):
    np.put(a, 3, 9.0)
    a.put(-1, 7)
    return a


def test_python_int_indices():
    run_both(put_python_int, (np.zeros((2, 3)),))
    run_both(put_python_int, (np.zeros(2),))   # index 3 of 2: NumPy's IndexError
