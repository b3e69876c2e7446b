"""CPU backend: hand-built loop-level IR compiled with LLVM and called through the runtime ABI,
compared with NumPy on contiguous, transposed, negative-stride and dynamic-shape inputs."""

import numpy as np
import pytest
from loop_ir import Fn, contiguous, elementwise, strided

from compiler import types as T
from compiler.backend.llvm import compile_module
from compiler.dialects import arith, scf


def compiled(module, name):
    return compile_module(module).entry(name)


@pytest.fixture(scope="module")
def add1():
    return compiled(elementwise("add", T.f32, T.f32, arith.AddFOp), "add")


@pytest.fixture(scope="module")
def add2():
    return compiled(elementwise("add2", T.f64, T.f64, arith.AddFOp, rank=2), "add2")


def test_add_contiguous(add1):
    a = np.arange(1000, dtype=np.float32)
    b = np.linspace(0, 1, 1000, dtype=np.float32)
    got = add1(a, b)
    assert got.dtype == np.float32 and got.shape == (1000,)
    np.testing.assert_array_equal(got, a + b)


def test_add_negative_and_step_strides(add1):
    a = np.arange(100, dtype=np.float32)
    b = np.arange(300, dtype=np.float32) * 2
    np.testing.assert_array_equal(add1(a[::-1], b[::3][:100]), a[::-1] + b[::3][:100])
    np.testing.assert_array_equal(add1(a[::-2], a[::2]), a[::-2] + a[::2])


def test_add_empty(add1):
    e = np.zeros(0, np.float32)
    assert add1(e, e).shape == (0,)


def test_add_2d_transposed_and_reversed(add2):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((37, 53))
    y = rng.standard_normal((53, 37))
    np.testing.assert_array_equal(add2(x, y.T), x + y.T)
    np.testing.assert_array_equal(add2(x[::-1, ::-2], y.T[:, :27]), x[::-1, ::-2] + y.T[:, :27])
    got = add2(x.T, y)
    assert got.shape == (53, 37) and got.flags.c_contiguous


def test_inputs_are_not_copied_but_odd_byte_strides_are(add1):
    rec = np.zeros(10, dtype=[("a", np.float32), ("b", np.int8)])   # itemsize 5
    rec["a"] = np.arange(10)
    view = rec["a"]
    assert view.strides[0] % 4 != 0
    np.testing.assert_array_equal(add1(view, view), 2 * np.arange(10, dtype=np.float32))


def test_contiguous_memref_param_gets_a_copy():
    f = compiled(elementwise("addc", T.f64, T.f64, arith.AddFOp, in_strided=False), "addc")
    a = np.arange(20.0)
    np.testing.assert_array_equal(f(a[::2], a[1::2]), a[::2] + a[1::2])


def test_static_shape_and_argument_checks():
    f = compiled(elementwise("adds", T.f32, T.f32, arith.AddFOp, shape=(2, 3), rank=2), "adds")
    a = np.ones((2, 3), np.float32)
    np.testing.assert_array_equal(f(a, a), 2 * a)
    with pytest.raises(TypeError, match=r"adds\(\) argument 'arg1': expected float32\[2, 3\], "
                                        r"got float32\[3, 2\]"):
        f(a, np.ones((3, 2), np.float32))
    with pytest.raises(TypeError, match=r"got float64\[2, 3\]"):
        f(a, a.astype(np.float64))
    with pytest.raises(TypeError, match=r"got float32\[6\]"):
        f(a, a.reshape(6))
    with pytest.raises(TypeError, match="got list"):
        f(a, [[1, 2, 3], [4, 5, 6]])
    with pytest.raises(TypeError, match="takes 2 arguments"):
        f(a)


def test_bool_arrays():
    f = compiled(elementwise("land", T.i1, T.i1, arith.AndIOp), "land")
    x = np.array([True, False, True, True, False])
    y = np.array([True, True, False, True, False])
    got = f(x, y)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, x & y)
    np.testing.assert_array_equal(f(x[::-1], y[::2].repeat(2)[:5]), x[::-1] & y[::2].repeat(2)[:5])


def test_compare_floats_to_bool_array():
    pred = arith.CMPF["olt"]
    f = compiled(elementwise("lt", T.f64, T.i1, arith.CmpFOp, attrs={"predicate": pred}), "lt")
    x = np.array([1.0, np.nan, 3.0, -np.inf])
    y = np.array([2.0, 1.0, np.nan, 0.0])
    got = f(x, y)
    assert got.dtype == np.bool_
    np.testing.assert_array_equal(got, x < y)


def sum_module(el):
    f = Fn("total", [strided((None,), el)], [el])
    (x,) = f.args
    n = f.dim(x, 0)
    zero = f.const(0.0, el)
    with f.loop(0, n, inits=[zero]) as lp:
        acc = lp.body.args[1]
        f.yield_(f.v(arith.AddFOp, acc, f.load(x, lp.induction_var)))
    return f.ret(lp.results[0])


def test_sum_reduction():
    f = compiled(sum_module(T.f64), "total")
    a = np.random.default_rng(1).standard_normal(10001)
    got = f(a)
    assert type(got) is np.float64
    np.testing.assert_allclose(got, a.sum(), rtol=1e-12)
    np.testing.assert_allclose(f(a[::-7]), a[::-7].sum(), rtol=1e-12)
    assert f(np.zeros(0)) == 0.0


def test_weak_scalar_results_are_python_scalars():
    m = sum_module(T.f64)
    cm = compile_module(m)
    f = cm.entry("total", result_types=[T.py_float])
    got = f(np.ones(4))
    assert type(got) is float and got == 4.0


def outer_module():
    """out[i, j] = x[i] * y[j] with both sizes dynamic."""
    f = Fn("outer", [strided((None,), T.i64)] * 2, [contiguous((None, None), T.i64)])
    x, y = f.args
    n, m = f.dim(x, 0), f.dim(y, 0)
    out = f.alloc(contiguous((None, None), T.i64), n, m)
    with f.loop(0, n) as li:
        with f.loop(0, m) as lj:
            p = f.v(arith.MulIOp, f.load(x, li.induction_var), f.load(y, lj.induction_var))
            f.store(p, out, li.induction_var, lj.induction_var)
            f.yield_()
        f.yield_()
    return f.ret(out)


def test_dynamic_shape_result():
    f = compiled(outer_module(), "outer")
    for n, m in ((3, 5), (1, 0), (17, 4)):
        x, y = np.arange(n, dtype=np.int64), np.arange(m, dtype=np.int64) - 2
        got = f(x, y)
        assert got.shape == (n, m) and got.dtype == np.int64
        np.testing.assert_array_equal(got, np.multiply.outer(x, y))


def test_result_too_large_raises_memory_error():
    f = compiled(outer_module(), "outer")
    huge = np.broadcast_to(np.int64(1), (2**40,))   # stride 0: no memory behind it
    with pytest.raises(MemoryError, match="cannot allocate a buffer of"):
        f(huge, np.ones(2**18, np.int64))           # 2**61 bytes: fits int64
    # byte counts past int64: NumPy's ValueError, never a wrapped small buffer
    with pytest.raises(ValueError, match="array is too big"):
        f(huge, huge)
    with pytest.raises(ValueError, match="array is too big"):
        f(huge, np.ones(2**23, np.int64))


def test_scalar_params_are_converted():
    f = Fn("axpy", [T.f32, strided((None,), T.f32), T.i1, T.i8], [contiguous((None,), T.f32)])
    a, x, neg, k = f.args
    n = f.dim(x, 0)
    out = f.alloc(contiguous((None,), T.f32), n)
    kf = f.v(arith.SIToFPOp, k, type=T.f32)
    with f.loop(0, n) as lp:
        v = f.v(arith.AddFOp, f.v(arith.MulFOp, a, f.load(x, lp.induction_var)), kf)
        f.store(f.v(arith.SelectOp, neg, f.v(arith.NegFOp, v), v), out, lp.induction_var)
        f.yield_()
    g = compiled(f.ret(out), "axpy")
    x = np.arange(4, dtype=np.float32)
    np.testing.assert_array_equal(g(2, x, False, 1), 2 * x + 1)
    np.testing.assert_array_equal(g(np.float32(0.5), x, np.bool_(True), np.int8(-3)),
                                  -(np.float32(0.5) * x - 3))
    np.testing.assert_array_equal(g(np.array(1.5, np.float64), x, True, 0), -(1.5 * x))
    with pytest.raises(OverflowError):
        g(1.0, x, False, 300)
    with pytest.raises(TypeError, match="expected an int8 scalar, got float"):
        g(1.0, x, False, 1.5)
    with pytest.raises(TypeError, match="expected a bool scalar, got int"):
        g(1.0, x, 1, 1)


def test_scf_if_and_while_with_results():
    # collatz steps of a scalar n: while n != 1: n = n // 2 if n even else 3n + 1
    f = Fn("collatz", [T.i64], [T.i64])
    (n,) = f.args
    zero, one, two, three = (f.const(v, T.i64) for v in (0, 1, 2, 3))
    w = scf.WhileOp.create([n, zero])
    f.b.insert(w)
    with f.b.at_end(w.before):
        cur, steps = w.before.args
        f.op_(scf.ConditionOp, [f.v(arith.CmpIOp, cur, one, attrs={"predicate": 1}), cur, steps])
    with f.b.at_end(w.after):
        cur, steps = w.after.args
        even = f.v(arith.CmpIOp, f.v(arith.RemSIOp, cur, two), zero, attrs={"predicate": 0})
        branch = scf.IfOp.create(even, [T.i64])
        f.b.insert(branch)
        with f.b.at_end(branch.then_block):
            f.yield_(f.v(arith.DivSIOp, cur, two))
        with f.b.at_end(branch.else_block):
            f.yield_(f.v(arith.AddIOp, f.v(arith.MulIOp, cur, three), one))
        f.yield_(branch.result, f.v(arith.AddIOp, steps, one))
    g = compiled(f.ret(w.results[1]), "collatz")

    def ref(n):
        s = 0
        while n != 1:
            n, s = (n // 2 if n % 2 == 0 else 3 * n + 1), s + 1
        return s

    for v in (1, 6, 27, 97):
        got = g(v)
        assert type(got) is np.int64 and got == ref(v)
