"""ufunc methods (np.<ufunc>.outer, .reduce, .accumulate, .at) and the out=, where=,
initial= and dtype= arguments of ufuncs and reductions, differential against NumPy through
``differential_harness.run_both`` (result type, dtype, shape and values, NumPy's errors, and
the arguments the call mutates); hypothesis draws shapes with zero-size dims, values with
NaN, inf and -0.0, and non-contiguous (reversed, strided) views."""

import numpy as np
import pytest
from conftest import assert_same
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=8, deadline=None)

FLOATS = st.floats(allow_nan=True, allow_infinity=True, width=64) | st.sampled_from(
    [0.0, -0.0, 1.0, np.nan])
INTS = st.integers(-100, 100)


def arrays(min_dims=0, max_dims=3, dtype=np.float64, elements=FLOATS, min_side=0):
    return hnp.arrays(dtype, hnp.array_shapes(min_dims=min_dims, max_dims=max_dims,
                                              min_side=min_side, max_side=4),
                      elements=elements)


def views(min_dims=0, max_dims=3, dtype=np.float64, elements=FLOATS, min_side=0):
    """An array or a reversed, strided view of one."""
    return st.tuples(arrays(min_dims, max_dims, dtype, elements, min_side),
                     st.booleans()).map(
        lambda p: p[0][..., ::-1][::2] if p[1] and p[0].ndim else p[0])


def int_views(min_dims=0, max_dims=3, dtype=np.int64, min_side=0):
    return views(min_dims, max_dims, dtype, INTS, min_side)


def _no_negative_zero(a):
    return np.where(a == 0, 0.0, a)


def _shared(fn):
    """One compiled function per test function, shared by the hypothesis examples."""
    return fn, compiler.function(fn, reduce_retracing=True)


def check(pair, *args, rtol=None):
    fn, compiled = pair
    run_both(fn, args, compiled=compiled, rtol=rtol)


# outer --------------------------------------------------------------------------------------

ADD_OUTER = _shared(lambda a, b: np.add.outer(a, b))
MULTIPLY_OUTER = _shared(lambda a, b: np.multiply.outer(a, b))
SUBTRACT_OUTER = _shared(lambda a, b: np.subtract.outer(b, a))
MAXIMUM_OUTER = _shared(lambda a, b: np.maximum.outer(a, b))
LESS_OUTER = _shared(lambda a, b: np.less.outer(a, b))


@SETTINGS
@given(views(max_dims=2), views(max_dims=2))
def test_outer_floats(a, b):
    for pair in (ADD_OUTER, MULTIPLY_OUTER, SUBTRACT_OUTER, MAXIMUM_OUTER, LESS_OUTER):
        check(pair, a, b)


@SETTINGS
@given(int_views(max_dims=2, dtype=np.int8), views(max_dims=1))
def test_outer_mixed_dtypes(a, b):
    check(ADD_OUTER, a, b)
    check(LESS_OUTER, a, b)


def outer_scalars(a):
    return np.add.outer(a, 2.0), np.multiply.outer(3, a), np.add.outer(a[0], 1)


def outer_into(a, b):
    out = np.zeros((a.shape[0], b.shape[0]))
    r = np.subtract.outer(a, b, out=out)
    return out, r


def test_outer_scalar_operands_and_out():
    a = np.array([1.5, -2.0, 3.0], np.float32)
    run_both(outer_scalars, (a,))
    run_both(outer_into, (np.arange(3.0), np.arange(4.0)))


# reduce -------------------------------------------------------------------------------------

ADD_REDUCE = _shared(lambda a: np.add.reduce(a))
ADD_REDUCE_NONE = _shared(lambda a: np.add.reduce(a, axis=None))
ADD_REDUCE_LAST = _shared(lambda a: np.add.reduce(a, axis=-1, keepdims=True))
MULTIPLY_REDUCE = _shared(lambda a: np.multiply.reduce(a, axis=None, dtype=np.float32))
MAXIMUM_REDUCE = _shared(lambda a: np.maximum.reduce(a, axis=0))
MINIMUM_REDUCE = _shared(lambda a: np.minimum.reduce(a, axis=None, initial=0.5))
ALL_REDUCE = _shared(lambda a: np.logical_and.reduce(a))
ANY_REDUCE = _shared(lambda a: np.logical_or.reduce(a, axis=None, keepdims=True))
ADD_REDUCE_INITIAL = _shared(lambda a: np.add.reduce(a, axis=None, initial=2.5,
                                                      where=a > 0))


@SETTINGS
@given(views(min_dims=1))
def test_reduce_floats(a):
    for pair in (ADD_REDUCE, ADD_REDUCE_NONE, ADD_REDUCE_LAST, MULTIPLY_REDUCE, ALL_REDUCE,
                 ANY_REDUCE):
        check(pair, a)
    for pair in (MAXIMUM_REDUCE, MINIMUM_REDUCE):   # a zero extreme: IEEE's sign
        check(pair, _no_negative_zero(a))
    check(ADD_REDUCE_INITIAL, a, rtol=1e-12)


BITWISE_OR_REDUCE = _shared(lambda a: np.bitwise_or.reduce(a))
BITWISE_AND_REDUCE = _shared(lambda a: np.bitwise_and.reduce(a, axis=None))
BITWISE_XOR_REDUCE = _shared(lambda a: np.bitwise_xor.reduce(a, axis=-1, keepdims=True))
SUBTRACT_REDUCE = _shared(lambda a: np.subtract.reduce(a, axis=-1))
SMALL_ADD_REDUCE = _shared(lambda a: np.add.reduce(a, axis=None))
SMALL_MULTIPLY_REDUCE = _shared(lambda a: np.multiply.reduce(a))


@SETTINGS
@given(int_views(min_dims=1, dtype=np.int8))
def test_reduce_integers(a):
    """Bitwise reductions keep int8; add/multiply widen to int64; subtract raises NumPy's
    ValueError on an empty row."""
    for pair in (BITWISE_OR_REDUCE, BITWISE_AND_REDUCE, BITWISE_XOR_REDUCE, SUBTRACT_REDUCE,
                 SMALL_ADD_REDUCE, SMALL_MULTIPLY_REDUCE):
        check(pair, a)


def reduce_bools(m):
    return (np.bitwise_or.reduce(m, axis=None), np.logical_xor.reduce(m),
            np.add.reduce(m), np.maximum.reduce(m, axis=None))


def test_reduce_bools():
    run_both(reduce_bools, (np.array([[True, False, True], [False, False, True]]),))


def test_add_reduce_is_np_sum():
    """np.add.reduce is np.sum's reduction: NumPy's pairwise order for up to 128 elements
    (float32 bits equal), and for longer ones the same bits as grafo's np.sum."""
    x = np.random.default_rng(1).standard_normal(10_000).astype(np.float32)
    add = compiler.function(lambda a: np.add.reduce(a))
    assert_same(add(x[:128]), np.add.reduce(x[:128]), rtol=0)
    assert_same(add(x), compiler.function(lambda a: np.sum(a))(x), rtol=0)
    assert_same(add(x), np.add.reduce(x))
    rows = x.reshape(100, 100)
    assert_same(compiler.function(lambda a: np.add.reduce(a, axis=1))(rows),
                np.add.reduce(rows, axis=1), rtol=0)


def subtract_all_axes(a):
    return np.subtract.reduce(a, axis=None)


def maximum_where_without_initial(a):
    return np.maximum.reduce(a, where=a > 0)


def comparison_reduce(a):
    return np.less.reduce(a)


def test_reduce_errors():
    a = np.ones((2, 3))
    run_both(subtract_all_axes, (a,))
    run_both(maximum_where_without_initial, (a,))
    run_both(MAXIMUM_REDUCE[0], (np.ones((0, 3)),))
    with pytest.raises(compiler.CompileError, match="not supported"):
        compiler.function(comparison_reduce)(a)


# accumulate ---------------------------------------------------------------------------------

ADD_ACCUMULATE = _shared(lambda a: np.add.accumulate(a))
MULTIPLY_ACCUMULATE = _shared(lambda a: np.multiply.accumulate(a, axis=-1))
MAXIMUM_ACCUMULATE = _shared(lambda a: np.maximum.accumulate(a, axis=-1))
MINIMUM_ACCUMULATE = _shared(lambda a: np.minimum.accumulate(a))
FMAX_ACCUMULATE = _shared(lambda a: np.fmax.accumulate(a))
SUBTRACT_ACCUMULATE = _shared(lambda a: np.subtract.accumulate(a, dtype=np.float32))


@SETTINGS
@given(views(min_dims=1))
def test_accumulate_floats(a):
    for pair in (ADD_ACCUMULATE, MULTIPLY_ACCUMULATE, MAXIMUM_ACCUMULATE, MINIMUM_ACCUMULATE,
                 FMAX_ACCUMULATE, SUBTRACT_ACCUMULATE):
        check(pair, a)


BITWISE_XOR_ACCUMULATE = _shared(lambda a: np.bitwise_xor.accumulate(a, axis=-1))
INT_MAXIMUM_ACCUMULATE = _shared(lambda a: np.maximum.accumulate(a))


@SETTINGS
@given(int_views(min_dims=1, dtype=np.int8))
def test_accumulate_integers(a):
    """add widens int8 to int64 as np.cumsum does; maximum and bitwise ops keep int8."""
    for pair in (ADD_ACCUMULATE, BITWISE_XOR_ACCUMULATE, INT_MAXIMUM_ACCUMULATE):
        check(pair, a)


def accumulate_scalar(a):
    return np.add.accumulate(a[0, 0])


def accumulate_into(a):
    out = np.zeros(a.shape, np.float32)
    r = np.maximum.accumulate(a, out=out)
    return out, r


def test_accumulate_errors_and_out():
    a = np.arange(6.0).reshape(2, 3)
    run_both(accumulate_into, (a,))
    with pytest.raises(compiler.CompileError, match="cannot accumulate on a scalar"):
        compiler.function(accumulate_scalar)(a)


# at -----------------------------------------------------------------------------------------

def add_at(a, idx, b):
    np.add.at(a, idx, b)
    return a.sum()


def maximum_at(a, idx, b):
    np.maximum.at(a, idx, b)


def minimum_at(a, idx, b):
    np.minimum.at(a, idx, b)


def multiply_at(a, idx, b):
    np.multiply.at(a, idx, b)


def subtract_at(a, idx, b):
    np.subtract.at(a, idx, b)


AT = [_shared(f) for f in (add_at, maximum_at, minimum_at, multiply_at, subtract_at)]


@SETTINGS
@given(views(min_dims=1, max_dims=1, min_side=1),
       st.lists(st.integers(-3, 3), min_size=0, max_size=8), FLOATS)
def test_at_repeated_indices(a, indices, b):
    """Unbuffered: repeated indices accumulate; negative ones count from the end; an index
    out of range raises NumPy's IndexError."""
    idx = np.array(indices, np.int64)
    for pair in AT:
        check(pair, a, idx, b)
        check(pair, a, idx, np.arange(len(indices), dtype=np.float64))


def at_2d(a, rows, cols, v):
    np.add.at(a, (rows, cols), v)
    np.maximum.at(a, (1, cols), 2.0)
    np.multiply.at(a, rows, 0.5)
    return a.copy()


def at_int_float(a, idx):
    np.add.at(a, idx, 1.5)
    np.multiply.at(a, idx, 2.5)


def at_view(a, idx):
    np.add.at(a[::2], idx, 1)


def at_basic(a, m):
    np.add.at(a, (slice(None), 0), 1.0)
    np.multiply.at(a, m, 2.0)
    return a.copy()


def test_at_forms():
    a = np.arange(12.0).reshape(3, 4)
    run_both(at_2d, (a, np.array([0, 2, 0, 0]), np.array([1, 1, 3, 1]), np.float32(1.5)))
    run_both(at_int_float, (np.array([3, 4, 5]), np.array([0, 0, 2, -1])))
    run_both(at_view, (np.zeros(7, np.int32), np.array([0, 3, 3, 1])))
    run_both(at_basic, (a, a > 5))
    run_both(at_view, (np.zeros(7, np.int32), np.array([0, 4])))   # IndexError


# out= and where= of ufuncs ------------------------------------------------------------------

def ufunc_out(a, b):
    c = np.empty(a.shape)
    r = np.add(a, b, out=c)
    s = np.multiply(a, 2.0, out=(c,))
    return c, r, s


def ufunc_out_alias(a, b):
    np.multiply(a, 2, out=a)
    np.subtract(b, a, out=b)


def ufunc_out_view(a):
    np.add(a[0], 1.0, out=a[1])
    return np.negative(a[:, 0], out=a[:, 1])


def ufunc_out_positional(a, c):
    np.sqrt(a, c)
    return c.copy()


def ufunc_out_broadcast(a):
    out = np.zeros((2,) + a.shape, np.float32)
    np.add(a, 1, out=out)
    return out


@SETTINGS
@given(views(min_dims=1, max_dims=2))
def test_ufunc_out(a):
    run_both(ufunc_out, (a, np.float64(1.5)))
    run_both(ufunc_out_alias, (a.copy(), a[::-1].copy()))
    run_both(ufunc_out_broadcast, (a,))


def test_ufunc_out_views_and_positional():
    a = np.arange(6.0).reshape(3, 2)
    run_both(ufunc_out_view, (a,))
    run_both(ufunc_out_positional, (np.array([4.0, 9.0]), np.zeros(2, np.float32)))


def ufunc_out_cast_error(a):
    c = np.zeros(a.shape, np.int64)
    np.add(a, 1, out=c)
    return c


def ufunc_out_int_widen(a):
    c = np.zeros(a.shape, np.float32)
    np.add(a, a, out=c)
    return c


def ufunc_out_shape_error(a):
    c = np.zeros(4)
    np.add(a, 1, out=c)
    return c


def test_ufunc_out_casting():
    """same_kind: float into int is NumPy's UFuncTypeError (a TypeError, at compile time);
    int8 overflow happens in the int8 loop before the cast to float32."""
    run_both(ufunc_out_cast_error, (np.ones(3),))
    with pytest.raises(TypeError, match="Cannot cast ufunc 'add' output from "
                                        r"dtype\('float64'\) to dtype\('int64'\)"):
        compiler.function(ufunc_out_cast_error)(np.ones(3))
    run_both(ufunc_out_int_widen, (np.array([100, -100, 7], np.int8),))
    with pytest.raises((compiler.CompileError, ValueError)):
        compiler.function(ufunc_out_shape_error)(np.ones(3))


def ufunc_where_out(a, m):
    c = np.full(a.shape, -1.0)
    r = np.add(a, 1.0, out=c, where=m)
    return c, r


def ufunc_where_only(a, m):
    return np.where(m, np.multiply(a, 3.0, where=m), 0.0)


def ufunc_where_into_argument(a, m):
    np.sqrt(a, out=a, where=m)


@SETTINGS
@given(views(min_dims=1, max_dims=2).flatmap(
    lambda a: st.tuples(st.just(a), hnp.arrays(np.bool_, a.shape))))
def test_ufunc_where(pair):
    """With out=, the masked-out elements keep out's values; without it NumPy leaves them
    uninitialised, so only the selected ones are compared."""
    a, m = pair
    run_both(ufunc_where_out, (a, m))
    run_both(ufunc_where_only, (a, m))
    run_both(ufunc_where_into_argument, (a.copy(), m))


# out=, where=, initial= and dtype= of reductions --------------------------------------------

def sum_out(a):
    o = np.zeros(a.shape[1:])
    r = np.sum(a, axis=0, out=o)
    return o, r


def reductions_out(a):
    o = np.zeros(a.shape[0], np.int64)
    m = np.zeros(a.shape[0], np.float32)
    s = np.empty(())
    np.max(a, axis=1, out=o)
    np.mean(a, axis=-1, out=m)
    r = np.sum(a, out=s)
    return o, m, s, r


def reduction_out_into_argument(a, o):
    a.min(axis=0, out=o)
    np.prod(a, axis=0, out=o[::-1], keepdims=False)


def reduction_out_rank_error(a):
    o = np.zeros((1, 3))
    np.sum(a, axis=0, out=o)


@SETTINGS
@given(views(min_dims=2, max_dims=2, elements=st.floats(-1e6, 1e6), min_side=1))
def test_reduction_out(a):
    """A reduction's result is cast into out unsafely (float into int64 truncates) and
    the call returns out itself (a 0-d array for a full reduction)."""
    run_both(sum_out, (a,))
    run_both(reductions_out, (a,))
    run_both(reduction_out_into_argument, (a, np.zeros(a.shape[1])))


def test_reduction_out_errors():
    run_both(reduction_out_rank_error, (np.ones((2, 3)),))


def reductions_where(a, m):
    return (np.sum(a, where=m), np.sum(a, axis=0, where=m), a.prod(axis=-1, where=m),
            np.any(a, where=m), np.all(a, axis=0, where=m), np.mean(a, where=m),
            np.mean(a, axis=0, where=m))


def extremes_where(a, m):
    return (np.max(a, where=m, initial=-np.inf), np.min(a, axis=0, where=m, initial=5.0),
            a.max(axis=-1, where=m, initial=0.0, keepdims=True))


def extremes_initial(a):
    return np.max(a, initial=0.5), np.min(a, axis=-1, initial=-1.0), np.sum(a, initial=3.0)


def max_where_without_initial(a, m):
    return np.max(a, where=m)


@SETTINGS
@given(views(min_dims=1, max_dims=2).flatmap(
    lambda a: st.tuples(st.just(a), hnp.arrays(np.bool_, a.shape))))
def test_reduction_where_initial(pair):
    """Masked sums: NumPy adds masked elements one at a time, grafo pairwise, so sums are
    compared within float tolerance; max/min with initial reduce empty extents to it. A
    zero max/min takes IEEE's sign (docs/numpy_support.md), NumPy's depends on the order,
    so the extremes get no -0.0."""
    a, m = pair
    run_both(reductions_where, (a, m), rtol=1e-9)
    b = _no_negative_zero(a)
    run_both(extremes_where, (b, m))
    run_both(extremes_initial, (b,))
    run_both(max_where_without_initial, (b, m))


def reductions_dtype(a, i):
    return (np.sum(a, dtype=np.float32), np.prod(i, dtype=np.int64), np.sum(i, axis=0),
            np.mean(a, axis=0, dtype=np.float32), np.mean(i, dtype=np.float32),
            i.sum(dtype=np.int16), np.max(i, axis=0, initial=np.int8(-128)))


@SETTINGS
@given(arrays(min_dims=2, max_dims=2, elements=st.floats(-100, 100), min_side=1).flatmap(
    lambda a: st.tuples(st.just(a), hnp.arrays(np.int8, a.shape, elements=INTS))))
def test_reduction_dtype(pair):
    a, i = pair
    run_both(reductions_dtype, (a, i), rtol=1e-6)


def mean_where_scalar(x, m):
    return (np.mean(x, where=m), np.mean(x, where=m, keepdims=True),
            np.mean(x, where=m, dtype=np.float32), np.mean(2.5, where=m))


@pytest.mark.parametrize("x", [np.float64(-0.0), np.float32(np.nan), np.int64(-7),
                               np.array(np.inf), np.array(3, np.int16), np.bool_(True)])
@pytest.mark.parametrize("m", [np.bool_(True), np.bool_(False), np.array(True),
                               np.array(False)])
def test_mean_where_of_scalar_and_0d(x, m):
    """A scalar or 0-d ``x`` with a mask: its value, or NaN where masked out."""
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        run_both(mean_where_scalar, (x, m))
