"""Float sums over one axis that is not the last, against NumPy, on every memory order.

NumPy's iterator makes the axis of smallest stride its inner loop and sums an inner-loop
reduction pairwise; otherwise it adds along the reduced axis one element at a time. grafo
picks the same order from the strides of the view it reads (lowering/reduction.py): the
same bits as NumPy for sequential sums and for pairwise sums of up to 128 elements (one
block of NumPy's pairwise base case), and NumPy's pairwise error bound beyond (grafo's
block sums are compensated, so they are not NumPy's bits there)."""

import functools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler
from compiler.lowering.reduction import BLOCK

KEPT = 37   # the extent of the kept axes of the 2-D cases
SPECIAL = [np.nan, np.inf, -np.inf, -0.0, 0.0]


def t_sum0(x):
    return x.T.sum(0)


def sum0(x):
    return x.sum(0)


def sum0_keepdims(x):
    return np.sum(x, axis=0, keepdims=True)


def every_other_t_sum0(x):
    return x[::2].T.sum(0)


def flipped_t_sum0(x):
    return x[:, ::-1].T.sum(0)


def new_axis_t_sum0(x):
    return x.T[:, None].sum(0)


def every_kth_t_sum0(x, k):
    return x[::k].T.sum(0)


def sum1(y):
    return y.sum(1)


def row_sum(x):
    return x.sum(1)


def t_row_sum(x):
    return x.T.sum(1)


def row_sum_keepdims(x):
    return np.sum(x, axis=-1, keepdims=True)


def scaled_t_sum0(x):
    return (x.T * 2).sum(0)


def scaled_row_sum(x):
    return (x * 2).sum(1)


def copied_t_sum0(x):
    return x.T.copy().sum(0)


def np_copied_t_sum0(x):
    return np.copy(x.T).sum(0)


def nansum0(x):
    return np.nansum(x, axis=0)


def moved_sum1(y):
    return y.transpose(2, 0, 1).sum(1)


def moved_sum0(y):
    return y.transpose(2, 0, 1).sum(0)


def fixed_moved_sum0(y):
    return y.transpose(2, 0, 1)[:, 1].sum(0)


def moved_sum01(y):
    return y.transpose(2, 0, 1).sum((0, 1))


def int_sum0(x):
    return x.sum(0)


def t_max0(x):
    return x.T.max(0)


def t_min0(x):
    return np.min(x.T, axis=0)


def data(rng, shape, dtype):
    """Well-conditioned values (no cancellation, as NumPy's accuracy tests use), which
    sequential and pairwise sums still round differently."""
    return rng.standard_normal(shape).astype(dtype) + dtype(3)


# name: (function, argument of (rng, n, dtype) whose reduced extent is n, the view summed
# and its reduced axis, NumPy's order: "pairwise", "sequential", or "other")
CASES = {
    "x.T.sum(0)": (t_sum0, lambda r, n, d: data(r, (KEPT, n), d), lambda x: x.T, 0,
                   "pairwise"),
    "F x.sum(0)": (sum0, lambda r, n, d: np.asfortranarray(data(r, (n, KEPT), d)),
                   lambda x: x, 0, "pairwise"),
    "C x.sum(0)": (sum0, lambda r, n, d: data(r, (n, KEPT), d), lambda x: x, 0, "sequential"),
    "F keepdims": (sum0_keepdims, lambda r, n, d: np.asfortranarray(data(r, (n, KEPT), d)),
                   lambda x: x, 0, "pairwise"),
    "C keepdims": (sum0_keepdims, lambda r, n, d: data(r, (n, KEPT), d), lambda x: x, 0,
                   "sequential"),
    # The last axis: pairwise when it has the smallest stride, else (a column-major matrix)
    # NumPy's inner loop runs down the columns and each row adds one element at a time.
    "C x.sum(1)": (row_sum, lambda r, n, d: data(r, (KEPT, n), d), lambda x: x, 1, "pairwise"),
    "F x.sum(1)": (row_sum, lambda r, n, d: np.asfortranarray(data(r, (KEPT, n), d)),
                   lambda x: x, 1, "sequential"),
    "x.T.sum(1)": (t_row_sum, lambda r, n, d: data(r, (n, KEPT), d), lambda x: x.T, 1,
                   "sequential"),
    "F keepdims sum(-1)": (row_sum_keepdims, lambda r, n, d: np.asfortranarray(
        data(r, (KEPT, n), d)), lambda x: x, 1, "sequential"),
    "F x[::2].sum(1)": (row_sum, lambda r, n, d: np.asfortranarray(data(r, (2 * KEPT, n), d))
                        [::2], lambda x: x, 1, "sequential"),
    # Computed arrays: a ufunc's result has its operands' memory order (NumPy's order "K"),
    # ndarray.copy() C order, np.copy its argument's order.
    "(x.T * 2).sum(0)": (scaled_t_sum0, lambda r, n, d: data(r, (KEPT, n), d),
                         lambda x: x.T * 2, 0, "pairwise"),
    "F (x * 2).sum(1)": (scaled_row_sum, lambda r, n, d: np.asfortranarray(data(r, (KEPT, n), d)),
                         lambda x: x * 2, 1, "sequential"),
    "x.T.copy().sum(0)": (copied_t_sum0, lambda r, n, d: data(r, (KEPT, n), d),
                          lambda x: x.T, 0, "sequential"),
    "np.copy(x.T).sum(0)": (np_copied_t_sum0, lambda r, n, d: data(r, (KEPT, n), d),
                            lambda x: x.T, 0, "pairwise"),
    "F np.nansum(x, 0)": (nansum0, lambda r, n, d: np.asfortranarray(data(r, (n, KEPT), d)),
                          lambda x: x, 0, "pairwise"),
    "x[::2].T.sum(0)": (every_other_t_sum0, lambda r, n, d: data(r, (2 * KEPT, n), d),
                        lambda x: x[::2].T, 0, "pairwise"),
    "x[:, ::-1].T.sum(0)": (flipped_t_sum0, lambda r, n, d: data(r, (KEPT, n), d),
                            lambda x: x[:, ::-1].T, 0, "pairwise"),
    "x.T[:, None].sum(0)": (new_axis_t_sum0, lambda r, n, d: data(r, (KEPT, n), d),
                            lambda x: x.T[:, None], 0, "pairwise"),
    "F slice argument": (sum0, lambda r, n, d: np.asfortranarray(data(r, (n, 3 * KEPT), d))
                         [:, ::3], lambda x: x, 0, "pairwise"),
    # Broadcast arguments (stride 0): such an axis has no order in NumPy's sort and keeps
    # its place outside the axes after it.
    "broadcast rows": (sum0, lambda r, n, d: np.broadcast_to(data(r, (KEPT,), d), (n, KEPT)),
                       lambda x: x, 0, "sequential"),
    "broadcast columns": (sum0, lambda r, n, d: np.broadcast_to(data(r, (n, 1), d), (n, KEPT)),
                          lambda x: x, 0, "sequential"),
    "broadcast F y.sum(1)": (sum1, lambda r, n, d: np.broadcast_to(
        np.asfortranarray(data(r, (n, 5), d))[None], (3, n, 5)), lambda y: y, 1, "pairwise"),
    "y.transpose(2, 0, 1).sum(1)": (moved_sum1, lambda r, n, d: data(r, (n, 4, 5), d),
                                    lambda y: y.transpose(2, 0, 1), 1, "sequential"),
    "y.transpose(2, 0, 1).sum(0)": (moved_sum0, lambda r, n, d: data(r, (4, 5, n), d),
                                    lambda y: y.transpose(2, 0, 1), 0, "pairwise"),
    "y.transpose(2, 0, 1)[:, 1].sum(0)": (fixed_moved_sum0, lambda r, n, d: data(r, (4, 5, n), d),
                                          lambda y: y.transpose(2, 0, 1)[:, 1], 0, "pairwise"),
    # Two reduced axes: NumPy sums the stride-1 axis pairwise and adds those sums in turn;
    # grafo adds along both in C order, so only the sequential error bound holds.
    "y.transpose(2, 0, 1).sum((0, 1))": (moved_sum01, lambda r, n, d: data(r, (3, 4, n), d),
                                         lambda y: y.transpose(2, 0, 1).reshape(-1, 4), 0,
                                         "other"),
}


@functools.cache
def dynamic(fn, dtype, rank):
    """``fn`` compiled once for any shape of ``dtype`` arrays of ``rank``."""
    t = "f32" if dtype == np.float32 else "f64"
    return compiler.compile(fn, f"{t}[{','.join('?' * rank)}]")


def fibers(view, axis):
    """The summed vectors of ``view.sum(axis)``, one row per result element, in order."""
    rows = np.moveaxis(view, axis, -1)
    return rows.reshape(math.prod(rows.shape[:-1]), rows.shape[-1])


def numpy(fn, *args):
    """NumPy's result (inf - inf in a sum is its NaN, without a warning)."""
    with np.errstate(invalid="ignore"):
        return fn(*args)


def assert_sum(got, want, view, axis, order):
    """``got`` against NumPy's ``want``: the same bits (NaN where NumPy has NaN) when NumPy
    adds in grafo's order; else, per element, an error against the exact sum of at most
    NumPy's plus one rounding (pairwise), or the sequential bound ``n * eps * sum|x|``."""
    assert type(got) is type(want) and got.dtype == want.dtype and got.shape == want.shape
    got, want = got.reshape(-1), want.reshape(-1)
    nan = np.isnan(want)
    np.testing.assert_array_equal(np.isnan(got), nan)
    n = view.shape[axis]
    if order == "sequential" or (order == "pairwise" and n <= BLOCK):
        bits = np.dtype(f"u{want.dtype.itemsize}")
        np.testing.assert_array_equal(got[~nan].view(bits), want[~nan].view(bits))
        return
    finite = np.isfinite(want)
    np.testing.assert_array_equal(got[~finite & ~nan], want[~finite & ~nan])
    eps = float(np.finfo(want.dtype).eps)
    for g, w, row in zip(got[finite], want[finite], fibers(view, axis)[finite], strict=True):
        wide = row.astype(np.float64)
        exact = math.fsum(wide)
        if order == "pairwise":
            bound = abs(float(w) - exact) + abs(exact) * eps
        else:
            bound = n * eps * math.fsum(np.abs(wide))
        assert abs(float(g) - exact) <= bound, (g, w, exact)


@pytest.mark.parametrize("n", [0, 1, 127, 128, 129, 1000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", list(CASES))
def test_sums_follow_numpys_order(name, dtype, n):
    fn, make, view, axis, order = CASES[name]
    x = make(np.random.default_rng(n), n, dtype)
    got = dynamic(fn, dtype, x.ndim)(x)
    assert_sum(got, numpy(fn, x), view(x), axis, order)


@pytest.mark.parametrize("n", [1, 9, 128, 1000])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["x.T.sum(0)", "F x.sum(0)", "C x.sum(0)", "F keepdims",
                                  "F x.sum(1)", "x.T.sum(1)",
                                  "y.transpose(2, 0, 1).sum(1)", "y.transpose(2, 0, 1).sum(0)"])
def test_special_values(name, dtype, n):
    """NaN, infinities and zeros of both signs anywhere; static shapes."""
    fn, make, view, axis, order = CASES[name]
    rng = np.random.default_rng(n + 7)
    x = make(rng, n, dtype)
    count = max(1, x.size // 50)
    x[tuple(rng.integers(0, d, count) for d in x.shape)] = rng.choice(SPECIAL, count)
    assert_sum(compiler.function(fn)(x), numpy(fn, x), view(x), axis, order)


@pytest.mark.parametrize("name", ["x.T.sum(0)", "F x.sum(0)", "C x.sum(0)"])
def test_sums_of_negative_zeros_are_positive_zeros(name):
    """np.sum starts from +0.0 on every layout (NumPy 2.4), so -0.0 + ... + -0.0 is +0.0."""
    fn, make, view, axis, order = CASES[name]
    x = make(np.random.default_rng(0), 5, np.float32)
    x[...] = -0.0
    assert_sum(compiler.function(fn)(x), numpy(fn, x), view(x), axis, order)
    assert not np.signbit(compiler.function(fn)(x)).any()


@pytest.mark.parametrize("k", [1, 3, -2])
def test_run_time_slice_steps(k):
    x = data(np.random.default_rng(k + 10), (3 * KEPT, 100), np.float32)
    f = compiler.compile(every_kth_t_sum0, "f32[?,?], i64")
    assert_sum(f(x, k), every_kth_t_sum0(x, k), x[::k].T, 0, "pairwise")


def test_known_strides_choose_at_compile_time():
    """A buffer grafo allocates is C-ordered: its strides are known, so only one order is
    emitted (no run-time choice) for a static shape."""
    def cumsum_t_sum0(x):
        return np.cumsum(x, axis=1).T.sum(0)

    cf = compiler.compile(cumsum_t_sum0, "f32[50,40]")
    assert "grafo.stride" not in cf.ir_stages["loops"]
    x = data(np.random.default_rng(3), (50, 40), np.float32)
    c = np.cumsum(x, axis=1)
    assert_sum(cf(x), cumsum_t_sum0(x), c.T, 0, "pairwise")


# name: (function, argument of (n, kept extent, dtype) with every element 0, view summed)
LAYOUTS = {
    "x.T.sum(0)": (t_sum0, lambda n, k, d: np.zeros((k, n), d), lambda x: x.T),
    "F x.sum(0)": (sum0, lambda n, k, d: np.zeros((n, k), d, order="F"), lambda x: x),
    "C x.sum(0)": (sum0, lambda n, k, d: np.zeros((n, k), d), lambda x: x),
    "x[::2].T.sum(0)": (every_other_t_sum0, lambda n, k, d: np.zeros((2 * k, n), d),
                        lambda x: x[::2].T),
    "F keepdims": (sum0_keepdims, lambda n, k, d: np.zeros((n, k), d, order="F"), lambda x: x),
    "F x.sum(1)": (row_sum, lambda n, k, d: np.zeros((k, n), d, order="F"), lambda x: x.T),
    "x.T.sum(1)": (t_row_sum, lambda n, k, d: np.zeros((n, k), d), lambda x: x),
}


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 140), st.integers(1, 6), st.sampled_from([np.float32, np.float64]),
       st.sampled_from(list(LAYOUTS)), st.data())
def test_layouts_and_values(n, kept, dtype, name, data_):
    """Any length around one block, kept extents down to 1, and special values."""
    fn, make, view = LAYOUTS[name]
    x = make(n, kept, dtype)
    values = data_.draw(st.lists(st.sampled_from(SPECIAL) | st.floats(-1e6, 1e6, width=32),
                                 min_size=x.size, max_size=x.size))
    x[...] = np.array(values, dtype=dtype).reshape(x.shape)
    # NumPy drops a kept axis of size 1: the reduced axis is then its inner loop
    sequential = ("C x.sum(0)", "F x.sum(1)", "x.T.sum(1)")
    order = "sequential" if name in sequential and kept > 1 else "pairwise"
    assert_sum(dynamic(fn, dtype, x.ndim)(x), numpy(fn, x), view(x), 0, order)


@pytest.mark.parametrize("fn, sig", [(int_sum0, "i64[?,?]"), (int_sum0, "i32[?,?]"),
                                     (t_max0, "f32[?,?]"), (t_min0, "f64[?,?]")])
def test_integer_sums_and_extrema_keep_one_loop_order(fn, sig):
    """Their values do not depend on the order: no run-time choice, NumPy's results."""
    cf = compiler.compile(fn, sig)
    assert "grafo.stride" not in cf.ir_stages["loops"]
    rng = np.random.default_rng(1)
    dtype = {"i64": np.int64, "i32": np.int32, "f32": np.float32, "f64": np.float64}[sig[:3]]
    base = (rng.integers(-1000, 1000, (300, 41)) if sig[0] == "i"
            else rng.standard_normal((300, 41))).astype(dtype)
    for x in (base, np.asfortranarray(base), base[::-2, 1::3]):
        got, want = cf(x), fn(x)
        assert got.dtype == want.dtype and got.shape == want.shape
        np.testing.assert_array_equal(got, want)
