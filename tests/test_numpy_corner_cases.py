"""NumPy's result types, dtypes and exceptions in corner cases: ``np.arange`` with NumPy-scalar
bounds, 0-d arrays versus NumPy scalars, run-time errors of the eager code (exact types and
messages), Python-scalar arithmetic that Python answers with an error, and error messages in
NumPy's terms."""

import warnings

import numpy as np
import pytest

import compiler


def _same(a, b):
    if isinstance(a, tuple):
        return type(b) is tuple and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, np.ndarray):
        return (type(b) is np.ndarray and a.dtype == b.dtype and a.shape == b.shape
                and np.array_equal(a, b, equal_nan=True))
    return type(a) is type(b) and (a == b or (a != a and b != b))


def _outcome(fn, *args):
    try:
        with np.errstate(all="ignore"):
            return fn(*args)
    except Exception as e:  # noqa: BLE001 - the exception is the outcome compared
        return type(e), str(e).split("\n")[0]


def arange3(a, b, s):
    return np.arange(a, b, s)


def arange1(n):
    return np.arange(n)


@pytest.mark.parametrize("fn, args", [
    (arange1, (np.uint8(3),)), (arange1, (np.uint64(5),)), (arange1, (np.float32(2.5),)),
    (arange3, (np.int8(0), np.int8(100), np.int8(7))),
    (arange3, (np.float32(0.1), np.float32(2), np.float32(0.3))),
    (arange3, (np.uint8(10), np.uint8(0), np.int8(-1))),
    (arange3, (np.int64(0), np.int64(5), np.int64(0))),
    (arange3, (np.float64(0), np.float64(np.nan), np.float64(1))),
    (arange3, (np.float64(0), np.float64(np.inf), np.float64(1))),
    (arange3, (0, 5, 0)), (arange3, (0.0, 5.0, 0.0))])
def test_arange_follows_numpy(fn, args):
    want, got = _outcome(fn, *args), _outcome(compiler.function(fn), *args)
    assert _same(want, got) if not isinstance(want, tuple) else want == got, (want, got)


def reshape_rows(x, n):
    return x.reshape(n, -1)


@pytest.mark.parametrize("n", [0, -2, 5, 4])
def test_reshape_with_run_time_size_raises_numpys_value_error(n):
    x = np.arange(12.0)
    want, got = _outcome(reshape_rows, x, np.int64(n)), \
        _outcome(compiler.function(reshape_rows), x, np.int64(n))
    assert _same(want, got) if not isinstance(want, tuple) else want == got, (want, got)


def power(a, b):
    return a ** b


def test_python_scalar_power_errors_follow_python():
    with pytest.raises(ZeroDivisionError, match="0.0 cannot be raised to a negative power"):
        compiler.function(power)(0, -2)
    assert _same(compiler.function(power)(2, -1), 0.5)
    assert _same(compiler.function(power)(-7, -1.5), (-7) ** -1.5)


def length(x):
    return len(x)


def test_len_of_0d_array_is_numpys_type_error():
    with pytest.raises(TypeError, match="len\\(\\) of unsized object") as info:
        compiler.function(length)(np.array(1.0))
    assert not isinstance(info.value, compiler.CompileError)


def reductions(x):
    return x.sum(), np.max(x), x.prod(), x.any(), x.mean(), x.sum(keepdims=True)


def where(x):
    return np.where(x > 2, x, 2)


def zero_d_views(x):
    return x[...], x.reshape(()), x.squeeze()


def ellipsis_after_index(x):
    return x[0, ...]


@pytest.mark.parametrize("fn, arg", [
    (reductions, np.array(3.0)), (where, np.float64(5.0)), (where, np.array(1.0)),
    (where, np.arange(4.0)), (zero_d_views, np.array(4.0)), (zero_d_views, np.array([4.0])),
    (ellipsis_after_index, np.arange(3.0))])
def test_zero_d_arrays_and_scalars_as_numpy(fn, arg):
    want, got = fn(arg), compiler.function(fn)(arg)
    assert _same(want if isinstance(want, tuple) else (want,),
                 got if isinstance(got, tuple) else (got,)), (want, got)


def append_to_list(x):
    out = []
    out.append("text")
    return x


def return_huge(x, n):
    return n


def unknown_call(x):
    return np.histogramdd(x)


def test_error_messages_point_at_the_expression_in_numpy_terms():
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(append_to_list)(np.ones(2))
    assert "appending this value to a list is not supported" in str(info.value)
    assert 'out.append("text")' in str(info.value)
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(return_huge)(np.ones(2), 2 ** 70)
    assert "return n" in str(info.value) and "def return_huge" not in str(info.value)
    with pytest.raises(compiler.CompileError, match="docs/numpy_support.md"):
        compiler.function(unknown_call)(np.ones(2))


def power_half(x):
    return x ** 0.5


def ufunc_power(x, p):
    return np.power(x, p)


SPECIAL = np.array([-0.0, 0.0, -np.inf, np.inf, np.nan, -1.0, 4.0, 2.0, 1e-310])


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("p", [0.5, 2.0, -1.0, 0.0, 1.0, -0.5, 3.0])
def test_power_with_scalar_exponent_takes_numpy_fast_paths(dtype, p):
    """NumPy's power loop with a scalar exponent computes sqrt for 0.5 (so -0.0 ** 0.5 is
    -0.0 and -inf ** 0.5 nan, where C's pow gives 0.0 and inf), x * x for 2, 1 / x for -1."""
    x = SPECIAL.astype(dtype)
    for fn, args in ((power_half, (x,)), (ufunc_power, (x, dtype(p))),
                     (ufunc_power, (x, np.array(p, dtype))), (ufunc_power, (x[::-1], dtype(p)))):
        got, want = _outcome(compiler.function(fn), *args), _outcome(fn, *args)
        assert _same(got, want), (fn.__name__, args, got, want)
        number = ~np.isnan(want)   # a NaN's sign is not specified
        assert np.array_equal(np.signbit(got)[number], np.signbit(want)[number])


DTYPES = [np.bool_, np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64,
          np.uint64, np.float32, np.float64]


def _kind(outcome):
    """An outcome with a CompileError reduced to the NumPy exception class it also is (NumPy
    raises when the call runs, grafo when it compiles)."""
    if isinstance(outcome, tuple) and isinstance(outcome[0], type) \
            and issubclass(outcome[0], compiler.CompileError):
        return next(c for c in outcome[0].__mro__ if c.__module__ == "builtins"), \
            outcome[1].split("error: ")[-1]
    return outcome


def powers(x):
    return (x ** 2, x ** 3, x ** 0, x ** 1, x ** 0.5, x ** 2.0, x ** True, x ** np.int64(2),
            x ** np.float64(0.5), np.power(x, 2))


def powers_of(x, y, z):
    return powers(x), powers(y), powers(z)


def reciprocals(x, y, z):
    return x ** -1, y ** -1, z ** -1


@pytest.mark.parametrize("dtype", DTYPES, ids=[np.dtype(d).name for d in DTYPES])
@pytest.mark.parametrize("fn", [powers_of, reciprocals])
def test_array_power_takes_the_operator_fast_paths(fn, dtype):
    """``ndarray ** p`` (0-d arrays too) is ``np.square`` for a Python int 2 (a bool array
    gives int8, where ``np.power`` gives int64) and, for floats, ``np.reciprocal`` for -1
    and ``np.sqrt`` for 0.5; other exponents and NumPy-scalar bases are ``np.power``."""
    x = SPECIAL.astype(dtype) if np.dtype(dtype).kind == "f" else np.array([0, 1, 3], dtype)
    args = (x, np.array(3, dtype), dtype(3))
    got, want = _kind(_outcome(compiler.function(fn), *args)), _outcome(fn, *args)
    assert _same(got, want), (got, want)


def power_in_place(a, p):
    a **= p
    return a


@pytest.mark.parametrize("dtype, p", [(np.bool_, 2), (np.bool_, 3), (np.int8, 2),
                                      (np.float32, -1), (np.int64, 0.5)])
def test_in_place_power_casts_as_numpy(dtype, p):
    """``a **= 2`` runs ``np.square`` in place: for a bool array its int8 result cannot be cast
    back (``same_kind``), and the error names ``square``."""
    a = np.array([1, 0, 3], dtype)
    want = _outcome(power_in_place, a.copy(), p)
    got = _outcome(compiler.function(power_in_place), a.copy(), p)
    if isinstance(want, tuple):
        assert issubclass(got[0], TypeError) and want[1] in got[1], (got, want)
    else:
        assert _same(got, want), (got, want)


def power_in_loop(flags, n):
    out = flags ** 3
    for k in range(n):
        out = flags ** k
    return out


def test_bool_array_to_a_run_time_python_int_is_a_compile_error():
    """NumPy's dtype of ``flags ** k`` depends on the value of ``k`` (int8 for 2, through
    ``np.square``, int64 otherwise), which compiled code cannot follow."""
    flags = np.array([True, False])
    assert power_in_loop(flags, 3).dtype == np.int8 and power_in_loop(flags, 4).dtype == np.int64
    with pytest.raises(compiler.CompileError, match="result dtype depends on its value"):
        compiler.function(power_in_loop)(flags, 3)
    numbers = np.array([2, 3], np.int16)
    assert _same(compiler.function(power_in_loop)(numbers, 3), power_in_loop(numbers, 3))


def _float_conditions(x, y):
    return x / y, np.log(x - 1.0), np.exp(x * 1000.0)


def test_float_conditions_give_ieee_results_without_warnings():
    """Documented in the README: compiled code returns NumPy's inf/NaN results with no
    RuntimeWarning and ignores np.errstate; eager mode keeps NumPy's warnings."""
    x, y = np.array([1.0, 0.0, -1.0, 2.0]), np.array([0.0, 0.0, 1.0, 4.0])
    with np.errstate(all="ignore"):
        want = _float_conditions(x, y)
    f = compiler.function(_float_conditions)
    with warnings.catch_warnings(record=True) as seen, np.errstate(all="raise"):
        warnings.simplefilter("always")
        got = f(x, y)
    assert not seen
    for g, w in zip(got, want, strict=True):
        np.testing.assert_array_equal(g, w)
    compiler.run_functions_eagerly(True)
    try:
        with warnings.catch_warnings(record=True) as seen:
            warnings.simplefilter("always")
            f(x, y)
    finally:
        compiler.run_functions_eagerly(False)
    assert {str(w.message) for w in seen} >= {"divide by zero encountered in divide",
                                             "invalid value encountered in divide"}
