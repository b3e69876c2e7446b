"""Array creation against NumPy: ``np.empty``, ``np.ndarray(shape, dtype)``, the ``*_like``
functions with ``dtype=``/``shape=``, ``np.array``/``np.asarray`` of tuples and lists holding
run-time scalars and arrays (shape and dtype discovery, ragged lists, ``dtype=``
conversions), ``np.stack``/``np.concatenate`` of such lists, ``copy=``, ``order=``,
``ndmin=``, ``np.copy``, ``ndarray.copy``, ``np.ascontiguousarray`` and ``np.asfortranarray``.

``np.empty`` memory is never read before it is written: each case fills every element first.
"""

import functools
import inspect
import warnings

import numpy as np
import pytest
from conftest import assert_same
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=20, deadline=None)
SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0, 1.5, -2.0, 1e300]
DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64,
          np.float32, np.float64]


@functools.cache
def compiled(fn, sig):
    return compiler.compile(fn, sig)


def check(fn, sig, *args):
    """``fn(*args)`` compiled for ``sig`` returns (or raises) what NumPy does."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        try:
            want = fn(*args)
        except Exception as e:  # noqa: BLE001 - the outcome under test
            with pytest.raises(type(e)) as info:
                compiled(fn, sig)(*args)
            assert str(e).splitlines()[0] in str(info.value)
            return
        got = compiled(fn, sig)(*args)
    assert_same(got, want)


def compile_error(fn, *args) -> str:
    """The CompileError of ``fn(*args)``, checked to point at the function's last line."""
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(fn)(*args)
    text = str(info.value)
    lines, first = inspect.getsourcelines(fn)
    assert f":{first + len(lines) - 1}:" in text, text
    return text


# np.empty, np.ndarray -----------------------------------------------------------------------

def empty_int(a):
    x = np.empty(3)
    x[:] = a[:3]
    return x


def empty_tuple_dtype(a):
    x = np.empty((2, 3), dtype=np.int16)
    x[...] = 7
    return x


def empty_runtime_shape(a):
    x = np.empty((a.shape[0], 2), np.float32, order="C")
    x[:, 0] = a
    x[:, 1] = -a
    return x


def empty_fortran(a):
    x = np.empty((a.shape[0], 3), order="F")
    for j in range(3):
        x[:, j] = a * j
    return x


def empty_zero_size(a):
    return np.empty((0, a.shape[0]), np.uint8)


def empty_scalar_size(a):
    x = np.empty(a.shape[0], np.int64)
    for i in range(a.shape[0]):
        x[i] = i * i
    return x


def ndarray_constructor(a):
    x = np.ndarray((2, a.shape[0]), np.float64)
    x[0] = a
    x[1] = 2 * a
    return x


def ndarray_default_dtype(a):
    x = np.ndarray(a.shape)
    x[...] = a + 1
    return x


def empty_negative(a):
    return np.empty(a.shape[0] - 10)


@pytest.mark.parametrize("fn", [empty_int, empty_tuple_dtype, empty_runtime_shape,
                                empty_fortran, empty_zero_size, empty_scalar_size,
                                ndarray_constructor, ndarray_default_dtype, empty_negative])
def test_empty_is_numpys_once_written(fn):
    run_both(fn, (np.arange(4.0),))


def ndarray_with_buffer(a):
    return np.ndarray((3,), np.float64, buffer=a)


def empty_float_size(a):
    return np.empty((2, 3.0))


def test_empty_errors_are_compile_errors_at_their_line():
    text = compile_error(ndarray_with_buffer, np.arange(3.0))
    assert "np.ndarray with a 'buffer' argument is not supported" in text
    text = compile_error(empty_float_size, np.arange(3.0))
    assert "an array size must be an integer" in text


# the *_like functions -----------------------------------------------------------------------

def likes(a):
    return (np.zeros_like(a, dtype=np.int8), np.ones_like(a, shape=(4,)),
            np.full_like(a, 2.5, dtype=np.float32), np.full_like(a, 7, shape=(2, a.shape[0])),
            np.ones_like(a, np.uint16, shape=a.shape[0]), np.zeros_like(a, shape=()))


def empty_likes(a):
    x = np.empty_like(a, dtype=np.int32, shape=(a.shape[0], 2))
    x[...] = 3
    y = np.empty_like(a)
    y[...] = a * 2
    return x, y


def likes_of_sequences(a):
    return np.zeros_like([1, 2, 3]), np.full_like([[1.5], [2.5]], 4), np.ones_like(2.0)


@pytest.mark.parametrize("fn", [likes, empty_likes, likes_of_sequences])
@pytest.mark.parametrize("dtype", [np.float64, np.int16, np.bool_])
def test_like_functions_are_numpys(fn, dtype):
    run_both(fn, (np.arange(4).astype(dtype),))


# np.array of run-time values ------------------------------------------------------------------

def scalar_lists(x, y):
    return (np.array([x, y]), np.asarray((x, 1, y)), np.array([[x, y], [y, x]]),
            np.array([x, 2, y]), np.array([x, 2.5]), np.array([True, x]))


@pytest.mark.parametrize("tx", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
@pytest.mark.parametrize("ty", [np.int8, np.uint64, np.float32, np.bool_])
def test_the_dtype_of_a_list_of_scalars_is_numpys(tx, ty):
    run_both(scalar_lists, (tx(1), ty(0)))


def sums(a, b):
    # + 0.0: the sign of a zero max/min among +0.0 and -0.0 is documented as unspecified
    return np.array([a.sum(), b.sum()]), np.array([a.max() + 0.0, b.min() + 0.0, a.size])


@SETTINGS
@given(a=hnp.arrays(np.float32, st.integers(1, 6), elements=st.sampled_from(SPECIAL)
                    | st.floats(-1e6, 1e6, width=32)),
       b=hnp.arrays(np.float64, st.integers(1, 6), elements=st.sampled_from(SPECIAL)
                    | st.floats(-1e6, 1e6)))
def test_a_list_of_run_time_scalars_is_numpys(a, b):
    check(sums, "f32[?], f64[?]", a, b)


def rows(a, b):
    return (np.array([a, b]), np.array([a, b, a], dtype=np.float32), np.array((b,)),
            np.array([a[::-1], b[::-1], a[::1]]))


def nested_rows(a, b):
    return np.array([[a, b], [b, a]]), np.array([[a[0], b[0]], [a[1], 1]])


def mixed_items(a, b):
    return np.array([a, [1, 2, 3]]), np.array([a, b[:]])


def zero_d_items(a, b):
    return np.array([np.sum(a), np.max(b), a[0]]), np.array([np.asarray(a[0]), 1.0])


@SETTINGS
@given(a=hnp.arrays(np.float64, 3, elements=st.sampled_from(SPECIAL) | st.floats(-10, 10)),
       b=hnp.arrays(np.int16, 3))
@pytest.mark.parametrize("fn", [rows, nested_rows, mixed_items, zero_d_items])
def test_a_list_of_equal_shape_arrays_is_stacked(fn, a, b):
    check(fn, "f64[3], i16[3]", a, b)
    check(fn, "f64[?], i16[?]", a, b)


def rows_2d(a, b):
    return np.array([a, a * 2]), np.asarray([a.T, b.T]), np.array([[a], [b]])


@SETTINGS
@given(a=hnp.arrays(np.float32, st.tuples(st.integers(0, 3), st.integers(0, 3))))
def test_stacking_2d_arrays_with_zero_size_dims(a):
    check(rows_2d, "f32[?,?], f32[?,?]", a, a[::-1])


def ragged_runtime(a, b):
    return np.array([a, b])


@pytest.mark.parametrize("sizes", [(3, 3), (3, 4), (0, 2), (2, 0)])
def test_a_ragged_list_raises_numpys_error_when_the_shapes_are_dynamic(sizes):
    check(ragged_runtime, "f64[?], f64[?]", np.ones(sizes[0]), np.zeros(sizes[1]))


def ragged_2d(a, b):
    return np.array([a, b])


@pytest.mark.parametrize("shapes", [((2, 3), (2, 4)), ((5, 3), (2, 3)), ((2, 3), (2, 3))])
def test_the_depth_of_a_run_time_ragged_error_is_numpys(shapes):
    check(ragged_2d, "f64[?,?], f64[?,?]", np.ones(shapes[0]), np.ones(shapes[1]))


def ragged_lengths(a):
    return np.array([a, a[:2]])


def ragged_scalar_and_array(a):
    return np.array([a, a[0]])


def ragged_nested(a):
    return np.array([[a, a], [a, a[1:]]])


def ragged_list_and_array(a):
    return np.array([a[0], [1.0, 2.0], a])


@pytest.mark.parametrize("fn", [ragged_lengths, ragged_scalar_and_array, ragged_nested,
                                ragged_list_and_array])
def test_a_static_ragged_list_is_numpys_error_at_compile_time(fn):
    x = np.arange(3.0)
    with pytest.raises(ValueError) as want:
        fn(x)
    text = compile_error(fn, x)
    assert str(want.value) in text
    assert isinstance(pytest.raises(ValueError, compiler.function(fn), x).value,
                      compiler.CompileError)


def converted(x, y):
    return np.array([x, y, 1.0], dtype=np.int16), np.array([x, 2], dtype=np.uint8)


@pytest.mark.parametrize("x", [np.float64(2.7), np.float64(np.nan), np.float64(-np.inf),
                               np.int64(300), np.int64(-1), np.float32(-0.5)])
@pytest.mark.parametrize("y", [2.5, float("nan"), 70000, True])
def test_dtype_converts_scalar_items_as_numpy_stores_them(x, y):
    run_both(converted, (x, y))


def array_dtype_of_arrays(a):
    return np.array([a, a], dtype=np.int8), np.asarray([a, 2 * a], np.uint16)


@SETTINGS
@given(a=hnp.arrays(np.float64, 4, elements=st.sampled_from(SPECIAL) | st.floats(-300, 300)))
def test_dtype_casts_array_items(a):
    check(array_dtype_of_arrays, "f64[4]", a)


# np.stack / np.concatenate of run-time lists -------------------------------------------------

def joined(a, b):
    return (np.stack([a.sum(), b.sum()]), np.stack([b.sum(), 1.0]),
            np.concatenate([[a.sum()], b]), np.stack([[a[0], b[0]], [b[1], a[1]]], axis=1),
            np.concatenate([a, [b[0], 5]]), np.stack([a, b], axis=-1))


@SETTINGS
@given(a=hnp.arrays(np.float32, 3), b=hnp.arrays(np.int32, 3))
def test_stack_and_concatenate_of_run_time_lists(a, b):
    check(joined, "f32[3], i32[3]", a, b)
    check(joined, "f32[?], i32[?]", a, b)


def stack_shapes(a, b):
    return np.stack([a, b])


def test_stack_of_dynamic_shapes_checks_them_when_it_runs():
    check(stack_shapes, "f64[?], f64[3]", np.ones(3), np.ones(3))
    check(stack_shapes, "f64[?], f64[3]", np.ones(2), np.ones(3))


# copies, views and memory order ---------------------------------------------------------------

def array_copies(a):
    b = np.array(a)
    b[0] = 5.0
    return b


def array_copy_none(a):
    b = np.array(a, copy=None)
    b[0] = 5.0
    return b.sum()


def asarray_copy_true(a):
    b = np.asarray(a, copy=True)
    b[0] = 5.0
    return b


def asarray_is_a(a):
    b = np.asarray(a)
    b[1] = -1.0
    return b.sum()


def copy_none_with_dtype(a):
    b = np.array(a, dtype=np.float32, copy=None)
    b[0] = 5.0
    return b


def ndmin(a):
    return np.array(a, ndmin=3), np.array(a[0], ndmin=1), np.array([a[0], a[1]], ndmin=2)


def copy_orders(a):
    return (np.copy(a, order="F"), a.copy(order="F"), np.copy(a, order="C"), a.copy(),
            np.copy(a), np.array(a, order="F"))


@pytest.mark.parametrize("fn", [array_copies, array_copy_none, asarray_copy_true,
                                asarray_is_a, copy_none_with_dtype, ndmin, copy_orders])
def test_copy_and_order_arguments_are_numpys(fn):
    run_both(fn, (np.arange(6.0),))


def copy_false_of_list(a):
    return np.array([a[0], a[1]], copy=False)


def copy_false_with_dtype(a):
    return np.asarray(a, dtype=np.float32, copy=False)


@pytest.mark.parametrize("fn", [copy_false_of_list, copy_false_with_dtype])
def test_copy_false_where_a_copy_is_needed_is_numpys_error(fn):
    with pytest.raises(ValueError) as want:
        fn(np.arange(3.0))
    text = compile_error(fn, np.arange(3.0))
    assert str(want.value).splitlines()[0] in text


def copy_false_of_array(a):
    b = np.array(a, copy=False)
    b[0] = 9.0
    return b.sum()


def test_copy_false_of_an_array_writes_through():
    run_both(copy_false_of_array, (np.arange(3.0),))


def contiguous(a):
    return (np.ascontiguousarray(a.T), np.asfortranarray(a), np.ascontiguousarray(a[::2]),
            np.ascontiguousarray(a[0, 0]), np.asfortranarray(a.sum()),
            np.ascontiguousarray([[a[0, 0], 1]], dtype=np.float32))


@SETTINGS
@given(a=hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 4)),
                    elements=st.sampled_from(SPECIAL) | st.floats(-10, 10)))
def test_ascontiguousarray_and_asfortranarray_values(a):
    check(contiguous, "f64[?,?]", a)
    check(contiguous, "f64[?,?]", np.asfortranarray(a))


def contiguous_of_computed(a):
    b = np.zeros((3, 2)) + 2.0
    c = np.ascontiguousarray(b)
    c[0, 0] = 100.0   # c is b: NumPy writes through
    return b


def fortran_of_computed(a):
    b = np.full((3, 2), 2.0)
    c = np.asfortranarray(b)
    c[0, 0] = 100.0   # a copy of a C array with two dims above 1
    return b, c


@pytest.mark.parametrize("fn", [contiguous_of_computed, fortran_of_computed])
def test_known_layouts_alias_or_copy_as_numpy(fn):
    run_both(fn, (np.ones((3, 2)),))


def write_contiguous_of_argument(a):
    c = np.ascontiguousarray(a)
    c[0, 0] = 1.0


@pytest.mark.parametrize("fn", ["write_contiguous_of_argument",
                                "write_contiguous_of_elementwise"])
def test_writing_through_an_undecided_layout_is_a_compile_error(fn):
    text = compile_error(globals()[fn], np.ones((2, 2)))
    assert "np.ascontiguousarray is its operand itself or a copy" in text


def fortran_sums(x):
    return (np.asfortranarray(x * 1.0).sum(0), np.copy(x * 1.0, order="F").sum(0),
            (x * 1.0).copy(order="F").sum(0), np.ascontiguousarray(x * 1.0).sum(0))


def test_a_fortran_ordered_copy_sums_in_numpys_order():
    """The F-ordered sum over axis 0 is pairwise per column, the C-ordered one adds row by
    row: on this input their bits differ, and each matches NumPy's."""
    x = np.random.default_rng(1).standard_normal((100, 7)).astype(np.float32) * 1e3
    want = fortran_sums(x)
    assert not np.array_equal(want[0], want[3])
    got = compiler.function(fortran_sums)(x)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and np.array_equal(g, w), (g, w)


def contiguous_of_elementwise(a):
    b = a * 2.0
    c = np.ascontiguousarray(b)   # b has a's layout: NumPy returns b or a copy
    return c.sum(0), c.sum(1)


def test_an_elementwise_result_has_its_operands_layout():
    x = np.random.default_rng(2).standard_normal((100, 9)).astype(np.float32) * 1e3
    for a in (x, np.asfortranarray(x)):
        want = contiguous_of_elementwise(a)
        got = compiler.function(contiguous_of_elementwise)(a)
        for g, w in zip(got, want, strict=True):
            assert np.array_equal(g, w), (g, w)


def write_contiguous_of_elementwise(a):
    b = a * 2.0
    c = np.ascontiguousarray(b)
    c[0, 0] = 1.0


def one_row_list(a):
    b = np.array([a])
    b[0, 0] = 7.0   # a new array: a is unchanged
    c = np.asarray((a,))
    c[0, 1] = 8.0
    return b, c


def test_a_list_of_one_array_is_a_new_array():
    run_both(one_row_list, (np.arange(3.0),))


def zero_d_of_scalars(x):
    s = x[0]
    b = np.array(s)
    b[...] = 5.0
    c = np.asarray(x.sum())
    c[()] = 1.0
    d = np.ascontiguousarray(x[1])
    d[0] = 3.0
    e = np.where(x[0] > 0, 1.0, 2.0)
    e[...] = 4.0
    return b, c, d, e, s, x


def test_arrays_made_of_scalars_are_new_arrays():
    run_both(zero_d_of_scalars, (np.arange(3.0),))
