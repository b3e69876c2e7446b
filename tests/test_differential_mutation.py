"""Differential tests of side effects: each function runs eagerly and compiled on copies of
the same inputs; results, dtypes, shapes and the mutated inputs must be identical."""

import copy

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import compiler


def _same(a, b):
    if isinstance(a, tuple):
        return type(b) is tuple and len(a) == len(b) and all(map(_same, a, b))
    if isinstance(a, np.ndarray):
        return (isinstance(b, np.ndarray) and a.dtype == b.dtype and a.shape == b.shape
                and np.array_equal(a, b, equal_nan=True))
    return type(a) is type(b) and (a == b or (a != a and b != b))


def run_both(fn, *args):
    eager_args, compiled_args = copy.deepcopy(args), copy.deepcopy(args)
    expected = fn(*eager_args)
    got = compiler.function(fn)(*compiled_args)
    assert _same(expected, got), (expected, got)
    for e, g in zip(eager_args, compiled_args, strict=True):
        assert _same(e, g), ("mutated input differs", e, g)


def set_element(a):
    a[2] = 7.5
    return a.sum()


def set_negative_index(a):
    a[-1] = a[0]


def set_slice_broadcast(m):
    m[1:, ::2] = -1


def set_row_from_array(m, r):
    m[0] = r


def overlapping_reverse(a):
    a[:] = a[::-1]
    return a


def augassign_slice(a):
    a[::2] *= 3


def augassign_whole(a):
    a += 1
    return a


def alias_sees_update(a):
    b = a
    b[0] = 100
    return a


def view_writes_through(m):
    row = m[1]
    row[0] = 42


def loop_fill(a, n):
    for i in range(n):
        a[i] = i * i


def conditional_write(a, flag):
    if flag > 0:
        a[0] = 1
    return a


def rebind_then_write(a):
    a = a * 2
    a[0] = 0
    return a


def _helper(v):
    v[0] = -5


def callee_mutates(a):
    _helper(a)
    return a[0]


def closure_counter(a):
    calls = np.zeros(1, dtype=np.int64)

    def bump(v):
        calls[0] += 1
        return v * 2

    return bump(a) + bump(1.0), calls


def early_return_after_write(a, k):
    a[0] = 9
    if k > 0:
        return 1
    a[1] = 8
    return 2


def int_array_setitem_casts(a):
    a[0] = 2.9


def lambda_and_default(a):
    scale = lambda v, s=3: v * s  # noqa: E731
    return scale(a), scale(a, s=2)


def recursion_on_shape(a):
    if a.shape[0] == 0:
        return 0.0
    return a[0] + recursion_on_shape(a[1:])


def view_written_twice(m):
    row = m[1]
    row[0] = 42
    row[1] += 1


def transpose_assign_overlapping(m):
    m.T[...] = m
    return m


def transpose_view_write(m):
    t = m.T
    t[0, 1] = 100
    t[2] += 1
    return m


def swapaxes_row_write(m):
    m.swapaxes(0, 1)[1] = -1


def copies_are_independent(m):
    a, b, c, d = m.copy(), np.copy(m), m.flatten(), m.astype(m.dtype)
    a[0] = 1
    b[1] = 2
    c[0] = 3
    d[0, 0] = 4
    return m, a, b, c, d


def local_reshape_view_write(a):
    z = np.zeros(6)
    v = z.reshape(2, 3)
    v[1, 2] = a[0]
    return z


F = np.arange(6, dtype=np.float64)
def alias_on_every_path(a, b, k):
    if k == 0:
        a = b
    elif k == 1:
        a = b
    else:
        a = b
    _helper(a)                  # the callee writes b whichever path ran
    a[1] = 7.0
    return b


def swap_then_write(a, b):
    a, b = b, a
    a[0] = 5.0
    b[1] = 6.0


def alias_rebound_before_write_in_loop(a, b):
    for i in range(3):
        a = b
        a[i] = 5.0


def rebound_to_copy_in_loop(a, b):
    for i in range(3):
        a[i] = 1.0
        a = b.copy()
    return a


def local_double_buffer(u, n):
    a, b = u.copy(), np.zeros_like(u)
    for _ in range(n):
        b[1:-1] = 0.5 * (a[:-2] + a[2:])
        a, b = b, a
    return a, b


def view_augassigned_in_loop(u, n):
    """The grayscott kernel's pattern: ``v += ...`` keeps ``v`` a view of ``u``."""
    v = u[1:-1]
    for _ in range(n):
        v += u[:-2] + 1.0
    return u


def view_augassigned_then_rebound(u, n):
    """Writes through ``v`` reach ``u`` in the first iteration only: not supported."""
    v = u[1:-1]
    for _ in range(n):
        v *= 2.0
        v = v + 1.0
    return u, v


def two_views_augassigned(u, n):
    v, w = u[1:], u[:-1]
    for _ in range(n):
        v += w
        w -= 1.0
    return u


def accumulate_and_break(u, x):
    acc = u[:3]
    for i in range(x.shape[0]):
        acc += x[i]
        if acc[0] > 10.0:
            break
    return u


M = np.arange(12, dtype=np.float32).reshape(3, 4)
I64 = np.arange(5, dtype=np.int64)

CASES = [
    (set_element, F), (set_negative_index, F), (set_slice_broadcast, M),
    (set_row_from_array, M, np.ones(4, dtype=np.float32)), (overlapping_reverse, I64),
    (augassign_slice, I64), (augassign_whole, F), (alias_sees_update, I64),
    (view_writes_through, M), (loop_fill, np.zeros(6), np.int64(4)),
    (conditional_write, I64, np.int64(1)), (conditional_write, I64, np.int64(-1)),
    (rebind_then_write, F), (callee_mutates, F), (closure_counter, F),
    (early_return_after_write, F, np.int64(1)), (early_return_after_write, F, np.int64(0)),
    (int_array_setitem_casts, I64), (lambda_and_default, F), (recursion_on_shape, F[:4]),
    (transpose_assign_overlapping, np.arange(9.0).reshape(3, 3)),
    (transpose_view_write, np.arange(9.0).reshape(3, 3)), (swapaxes_row_write, M),
    (copies_are_independent, M), (local_reshape_view_write, F), (view_written_twice, M),
    (alias_on_every_path, F, F * 10, np.int64(1)), (alias_on_every_path, F, F * 10, np.int64(5)),
    (swap_then_write, F, F * 10), (alias_rebound_before_write_in_loop, F, F * 10),
    (rebound_to_copy_in_loop, F, F * 10), (local_double_buffer, F, np.int64(3)),
    (view_augassigned_in_loop, F, np.int64(3)), (two_views_augassigned, F, np.int64(2)),
    (accumulate_and_break, F, np.arange(12.0).reshape(4, 3)),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0].__name__}-{k}" for k, c in
                                             enumerate(CASES)])
def test_eager_and_compiled_agree(case):
    run_both(case[0], *case[1:])


def test_view_rebound_in_loop_is_a_compile_error():
    with pytest.raises(compiler.CompileError, match="the loop may rebind one of them") as e:
        compiler.function(view_augassigned_then_rebound)(F.copy(), np.int64(3))
    assert "v *= 2.0" in str(e.value) and "create the view inside the loop" in str(e.value)


def checked_positive(x):
    assert x.min() > 0, "x must be positive"
    return x


def test_assert_raises_assertion_error_with_the_message():
    f = compiler.function(checked_positive)
    np.testing.assert_array_equal(f(np.ones(3)), np.ones(3))
    with pytest.raises(AssertionError, match="x must be positive"):
        f(np.array([1.0, -1.0]))


def reshape_argument_write(a):
    v = a.reshape(2, 3)
    v[0, 0] = 1.0


def broadcast_write(a):
    v = np.broadcast_to(a, (2, 6))
    v[0, 0] = 1.0


@pytest.mark.parametrize("fn, message", [
    (reshape_argument_write, "writing into a reshaped view of an argument"),
    (broadcast_write, "assignment destination is read-only")])
def test_writes_through_views_that_cannot_be_propagated_are_errors(fn, message):
    with pytest.raises(compiler.CompileError, match=message):
        compiler.function(fn)(F.copy())


def store_nan(x):
    x[0] = np.nan


def store_negative_float(x, flag):
    if flag:
        x[1:] = -1.7
    return x


@pytest.mark.parametrize("fn, dtype, error, message", [
    (store_nan, np.int32, ValueError, "cannot convert float NaN to integer"),
    (store_nan, np.uint8, ValueError, "cannot convert float NaN to integer"),
    (store_negative_float, np.uint8, OverflowError, "Python integer -1 out of bounds for uint8"),
    (store_negative_float, np.uint64, OverflowError, "out of bounds for uint64")])
def test_python_float_stored_into_integer_array_converts_like_int(fn, dtype, error, message):
    args = (np.arange(3, dtype=dtype),) + ((True,) if fn is store_negative_float else ())
    with pytest.raises(error, match=message) as info:
        compiler.function(fn)(*args)
    assert not isinstance(info.value, compiler.CompileError)
    if fn is store_negative_float:
        run_both(fn, np.arange(3, dtype=dtype), False)
        run_both(fn, np.arange(3, dtype=np.int16), True)


def store_item(buf, v):
    buf[1] = v
    return buf


def store_slice(buf, v):
    buf[1:] = v
    return buf


def store_fancy(buf, v):
    buf[np.array([0, 2])] = v
    return buf


def store_mask(buf, v):
    buf[buf == 0] = v
    return buf


def store_python_float(buf, v):
    buf[1] = float(v)
    return buf


def store_python_int(buf, v):
    buf[1:] = int(v)
    return buf


STORES = {fn: compiler.function(fn) for fn in (store_item, store_slice, store_fancy,
                                               store_mask, store_python_float,
                                               store_python_int)}
TARGETS = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64,
           np.bool_]
FLOATS = st.sampled_from([np.nan, np.inf, -np.inf, 1e30, -1e30, 2.0 ** 63, -2.0 ** 63,
                          2.0 ** 64, 2.0 ** 32, -2.0 ** 31 - 1, 127.9, -128.9, -129.0, 255.5,
                          256.0, -0.5, -1.5, 4294967295.5]) | st.floats(-1e20, 1e20)
INTEGERS = st.sampled_from([2 ** 63 - 1, -2 ** 63, 2 ** 64 - 1, 300, -129, 128, 65536, 2 ** 31,
                            -2 ** 31 - 1, 2 ** 32, -1]) | st.integers(-2 ** 63, 2 ** 64 - 1)


def _store_outcome(fn, buf, v):
    try:
        with np.errstate(all="ignore"):
            return fn(buf.copy(), v)
    except (ValueError, OverflowError) as e:
        assert not isinstance(e, compiler.CompileError)
        return type(e), str(e).split("\n")[0]


def _check_store(fn, target, v):
    buf = np.array([0, 5, 0], target)
    want, got = _store_outcome(fn, buf, v), _store_outcome(STORES[fn], buf, v)
    assert _same(want, got) if isinstance(want, np.ndarray) else want == got, (v, want, got)


@pytest.mark.filterwarnings("ignore:.*consecutive calls")
@settings(max_examples=60, deadline=None)
@given(fn=st.sampled_from([store_item, store_slice, store_fancy, store_mask,
                           store_python_float]),
       target=st.sampled_from(TARGETS), source=st.sampled_from([np.float64, np.float32]),
       x=FLOATS)
def test_float_stored_into_integer_array_raises_where_numpy_does(fn, target, source, x):
    """``buf[i] = v`` converts a Python float, and a NumPy float into a signed integer array,
    as ``int(v)`` then checks the range: NaN raises ValueError, infinities and values out of
    the dtype OverflowError (NumPy's messages). A NumPy float into an unsigned array, or
    through an index array or mask, is cast."""
    v = source(x)
    if source is np.float32 and np.isinf(v) and not np.isinf(x):
        v = source(np.inf)
    cast = fn in (store_fancy, store_mask) or np.dtype(target).kind == "u"
    # a cast's values for NaN and out-of-range floats are astype's, tested with astype
    assume(fn is store_python_float or not cast or target is np.bool_
           or 0 <= v < np.iinfo(target).max)
    _check_store(fn, target, v)


@pytest.mark.filterwarnings("ignore:.*consecutive calls")
@settings(max_examples=60, deadline=None)
@given(fn=st.sampled_from([store_item, store_slice, store_fancy, store_python_int]),
       target=st.sampled_from(TARGETS),
       source=st.sampled_from([np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64,
                               np.uint64]), n=INTEGERS)
def test_integer_stored_into_narrower_array_raises_where_numpy_does(fn, target, source, n):
    """A Python int, and a NumPy integer into a signed array by basic indexing, out of the
    dtype's range: NumPy's OverflowError ("Python integer 300 out of bounds for int8", or
    "Python int too large to convert to C long" above 2**63 - 1); other stores wrap."""
    info = np.iinfo(source)
    assume(info.min <= n <= info.max)
    assume(fn is not store_python_int or source is np.int64)
    _check_store(fn, target, source(n))


@pytest.mark.parametrize("target", [np.int8, np.uint8, np.int64, np.uint64])
def test_arrays_stored_into_integer_arrays_are_cast(target):
    """Arrays, 0-d ones too, are cast unsafely (``buf[:] = floats`` never raises)."""
    floats = np.array([np.nan, np.inf, 1e30])
    if np.dtype(target).kind == "i":
        _check_store(store_item, target, np.array(np.nan))
        _check_store(store_slice, target, floats[1:])
    _check_store(store_slice, target, np.array([1.5, 200.7]))
    _check_store(store_item, target, np.array(-1))
