"""Differential tests of sorting against NumPy: np.sort / np.argsort (every kind, axis, dtype),
ndarray.sort in place, np.partition / np.argpartition (NumPy's contract and kth values) and
np.median, on NaN of both signs, infinities, -0.0 next to 0.0, duplicates, empty and
zero-size dims, non-contiguous and negative-stride views, and lines long enough for the
radix passes. The default (unstable) kinds are compared with NumPy's stable order, which is
one of the orders NumPy allows."""

import functools
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
SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 5e-324, 1.0, -1.5, 2.5, -1e300]
DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64]


@functools.cache
def compiled(fn, sig):
    return compiler.compile(fn, sig)


def check(fn, sig, *args, want=None):
    if want is None:
        with warnings.catch_warnings(), np.errstate(all="ignore"):
            warnings.simplefilter("ignore")
            want = fn(*[a.copy() for a in args])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        got = compiled(fn, sig)(*args)
    assert_same(got, want)


def sig_of(a) -> str:
    return f"{a.dtype.name}[{','.join('?' * a.ndim)}]"


def values(dtype, n, seed=0):
    """``n`` values of ``dtype`` with many duplicates and, for floats, the special values."""
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        a = (rng.standard_normal(n) * 1e3).astype(dtype)
        with np.errstate(over="ignore"):
            a[rng.integers(0, n, n // 5)] = rng.choice(SPECIAL, n // 5) if n else []
        return a
    if np.dtype(dtype).kind == "b":
        return rng.integers(0, 2, n).astype(bool)
    info = np.iinfo(dtype)
    a = rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)
    a[::3] = rng.integers(0, 4, len(a[::3]))
    return a


def stable(a, axis=-1):
    return np.sort(a, axis=axis, kind="stable"), np.argsort(a, axis=axis, kind="stable")


def every_kind(a):
    return (np.sort(a), np.argsort(a, kind="quicksort"), np.sort(a, kind="heapsort"),
            np.argsort(a, kind="mergesort"), np.sort(a, stable=True), a.argsort())


def axes(a):
    return (np.sort(a, axis=0, kind="stable"), np.argsort(a, axis=-2, kind="stable"),
            np.sort(a, axis=None, kind="stable"), np.argsort(a, axis=None, kind="stable"),
            np.sort(a, axis=1, kind="stable"))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("n", [0, 1, 2, 16, 17, 300, 5000])
def test_stable_sort_equals_numpy(dtype, n):
    a = values(dtype, n, seed=n)
    check(stable, sig_of(a), a)


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.bool_])
def test_every_kind_gives_a_sorted_order(dtype):
    a = values(dtype, 1000, seed=3)
    want = (np.sort(a, kind="stable"), np.argsort(a, kind="stable")) * 3
    check(every_kind, sig_of(a), a, want=want)


@SETTINGS
@given(a=hnp.arrays(np.float64, st.integers(0, 40), elements=st.one_of(
    st.sampled_from(SPECIAL), st.floats(-1e6, 1e6, width=32))))
def test_stable_sort_special_floats(a):
    check(stable, "f64[?]", a)


@SETTINGS
@given(a=hnp.arrays(st.sampled_from(DTYPES), hnp.array_shapes(min_dims=2, max_dims=3,
                                                               min_side=0, max_side=5)))
def test_axes(a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check(axes, sig_of(a), a)


@pytest.mark.parametrize("view", [lambda a: a[::-1], lambda a: a[::3], lambda a: a.T,
                                  lambda a: a[1:, ::-2]])
def test_views(view):
    a = values(np.float64, 600, seed=5).reshape(20, 30)
    check(axes, "f64[?,?]", view(a))


def test_long_lines_with_few_distinct_high_digits():
    a = np.arange(100_000, dtype=np.int64)[::-1] % 1000  # every upper radix digit the same
    check(stable, "i64[?]", a)


def in_place(a):
    a.sort()
    return a


def in_place_view(a):
    v = a[::-1]
    v.sort(axis=0, kind="stable")
    return a


def in_place_rows(a):
    a[1:].sort(axis=1)
    return a


@pytest.mark.parametrize("fn", [in_place, in_place_view, in_place_rows])
def test_ndarray_sort_in_place(fn):
    a = values(np.float64, 60, seed=7).reshape(6, 10)
    want = fn(a.copy())
    got = a.copy()
    out = compiled(fn, "f64[?,?]")(got)
    assert_same(out, want)
    assert_same(got, want)


def partitions(a):
    return np.partition(a, 3), np.argpartition(a, (0, -1)), np.partition(a, [1, 2], axis=0)


def test_partition_contract():
    a = values(np.float64, 80, seed=8).reshape(8, 10)
    p, ap, p0 = compiled(partitions, "f64[?,?]")(a)
    want_p, want_ap, want_p0 = partitions(a)
    for k in (3,):
        np.testing.assert_array_equal(p[:, k], want_p[:, k])
        assert np.all(~(p[:, :k] > p[:, k:k + 1])) and np.all(~(p[:, k + 1:] < p[:, k:k + 1]))
    taken = np.take_along_axis(a, ap, axis=-1)
    for k in (0, -1):
        np.testing.assert_array_equal(taken[:, k], np.take_along_axis(a, want_ap, -1)[:, k])
    assert np.array_equal(np.sort(ap, axis=-1), np.broadcast_to(np.arange(10), (8, 10)))
    np.testing.assert_array_equal(p0[[1, 2]], want_p0[[1, 2]])


def kth_out_of_bounds(a):
    return np.partition(a, 5)


def test_partition_kth_out_of_bounds():
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(5\)"):
        compiled(kth_out_of_bounds, "f64[?]")(np.zeros(5))
    with pytest.raises(ValueError, match=r"kth\(=5\) out of bounds \(5\)"):
        compiled(kth_out_of_bounds, "f64[5]")


def bad_kind(a):
    return np.sort(a, kind="bogus")


def kind_and_stable(a):
    return np.sort(a, kind="stable", stable=True)


@pytest.mark.parametrize("fn, message", [
    (bad_kind, "sort kind must be one of 'quick', 'heap', or 'stable' (got 'bogus')"),
    (kind_and_stable, "`kind` and keyword parameters can't be provided at the same time")])
def test_bad_arguments_raise_numpys_error(fn, message):
    with pytest.raises(ValueError) as info:
        fn(np.zeros(3))
    assert message in str(info.value)
    with pytest.raises(compiler.CompileError, match=message.replace("(", r"\(")
                       .replace(")", r"\)")):
        compiled(fn, "f64[?]")


def medians(a):
    return (np.median(a), np.median(a, axis=0), np.median(a, axis=-1, keepdims=True),
            np.median(a, keepdims=True))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int32, np.uint8, np.bool_])
@pytest.mark.parametrize("shape", [(5, 7), (4, 6), (1, 1), (3, 0)])
def test_median(dtype, shape):
    a = values(dtype, int(np.prod(shape)), seed=9).reshape(shape)
    check(medians, sig_of(a), a)


@SETTINGS
@given(a=hnp.arrays(np.float64, st.tuples(st.integers(1, 4), st.integers(1, 9)),
                    elements=st.one_of(st.sampled_from(SPECIAL), st.floats(-1e6, 1e6))))
def test_median_special_floats(a):
    check(medians, "f64[?,?]", a)


def test_loop_level_interpreter_agrees():
    """The lowering's loop IR, run by the reference interpreter (undefined behaviour and
    out-of-bounds accesses reported), gives NumPy's stable order."""
    from compiler.interpreter import Interpreter
    from compiler.ir.parser import parse

    a = values(np.float32, 40, seed=11)
    loops = parse(compiled(stable, "f32[?]").ir_stages["loops"])
    got = Interpreter(loops).call("stable", a)
    assert_same(got[0].view(np.float32), np.sort(a, kind="stable"))
    assert_same(got[1], np.argsort(a, kind="stable"))


def searches(a, v):
    s = np.sort(a, kind="stable")
    return (np.searchsorted(s, v), np.searchsorted(s, v, side="right"),
            np.searchsorted(a, v, sorter=np.argsort(a, kind="stable")), s.searchsorted(v[0]),
            np.searchsorted(s, 2.5, "right"))


@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.uint8, np.int8])
@pytest.mark.parametrize("n", [0, 1, 7, 300])
def test_searchsorted(dtype, n):
    a = values(dtype, n, seed=n + 1)
    v = values(dtype, 50, seed=2)
    v = np.concatenate([v, a[:5]]) if n else v
    check(searches, f"{sig_of(a)}, {sig_of(v)}", a, v)


@SETTINGS
@given(a=hnp.arrays(np.float64, st.integers(0, 30), elements=st.one_of(
    st.sampled_from(SPECIAL), st.floats(-10, 10))),
       v=hnp.arrays(np.float64, st.integers(1, 8), elements=st.sampled_from(SPECIAL + [0.5])))
def test_searchsorted_special_floats(a, v):
    check(searches, "f64[?], f64[?]", a, v)


def bad_side(a):
    return np.searchsorted(a, 1.0, side="middle")


def test_searchsorted_bad_side():
    with pytest.raises(compiler.CompileError, match="search side must be 'left' or 'right'"):
        compiled(bad_side, "f64[?]")


def uniques(a):
    return (np.unique(a), np.unique(a, return_index=True, return_inverse=True,
                                    return_counts=True), np.unique(a, return_counts=True,
                                                                   equal_nan=False))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", [(0,), (1,), (40,), (3, 0), (6, 7)])
def test_unique(dtype, shape):
    a = values(dtype, int(np.prod(shape)), seed=12).reshape(shape)
    if a.size and a.dtype.kind not in "fb":
        a = a % 7  # duplicates
    check(uniques, sig_of(a), a)


def first_occurrence_uniques(a):
    """``uniques`` as NumPy gives it with its stable sort: ``np.unique(a)`` alone uses the
    default sort, whose pick between 0.0 and -0.0 (and whether it keeps +0.0 at all) depends
    on the CPU's SIMD sort; ``return_index`` pins it to the first occurrence."""
    first = a.reshape(-1)[np.unique(a, return_index=True)[1]]
    full = np.unique(a, return_index=True, return_inverse=True, return_counts=True)
    _, counts = np.unique(a, return_counts=True, equal_nan=False)
    nan_free = np.unique(a, return_index=True, equal_nan=False)[1]
    return first, (first,) + full[1:], (a.reshape(-1)[nan_free], counts)


@SETTINGS
@given(a=hnp.arrays(np.float64, st.integers(0, 30), elements=st.sampled_from(SPECIAL)))
def test_unique_special_floats(a):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        want = first_occurrence_uniques(a)
    check(uniques, "f64[?]", a, want=want)


def lexsort_pairs(a, b):
    return np.lexsort((a, b)), np.lexsort([b, a]), np.lexsort((a,)), np.lexsort((b, a, b))


def lexsort_rows(k):
    return np.lexsort(k), np.lexsort(k[::-1]), np.lexsort(k, axis=0)


@pytest.mark.parametrize("dtype", [np.bool_, np.int8, np.uint16, np.int64, np.float32,
                                   np.float64])
@pytest.mark.parametrize("n", [0, 1, 17, 500])
def test_lexsort_equals_numpy(dtype, n):
    """The last key is primary, ties broken by the earlier keys, then input order."""
    with np.errstate(invalid="ignore"):
        a = values(dtype, n, seed=n) % 4 if dtype != np.bool_ else values(dtype, n)
    b = values(np.float64, n, seed=n + 1).round(-3)
    run_both(lexsort_pairs, (a, b))
    run_both(lexsort_pairs, (a[::-1], b[::-1]))


@settings(max_examples=15, deadline=None)
@given(hnp.arrays(np.float64, st.integers(0, 12), elements=st.sampled_from(SPECIAL)),
       st.data())
def test_lexsort_special_floats(a, data):
    b = data.draw(hnp.arrays(np.int8, a.shape, elements=st.integers(-2, 2)))
    run_both(lexsort_pairs, (a, b))


@pytest.mark.parametrize("shape", [(2, 9), (3, 4, 5), (1, 0), (4, 1, 3)])
def test_lexsort_array_of_keys(shape):
    """The rows of an array are the keys; any trailing shape, sorted along axis -1 (or 0)."""
    k = np.random.default_rng(len(shape)).integers(0, 3, shape)
    run_both(lexsort_rows, (k,))


def lexsort_pair(a, b):
    return np.lexsort((a, b))


def lexsort_nothing(a):
    return np.lexsort(())


def test_lexsort_errors():
    """NumPy's ValueError for keys of different shapes (at run time for run-time sizes)
    and TypeError for no keys."""
    run_both(lexsort_pair, (np.arange(3), np.arange(4.0)))
    run_both(lexsort_pair, (np.ones((2, 3)), np.ones((3, 2))))
    run_both(lexsort_nothing, (np.arange(3),))
    cf = compiler.compile(lexsort_pair, "i64[?], f64[?]")
    with pytest.raises(ValueError, match="all keys need to be the same shape"):
        cf(np.arange(3), np.arange(4.0))
