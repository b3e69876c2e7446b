"""Differential tests of for loops over np.ndindex(*shape) / np.ndindex(shape) and
np.ndenumerate(a) against NumPy: C order, tuple and unpacked targets, 0-d and zero-size
shapes, run-time sizes, non-contiguous views, and NumPy's errors."""

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis.extra import numpy as hnp

import compiler


def scaled_copy(a):
    out = np.zeros(a.shape)
    for i, j in np.ndindex(a.shape):
        out[i, j] = a[i, j] * (i + 1) - j
    return out


def index_codes(a):
    s = 0
    for idx in np.ndindex(3, 4):
        s = s * 7 + idx[0] * 10 + idx[1]
    return s


def enumerate_2d(a):
    out = np.zeros(a.shape)
    for (i, j), v in np.ndenumerate(a):
        out[i, j] = v + i * j
    return out


def enumerate_any(a):
    t = np.float64(0.0)
    for idx, v in np.ndenumerate(a):
        t = t * 0.5 + v * (len(idx) + 1)
    return t


def order_of_visits(a):
    out = np.zeros(a.shape, np.int64)
    k = 0
    for idx in np.ndindex(*a.shape):
        out[idx] = k
        k += 1
    return out, k


def degenerate(a):
    c = 0
    for _ in np.ndindex():
        c += 1
    for (k,) in np.ndindex(4):
        c += k
    for _ in np.ndindex(2, 0, 3):
        c += 100
    return c


def negative_size(a):
    for _ in np.ndindex(2, -1):
        pass


@settings(max_examples=15, deadline=None)
@given(hnp.arrays(np.float64, hnp.array_shapes(min_dims=0, max_dims=4, min_side=0,
                                               max_side=3)))
def test_any_shape_in_c_order(a):
    run_both(order_of_visits, (a,))
    run_both(enumerate_any, (np.nan_to_num(a),), rtol=1e-12)


@pytest.mark.parametrize("a", [np.arange(6.0).reshape(2, 3), np.zeros((0, 3)),
                               np.arange(20).reshape(4, 5)[::-1, ::2]])
def test_two_dims(a):
    run_both(scaled_copy, (a,))
    run_both(enumerate_2d, (a,))


def test_constant_shapes_and_degenerate_ones():
    run_both(index_codes, (np.zeros(1),))
    run_both(degenerate, (np.zeros(1),))


def test_run_time_sizes():
    cf = compiler.compile(enumerate_2d, "i64[?,?]")
    for shape in [(4, 3), (1, 7), (0, 2)]:
        a = np.arange(np.prod(shape)).reshape(shape)
        np.testing.assert_array_equal(cf(a), enumerate_2d(a))


def test_negative_size_is_numpys_error():
    run_both(negative_size, (np.zeros(1),))
