"""NumPy's array-manipulation functions (np.nonzero, np.argwhere, np.flatnonzero,
np.count_nonzero, np.diff, np.roll, np.trace, np.diag, np.tril/np.triu, np.fliplr/np.flipud,
np.rot90), differential against NumPy through ``differential_harness.run_both``: result
dtype, shape, values and Python type, NumPy's errors; hypothesis draws shapes with zero-size
dims, values with NaN, inf and -0.0, axes (negative ones too) and non-contiguous views."""

import numpy as np
import pytest
from conftest import assert_same
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

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
    run_both(where_one_argument, (x,))


def where_one_argument(x):
    return np.where(x)


def where_one_branch(x):
    return np.where(x > 0, x)


def test_where_with_one_branch_is_numpys_error():
    run_both(where_one_branch, (np.ones(3),))
    run_both(where_one_argument, (np.float64(1.0),))


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


# tiles, repeats, grids, take_along_axis, pad ------------------------------------------------

def tile_int(x):
    return np.tile(x, 2)


def tile_wide(x):
    return np.tile(x, (2, 1, 3))


def tile_zero(x):
    return np.tile(x, (0, 2))


def tile_negative(x):
    return np.tile(x, -1)


@SETTINGS
@given(views())
def test_tile(x):
    for fn in (tile_int, tile_wide, tile_zero):
        run_both(fn, (x,))


def repeat_flat(x):
    return np.repeat(x, 3)


def repeat_axis(x):
    return np.repeat(x, 2, axis=-1)


def repeat_method(x):
    return x.repeat(0, axis=0)


def repeat_negative(x):
    return np.repeat(x, -2)


@SETTINGS
@given(views(min_dims=1))
def test_repeat(x):
    for fn in (repeat_flat, repeat_axis, repeat_method):
        run_both(fn, (x,))


def repeat_counts(x, r):
    return np.repeat(x, r, axis=0)


def repeat_counts_flat(x, r):
    return np.repeat(x, r)


@SETTINGS
@given(views(min_dims=1), st.lists(st.integers(-1, 3), max_size=5))
def test_repeat_counts(x, r):
    counts = np.array(r, dtype=np.int32)
    run_both(repeat_counts, (x, counts))
    run_both(repeat_counts_flat, (x, counts))


def test_tile_and_repeat_errors():
    run_both(tile_negative, (np.ones(2),))
    run_both(repeat_negative, (np.ones(2),))
    run_both(repeat_flat, (np.array([True, False]),))
    run_both(tile_wide, (np.int16(3),))


def indices_of(x):
    return np.indices(x.shape)


def indices_sparse(x):
    return np.indices(x.shape, dtype=np.int8, sparse=True)


def indices_fixed(x):
    return np.indices((2, 0, 3))


@SETTINGS
@given(views(min_dims=1))
def test_indices(x):
    run_both(indices_of, (x,))
    run_both(indices_sparse, (x,))
    run_both(indices_fixed, (x,))


def meshgrid_xy(x, y):
    return np.meshgrid(x, y)


def meshgrid_ij(x, y):
    return np.meshgrid(x, y, x, indexing="ij")


def meshgrid_sparse(x, y):
    a, b = np.meshgrid(x, y, sparse=True, copy=False)
    return a, b


def meshgrid_views(x, y):
    return np.meshgrid(x, y, sparse=True, copy=False)


def meshgrid_one(x, y):
    return np.meshgrid(x)


def meshgrid_bad_indexing(x, y):
    return np.meshgrid(x, y, indexing="yx")


@SETTINGS
@given(views(), views())
def test_meshgrid(x, y):
    for fn in (meshgrid_xy, meshgrid_ij, meshgrid_sparse, meshgrid_one):
        run_both(fn, (x, y))


def test_meshgrid_views_are_a_list():
    x, y = np.arange(3.0), np.arange(2.0)
    got = compiler.function(meshgrid_views)(x, y)
    assert type(got) is list
    assert_same(tuple(got), tuple(meshgrid_views(x, y)))


def test_meshgrid_error():
    run_both(meshgrid_bad_indexing, (np.ones(2), np.ones(3)))


def take_sorted(x):
    return np.take_along_axis(x, np.argsort(x, axis=-1), axis=-1)


def take_max(x):
    return np.take_along_axis(x, np.argmax(x, axis=0, keepdims=True), axis=0)


def take_flat(x, i):
    return np.take_along_axis(x, i, None)


def take_rank_mismatch(x, i):
    return np.take_along_axis(x, i, 0)


@SETTINGS
@given(views(min_dims=2))
def test_take_along_axis(x):
    run_both(take_sorted, (x,))
    if x.shape[0]:
        run_both(take_max, (x,))


@SETTINGS
@given(views(min_dims=1), st.lists(st.integers(-30, 30), max_size=4))
def test_take_along_axis_flat_indices(x, i):
    run_both(take_flat, (x, np.array(i, dtype=np.int64)))


def test_take_along_axis_errors():
    run_both(take_rank_mismatch, (np.ones((2, 2)), np.zeros(2, dtype=np.int64)))
    run_both(take_flat, (np.ones((2, 2)), np.zeros((1, 1), dtype=np.int64)))


def pad_constant(x):
    return np.pad(x, 2)


def pad_constant_pairs(x):
    return np.pad(x, ((1, 0),) + ((0, 2),) * (x.ndim - 1), constant_values=-0.0)


def pad_edge(x):
    return np.pad(x, (1, 3), mode="edge")


def pad_wrap(x):
    return np.pad(x, 5, mode="wrap")


def pad_reflect(x):
    return np.pad(x, ((4, 1),), mode="reflect")


def pad_int_fill(x):
    return np.pad(x, 1, constant_values=2.9)


def pad_unknown_mode(x):
    return np.pad(x, 1, mode="median")


@SETTINGS
@given(views(min_dims=1))
def test_pad(x):
    for fn in (pad_constant, pad_constant_pairs, pad_edge, pad_wrap, pad_reflect):
        run_both(fn, (x,))


def test_pad_dtypes_and_errors():
    run_both(pad_int_fill, (np.arange(3, dtype=np.int8),))
    run_both(pad_int_fill, (np.array([True]),))
    run_both(pad_edge, (np.zeros((2, 0)),))
    with pytest.raises(Exception, match="mode 'median' of np.pad is not supported"):
        run_both(pad_unknown_mode, (np.ones(2),))


def delete_flat(x, i):
    return np.delete(x, i)


def delete_list(x):
    return np.delete(x, [0, -1, 0], axis=-1)


def delete_array(x, i):
    return np.delete(x, i, axis=0)


@SETTINGS
@given(views(min_dims=1), st.integers(-6, 6))
def test_delete(x, i):
    run_both(delete_flat, (x, i))
    run_both(delete_array, (x, np.array([i, 0], dtype=np.int32)))
    run_both(delete_list, (x,))


def test_delete_dtypes():
    run_both(delete_list, (np.array([[True, False, True]]),))
    run_both(delete_flat, (np.arange(4, dtype=np.uint8), -1))


def insert_flat(x):
    return np.insert(x, 1, 9.5)


def insert_column(x):
    return np.insert(x, -1, np.array([-0.0, np.nan]), axis=-1)


def insert_end(x):
    return np.insert(x, 2, 7, axis=0)


def insert_row(x):
    return np.insert(x, 0, x[:1], axis=0)


@SETTINGS
@given(views(min_dims=1))
def test_insert(x):
    run_both(insert_flat, (x,))
    run_both(insert_end, (x,))
    run_both(insert_row, (x,))
    if x.ndim == 2:
        run_both(insert_column, (x,))


def test_insert_dtypes_and_errors():
    run_both(insert_flat, (np.arange(3, dtype=np.int16),))
    run_both(insert_end, (np.arange(1),))
    run_both(insert_column, (np.ones((3, 2)),))
