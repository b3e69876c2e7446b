"""Integer-array and boolean-mask assignment (``np.scatter``, ``np.mask_assign``) and index
arrays mixed with integers, differential against NumPy: random indices (negative, repeated,
out of range), masks (all-False, all-True, empty), mutated inputs seen by the caller. One
compiled function per dynamic-dim signature, reused by every hypothesis example."""

import functools

import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=30, deadline=None)


@functools.cache
def compiled(fn, sig):
    return compiler.compile(fn, sig)


def check(fn, sig, *args):
    """Same result, same mutation of the first argument, or the same exception."""
    mine = [np.array(a, copy=True) for a in args]
    ref = [np.array(a, copy=True) for a in args]
    try:
        want = fn(*ref)
    except (IndexError, ValueError, TypeError) as e:
        with pytest.raises(type(e)) as info:
            compiled(fn, sig)(*mine)
        assert str(e) in str(info.value)
        return
    got = compiled(fn, sig)(*mine)
    if want is not None:
        assert_same(got, want)
    assert_same(mine[0], ref[0])


def scatter(x, i, v):
    x[i] = v


def scatter_add(x, i, v):
    x[i] += v
    return x[i]


def scatter_scalar(x, i, v):
    x[i] = v
    return x


def scatter_cols(x, i, v):
    x[:, i] = v


def scatter_row_cols(x, i, v):
    x[1, i] = v


def mask_assign(x, m, v):
    x[m] = v


def mask_rows(x, m, v):
    x[m] = v
    return x.sum()


def mixed_reads(x, i):
    return x[0, i], x[i, 1], x[-1, :, i], x[:, 0, i], x[i, :, 0], x[:, i, ::-1]


def local_scatter(i, v):
    y = np.zeros(4, dtype=np.int32)
    y[i] = v
    return y


indices = hnp.arrays(np.int64, st.integers(0, 6), elements=st.integers(-6, 5))
values = hnp.arrays(np.float64, st.integers(0, 6), elements=st.floats(-1e3, 1e3))


@SETTINGS
@given(i=indices, v=values, n=st.integers(0, 6))
def test_scatter_1d(i, v, n):
    check(scatter, "f64[?], i64[?], f64[?]", np.arange(n, dtype=np.float64), i, v)


@SETTINGS
@given(i=indices, v=values)
def test_scatter_add_repeated_indices_last_write_wins(i, v):
    v = np.resize(v, len(i))  # x[i] + v must keep x[i]'s shape (NumPy's in-place rule)
    check(scatter_add, "f64[?], i64[?], f64[?]", np.arange(5, dtype=np.float64), i, v)


@SETTINGS
@given(i=hnp.arrays(np.int32, st.tuples(st.integers(0, 3), st.integers(0, 3)),
                    elements=st.integers(-5, 4)))
def test_scatter_scalar_2d_index_int32(i):
    check(scatter_scalar, "f32[?], i32[?,?], f32", np.arange(5, dtype=np.float32), i,
          np.float32(-2.5))


@SETTINGS
@given(i=indices, v=hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(0, 6))))
def test_scatter_columns(i, v):
    check(scatter_cols, "f64[?,?], i64[?], f64[?,?]", np.zeros((3, 5)), i, v)
    check(scatter_row_cols, "f64[?,?], i64[?], f64[?]", np.zeros((3, 5)), i, v[0])


def test_scatter_into_local_casts_value():
    got = compiled(local_scatter, "i64[?], f64")(np.array([1, -1, 1]), np.float64(2.7))
    assert_same(got, local_scatter(np.array([1, -1, 1]), 2.7))


def test_scatter_out_of_range_names_the_line():
    with pytest.raises(IndexError, match="index 7 is out of bounds for axis 0 with size 3") \
            as info:
        compiled(scatter, "f64[?], i64[?], f64[?]")(np.zeros(3), np.array([0, 7]),
                                                    np.ones(2))
    assert "x[i] = v" in str(info.value)


masks = hnp.arrays(np.bool_, st.integers(0, 6))


@SETTINGS
@given(m=masks, v=hnp.arrays(np.float64, st.integers(0, 4)), data=st.data())
def test_mask_assign_1d(m, v, data):
    if data.draw(st.booleans()):
        v = np.resize(v, int(m.sum()))  # often the right count
    check(mask_assign, "f64[?], bool[?], f64[?]", np.arange(len(m), dtype=np.float64), m, v)
    check(mask_assign, "f64[?], bool[?], f64", np.arange(len(m), dtype=np.float64), m,
          np.float64(-1.0))


@SETTINGS
@given(m=masks, v=hnp.arrays(np.float64, st.tuples(st.integers(1, 3), st.integers(1, 3))))
def test_mask_assign_rows(m, v):
    x = np.arange(len(m) * 3, dtype=np.float64).reshape(len(m), 3)
    check(mask_rows, "f64[?,?], bool[?], f64[?,?]", x, m, v)


def test_mask_assign_all_false_all_true_and_mismatch():
    sig = "f64[?], bool[?], f64[?]"
    for m in (np.zeros(4, bool), np.ones(4, bool), np.zeros(0, bool)):
        check(mask_assign, sig, np.arange(float(len(m))), m, np.arange(float(m.sum())))
    check(mask_assign, sig, np.arange(4.0), np.ones(3, bool), np.arange(3.0))
    check(mask_assign, sig, np.arange(4.0), np.ones(4, bool), np.arange(3.0))


def test_mask_assign_rank_2_value_is_a_compile_error():
    with pytest.raises(compiler.CompileError, match="0 or 1-dimensional input"):
        compiler.compile(mask_assign, "f64[?], bool[?], f64[?,?]")


@SETTINGS
@given(i=hnp.arrays(np.int64, st.tuples(st.integers(0, 3), st.integers(0, 2)),
                    elements=st.integers(-3, 2)))
def test_index_array_mixed_with_integers(i):
    check(mixed_reads, "f64[?,?,?], i64[?,?]", np.arange(36.0).reshape(3, 3, 4), i)


IDX = [2, 0]


def list_reads(x):
    return (x[[0, 2]], x[[-1, 0, 0]], x[[True, False, True, False]], x[[[0, 1], [3, 2]]],
            x[[]], x[IDX], x[np.array([1, 3])])


def list_reads_2d(m):
    return m[[1, 0]], m[:, [2, 0]], m[[0, 1], 1], m[[False, True]]


def list_writes(x):
    x[[0, 2]] = 7.0
    x[[3, 1]] += 1.0
    x[[True, False, False, True]] = -1.0
    return x.sum()


def list_swap(x):
    x[[0, 1]] = x[[1, 0]]


def list_out_of_range(x):
    return x[[0, 9]]


def float_list(x):
    return x[[0.0, 1.0]]


def runtime_list(x, i):
    return x[[i, 0]]


def test_list_and_constant_array_indices_are_index_arrays():
    check(list_reads, "f64[?]", np.arange(4.0))
    check(list_reads_2d, "f32[?,?]", np.arange(6, dtype=np.float32).reshape(2, 3))
    check(list_writes, "f64[?]", np.arange(4.0))
    check(list_swap, "i32[?]", np.arange(5, dtype=np.int32))
    check(list_out_of_range, "f64[?]", np.arange(4.0))


def test_bad_index_lists_are_compile_errors():
    with pytest.raises(compiler.CompileError, match="must be of integer"):
        compiler.compile(float_list, "f64[?]")
    with pytest.raises(compiler.CompileError, match="index list of run-time values"):
        compiler.compile(runtime_list, "f64[?], i64")
