"""Differential tests of slices whose bounds are known only at run time: ``a[lo:hi:step]``
with NumPy-scalar bounds, bounds that are None on some paths (``a[:k or None]``), negative
and out-of-range bounds and steps, 0-d integer arrays as bounds, for reads and for
assignment targets, in one and two dims (NumPy's ``slice.indices`` clipping). Each function
runs eagerly and compiled on copies of the same inputs (differential_harness)."""

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler

INT64_MIN, INT64_MAX = -(2 ** 63), 2 ** 63 - 1


def read_1d(a, lo, hi, step, has_lo, has_hi, has_step):
    return a[(lo if has_lo else None):(hi if has_hi else None):(step if has_step else None)]


def read_2d(a, lo, hi, step, has_lo, has_hi, has_step):
    return a[(lo if has_lo else None):(hi if has_hi else None), ::(step if has_step else None)]


def write_1d(a, lo, hi, step, has_lo, has_hi, has_step):
    a[(lo if has_lo else None):(hi if has_hi else None):(step if has_step else None)] = -1.0
    return a.sum()


def update_2d(a, lo, hi, step, has_lo, has_hi, has_step):
    a[(lo if has_lo else None):(hi if has_hi else None), ::(step if has_step else None)] += 10.0


def read_rows_or_none(a, lo, hi, step, has_lo, has_hi, has_step):
    """``x or None``: a zero bound means None, as in ``a[: -1 + k or None]``."""
    return a[lo or None:hi or None:step or None]


def write_view(a, lo, hi, step, has_lo, has_hi, has_step):
    """An assignment target inside a negative-stride view of the argument."""
    v = a[::-1]
    v[(lo if has_lo else None):(hi if has_hi else None):(step if has_step else None)] = 7.0


FUNCTIONS = [read_1d, read_2d, write_1d, update_2d, read_rows_or_none, write_view]
COMPILED = {fn: compiler.function(fn, reduce_retracing=True) for fn in FUNCTIONS}

bounds = st.one_of(st.integers(-8, 8), st.sampled_from([INT64_MIN, INT64_MIN + 1, -2 ** 40,
                                                        2 ** 40, INT64_MAX - 1, INT64_MAX]))
steps = st.one_of(st.integers(-4, 4), st.sampled_from([INT64_MIN, -2 ** 40, 2 ** 40,
                                                       INT64_MAX]))


def _array(fn, n: int, strided: bool):
    two_d = fn in (read_2d, update_2d)
    a = np.arange(float(n * 3 * (2 if strided else 1)))
    a = a.reshape((n * (2 if strided else 1), 3)) if two_d else a
    return a[::2] if strided else a  # a non-contiguous argument


@settings(max_examples=300, deadline=None)
@given(fn=st.sampled_from(FUNCTIONS), n=st.integers(0, 6), strided=st.booleans(),
       lo=bounds, hi=bounds, step=steps, present=st.tuples(st.booleans(), st.booleans(),
                                                          st.booleans()))
def test_run_time_bounds_follow_slice_indices(fn, n, strided, lo, hi, step, present):
    args = (_array(fn, n, strided), np.int64(lo), np.int64(hi), np.int64(step),
            *(np.bool_(p) for p in present))
    run_both(fn, args, compiled=COMPILED[fn])


def ocean_kernel(a):
    """From an ocean model: the last k-1 elements left out, none for k = 1 (``-1 + k or
    None`` is None there)."""
    s = 0.0
    for k in range(2):
        s += a[: -1 + k or None].sum()
    return s


def ocean_kernel_2d(a, n):
    s = np.zeros(a.shape[1])
    for k in range(n):
        s += a[: -1 + k or None, ::-1].sum(axis=0)
    return s


@pytest.mark.parametrize("a", [np.arange(5.0), np.array([]), np.array([2.5]),
                               np.arange(10.0)[::-3]])
def test_or_none_bound_in_a_loop(a):
    run_both(ocean_kernel, (a,))


@pytest.mark.parametrize("n", [0, 1, 2, 4])
def test_or_none_bound_2d(n):
    run_both(ocean_kernel_2d, (np.arange(12.0).reshape(4, 3), np.int64(n)))


def zero_step(a, s):
    return a[::s]


def zero_step_write(a, s):
    a[1::s] = 0.0


def zero_step_or_none(a, s, flag):
    return a[:2:(s if flag else None)]


@pytest.mark.parametrize("fn, args", [
    (zero_step, (np.arange(4.0), np.int64(0))),
    (zero_step_write, (np.arange(4.0), np.int64(0))),
    (zero_step_or_none, (np.arange(4.0), np.int64(0), np.bool_(True))),
])
def test_zero_step_at_run_time_raises_value_error(fn, args):
    run_both(fn, args)
    with pytest.raises(ValueError, match="^slice step cannot be zero"):
        compiler.function(fn)(*args)


def test_zero_step_on_a_path_not_taken_is_not_raised():
    run_both(zero_step_or_none, (np.arange(4.0), np.int64(0), np.bool_(False)))


def zero_d_bounds(a, lo, hi):
    b = a.copy()
    b[lo:] = 0.0
    return a[lo:hi], b


@given(lo=st.integers(-7, 7), hi=st.integers(-7, 7))
@settings(max_examples=40, deadline=None)
def test_zero_d_integer_arrays_as_bounds(lo, hi):
    run_both(zero_d_bounds, (np.arange(5.0), np.array(lo), np.array(hi, np.int32)),
             compiled=COMPILED.setdefault(zero_d_bounds, compiler.function(zero_d_bounds)))


def float_bound(a, z):
    return a[:z]


def optional_index(a, k):
    return a[k or None]


def test_bad_run_time_bounds_are_compile_errors():
    with pytest.raises(compiler.CompileError, match="slice bound"):
        compiler.function(float_bound)(np.arange(3.0), np.array(1.5))
    with pytest.raises(compiler.CompileError, match="None on some paths"):
        compiler.function(optional_index)(np.arange(3.0), np.int64(1))
