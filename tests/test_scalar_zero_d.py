"""Differential tests of NumPy scalars and 0-d arrays sharing a variable: merges at
``if``/``else``, conditional expressions, loops and returns, 0-d arrays stored into
elements and used as indices, ``range`` bounds and ``int()``/``float()`` operands.

Where eager Python holds a 0-d array on the path taken and a scalar on others, the compiled
function holds the NumPy scalar of the array's dtype (merge.py ``join_types``,
docs/numpy_support.md "Scalars and 0-d arrays"): ``run_joined`` expects the eager result
with each 0-d array replaced by its scalar ``x[()]``; everything else (dtype, value, Python
type of other results, mutated inputs) must be as eager Python has it."""

import copy

import numpy as np
import pytest
from conftest import assert_same
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler

DTYPES = [np.int8, np.uint16, np.float32, np.float64, np.bool_]


def _joined(v):
    """The documented result of a value that is a 0-d array on the path taken."""
    if isinstance(v, tuple):
        return tuple(_joined(x) for x in v)
    return v[()] if isinstance(v, np.ndarray) and v.ndim == 0 else v


_COMPILED = {}


def compiled(fn):
    """One ``compiler.function`` per function, shared by the examples of a test."""
    return _COMPILED.setdefault(fn, compiler.function(fn))


def check(fn, args):
    run_both(fn, args, compiled=compiled(fn))


def run_joined(fn, args, joined: bool = True):
    """``fn(*args)`` eagerly and compiled: the same result, 0-d arrays as their scalars
    where ``joined`` (the function joins them with scalars), the same exception, the same
    mutated inputs."""
    eager_args, compiled_args = copy.deepcopy(args), copy.deepcopy(args)
    try:
        result = fn(*eager_args)
        want = ("ok", _joined(result) if joined else result)
    except Exception as e:  # noqa: BLE001 - the exception is what is compared
        want = ("raised", type(e), str(e).splitlines()[0])
    try:
        got = ("ok", compiled(fn)(*compiled_args))
    except compiler.CompileError:
        raise
    except Exception as e:  # noqa: BLE001
        got = ("raised", type(e), str(e).splitlines()[0])
    assert want[0] == got[0], (want, got)
    if want[0] == "ok":
        assert_same(got[1], want[1])
    else:
        assert want == got
    for g, w in zip(compiled_args, eager_args, strict=True):
        if isinstance(w, np.ndarray):
            assert_same(g, w)


def scalars(dtype):
    if np.dtype(dtype).kind == "f":
        return st.floats(-1e6, 1e6, width=np.dtype(dtype).itemsize * 8) | st.sampled_from(
            [np.nan, np.inf, -np.inf, -0.0, 0.0])
    if np.dtype(dtype).kind == "b":
        return st.booleans()
    info = np.iinfo(dtype)
    return st.integers(int(info.min), int(info.max))


def zero_d_or_scalar(dtype):
    """A NumPy scalar or a 0-d array of ``dtype``."""
    return st.tuples(scalars(dtype), st.booleans()).map(
        lambda p: np.array(p[0], dtype) if p[1] else dtype(p[0]))


# merges at if/else and returns ---------------------------------------------------------------

def relu(x):
    if x > 0:
        return x
    else:
        return np.zeros_like(x)


def relu_expression(x):
    return x if x > 0 else np.zeros_like(x)


def relu_variable(x):
    y = np.zeros_like(x)
    if x > 0:
        y = x * 1
    return y + x, y


def mixed(x, y, c):
    z = x if c else y
    return z, z * 2


@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=st.sampled_from([np.int8, np.float32, np.float64]))
def test_if_else_merges_zero_d_arrays_and_scalars(data, dtype):
    """``relu`` of a 0-d array is a 0-d array on both paths: exact."""
    x = data.draw(zero_d_or_scalar(dtype))
    scalar = isinstance(x, np.generic)
    run_joined(relu, (x,), joined=scalar)
    run_joined(relu_expression, (x,), joined=scalar)
    run_joined(relu_variable, (x,))


@settings(max_examples=60, deadline=None)
@given(data=st.data(), dtype=st.sampled_from(DTYPES[1:]), c=st.booleans())
def test_zero_d_array_and_scalar_of_one_dtype_share_a_variable(data, dtype, c):
    x, y = data.draw(scalars(dtype)), data.draw(scalars(dtype))
    run_joined(mixed, (np.array(x, dtype), dtype(y), np.bool_(c)))
    run_joined(mixed, (dtype(x), np.array(y, dtype), np.bool_(c)))


def test_scalar_path_keeps_its_exact_type():
    """On the path where eager Python holds the scalar, the compiled result is exact."""
    check(relu, (np.int32(3),))
    check(mixed, (np.array(1.5), np.float64(2.5), np.bool_(False)))


def test_zero_d_path_gives_the_scalar_of_its_dtype():
    got = compiled(relu)(np.int32(-3))
    assert type(got) is np.int32 and got == relu(np.int32(-3))


def weak_join(x, c):
    return x if c else 2


def weak_float_join(x, c):
    return x if c else 0.5


@pytest.mark.parametrize("x", [np.array(3, np.int8), np.array(3.5, np.float32),
                               np.array(-7, np.int64)])
@pytest.mark.parametrize("c", [True, False])
def test_python_scalars_take_the_arrays_dtype(x, c):
    """A Python scalar joined with a 0-d array takes the array's dtype (NEP 50), as when it
    meets a NumPy scalar: the value compares equal to eager Python's."""
    got = compiled(weak_join)(x, np.bool_(c))
    want = weak_join(x, c)
    assert type(got) is x.dtype.type and got == want
    if x.dtype.kind == "f":
        got = compiled(weak_float_join)(x, np.bool_(c))
        assert type(got) is x.dtype.type and got == np.float32(weak_float_join(x, c))


def other_dtypes(x, y, c):
    return x if c else y


def test_other_dtypes_are_a_compile_error():
    with pytest.raises(compiler.CompileError, match="only when they have the same dtype"):
        compiler.function(other_dtypes)(np.array(1.0), np.float32(2.0), np.bool_(True))
    with pytest.raises(compiler.CompileError, match="different ranks"):
        compiler.function(other_dtypes)(np.ones(2), np.float64(2.0), np.bool_(True))


# loops ---------------------------------------------------------------------------------------

def fib(a, b):
    for _ in range(5):
        a, b = a + b, a
    return a


def fib_n(a, b, n):
    for _ in range(n):
        a, b = a + b, a
    return a, b


def halve_until(x, t):
    while x > t:
        x = x / 2
    return x


def first_above(a, default):
    for i in range(a.shape[0]):
        if a[i] > 2:
            return a[i]
    return default


@settings(max_examples=40, deadline=None)
@given(dtype=st.sampled_from([np.float64, np.int16]), data=st.data(), n=st.integers(0, 6))
def test_loop_carried_zero_d_arrays_become_scalars(dtype, data, n):
    a, b = data.draw(zero_d_or_scalar(dtype)), data.draw(zero_d_or_scalar(dtype))
    run_joined(fib, (a, b))
    run_joined(fib_n, (a, b, np.int64(n)))


@pytest.mark.parametrize("x", [np.array(100.0), np.array(0.5), np.array(np.nan),
                               np.float32(7.0), np.array(3e38, np.float32)])
def test_while_loop_from_a_zero_d_array(x):
    run_joined(halve_until, (x, x.dtype.type(1)))


@pytest.mark.parametrize("a", [np.arange(5.0), np.arange(2.0), np.array([])])
def test_early_return_of_a_scalar_or_a_zero_d_array(a):
    run_joined(first_above, (a, np.array(-1.0)))


# 0-d arrays where scalars are needed -----------------------------------------------------------

def store(out, z):
    for i in range(out.shape[0]):
        out[i] = z
    return out


STORES = [(np.float64, np.int32), (np.float32, np.uint16), (np.int64, np.int8),
          (np.float64, np.float64), (np.bool_, np.float32), (np.float32, np.bool_)]


@settings(max_examples=60, deadline=None)
@given(pair=st.sampled_from(STORES), data=st.data())
def test_zero_d_arrays_stored_into_elements(pair, data):
    """NumPy casts a 0-d array as an array (no NaN or overflow error, unlike a scalar)."""
    src, dst = pair
    z = np.array(data.draw(scalars(src)), src)
    check(store, (np.zeros(3, dst), z))


def index_with(a, z):
    b = a.copy()
    b[z] = -1
    return a[z], a[z:], a[:z], b


def index_2d(m, z):
    return m[z], m[:, z], m[z, ::-1]


@pytest.mark.parametrize("z", [np.array(0), np.array(-1, np.int8), np.array(2, np.uint8),
                               np.array(3, np.int32)])
def test_zero_d_integer_arrays_as_indices(z):
    check(index_with, (np.arange(4.0), z))
    check(index_2d, (np.arange(16).reshape(4, 4), z))


def test_out_of_range_zero_d_index_raises_index_error():
    check(index_with, (np.arange(4.0), np.array(4)))


def range_of(z):
    s = 0
    for i in range(z):
        s += i
    return s


def range_of_int(z):
    s = 0.0
    for i in range(int(z)):
        s += i
    return s


def conversions(z):
    return int(z), float(z), bool(z)


@pytest.mark.parametrize("z", [np.array(0), np.array(5), np.array(-2, np.int8)])
def test_zero_d_arrays_as_range_bounds(z):
    check(range_of, (z,))
    check(range_of_int, (z,))


@settings(max_examples=60, deadline=None)
@given(dtype=st.sampled_from(DTYPES), data=st.data())
def test_int_float_bool_of_zero_d_arrays(dtype, data):
    v = data.draw(scalars(dtype))
    if np.dtype(dtype).kind == "f" and np.isfinite(v):
        v = float(np.clip(v, -2.0 ** 62, 2.0 ** 62))  # int() beyond int64 is a Python int
    check(conversions, (np.array(v, dtype),))


def int_of_vector(a):
    return int(a)


def range_of_float(z):
    return range_of(z)


def test_arrays_that_are_not_0_d_integers_stay_errors():
    with pytest.raises(compiler.CompileError, match="int\\(\\) of an array"):
        compiler.function(int_of_vector)(np.ones(1))
    with pytest.raises(compiler.CompileError, match="not an integer"):
        compiler.function(range_of)(np.array(2.0))


# aliasing: a 0-d array that another name or the caller sees ------------------------------------

def augment_alias(x, c):
    if c:
        y = x
    else:
        y = x * 1
    y += 1
    return y


def augment_parameter(a, c):
    if c:
        a = a + 1
    a += 1
    return a


def augment_after_loop(a, n):
    for _ in range(n):
        a = a + 1
    a += 1
    return a


def write_partner(x, c):
    y = x if c else x + 1
    x[...] = 5
    return y


def write_partner_of_item(x, c):
    t = (x, 1) if c else (x + 1, 2)
    x[0] = 5
    return t


def augment_fresh(n):
    acc = np.zeros(())
    for i in range(n):
        acc = acc + i
    acc += 1
    return acc


@pytest.mark.parametrize("fn, args", [
    (augment_alias, (np.array(2.0), np.bool_(True))),
    (augment_parameter, (np.array(2.0), np.bool_(True))),
    (augment_after_loop, (np.array(2.0), np.int64(0))),
    (write_partner, (np.array(2.0), np.bool_(True))),
    (write_partner, (np.ones(3), np.bool_(True))),
    (write_partner_of_item, (np.ones(3), np.bool_(False))),
])
def test_in_place_updates_of_a_shared_zero_d_array_are_compile_errors(fn, args):
    """Eagerly, ``y += 1`` writes into the 0-d array ``y`` holds on some paths (the caller's
    or another name's), which a scalar cannot follow: a CompileError, not another answer."""
    with pytest.raises(compiler.CompileError, match="on some paths"):
        compiler.function(fn)(*args)


@pytest.mark.parametrize("n", [0, 3])
def test_in_place_update_of_a_fresh_zero_d_array(n):
    run_joined(augment_fresh, (np.int64(n),))


# x[i, ...]: a 0-d view; writes through it reach x, writes into x reach it --------------

def write_through_zero_d_view(x):
    y = x[1, ...]
    y[...] = 3
    return x


def write_through_zero_d_view_empty_tuple(x):
    y = x[-1, ...]
    y[()] = 5
    y += 2
    return x, y


def zero_d_view_sees_later_writes(x):
    y = x[1, ...]
    x[1] = 7
    return y + 1, x


def zero_d_view_of_a_row(x, i):
    y = x[i, 0, ...]
    y[...] = 5
    return x, y


@settings(max_examples=15, deadline=None)
@given(st.lists(st.floats(allow_nan=True, allow_infinity=True, width=64), min_size=2,
                max_size=6))
def test_zero_d_views_write_through(values):
    x = np.array(values)
    for fn in (write_through_zero_d_view, write_through_zero_d_view_empty_tuple,
               zero_d_view_sees_later_writes):
        run_both(fn, (x.copy(),))
    run_both(zero_d_view_of_a_row, (x.reshape(-1, 1).copy(), np.int64(-1)))
