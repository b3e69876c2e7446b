"""Several integer index arrays (``x[i, j]``, ``x[i[:, None], j]``, ``x[i, :, j]``) mixed with
slices, integers, None and Ellipsis, read and assigned, differential against NumPy:
broadcast index shapes (incompatible ones too), negative, repeated and out-of-range indices,
every integer dtype, NumPy's placement of the index dims (in place when the advanced indices
are adjacent, first when a slice, None or Ellipsis separates them; integers count as advanced
indices), zero-size index arrays and dims, non-contiguous views and loops. One compiled
function per signature, reused by every hypothesis example."""

import functools
import re

import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=20, deadline=None)


@functools.cache
def compiled(fn, sig):
    return compiler.compile(fn, sig)


def check(fn, sig, *args):
    """Same result, same mutation of the first argument, or the same exception."""
    mine = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
    ref = [np.array(a, copy=True) if isinstance(a, np.ndarray) else a for a in args]
    try:
        want = fn(*ref)
    except (IndexError, ValueError) as e:
        with pytest.raises(type(e)) as info:
            compiled(fn, sig)(*mine)
        assert _same_message(str(info.value), str(e)), (str(info.value), str(e))
        return
    got = compiled(fn, sig)(*mine)
    assert_same(got, want)
    assert_same(mine[0], ref[0])


def _same_message(got: str, want: str) -> bool:
    """``got`` starts with NumPy's message ``want``; a dim past the four numbers that a
    run-time error carries reads ``?`` (``grafo.MAX_CHECK_PARAMS``)."""
    first = got.split("\n")[0]
    return re.fullmatch(re.escape(first).replace(r"\?", r"\d+"), want) is not None


# reads: i is 2-d, j 1-d; x is 3-d -----------------------------------------------------------

def adjacent_front(x, i, j):
    return x[i, j]


def adjacent_middle(x, i, j):
    return x[:, i, j]


def adjacent_int(x, i, j):
    return x[i, 1, j]


def three_arrays(x, i, j):
    return x[j, i, j]


def separated_by_slice(x, i, j):
    return x[i, :, j]


def separated_int_first(x, i, j):
    return x[0, :, j]


def separated_int_last(x, i, j):
    return x[i, ::-1, -1]


def separated_by_none(x, i, j):
    return x[i, None, j]


def separated_after_slice(x, i, j):
    return x[::-1, i, None, j]


def separated_by_ellipsis(x, i, j):
    return x[i, ..., j]


def ellipsis_first(x, i, j):
    return x[..., i, j]


def new_axis_first(x, i, j):
    return x[None, i, j, 1:]


def outer_product(x, i, j):
    return x[j[:, None], j, 0]


READS = [adjacent_front, adjacent_middle, adjacent_int, three_arrays, separated_by_slice,
         separated_int_first, separated_int_last, separated_by_none, separated_after_slice,
         separated_by_ellipsis, ellipsis_first, new_axis_first, outer_product]


@st.composite
def index_case(draw, dtype=np.int64, lo=-5):
    """``(x, i, j)``: a 3-d array of small dims and index arrays of shapes ``(p, q)`` and
    ``(m,)`` that mostly broadcast (``q`` in 1, ``m``), holding indices in ``lo..4``."""
    shape = draw(st.tuples(st.integers(0, 4), st.integers(1, 4), st.integers(1, 4)))
    m = draw(st.integers(0, 3))
    q = draw(st.sampled_from([1, m, m, draw(st.integers(0, 3))]))
    p = draw(st.integers(0, 3))
    elements = st.integers(max(lo, int(np.iinfo(dtype).min)), 4)
    i = draw(hnp.arrays(dtype, (p, q), elements=elements))
    j = draw(hnp.arrays(dtype, (m,), elements=elements))
    x = np.arange(float(np.prod(shape))).reshape(shape)
    return x, i, j


@pytest.mark.parametrize("fn", READS, ids=lambda f: f.__name__)
@SETTINGS
@given(case=index_case())
def test_reads(fn, case):
    check(fn, "f64[?,?,?], i64[?,?], i64[?]", *case)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.uint8, np.uint16,
                                   np.uint32, np.uint64])
@SETTINGS
@given(data=st.data())
def test_index_dtypes(dtype, data):
    x, i, j = data.draw(index_case(dtype, lo=-5))
    name = np.dtype(dtype).name.replace("uint", "u").replace("int", "i")
    check(separated_by_slice, f"f64[?,?,?], {name}[?,?], {name}[?]", x, i, j)
    check(adjacent_middle, f"f64[?,?,?], {name}[?,?], {name}[?]", x, i, j)


@SETTINGS
@given(case=index_case(), view=st.sampled_from(["reversed", "strided", "transposed"]))
def test_non_contiguous_views(case, view):
    x, i, j = case
    x = {"reversed": x[::-1, :, ::-1], "strided": np.repeat(x, 2, axis=2)[:, :, ::2],
         "transposed": np.ascontiguousarray(x.transpose(2, 1, 0)).transpose(2, 1, 0)}[view]
    i = np.repeat(i, 2, axis=0)[::-2]
    for fn in (adjacent_front, separated_by_slice, adjacent_int):
        check(fn, "f64[?,?,?], i64[?,?], i64[?]", x, i, j)


def matrix_points(m, i, j):
    return m[i, j], m[j, i], m[i, j].sum()


@SETTINGS
@given(m=hnp.arrays(np.float32, st.tuples(st.integers(1, 4), st.integers(1, 4)),
                    elements=st.floats(-9, 9, width=32) | st.sampled_from([np.nan, -0.0])),
       i=hnp.arrays(np.int32, st.integers(0, 4), elements=st.integers(-4, 3)),
       j=hnp.arrays(np.int32, st.just(1), elements=st.integers(-4, 3)))
def test_matrix_points(m, i, j):
    check(matrix_points, "f32[?,?], i32[?], i32[?]", m, i, j)


def points_of_static(x, i, j):
    return x[i, j]


def test_static_shapes():
    x = np.arange(12, dtype=np.int16).reshape(3, 4)
    i, j = np.array([[2], [-3]]), np.array([0, 3, -1])
    check(points_of_static, "i16[3,4], i64[2,1], i64[3]", x, i, j)
    assert compiled(points_of_static, "i16[3,4], i64[2,1], i64[3]").ir.count("np.gather") == 1


def test_static_shape_mismatch_is_numpys_index_error():
    with pytest.raises(IndexError, match=r"shape mismatch: indexing arrays could not be "
                       r"broadcast together with shapes \(2,\) \(3,\)"):
        compiler.compile(points_of_static, "f64[3,4], i64[2], i64[3]")


def test_zero_d_index_arrays_give_a_scalar():
    x = np.arange(12.0).reshape(3, 4)
    check(points_of_static, "f64[?,?], i64[], i64[]", x, np.array(2), np.array(-1))


def test_errors_name_the_line_and_the_axis():
    x = np.zeros((3, 4, 5))
    fn = compiled(separated_by_slice, "f64[?,?,?], i64[?,?], i64[?]")
    with pytest.raises(IndexError, match="index 5 is out of bounds for axis 2 with size 5") \
            as info:
        fn(x, np.zeros((1, 1), np.int64), np.array([0, 5]))
    assert "return x[i, :, j]" in str(info.value)
    fn = compiled(adjacent_int, "f64[?,?,?], i64[?,?], i64[?]")
    with pytest.raises(IndexError, match="index -4 is out of bounds for axis 0 with size 3"):
        fn(x, np.array([[-4]]), np.array([0]))


def test_empty_broadcast_checks_no_index():
    """NumPy checks no index when the broadcast index has no element."""
    x = np.zeros((3, 4, 5))
    check(adjacent_front, "f64[?,?,?], i64[?,?], i64[?]", x, np.full((1, 1), 9),
          np.zeros(0, np.int64))
    check(adjacent_front, "f64[?,?,?], i64[?,?], i64[?]", x, np.zeros((0, 1), np.int64),
          np.array([9]))


def bool_with_array(x, m, j):
    return x[m, j]


def float_pair(x, i, f):
    return x[i, f]


def bool_with_int(x, m):
    return x[1:, m]


def bool_assign(x, m, j):
    x[m, j] = -1.0
    return x


def test_bool_mask_with_other_indices_is_its_nonzero():
    x = np.arange(12.0).reshape(3, 4)
    sig = "f64[?,?], bool[?], i64[?]"
    check(bool_with_array, sig, x, np.array([True, False, True]), np.array([3, -1]))
    check(bool_with_array, sig, x, np.array([True, False, True]), np.array([0, 1, 2]))
    check(bool_with_array, sig, x, np.array([True, False]), np.array([0]))
    check(bool_with_array, sig, x, np.zeros(3, bool), np.zeros(0, np.int64))
    check(bool_assign, sig, x, np.array([False, True, True]), np.array([2]))
    check(bool_with_int, "f64[?,?], bool[?]", x[:, ::-1], np.array([True, False, False, True]))


def test_bad_index_arrays_are_compile_errors():
    with pytest.raises(compiler.CompileError, match="must be of integer"):
        compiler.compile(float_pair, "f64[?,?], i64[?], f64[?]")


# assignment ---------------------------------------------------------------------------------

def set_points(x, i, j, v):
    x[i, j] = v


def set_separated(x, i, j, v):
    x[i, :, j] = v


def set_int_first(x, i, j, v):
    x[0, :, j] = v


def set_middle(x, i, j, v):
    x[1:, i, j] = v


def set_after_slice(x, i, j, v):
    x[1:, j, None, i] = v


def add_points(x, i, j, v):
    x[i, j] += v
    return x[i, j]


def add_one_separated(x, i, j, v):
    x[i, :, j] += 1
    return x.sum()


SETS = [set_points, set_separated, set_int_first, set_middle, set_after_slice, add_points,
        add_one_separated]


@st.composite
def value_for(draw, x, i, j, fn):
    """A value of a shape that broadcasts to ``x[i, ...]``'s region, or a random one."""
    ref = np.array(x, copy=True)
    try:
        region = {set_points: lambda: ref[i, j], set_separated: lambda: ref[i, :, j],
                  set_int_first: lambda: ref[0, :, j], set_middle: lambda: ref[1:, i, j],
                  set_after_slice: lambda: ref[1:, j, None, i],
                  add_points: lambda: ref[i, j], add_one_separated: lambda: ref[i, :, j]}[fn]()
        shape = region.shape
    except IndexError:
        shape = ()
    # x[i, j] += v with a v of more dims than the region is NumPy's in-place ufunc error,
    # which augmented assignment does not raise yet
    kinds = ["full", "suffix", "ones"] + ([] if fn in (add_points, add_one_separated)
                                          else ["random"])
    kind = draw(st.sampled_from(kinds))
    if kind == "suffix":
        shape = shape[draw(st.integers(0, len(shape))):]
    elif kind == "ones":
        shape = tuple(1 if draw(st.booleans()) else d for d in shape)
    elif kind == "random":
        shape = draw(st.tuples(*[st.integers(0, 3)] * draw(st.integers(0, 3))))
    return draw(hnp.arrays(np.float64, shape, elements=st.floats(-100, 100)))


@pytest.mark.parametrize("fn", SETS, ids=lambda f: f.__name__)
@SETTINGS
@given(data=st.data())
def test_assignment(fn, data):
    x, i, j = data.draw(index_case())
    v = data.draw(value_for(x, i, j, fn))
    sig = "f64[?,?,?], i64[?,?], i64[?], f64" + ("" if v.ndim == 0 else
                                                 "[" + ",".join("?" * v.ndim) + "]")
    check(fn, sig, x, i, j, v if v.ndim else np.float64(v))


def test_repeated_indices_last_write_wins_and_add_is_buffered():
    x = np.zeros((3, 4, 2))
    i, j = np.array([[1, 1, -2, 0]]), np.array([2, 2, 2, 3])
    check(set_points, "f64[?,?,?], i64[?,?], i64[?], f64[?]", x, i, j, np.arange(4.0))
    check(add_points, "f64[?,?,?], i64[?,?], i64[?], f64", x, i, j, np.float64(1.0))
    check(add_one_separated, "f64[?,?,?], i64[?,?], i64[?], f64", x, np.array([[0, 0]]),
          np.array([1, 1]), np.float64(0.0))


def set_static_int(x, i, j):
    x[i, j] = 3.7


def test_scalar_into_integer_array_converts_as_numpy():
    x = np.zeros((3, 4), np.int32)
    check(set_static_int, "i32[?,?], i8[?], i8[?]", x, np.array([0, -1], np.int8),
          np.array([3, 3], np.int8))


def test_value_mismatch_and_index_errors_in_numpys_order():
    x = np.zeros((3, 4, 5))
    sig = "f64[?,?,?], i64[?,?], i64[?], f64[?]"
    check(set_points, sig, x, np.array([[0, 9]]), np.array([0, 0]), np.ones(7))  # value first
    check(set_points, sig, x, np.array([[0, 9]]), np.array([0, 0, 0]), np.ones(7))  # shapes
    check(set_points, sig, x, np.array([[0, 9]]), np.array([0, 0]), np.ones(5))  # index


# loops and local arrays ---------------------------------------------------------------------

def diagonal_sums(x, i, n):
    total = np.zeros(i.shape[0])
    for k in range(n):
        total += x[i, i + k]
    return total


def scatter_in_loop(i, j, n):
    y = np.zeros((4, 4, 3), dtype=np.int64)
    for k in range(n):
        y[i, :, j] += k
    return y


def run_time_int_first(x, j, n):
    out = np.zeros((j.shape[0], x.shape[1]))
    for k in range(n):
        out += x[k, :, j]   # the loop's integer and j are separated: j's dim first
    return out


@SETTINGS
@given(i=hnp.arrays(np.int64, st.integers(0, 3), elements=st.integers(-4, 3)),
       j=hnp.arrays(np.int64, st.integers(0, 3), elements=st.integers(-3, 2)),
       n=st.integers(0, 3))
def test_inside_loops(i, j, n):
    x = np.arange(49.0).reshape(7, 7)
    check(diagonal_sums, "f64[?,?], i64[?], i64", x, i, np.int64(n))
    check(scatter_in_loop, "i64[?], i64[?], i64", i, j, np.int64(n))
    check(run_time_int_first, "f64[?,?,?], i64[?], i64", np.arange(24.0).reshape(2, 3, 4), j,
          np.int64(n))


def too_many(m, i, j):
    return m[i, j, i]


def test_too_many_indices_is_numpys_index_error():
    with pytest.raises(IndexError, match="too many indices for array: array is "
                       "2-dimensional, but 3 were indexed"):
        compiler.compile(too_many, "f64[?,?], i64[?], i64[?]")
