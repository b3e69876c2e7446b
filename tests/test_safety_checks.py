"""Compiled code never silently differs from NumPy: array sizes that overflow, Python ints
past 64 bits, arguments sharing memory with a written one, NumPy errors found at compile
time, ndarray subclasses, variadic parameters and the tracebacks of compile errors."""

import inspect
import os
import pickle
import subprocess
import sys
import traceback
import warnings
from pathlib import Path

import numpy as np
import pytest

import compiler
from compiler import CompileError

TOO_BIG = "array is too big"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# array sizes ---------------------------------------------------------------------------------

_HUGE_CHILD = r"""
import numpy as np, compiler
def ones3(n):
    return np.ones((n, n, 4))
def eye(n):
    return np.eye(n, dtype=np.int8)
for f, n in ((ones3, 2**31), (eye, 2**32), (eye, 10**12), (ones3, np.int64(2**31))):
    try:
        compiler.function(f)(n)
        print("returned")
    except ValueError as e:
        print("ValueError", e)
"""


def test_huge_static_and_dynamic_shapes_raise_numpys_value_error(tmp_path):
    # Run in a child: before the size checks these calls crashed the interpreter.
    child = tmp_path / "child.py"
    child.write_text(_HUGE_CHILD)
    root = str(Path(compiler.__file__).resolve().parent.parent)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [
        root, os.environ.get("PYTHONPATH")]))}
    p = subprocess.run([sys.executable, str(child)], capture_output=True, text=True,
                       timeout=300, env=env)
    assert p.returncode == 0, p.stderr[-2000:]
    lines = p.stdout.splitlines()
    assert len(lines) == 4 and all(line.startswith("ValueError " + TOO_BIG) for line in lines)


def empty3(n):
    return np.zeros((n, n, 4))


@pytest.mark.parametrize("n", [np.int64(2**31), np.int64(2**30 + 1)])
def test_dynamic_size_overflow_is_value_error(n):
    with pytest.raises(ValueError, match=TOO_BIG):
        np.zeros((n, n, 4))
    with pytest.raises(ValueError, match=TOO_BIG):
        compiler.function(empty3)(n)


def test_size_that_fits_but_cannot_be_allocated_is_memory_error():
    n = np.int64(2**28)   # 2**61 bytes: fits int64, more than any machine has
    with pytest.raises(MemoryError):
        compiler.function(empty3)(n)
    assert compiler.function(empty3)(np.int64(3)).shape == (3, 3, 4)


# Python ints ---------------------------------------------------------------------------------

def factorial(n):
    r = 1
    for i in range(1, n + 1):
        r *= i
    return r


def total(x):
    s = 0
    for _ in range(x.shape[0]):
        s += 2**62
    return s


def _py_ints(x):
    return int(x[0]), int(x[1])


def p_add(x):
    a, b = _py_ints(x)
    return a + b


def p_sub(x):
    a, b = _py_ints(x)
    return a - b


def p_mul(x):
    a, b = _py_ints(x)
    return a * b


def p_pow(x):
    a, b = _py_ints(x)
    return a ** b


def p_shl(x):
    a, b = _py_ints(x)
    return a << b


def p_neg(x):
    return -int(x[0])


def p_abs(x):
    return abs(int(x[0]))


def test_python_int_loops_raise_overflow_error_instead_of_wrapping():
    assert compiler.function(factorial)(20) == factorial(20)
    with pytest.raises(OverflowError, match="64-bit Python ints"):
        compiler.function(factorial)(25)
    assert compiler.function(total)(np.zeros(1)) == 2**62
    with pytest.raises(OverflowError, match="64-bit Python ints"):
        compiler.function(total)(np.zeros(4))


M = 2**63
PY_INT_CASES = [
    (p_add, 2**62, 2**62), (p_add, -2**62, -2**62), (p_add, -2**62, -2**62 - 1),
    (p_add, M - 1, 0), (p_sub, -M + 1, 1), (p_sub, -M + 1, 2), (p_sub, 0, -M),
    (p_mul, -1, -M), (p_mul, -M, -1), (p_mul, 2**32, 2**31), (p_mul, -2**32, 2**31),
    (p_mul, 0, -M), (p_mul, -3, 5), (p_pow, 3, 39), (p_pow, 3, 40), (p_pow, -2, 63),
    (p_pow, 2, 63), (p_pow, -1, 2**62), (p_pow, 1, 2**62), (p_pow, 2, 62),
    (p_shl, 1, 62), (p_shl, 1, 63), (p_shl, -1, 63), (p_shl, 3, 64), (p_shl, 0, 100),
    (p_neg, -M, 0), (p_neg, 5, 0), (p_abs, -M, 0), (p_abs, -7, 0),
]


@pytest.mark.parametrize("fn, a, b", PY_INT_CASES)
def test_python_int_ops_are_exact_or_raise(fn, a, b):
    want = fn([a, b])
    cf = compiler.function(fn)
    if -M <= want < M:
        assert cf(np.array([a, b], np.int64)) == want
    else:
        with pytest.raises(OverflowError, match="Python int too large"):
            cf(np.array([a, b], np.int64))


def int64_keeps_wrapping(x):
    return x * x


def test_numpy_integers_keep_wrapping():
    x = np.array([2**62], np.int64)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(compiler.function(int64_keeps_wrapping)(x), x * x)


def folded(n):
    r = n * n
    return r + 1


def test_folded_python_int_overflow_points_at_the_expression():
    with pytest.raises(CompileError) as info:
        compiler.function(folded)(2**32)
    assert isinstance(info.value, OverflowError)
    assert info.value.loc.line == folded.__code__.co_firstlineno + 1
    assert "64-bit Python ints" in str(info.value)


# shared memory -------------------------------------------------------------------------------

def loop_into(x, y):
    for i in range(x.shape[0]):
        x[i] = y[x.shape[0] - 1 - i]
    return x


def write_then_read(x, y):
    x[0] = 100.0
    return y[0]


def test_written_argument_sharing_memory_runs_as_python():
    f = compiler.function(loop_into)
    a, b = np.arange(6.0), np.arange(6.0)
    loop_into(a, a)
    with pytest.warns(RuntimeWarning, match="'x' and 'y' share memory and 'x' is written"):
        f(b, b)
    np.testing.assert_array_equal(a, b)
    with warnings.catch_warnings():
        warnings.simplefilter("error")   # warned once per function
        c = np.arange(6.0)
        f(c[::-1], c)
        d = np.arange(6.0)
        loop_into(d[::-1], d)
        np.testing.assert_array_equal(c, d)
        e, g = np.arange(6.0), np.arange(6.0)
        f(e, np.arange(6.0))
        loop_into(g, np.arange(6.0))
        np.testing.assert_array_equal(e, g)


def test_concrete_function_checks_shared_memory():
    cf = compiler.compile(write_then_read, "f64[6], f64[6]")
    a = np.arange(6.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        assert cf(a, a) == 100.0
    b = np.arange(6.0)
    assert cf(b, np.arange(6.0)) == 0.0 and b[0] == 100.0


# NumPy errors at compile time ----------------------------------------------------------------

def add(a, b):
    return a + b


def add300(x):
    return x + 300


def iadd_float(x):
    x += 1.5
    return x


@pytest.mark.parametrize("fn, args, kind", [
    (add, (np.zeros(3), np.zeros(4)), ValueError),
    (add300, (np.zeros(3, np.uint8),), OverflowError),
    (iadd_float, (np.zeros(3, np.int32),), TypeError),
])
def test_numpy_errors_found_while_compiling_are_numpys_exceptions(fn, args, kind):
    with pytest.raises(kind):
        fn(*args)
    with pytest.raises(kind) as info:
        compiler.function(fn)(*args)
    assert isinstance(info.value, CompileError)
    assert f":{fn.__code__.co_firstlineno + 1}:" in str(info.value)
    again = pickle.loads(pickle.dumps(info.value))
    assert isinstance(again, kind) and isinstance(again, CompileError)


# ndarray subclasses --------------------------------------------------------------------------

def arr_sum(x):
    return x.sum()


@pytest.mark.parametrize("make", [
    lambda: np.ma.array([1.0, 2.0, 100.0], mask=[False, False, True]),
    lambda: np.matrix([[1.0, 2.0, 100.0]]),
])
@pytest.mark.filterwarnings("ignore::PendingDeprecationWarning")
def test_ndarray_subclasses_are_rejected(make):
    f = compiler.function(arr_sum)
    assert f(np.ones(3)) == 3.0
    with pytest.raises(TypeError, match=r"ndarray subclass.*np\.asarray"):
        f(make())
    x = make()
    cf = compiler.compile(arr_sum, f"f64[{', '.join(map(str, x.shape))}]")
    with pytest.raises(TypeError, match=r"ndarray subclass.*np\.asarray"):
        cf(x)


# error reports -------------------------------------------------------------------------------

def with_kwargs(x, **kw):
    return x


def with_args(x, *rest):
    return x


@pytest.mark.parametrize("fn, stars", [(with_kwargs, "**kw"), (with_args, "*rest")])
def test_variadic_parameters_are_a_compile_error(fn, stars):
    with pytest.raises(CompileError, match=rf"takes \{stars}"):
        compiler.function(fn)(np.ones(2))


def unsupported(x):
    try:
        return x
    except ValueError:
        return x


def test_compile_error_traceback_hides_compiler_frames():
    with pytest.raises(CompileError) as info:
        compiler.function(unsupported)(np.ones(2))
    frames = traceback.extract_tb(info.value.__traceback__)
    names = [os.path.relpath(f.filename, ROOT).split(os.sep) for f in frames]
    assert not any("frontend" in n or n[:2] == ["compiler", "pipeline"] for n in names)
    # this test's call, the API boundary, its raise from a frame at the line the error names
    inner = {os.path.relpath(f.filename, ROOT) for f in frames[1:-1]}
    assert inner <= {os.path.join("compiler", "polymorphic.py"),
                     os.path.join("compiler", "boundary.py"), os.path.join("runtime", "frames.py")}
    last = frames[-1]
    line = inspect.getsourcelines(unsupported)[1] + 1
    assert (last.filename, last.lineno, last.name) == (__file__, line, "unsupported")
    assert info.value.__suppress_context__ or info.value.__context__ is None
