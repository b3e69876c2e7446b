"""The buffer pool (compiler/backend/llvm/pool.py): large result and temporary buffers are
reused between calls, never while an array still uses them, within the pool's limit."""

import threading

import numpy as np
import pytest

import compiler
from compiler.backend.llvm import pool

N = 2 * 10**6   # 8 MB of float32: above pool.MIN_BYTES


def fused(a, b, c):
    return a * b - c


def with_temporary(a, b):
    t = np.exp(a) * b          # materialized: read twice below
    return np.sum(t) + t * a


@pytest.fixture
def arrays():
    rng = np.random.default_rng(7)
    return [rng.standard_normal(N).astype(np.float32) for _ in range(3)]


@pytest.fixture(autouse=True)
def empty_pool():
    compiler.release_buffers()
    yield
    pool.set_limit(pool.DEFAULT_LIMIT)
    compiler.release_buffers()


def test_dead_result_buffer_is_reused(arrays):
    f = compiler.function(fused)
    first = f(*arrays)
    address = first.ctypes.data
    del first
    assert pool.pooled_bytes() >= N * 4
    second = f(*arrays)
    assert second.ctypes.data == address
    assert pool.pooled_bytes() == 0
    np.testing.assert_array_equal(second, fused(*arrays))


def test_live_result_is_never_handed_out(arrays):
    f = compiler.function(fused)
    first = f(*arrays)
    kept = first.copy()
    a2 = [x[::-1].copy() for x in arrays]
    second = f(*a2)
    assert second.ctypes.data != first.ctypes.data
    np.testing.assert_array_equal(first, kept)
    np.testing.assert_array_equal(second, fused(*a2))


def test_results_stay_right_when_sizes_change(arrays):
    f = compiler.function(fused)
    for n in (N, N // 2, N + 1000, N - 64, 3 * N // 2):
        xs = [np.resize(x, n) for x in arrays]
        out = f(*xs)
        assert out.shape == (n,)
        np.testing.assert_array_equal(out, fused(*xs))
        del out


def test_temporaries_return_to_pool_and_results_match(arrays):
    f = compiler.function(with_temporary)
    a, b = arrays[0] / 10, arrays[1]
    for _ in range(3):
        out = f(a, b)
        np.testing.assert_allclose(out, with_temporary(a, b), rtol=1e-4)
        del out
    assert 0 < pool.pooled_bytes() <= pool.DEFAULT_LIMIT   # the buffers came back


def test_limit_bounds_the_pool(arrays):
    f = compiler.function(fused)
    pool.set_limit(0)
    for _ in range(3):
        f(*arrays)
    assert pool.pooled_bytes() == 0
    pool.set_limit(N * 4 + 64 * 4)   # room for one block only
    outs = [f(*arrays) for _ in range(3)]
    del outs
    assert 0 < pool.pooled_bytes() <= N * 4 + 64 * 4
    with pytest.raises(ValueError, match=">= 0"):
        pool.set_limit(-1)


def test_release_buffers_frees_everything(arrays):
    f = compiler.function(fused)
    f(*arrays)
    held = pool.pooled_bytes()
    assert held > 0
    assert compiler.release_buffers() == held
    assert pool.pooled_bytes() == 0


def test_small_buffers_bypass_the_pool():
    f = compiler.function(fused)
    x = np.ones(1000, np.float32)
    f(x, x, x)
    assert pool.pooled_bytes() == 0


def test_concurrent_calls_get_distinct_buffers(arrays):
    f = compiler.function(fused)
    f(*arrays)
    expected = fused(*arrays)
    failures = []

    def work(k):
        xs = [x * np.float32(k + 1) for x in arrays]
        want = fused(*xs)
        for _ in range(5):
            out = f(*xs)
            if not np.array_equal(out, want):
                failures.append(k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert failures == []
    np.testing.assert_array_equal(f(*arrays), expected)


def test_buffers_of_other_allocators_are_freed_not_pooled():
    """A block without the pool's header tag (ahead-of-time code from C, or memory the
    pool did not allocate) is freed, never kept."""
    import ctypes
    libc = ctypes.CDLL(None)
    libc.aligned_alloc.restype = ctypes.c_void_p
    libc.aligned_alloc.argtypes = [ctypes.c_size_t, ctypes.c_size_t]
    block = libc.aligned_alloc(64, 8 << 20)
    ctypes.memset(block, 0, 64)
    give = ctypes.CFUNCTYPE(None, ctypes.c_void_p)(pool.support().give)
    give(block)
    assert pool.pooled_bytes() == 0
