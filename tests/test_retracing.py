"""Retracing of ``compiler.Function``: one concrete function per signature, Python scalars
per value, ``reduce_retracing``, a thread-safe cache, and one warning for an argument that
keeps changing."""

import threading
import warnings

import numpy as np
import pytest

import compiler


def scale(x, n):
    return x * n


def test_new_dtype_rank_or_shape_makes_a_new_concrete_function():
    f = compiler.function(scale)
    x = np.ones(3, np.float32)
    f(x, np.float32(2))
    f(x, np.float32(3))
    assert f.tracing_count == 1
    for arg in (x.astype(np.float64), np.ones((3, 1), np.float32), np.ones(4, np.float32)):
        f(arg, np.float32(2))
    assert f.tracing_count == 4
    assert len(f.concrete_functions()) == 4


def test_python_scalars_specialize_per_value():
    f = compiler.function(scale)
    x = np.ones(2)
    for n in (1, 2, 2, 1, 3):
        np.testing.assert_array_equal(f(x, n), x * n)
    assert f.tracing_count == 3


def test_reduce_retracing_generalizes_a_changed_dim():
    f = compiler.function(scale, reduce_retracing=True)
    f(np.ones((2, 3)), np.float64(1))
    f(np.ones((5, 3)), np.float64(1))
    f(np.ones((7, 3)), np.float64(1))
    assert f.tracing_count == 2
    assert "f64[?,3]" in f.pretty_printed_concrete_signatures().replace(" ", "")


def test_cache_is_thread_safe():
    f = compiler.function(scale)
    x = np.arange(4.0)
    barrier = threading.Barrier(8)
    results = []

    def call():
        barrier.wait()
        results.append(f(x, np.float64(2)))

    threads = [threading.Thread(target=call) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert f.tracing_count == 1
    assert len(results) == 8 and all(np.array_equal(r, x * 2) for r in results)


def test_pretty_printed_concrete_signatures_lists_every_specialization():
    f = compiler.function(scale)
    f(np.ones(3, np.float32), np.float32(2))
    f(np.ones((2, 2), np.int64), 3)
    lines = f.pretty_printed_concrete_signatures().splitlines()
    assert len(lines) == 2
    assert "x: f32[3]" in lines[0] and "n: f32" in lines[0]
    assert "x: i64[2,2]" in lines[1].replace(", ", ",") and "n=3" in lines[1]


def test_changing_python_scalar_warns_once_naming_it():
    f = compiler.function(scale)
    x = np.ones(2)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for n in range(12):
            f(x, n)
    msgs = [str(w.message) for w in caught if "consecutive calls" in str(w.message)]
    assert len(msgs) == 1
    assert "argument 'n' changed value in 5 consecutive calls" in msgs[0]
    assert "NumPy scalar" in msgs[0]
    assert caught[0].filename == __file__


def test_changing_shape_warns_and_cache_hits_reset_the_count():
    f = compiler.function(scale)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for k in range(1, 5):
            f(np.ones(k), np.float64(1))
            f(np.ones(1), np.float64(1))   # a cache hit between compilations: no warning
    with pytest.warns(UserWarning, match="argument 'x' changed shape"):
        for k in range(10, 16):
            f(np.ones(k), np.float64(1))


def angle(y, x):
    return np.arctan2(y, x)


def test_signed_zero_constants_are_separate_specializations():
    """0.0 == -0.0 in Python, but they are different constants: arctan2(0, -0.0) is pi."""
    f = compiler.function(angle)
    y = np.zeros(2)
    for x in (0.0, -0.0, 0.0, -0.0):
        np.testing.assert_array_equal(f(y, x), angle(y, x))
    assert f.tracing_count == 2
    cf = f.get_concrete_function(y, 0.0)
    with pytest.raises(TypeError, match="traced with 0.0, received -0.0"):
        cf(y, -0.0)


def test_nan_constant_is_one_specialization():
    """Every NaN is one key, though no NaN equals itself."""
    f = compiler.function(angle)
    y = np.ones(2)
    for _ in range(3):
        np.testing.assert_array_equal(f(y, float("nan")), np.full(2, np.nan))
    assert f.tracing_count == 1
