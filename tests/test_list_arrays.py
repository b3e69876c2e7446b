"""Differential tests of run-time lists holding arrays against NumPy: rows appended in
loops and branches, np.array / np.stack / np.concatenate of them, len() and indexing,
dtype promotion between rows, rows of run-time shape, growth past the first capacity, and
NumPy's errors (inhomogeneous shapes at run time, empty lists)."""

import numpy as np
import pytest
from differential_harness import run_both

import compiler


def doubled_rows(a):
    out = []
    for i in range(a.shape[0]):
        out.append(a[i] * 2.0)
    return np.array(out)


def positive_rows(a):
    out = []
    for r in a:
        if r[0] > 0:
            out.append(r + 1)
    return len(out), np.array(out)


def first_and_last(a):
    out = []
    for r in a:
        out.append(r)
    return out[0], out[-1], out[len(out) // 2]


def prefixes(a):
    out = []
    for i in range(a.shape[0]):
        out.append(a[i, :i + 1])
    return np.array(out)


def stacked(a):
    out = []
    for r in a:
        out.append(r[::-1])
    return np.stack(out), np.stack(out, axis=1), np.concatenate(out), len(out)


def concatenated_blocks(a):
    out = []
    for i in range(a.shape[0] // 2):
        out.append(a[2 * i:2 * i + 2])
    return np.concatenate(out, axis=1), np.concatenate(out), np.concatenate(out, axis=None)


def promoted(a, b):
    out = [a]
    out.append(b)
    out.append(a * 2)
    return np.array(out)


def index_out_of_range(a):
    out = []
    for r in a:
        out.append(r)
    return out[len(out)]


def stack_of_nothing(a):
    out = []
    for r in a:
        if r[0] > 100:
            out.append(r)
    return np.stack(out)


def ragged_stack(a):
    out = []
    for i in range(a.shape[0]):
        out.append(a[i, :i + 1])
    return np.stack(out)


@pytest.mark.parametrize("shape", [(1, 3), (3, 2), (20, 3), (9, 0), (0, 4), (5, 2, 2)])
def test_rows(shape):
    """A list of rows of one shape is an array of one more dimension."""
    a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) - 4
    if not shape[0]:
        return
    run_both(doubled_rows, (a,))
    run_both(stacked, (a,))
    run_both(first_and_last, (a,))
    if (a[:, 0] > 0).any() if a.size else False:
        run_both(positive_rows, (a,))


def test_non_contiguous_rows():
    a = np.arange(40.0).reshape(8, 5)[::-2, 1::2]
    run_both(doubled_rows, (a,))
    run_both(stacked, (a,))


def test_blocks():
    run_both(concatenated_blocks, (np.arange(24).reshape(6, 4),))


def test_dtypes_promote_as_numpy():
    run_both(promoted, (np.arange(3, dtype=np.int8), np.ones(3, np.float32)))
    run_both(promoted, (np.arange(3, dtype=np.uint8), np.arange(3, dtype=np.int16)))


def test_inhomogeneous_rows_raise_numpys_error():
    """Rows whose shapes differ at run time: np.array's ValueError with the list's length;
    np.stack's "all input arrays must have the same shape"."""
    run_both(prefixes, (np.arange(9.0).reshape(3, 3),))
    run_both(prefixes, (np.arange(3.0).reshape(1, 3),))
    run_both(ragged_stack, (np.arange(16.0).reshape(4, 4),))


def test_errors():
    run_both(index_out_of_range, (np.ones((3, 2)),))
    run_both(stack_of_nothing, (np.ones((3, 2)),))
    run_both(stacked, (np.ones((0, 2)),))


def test_np_array_of_an_empty_list_of_arrays_is_a_clear_error():
    """NumPy gives shape (0,) there, a rank the compiled code cannot have."""
    with pytest.raises(ValueError, match="empty at run time is not supported"):
        compiler.function(positive_rows)(-np.ones((3, 2)))


def test_run_time_shapes():
    cf = compiler.compile(stacked, "f64[?,?]")
    for shape in [(3, 4), (17, 1), (2, 6)]:
        a = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
        for g, w in zip(cf(a)[:3], stacked(a)[:3], strict=True):
            np.testing.assert_array_equal(g, w)
            assert g.shape == w.shape
