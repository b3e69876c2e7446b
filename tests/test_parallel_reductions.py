"""Full reductions of large fused expressions on libgomp's threads: partial results per fixed
chunk, combined in order, so 1 and 2 threads give the same bits; float sums as accurate as
NumPy's pairwise summation; small reductions stay one serial loop."""

import math

import numpy as np
import pytest
from test_backend_parallel import Recorder, needs_gomp, threads  # noqa: F401 (fixture)

import compiler
from compiler.lowering.reduction import CHUNK


def total(x):
    return np.sum(x * 2.0 - 1.0)


def largest(x):
    return np.max(np.abs(x - 0.5))


def mse(a, b):
    d = a - b
    return np.mean(d * d)


def any_above(x):
    return np.any(x > 0.9999)


def grid_sum(m):
    return np.sum(m)


def int_sum(v):
    return np.sum(v * 3)


CASES = [
    (total, lambda r: (r.random(10**7, dtype=np.float32),)),
    (largest, lambda r: (r.standard_normal(3 * CHUNK + 5),)),
    (mse, lambda r: (r.random(10**6, dtype=np.float32), r.random(10**6, dtype=np.float32))),
    (any_above, lambda r: (r.random(5 * CHUNK),)),
    (grid_sum, lambda r: (r.random((1001, 517)),)),
    (int_sum, lambda r: (r.integers(-10**6, 10**6, 4 * CHUNK + 3),)),
]


@needs_gomp
@pytest.mark.parametrize("fn, make", CASES, ids=[c[0].__name__ for c in CASES])
def test_two_threads_give_the_one_thread_bits(fn, make, threads):  # noqa: F811
    args = make(np.random.default_rng(0))
    f = compiler.function(fn)
    threads(1)
    one = f(*args)
    threads(2)
    with Recorder() as rec:
        two = f(*args)
    assert sorted({n for n, _ in rec.calls}) == [0, 1], "the reduction ran on one thread"
    assert type(one) is type(two) and one.tobytes() == two.tobytes()
    want = fn(*args)
    if np.issubdtype(type(want), np.floating):
        np.testing.assert_allclose(one, want, rtol=4 * np.finfo(type(want)).eps)
    else:
        assert one == want


def test_float_sum_at_least_as_accurate_as_numpy(threads):  # noqa: F811
    x = np.random.default_rng(1).random(10**7, dtype=np.float32) * np.float32(3)
    exact = math.fsum(x.astype(np.float64))
    got = compiler.function(grid_sum)(x)  # static shape: chunked
    assert abs(float(got) - exact) <= max(abs(float(np.sum(x)) - exact), exact * 2**-24)


def test_small_reductions_are_one_loop_and_dynamic_ones_choose_at_run_time():
    assert "grafo.parallel" not in compiler.compile(total, "f32[1000]").ir_stages["loops"]
    dynamic = compiler.compile(total, "f32[?]")
    assert dynamic.ir_stages["loops"].count("grafo.parallel") == 1
    for n in (1000, 2 * CHUNK - 1, 2 * CHUNK, 3 * CHUNK + 7):   # the static rule's bits
        x = np.random.default_rng(n).random(n, dtype=np.float32)
        assert dynamic(x).tobytes() == compiler.compile(total, f"f32[{n}]")(x).tobytes()
    cf = compiler.compile(total, f"f32[{2 * CHUNK + 1}]")
    loops = cf.ir_stages["loops"]
    assert loops.count("grafo.parallel") == 1 and f"grafo.work = {CHUNK}" in loops
    x = np.arange(2 * CHUNK + 1, dtype=np.float32) / np.float32(CHUNK)
    np.testing.assert_allclose(cf(x), total(x), rtol=1e-6)
    with pytest.raises(ValueError, match="zero-size array"):
        compiler.function(largest)(np.zeros((0, 3 * CHUNK)))


def row_max(x):
    return np.max(x, axis=-1, keepdims=True)


def row_sum(x):
    return np.sum(x * 2.0, axis=1)


def row_argmin(x):
    return np.argmin(x, axis=1)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _rows(r):
    x = r.standard_normal((300, 250)).astype(np.float32)
    x[7, 3] = np.nan                     # a NaN row: max and argmin keep NumPy's answer
    x[11, :] = -0.0
    x[12, 5] = 0.0
    return (x,)


ROW_CASES = [row_max, row_sum, row_argmin, softmax]


@needs_gomp
@pytest.mark.parametrize("fn", ROW_CASES, ids=[f.__name__ for f in ROW_CASES])
def test_row_reductions_run_rows_on_threads(fn, threads):  # noqa: F811
    """300 rows of 250 (75,000 elements, though only 300 row iterations): the row loop is
    parallel, and 2 threads give the 1-thread bits and NumPy's values."""
    (x,) = _rows(np.random.default_rng(3))
    f = compiler.function(fn)
    threads(1)
    one = f(x)
    threads(2)
    with Recorder() as rec:
        two = f(x)
    assert sorted({n for n, _ in rec.calls}) == [0, 1], "the rows ran on one thread"
    assert one.dtype == two.dtype and one.tobytes() == two.tobytes()
    with np.errstate(invalid="ignore"):
        want = fn(x)
    assert one.dtype == want.dtype and one.shape == want.shape
    np.testing.assert_allclose(one, want, rtol=1e-5, atol=1e-4, equal_nan=True)  # float32 sums
    if fn is row_max:
        assert not np.signbit(one[12, 0]) and np.signbit(one[11, 0])


def test_short_row_reductions_stay_serial():
    cf = compiler.compile(row_max, "f32[100,50]")
    assert "grafo.parallel" not in cf.ir_stages["loops"]
    x = np.random.default_rng(4).random((100, 50), dtype=np.float32)
    np.testing.assert_array_equal(cf(x), row_max(x))


def row_sums(m):
    return np.sum(m, axis=-1)


@pytest.mark.parametrize("n", [0, 1, 15, 16, 17, 255, 256, 257, 500, 4099])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_row_sums_of_views_equal_those_of_copies(n, dt):
    """A float row sum adds in lanes that LLVM keeps in vector registers, with a contiguous
    version chosen at run time: rows read through a stride of 2 give the bits of their
    contiguous copy, and both match NumPy (and its pairwise error bound)."""
    base = np.random.default_rng(n).standard_normal((7, 2 * n)).astype(dt) + dt(3)
    view = base[:, ::2]
    copy = np.ascontiguousarray(view)
    f = compiler.function(row_sums)
    strided, contiguous = f(view), f(copy)
    assert strided.dtype == contiguous.dtype == dt
    assert strided.tobytes() == contiguous.tobytes()
    for got, row in zip(contiguous, copy, strict=True):
        exact = math.fsum(row.astype(np.float64))
        bound = abs(float(np.sum(row)) - exact) + abs(exact) * np.finfo(dt).eps
        assert abs(float(got) - exact) <= bound


def vector_sum(x):
    return np.sum(x)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_sums_of_up_to_128_elements_add_in_numpys_order(dt):
    """The 8 partial sums of NumPy's pairwise base case, kept in one vector register: the
    bits of np.sum for every length up to a block, cancellation included."""
    rng = np.random.default_rng(7)
    static = compiler.function(vector_sum)
    dynamic = compiler.compile(vector_sum, "f32[?]" if dt == np.float32 else "f64[?]")
    crafted = np.zeros(16, dt)
    crafted[[0, 1, 8]] = 1e8, 1, -1e8   # NumPy pairs x[0] with x[8] first: exactly 1
    assert static(crafted) == dynamic(crafted) == np.sum(crafted) == 1
    for n in range(1, 129):
        x = (rng.standard_normal(n) * 10.0 ** rng.integers(-3, 8, n)).astype(dt)
        assert dynamic(x).tobytes() == np.sum(x).tobytes(), n
        if n in (7, 8, 100, 128):
            assert static(x).tobytes() == np.sum(x).tobytes(), n
