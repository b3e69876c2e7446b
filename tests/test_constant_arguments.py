"""Tuples and functions as arguments: like Python scalars they are compile-time constants,
part of the specialization key (tuples by value, item types and float bits included;
functions by identity), passed explicitly or as defaults, by ``compiler.function`` and by
``compiler.compile`` (trailing parameters left out of the signature take their defaults).
Unsupported arguments and dtypes raise errors that name the parameter."""

import os

import numpy as np
import pytest
from differential_harness import run_both

import compiler
import runtime
from compiler import cache


def check_mask(db, mask=(1, 0, 1)):
    out = np.zeros(db.shape[0], dtype=bool)
    for idx, line in enumerate(db):
        if (mask == np.bitwise_and(mask, line[1:])).all() and line[0]:
            out[idx] = 1
    return out


def wrap(i, n):
    return i % n


def clamp(i, n):
    return min(max(i, 0), n - 1)


def local_maxima(x, mode=wrap):
    n = x.shape[0]
    out = np.zeros(n, dtype=bool)
    for i in range(n):
        out[i] = x[i] > x[mode(i - 1, n)] and x[i] > x[mode(i + 1, n)]
    return out


def scaled(x, k=(0.5, -0.0)):
    return x * k[0] + k[1], np.copysign(1.0, k[1]), k


NESTED = ((1, 2.5), (True, np.int8(-3)))
SCALE = (np.float32(2), 3)
ONES = np.ones(2)


def nested(x, t=NESTED):
    return x + t[0][1], t[1][1] * x.astype(np.int8), np.asarray(t[0]), len(t)


def apply(x, op=np.add, c=SCALE):
    return op(x, c[0])


@compiler.function
def wrap_compiled(i, n):
    return i % n


DB = np.array([[1, 1, 0, 1], [1, 1, 1, 1], [0, 1, 1, 1], [1, 0, 0, 0]], bool)
X = np.array([3.0, 1.0, 2.0, 5.0, 0.0])


@pytest.mark.filterwarnings("ignore:wrap_compiled")  # run_both calls it eagerly too
@pytest.mark.parametrize("fn, args", [
    (check_mask, (DB,)), (check_mask, (DB, (0, 1, 1))), (check_mask, (DB, (True, 1, 0))),
    (local_maxima, (X,)), (local_maxima, (X, clamp)), (local_maxima, (X, wrap_compiled)),
    (local_maxima, (X, lambda i, n: clamp(i, n))),
    (scaled, (X,)), (scaled, (X, (0.5, 0.0))), (scaled, (X.astype(np.float32), (2, -1))),
    (nested, (X,)), (nested, (X, ((1, -0.0), (False, np.uint8(3))))),
    (apply, (X.astype(np.float32),)),
    (apply, (X.astype(np.float32), np.maximum, (np.float32(4), 1))),
])
def test_tuple_and_function_arguments_are_compile_time_constants(fn, args):
    run_both(fn, args)


def test_a_different_tuple_or_function_compiles_a_new_specialization():
    f = compiler.function(scaled)
    for k in [(0.5, -0.0), (0.5, -0.0), (0.5, 0.0), (1, 0), (True, 0), (1.0, 0),
              (0.5, -0.0)]:
        assert np.copysign(1.0, f(X, k)[1]) == np.copysign(1.0, k[1])
        assert f(X, k)[2] == k and [type(v) for v in f(X, k)[2]] == [type(v) for v in k]
    assert f.tracing_count == 5
    g = compiler.function(local_maxima)
    for mode in [wrap, clamp, wrap, None]:
        if mode is None:
            g(X)
        else:
            np.testing.assert_array_equal(g(X, mode), local_maxima(X, mode))
    assert g.tracing_count == 2


def test_a_concrete_function_checks_the_constants_passed_to_it():
    cf = compiler.function(scaled).get_concrete_function(X)
    assert cf(X, (0.5, -0.0))[2] == (0.5, -0.0)
    for other in [(0.5, 0.0), (0.5, False), [0.5, -0.0]]:
        with pytest.raises(TypeError, match=r"traced with \(0.5, -0.0\)"):
            cf(X, other)


def test_compile_takes_the_defaults_of_parameters_the_signature_leaves_out():
    cf = compiler.compile(scaled, "f64[?]")
    np.testing.assert_array_equal(cf(X)[0], scaled(X)[0])
    assert "k=(0.5, -0.0)" in cf.pretty_signature()
    cf = compiler.compile(local_maxima, "f64[?]")
    np.testing.assert_array_equal(cf(X), local_maxima(X))
    with pytest.raises(TypeError, match="scaled takes 1 to 2 arguments, the signature gives 0"):
        compiler.compile(scaled, [])
    with pytest.raises(TypeError, match="takes 1 to 2 arguments, the signature gives 3"):
        compiler.compile(scaled, "f64[?], f64, f64")


def array_default(x, y=ONES):
    return x + y


def list_default(x, m=[1, 2]):  # noqa: B006 - the unsupported default under test
    return x


def test_unsupported_arguments_name_the_parameter():
    with pytest.raises(TypeError, match=r"argument 'm' \(a default value\) of type list is "
                                        r"not supported"):
        compiler.function(list_default)(X)
    with pytest.raises(TypeError, match=r"argument 'm' of type list is not supported"):
        compiler.function(list_default)(X, [1, 2])
    with pytest.raises(TypeError, match=r"argument 'k' of type tuple is not supported \(it "
                                        r"holds \[2\] of type list\)"):
        compiler.function(scaled)(X, (1, [2]))
    with pytest.raises(TypeError, match=r"argument 'k' of type tuple is not supported \(it "
                                        r"holds b'1' of type bytes\)"):
        compiler.function(scaled)(X, (1j, b"1"))
    with pytest.raises(TypeError, match=r"argument 'y' \(a default value\) of type ndarray is "
                                        r"not a compile-time constant"):
        compiler.compile(array_default, "f64[2]")


def norm(a, b):
    return a / np.abs(b).max()


def test_an_unsupported_dtype_names_the_argument_and_how_to_pass_it():
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(norm)(np.ones(3), np.ones(3, np.clongdouble))
    text = str(info.value)
    assert "argument 'b' has dtype complex256, which is not supported yet" in text
    assert "b.astype(np.complex128)" in text
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(norm)(np.ones(3, np.longdouble), np.ones(3))
    assert "argument 'a' has dtype float128" in str(info.value)
    assert "a.astype(np.float32)" in str(info.value)


def test_the_disk_cache_keys_tuples_by_value_and_functions_by_source():
    def key(*args):
        return cache.key(local_maxima, ["x", "mode"], list(args), None)
    from compiler.frontend import Constant
    from compiler.types import TensorType, f64
    t = TensorType((None,), f64)
    assert key(t, Constant(wrap)) != key(t, Constant(clamp))
    assert key(t, Constant(wrap)) == key(t, Constant(wrap))
    assert key(t, Constant((0.0,))) != key(t, Constant((-0.0,)))
    assert key(t, Constant((1,))) != key(t, Constant((True,)))


def test_artifacts_record_tuple_and_function_constants(tmp_path):
    for fn, extra in [(scaled, (0.5, -0.0)), (local_maxima, wrap)]:
        path = os.path.join(tmp_path, f"{fn.__name__}.grafo")
        compiler.compile(fn, "f64[?]").save(path)
        loaded = runtime.load(path)
        want = fn(X)
        for got in (loaded(X), loaded(X, extra)):
            for g, w in zip(got if isinstance(got, tuple) else (got,),
                            want if isinstance(want, tuple) else (want,), strict=True):
                np.testing.assert_array_equal(g, w)
    with pytest.raises(TypeError, match="traced with"):
        loaded(X, clamp)


def test_a_tuple_that_keeps_changing_is_advised_to_be_an_array():
    f = compiler.function(scaled)
    with pytest.warns(UserWarning, match="argument 'k' changed value in 5 consecutive calls.*"
                                         "pass it as a NumPy array"):
        for k in range(7):
            f(X, (0.5, float(k)))
