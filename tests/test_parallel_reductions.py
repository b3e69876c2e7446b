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


def test_small_and_dynamic_reductions_are_one_loop():
    for sig in ("f32[1000]", "f32[?]"):
        assert "grafo.parallel" not in compiler.compile(total, sig).ir_stages["loops"]
    cf = compiler.compile(total, f"f32[{2 * CHUNK + 1}]")
    loops = cf.ir_stages["loops"]
    assert loops.count("grafo.parallel") == 1 and f"grafo.work = {CHUNK}" in loops
    x = np.arange(2 * CHUNK + 1, dtype=np.float32) / np.float32(CHUNK)
    np.testing.assert_allclose(cf(x), total(x), rtol=1e-6)
    with pytest.raises(ValueError, match="zero-size array"):
        compiler.function(largest)(np.zeros((0, 3 * CHUNK)))
