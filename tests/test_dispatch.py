"""The generated CPython entry (fast dispatch) against the reference ctypes path
(``runtime.abi.NativeFunction``): same results, same TypeErrors and run-time errors, results
that own their memory, no growth over many calls, fallbacks for arguments it does not take."""

import gc
import sys
import threading

import numpy as np
import pytest
from loop_ir import Fn, contiguous, elementwise, strided
from test_backend_runtime import gather_module, rss_bytes, two_results_module

import compiler
from compiler import types as T
from compiler.backend.llvm import compile_module
from compiler.dialects import arith
from runtime import fastcall
from runtime.abi import NativeFunction

pytestmark = pytest.mark.skipif(fastcall.LAYOUT is None, reason="NumPy layout not verified")


def outcome(f, *args, **kwargs):
    """(result, None) or (None, (exception type, message))."""
    try:
        return f(*args, **kwargs), None
    except Exception as e:   # noqa: BLE001 - compared between the two paths
        return None, (type(e), str(e))


def assert_same_outcome(f, *args, **kwargs):
    """The fast entry ``f`` and its reference path agree (value, dtype, type, or error)."""
    got, got_err = outcome(f, *args, **kwargs)
    want, want_err = outcome(f.__self__, *args, **kwargs)
    assert got_err == want_err
    if want_err is None:
        assert type(got) is type(want)
        if isinstance(want, tuple):
            for g, w in zip(got, want, strict=True):
                assert type(g) is type(w) and np.asarray(g).dtype == np.asarray(w).dtype
                np.testing.assert_array_equal(g, w)
        else:
            assert np.asarray(got).dtype == np.asarray(want).dtype
            np.testing.assert_array_equal(got, want)
    return got, got_err


@pytest.fixture(scope="module")
def add():
    return compile_module(elementwise("add", T.f64, T.f64, arith.AddFOp)).entry("add")


def test_entry_is_a_builtin_over_the_reference_path(add):
    assert type(add).__name__ == "builtin_function_or_method"
    assert isinstance(add.__self__, NativeFunction)
    assert add.__name__ == "add"
    cm = compile_module(elementwise("add", T.f64, T.f64, arith.AddFOp))
    assert isinstance(cm.entry("add", fast=False), NativeFunction)


def test_results_match_numpy_and_own_their_memory(add):
    a, b = np.arange(7.0), np.linspace(-1, 1, 7)
    r = add(a, b)
    np.testing.assert_array_equal(r, a + b)
    assert r.dtype == np.float64 and r.flags.writeable and not r.flags.owndata
    assert r.flags.c_contiguous and r.base is not None and r.ctypes.data % 64 == 0
    np.testing.assert_array_equal(add(a[::-2], b[::2]), a[::-2] + b[::2])
    assert add(a[:0], b[:0]).shape == (0,)


def test_results_outlive_the_function():
    f = compile_module(elementwise("sub", T.f32, T.f32, arith.SubFOp)).entry("sub")
    x = np.arange(10, dtype=np.float32)
    r = f(x, x[::-1].copy())
    view = r[2:5]
    del f, r
    gc.collect()
    np.testing.assert_array_equal(view, (x - x[::-1])[2:5])
    del view
    gc.collect()


class Sub(np.ndarray):
    pass


@pytest.mark.parametrize("args", [
    (np.arange(3.0),),                                     # too few
    (np.arange(3.0),) * 3,                                 # too many
    (np.arange(3, dtype=np.float32), np.arange(3.0)),       # dtype
    (np.arange(3.0).astype(">f8"), np.arange(3.0)),         # byte order
    (np.ones((2, 2)), np.arange(3.0)),                      # rank
    ([1.0, 2.0], np.arange(3.0)),                           # not an array
    (np.float64(1.0), np.arange(3.0)),                      # scalar for an array
    (np.arange(6.0)[::2], np.arange(3.0)),                  # strided (taken)
    (np.arange(3.0).view(Sub), np.arange(3.0)),             # subclass (fallback)
    (np.frombuffer(b"\0" + bytes(24), np.float64, 3, 1), np.arange(3.0)),   # unaligned
])
def test_arguments_behave_as_on_the_reference_path(add, args):
    assert_same_outcome(add, *args)


def test_keyword_arguments_raise_as_on_the_reference_path(add):
    _, err = assert_same_outcome(add, np.arange(3.0), y=np.arange(3.0))
    assert err[0] is TypeError


def static_module():
    """out = x + y over f32[4, ?] inputs, contiguous x (a copy when it is not)."""
    f = Fn("stat", [contiguous((4, None), T.f32), strided((4, None), T.f32)],
           [contiguous((4, None), T.f32)])
    x, y = f.args
    n = f.dim(x, 1)
    out = f.alloc(contiguous((4, None), T.f32), n)
    with f.loop(0, 4) as i:
        with f.loop(0, n) as j:
            idx = [i.induction_var, j.induction_var]
            f.store(f.v(arith.AddFOp, f.load(x, *idx), f.load(y, *idx)), out, *idx)
            f.yield_()
        f.yield_()
    return f.ret(out)


def test_static_dims_and_contiguity_checks():
    f = compile_module(static_module()).entry("stat")
    x = np.arange(24, dtype=np.float32).reshape(4, 6)
    for args in [(x, x), (x[:, ::2], x[:, 1::2]), (x.T.copy().T, x), (x[:3], x[:3]),
                 (x.reshape(6, 4), x.reshape(6, 4)), (x[::-1], x[::-1])]:
        got, err = assert_same_outcome(f, *args)
        if err is None:
            np.testing.assert_array_equal(got, args[0] + args[1])


def scalar_module(el, weak=False):
    """(x * 2, x) for a scalar x of IR type ``el``."""
    f = Fn("twice", [el], [el, el])
    x, = f.args
    two = f.const(2, el)
    op = arith.MulFOp if isinstance(el, T.FloatType) else arith.MulIOp
    return f.ret(f.v(op, x, two), x)


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning")
@pytest.mark.parametrize("el,values", [
    (T.f64, [1.5, np.float64(-2.25), np.float32(3.0), 7, np.int8(3), True, np.nan, "x", None,
             np.array(2.5), np.arange(2.0)]),
    (T.f32, [1.5, np.float32(0.1), 0.1, 3.4028235e38, 3.4028236e38, float("-inf"), 1e-50,
             3, np.float16(2.0)]),
    (T.i64, [5, -(2**63), 2**63, np.int64(-7), np.int32(9), np.uint64(2**64 - 1), 1.0, False,
             np.bool_(True)]),
    (T.i32, [5, 2**31, -(2**31), -(2**31) - 1, np.int32(-4), np.int64(2**40), 3.5]),
    (T.i8, [127, 128, -128, np.int8(-3), np.uint8(200)]),
])
def test_scalar_arguments_and_results(el, values):
    f = compile_module(scalar_module(el)).entry("twice")
    for v in values:
        assert_same_outcome(f, v)


def test_float_to_f32_overflow_warns_on_both_paths():
    f = compile_module(scalar_module(T.f32)).entry("twice")
    for g in (f, f.__self__):
        with pytest.warns(RuntimeWarning, match="overflow"):
            assert g(1e300)[1] == np.inf


def test_unsigned_and_bool_scalars():
    u32 = T.IntegerType(32, unsigned=True)
    f = Fn("pick", [T.i32, T.i1], [T.i32, T.i1])
    mod = f.ret(*f.args)
    entry = compile_module(mod).entry("pick", [u32, T.i1], [u32, T.i1])
    for args in [(7, True), (2**32 - 1, False), (2**32, True), (-1, True), (np.uint32(5), 0),
                 (3, np.bool_(False)), (3, 1), (np.uint64(4), True)]:
        got, err = assert_same_outcome(entry, *args)
        if err is None:
            assert type(got[0]) is np.uint32 and type(got[1]) is np.bool_


def test_python_scalar_results():
    f = Fn("weak", [T.f64, T.i64, T.i1], [T.f64, T.i64, T.i1])
    mod = f.ret(*f.args)
    entry = compile_module(mod).entry("weak", [T.f64, T.i64, T.i1],
                                      [T.py_float, T.py_int, T.py_bool])
    got, _ = assert_same_outcome(entry, 2.5, -3, True)
    assert [type(v) for v in got] == [float, int, bool]


def test_same_buffer_twice_is_one_array_and_tuples():
    f = compile_module(two_results_module()).entry("both")
    a = np.ones(8, np.float32)
    r1, r2, total = f(a, a)
    assert r1 is r2 and type(total) is np.float32 and total == 16.0
    assert sys.getrefcount(r1) == sys.getrefcount(r2)
    assert_same_outcome(f, a, a)


def test_no_results_returns_none():
    f = Fn("nothing", [strided((None,), T.f64)], [])
    mod = f.ret()
    entry = compile_module(mod).entry("nothing")
    assert entry(np.ones(3)) is None


def test_run_time_errors_are_the_reference_errors(tmp_path):
    src = tmp_path / "k.py"
    src.write_text("def f(x, idx):\n    # gather\n    return x[idx]\n")
    f = compile_module(gather_module(src)).entry("gather")
    x = np.arange(5.0)
    _, err = assert_same_outcome(f, x, np.array([1, 7, 2]))
    assert err[0] is IndexError and err[1].startswith("index 7 is out of bounds")
    assert 'line 3, column 12' in err[1]
    np.testing.assert_array_equal(f(x, np.array([4, 0])), x[[4, 0]])


def test_no_reference_leaks(add):
    a, b = np.arange(3.0), np.arange(3.0)
    descr = np.dtype(np.float64)
    for _ in range(10):
        add(a, b)
    counts = (sys.getrefcount(a), sys.getrefcount(b), sys.getrefcount(descr))
    for _ in range(1000):
        add(a, b)
        with pytest.raises(TypeError):
            add(a, np.arange(3, dtype=np.int64))
    assert (sys.getrefcount(a), sys.getrefcount(b), sys.getrefcount(descr)) == counts


def test_memory_does_not_grow_over_10000_fast_calls(add):
    a = np.arange(1000.0)
    small = np.arange(3.0)
    for _ in range(200):
        add(a, a)
    gc.collect()
    before = rss_bytes()
    for _ in range(10_000):
        add(a, a)
        add(small, small)
    gc.collect()
    grown = rss_bytes() - before
    assert grown < 8 * 2**20, f"RSS grew by {grown / 2**20:.1f} MiB"   # leaks: >= 80 MB


def test_concurrent_fast_calls():
    f = compile_module(elementwise("mul", T.f64, T.f64, arith.MulFOp)).entry("mul")
    a = np.arange(500_000.0)
    results = {}

    def work(k):
        for _ in range(5):
            results[k] = f(a, a + k)

    threads = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    for k in range(4):
        np.testing.assert_array_equal(results[k], a * (a + k))


def test_compiled_functions_use_the_fast_entry():
    def axpy(a, x, y):
        return a * x + y

    f = compiler.function(axpy)
    x, y = np.arange(4.0), np.ones(4)
    np.testing.assert_allclose(f(np.float64(2.0), x, y), 2.0 * x + y)
    cf = f.get_concrete_function(np.float64(2.0), x, y)
    assert isinstance(cf.entry.__self__, NativeFunction)
    _, err = outcome(cf, np.float64(2.0), x.astype(np.float32), y)
    assert err[0] is TypeError


def _add(x, y):
    return x + y


def test_function_call_runs_the_generated_entry_and_falls_back_on_a_miss():
    f = compiler.function(_add)
    a, b = np.arange(3.0), np.ones(3)
    np.testing.assert_array_equal(f(a, b), a + b)
    assert type(f._entry).__name__ == "builtin_function_or_method"
    c = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(f(c, c), c + c)          # a miss compiles, then runs
    np.testing.assert_array_equal(f(a, y=b), a + b)        # keywords go to the general path
    np.testing.assert_array_equal(f(a[::-1], b), a[::-1] + b)  # a copy: the reference path
    assert f(np.float64(1.5), 2) == 3.5                     # Python scalar: a constant
    assert f(a, b).dtype == np.float64 and f.tracing_count == 3
    compiler.run_functions_eagerly(True)
    try:
        assert f(a, [1, 2, 3]).tolist() == [1.0, 3.0, 5.0]   # eager: plain NumPy
    finally:
        compiler.run_functions_eagerly(False)
    np.testing.assert_array_equal(f(a, b), a + b)


def _gather(x, i):
    return x[i]


def test_errors_through_the_dispatch_entry_are_the_reference_errors():
    f = compiler.function(_gather)
    x = np.arange(3.0)
    assert f(x, np.array([2, 0])).tolist() == [2.0, 0.0]
    assert type(f._entry).__name__ == "builtin_function_or_method"
    for _ in range(2):
        with pytest.raises(IndexError, match="out of bounds"):
            f(x, np.array([1, 7]))
