"""np.partition / np.argpartition / np.median by introselect (``lowering/select.py``)
against NumPy: the partition contract (NumPy specifies only the ``kth`` elements and the
sides of each), and np.median exactly, on NaN, infinities, -0.0, duplicates, all-equal,
sorted, reversed and organ-pipe lines, lines long enough to take many partitions, views and
both axes."""

import functools
import warnings

import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler

SETTINGS = settings(max_examples=25, deadline=None)
SPECIAL = [np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.5, 2.5]


@functools.cache
def compiled(fn, sig):
    return compiler.compile(fn, sig)


def sig_of(a) -> str:
    return f"{a.dtype.name}[{','.join('?' * a.ndim)}]"


def assert_partitioned(a, got, ks, axis=-1):
    """``got`` holds ``a``'s values, the sorted values at ``ks`` and the sides of each
    (compared as NumPy orders them: NaN last)."""
    assert got.dtype == a.dtype and got.shape == a.shape
    got, a = np.moveaxis(got, axis, -1), np.moveaxis(a, axis, -1)
    assert_same(multiset(got), multiset(a))
    want = np.sort(a, axis=-1)
    n = want.shape[-1]
    for k in ks:
        k %= n
        kv = got[..., k:k + 1]
        # 0.0 and -0.0 are equal: either may sit at k (as in NumPy).
        np.testing.assert_array_equal(got[..., k], want[..., k])
        before, after = got[..., :k], got[..., k + 1:]
        # NaN is greater than every number: x <= kv unless kv is NaN; x >= kv or x is NaN.
        assert np.all((before <= kv) | np.isnan(kv)), k
        assert np.all((after >= kv) | np.isnan(after)), k


def multiset(x):
    """The values of each line in one order that tells -0.0 from 0.0 and -nan from nan."""
    if x.dtype.kind != "f":
        return np.sort(x, axis=-1)
    order = np.lexsort((np.signbit(x), x), axis=-1)
    return np.take_along_axis(x, order, axis=-1)


def part3(a):
    return np.partition(a, 3)


def part_many(a):
    return np.partition(a, [0, 2, -1, 7, 2])


def argpart_many(a):
    return np.argpartition(a, (1, -2, 5))


def part_axis0(a):
    return np.partition(a, (1, -1), axis=0)


def part_flat(a):
    return np.partition(a, 4, axis=None)


def medians(a):
    return np.median(a), np.median(a, axis=0), np.median(a, axis=-1, keepdims=True)


def median1(a):
    return np.median(a)


def check_median(a, fn=medians):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = fn(a.copy())
        got = compiled(fn, sig_of(a))(a)
    assert_same(got, want)


def patterns(n):
    """Lines that defeat naive pivots: sorted, reversed, all equal, organ pipe, sawtooth,
    two values, interleaved halves (a median-of-3 adversary's shape)."""
    k = n // 2
    inter = np.empty(n)
    inter[0::2], inter[1::2] = np.arange(1, n - k + 1), np.arange(k + 1, k + 1 + k)
    return {"sorted": np.arange(n, dtype=np.float64),
            "reversed": np.arange(n, 0, -1, dtype=np.float64),
            "equal": np.full(n, 3.0),
            "organ": np.concatenate([np.arange(k), np.arange(n - k, 0, -1)]).astype(float),
            "sawtooth": (np.arange(n) % 17).astype(np.float64),
            "two": (np.arange(n) % 2).astype(np.float64),
            "interleaved": inter}


floats = st.one_of(st.sampled_from(SPECIAL), st.floats(-1e6, 1e6, width=64))


@SETTINGS
@given(a=hnp.arrays(np.float64, st.integers(8, 300), elements=floats),
       dups=st.booleans())
def test_partition_contract_float64(a, dups):
    if dups:
        a = np.round(a / 1e5)
    assert_partitioned(a, compiled(part3, "f64[?]")(a), [3])
    assert_partitioned(a, compiled(part_many, "f64[?]")(a), [0, 2, -1, 7])
    idx = compiled(argpart_many, "f64[?]")(a)
    assert idx.dtype == np.int64
    assert_same(np.sort(idx), np.arange(len(a)))
    assert_partitioned(a, a[idx], [1, -2, 5])


@SETTINGS
@given(a=hnp.arrays(st.sampled_from([np.int64, np.int8, np.uint16, np.float32]),
                    st.integers(8, 200)))
def test_partition_contract_other_dtypes(a):
    got = compiled(part_many, sig_of(a))(a)
    assert got.dtype == a.dtype
    assert_partitioned(a, got, [0, 2, -1, 7])


@SETTINGS
@given(a=hnp.arrays(np.float64, st.tuples(st.integers(5, 40), st.integers(1, 5)),
                    elements=floats))
def test_partition_axis0_of_views(a):
    view = a[::-1]
    assert_partitioned(view, compiled(part_axis0, "f64[?,?]")(view), [1, -1], axis=0)
    assert_partitioned(view.ravel(), compiled(part_flat, "f64[?,?]")(view), [4])


@SETTINGS
@given(a=hnp.arrays(np.float64, st.tuples(st.integers(1, 6), st.integers(1, 120)),
                    elements=floats))
def test_median_special_floats(a):
    check_median(a)
    check_median(a.T)


@SETTINGS
@given(a=hnp.arrays(st.sampled_from([np.int32, np.uint8, np.float32, np.bool_]),
                    st.integers(1, 400)))
def test_median_dtypes(a):
    check_median(a, median1)


@pytest.mark.parametrize("n", [1, 2, 3, 16, 17, 100, 1001, 4096])
@pytest.mark.parametrize("name", sorted(patterns(4)))
def test_adversarial_lines(name, n):
    a = patterns(n)[name]
    check_median(a, median1)
    if n > 7:
        assert_partitioned(a, compiled(part_many, "f64[?]")(a), [0, 2, -1, 7])
        idx = compiled(argpart_many, "f64[?]")(a)
        assert_partitioned(a, a[idx], [1, -2, 5])


def test_median_even_mean_and_empty():
    a = np.array([1.0, 4.0, -0.0, 0.0, 2.0, 7.0])
    check_median(a, median1)
    check_median(np.array([np.inf, -np.inf, 1.0, 2.0]), median1)
    check_median(np.zeros((3, 0)))


def test_kth_out_of_bounds_negative():
    with pytest.raises(ValueError, match=r"kth\(=-9\) out of bounds \(8\)"):
        compiled(part_neg, "f64[?]")(np.zeros(8))


def part_neg(a):
    return np.partition(a, -9)


def test_loop_level_interpreter_agrees():
    """The loop IR of the select, run by the reference interpreter (out-of-bounds
    accesses reported), partitions a line with NaNs, duplicates and equal runs."""
    from compiler.interpreter import Interpreter
    from compiler.ir.parser import parse

    rng = np.random.default_rng(3)
    a = np.round(rng.standard_normal(90) * 3)
    a[[5, 40, 77]] = np.nan
    loops = parse(compiled(part_many, "f64[?]").ir_stages["loops"])
    (got,) = Interpreter(loops).call("part_many", a)
    assert_partitioned(a, got.view(np.float64), [0, 2, -1, 7])
