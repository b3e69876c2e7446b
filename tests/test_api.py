"""The public API: Function / ConcreteFunction behaviour, the calling ABI as seen from
Python (no copies of strided inputs, owned outputs, GIL released, no leaks)."""

import os
import threading
import time
import tracemalloc

import numpy as np
import pytest
from conftest import assert_same

import compiler


def add_mul(x, y):
    return x * y + x


def scale(x, k):
    return x * k


def total(a):
    return np.sum(a)


def long_loop(n):
    acc = np.float64(0.0)
    i = np.int64(0)
    while i < n:
        acc = acc + np.sqrt(acc + 1.0)
        i = i + 1
    return acc


def test_compile_returns_concrete_function():
    cf = compiler.compile(add_mul, "f32[?,4], f32[4]")
    assert isinstance(cf, compiler.ConcreteFunction)
    assert cf.signature == "f32[?,4], f32[4]"
    assert '"np.multiply"' in cf.ir and "tensor<?x4xf32>" in cf.ir
    assert "define" in cf.llvm_ir and cf.asm.strip()
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    y = np.array([1, 2, 3, 4], dtype=np.float32)
    assert_same(cf(x, y), add_mul(x, y))


def test_tensorspec_list_equals_string():
    cf = compiler.compile(add_mul, [compiler.TensorSpec((None, 4), np.float32),
                                    compiler.TensorSpec((4,), np.float32)])
    assert cf.signature == "f32[?,4], f32[4]"


def test_wrong_dtype_or_shape_is_a_type_error():
    cf = compiler.compile(add_mul, "f32[?,4], f32[4]")
    with pytest.raises(TypeError):
        cf(np.zeros((2, 4), np.float64), np.zeros(4, np.float32))
    with pytest.raises(TypeError):
        cf(np.zeros((2, 5), np.float32), np.zeros(4, np.float32))


def test_function_specializes_per_signature_and_caches():
    f = compiler.function(add_mul)
    a32 = np.ones(3, np.float32)
    a64 = np.ones(3, np.float64)
    f(a32, a32)
    f(a32, a32)
    assert f.tracing_count == 1
    f(a64, a64)
    f(np.ones(5, np.float32), np.ones(5, np.float32))
    assert f.tracing_count == 3


def test_python_scalars_are_specialization_constants():
    f = compiler.function(scale)
    x = np.arange(4.0)
    assert_same(f(x, 2), scale(x, 2))
    assert_same(f(x, 3), scale(x, 3))
    assert f.tracing_count == 2
    assert "x, k=2" in f.pretty_printed_concrete_signatures().replace(": f64[4]", "")
    f(x, np.int64(3))  # a NumPy scalar is a run-time value: one more, then reused
    f(x, np.int64(4))
    assert f.tracing_count == 3


def test_input_signature_rejects_other_inputs():
    f = compiler.function(add_mul, input_signature="f32[?], f32[?]")
    x = np.ones(3, np.float32)
    assert_same(f(x, x), add_mul(x, x))
    assert_same(f(np.ones(7, np.float32), np.ones(7, np.float32)),
                add_mul(np.ones(7, np.float32), np.ones(7, np.float32)))
    assert f.tracing_count == 1
    with pytest.raises(TypeError) as e:
        f(np.ones(3, np.float64), x)
    assert str(e.value) == ("add_mul() argument 'x': expected float32[?] (its input_signature), "
                            "got float64[3]")


def test_get_concrete_function():
    f = compiler.function(add_mul)
    cf = f.get_concrete_function(compiler.TensorSpec((3,), np.float32),
                                 compiler.TensorSpec((3,), np.float32))
    x = np.arange(3, dtype=np.float32)
    assert_same(cf(x, x), add_mul(x, x))
    assert f.tracing_count == 1
    f(x, x)
    assert f.tracing_count == 1


def test_run_functions_eagerly():
    calls = []

    def traced(x):
        calls.append(1)
        return x + 1

    f = compiler.function(traced)
    compiler.run_functions_eagerly(True)
    try:
        assert compiler.functions_run_eagerly()
        f(np.ones(2))
        f(np.ones(2))
        assert len(calls) == 2 and f.tracing_count == 0
    finally:
        compiler.run_functions_eagerly(False)


def test_strided_inputs_are_not_copied():
    big = np.ones((2000, 2000), dtype=np.float64)   # 32 MB
    view = big[::2, ::-1].T                         # non-contiguous, negative stride
    cf = compiler.function(total)
    cf(view)  # compile first
    tracemalloc.start()
    try:
        got = cf(view)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1_000_000, f"a call allocated {peak} bytes: the input was copied"
    assert got == np.sum(view)


def test_results_own_their_memory():
    f = compiler.function(add_mul)
    x = np.arange(1000, dtype=np.float64)
    r = f(x, x)
    tail = r[500:]
    del r
    np.testing.assert_array_equal(tail, (x * x + x)[500:])


def test_native_code_releases_the_gil():
    f = compiler.function(long_loop)
    f(np.int64(10))
    done = threading.Event()
    t = threading.Thread(target=lambda: (f(np.int64(60_000_000)), done.set()))
    ticks = 0
    t.start()
    while not done.is_set():
        ticks += 1
        time.sleep(0)
    t.join()
    assert ticks > 100, "the main thread could not run while native code ran"


def _rss_bytes() -> int:
    with open("/proc/self/statm") as fh:
        return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def test_ten_thousand_calls_do_not_grow_memory():
    f = compiler.function(add_mul)
    x = np.arange(10_000, dtype=np.float64)   # 80 kB per result
    for _ in range(200):
        f(x, x)
    before = _rss_bytes()
    for _ in range(10_000):
        f(x, x)
    grown = _rss_bytes() - before
    assert grown < 20_000_000, f"RSS grew by {grown} bytes over 10,000 calls"
