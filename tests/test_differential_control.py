"""Differential tests of control flow: branches, loops, comparisons, tuples, augmented
assignment and promotion, each function run eagerly and compiled (differential_harness)."""

import numpy as np
import pytest
from conftest import assert_same
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler

F32 = np.array([0.5, -1.5, 2.0, 3.25, -0.0, 4.0], np.float32)
F64 = np.array([1.0, -2.0, 3.5, 0.25], np.float64)
I32 = np.array([3, -1, 4, 1, -5, 9, 2], np.int32)
I64 = np.array([5, 0, -3, 8], np.int64)
M = np.arange(12, dtype=np.float64).reshape(3, 4) - 5.5


# if / elif / else -----------------------------------------------------------------------------

def if_scalar(a):
    if a > 0:
        return a * 2
    return -a


def if_elif_else(a):
    if a < -1:
        r = a - 1
    elif a < 1:
        r = a * 10
    elif a == 1:
        r = a
    else:
        r = a + 100
    return r


def if_zero_d(x):
    s = x.sum()
    if s > 3:
        s = s / 2
    return s


def if_zero_d_array(x):
    z = np.array(x.max())
    if z:
        return z + 1
    return z - 1


def if_one_element_array(x):
    if x[:1]:
        return x + 1
    return x - 1


def if_python_constant(x, flag):
    if flag:
        return x * 2
    return x


def if_nested(a, b):
    if a > 0:
        if b > 0:
            return a + b
        return a - b
    elif b > 0:
        return b
    return a * b


def if_without_else_rebinds(x, a):
    y = x
    if a > 1:
        y = x * a
    return y


def if_defines_on_both_paths(a):
    if a > 0:
        t = a
    else:
        t = -a
    return t + 1


def if_array_condition_dynamic(x):
    if x:
        return 1
    return 0


def if_not_scalar(a):
    if not a:
        return a + 7
    return a


# conditional expressions ----------------------------------------------------------------------

def ifexp_scalar(a):
    return a * 2 if a > 0 else a - 3


def ifexp_nested(a):
    return 1 if a > 2 else (2 if a > 0 else 3)


def ifexp_arrays(x, a):
    return x + 1 if a > 0 else x * 2


def ifexp_only_one_side_runs(x, i):
    return x[i] if i < len(x) else x[0]


def ifexp_promotes(a):
    return a if a > 0 else 0.5


# loops ----------------------------------------------------------------------------------------

def while_count(n):
    k = 0
    total = 0
    while k < n:
        total += k * k
        k += 1
    return total


def while_break(x):
    i = 0
    while i < len(x):
        if x[i] < 0:
            break
        i += 1
    return i


def while_continue(x):
    i = 0
    s = x[0] * 0
    while i < len(x):
        i += 1
        if x[i - 1] < 0:
            continue
        s += x[i - 1]
    return s


def while_else_runs(n):
    k = 0
    while k < n:
        k += 2
    else:
        k = k * 10
    return k


def while_else_skipped_by_break(n):
    k = 0
    while k < 100:
        k += 3
        if k > n:
            break
    else:
        k = -1
    return k


def while_true_return(x):
    i = 0
    while True:
        if x[i] > 2:
            return i
        i += 1


def for_range_sum(x):
    s = 0.0
    for i in range(len(x)):
        s = s + x[i]
    return s


def for_break(x):
    found = -1
    for i in range(len(x)):
        if x[i] > 3:
            found = i
            break
    return found


def for_continue(x):
    s = np.float32(0)
    for i in range(len(x)):
        if x[i] < 0:
            continue
        s = s + x[i]
    return s


def for_else_runs(x):
    i = -1
    for i in range(len(x)):
        if x[i] > 100:
            break
    else:
        return -1
    return i


def for_else_skipped(x):
    i = -1
    for i in range(len(x)):
        if x[i] > 3:
            break
    else:
        return -1
    return i


def for_else_with_return_in_body(x):
    for i in range(len(x)):
        if x[i] < -4:
            return i * 10
    else:
        return 99


def for_start_stop_step(n):
    s = 0
    for i in range(2, n, 3):
        s += i
    return s


def for_empty_range(n):
    s = 5
    for i in range(n, 0):
        s += i
    return s


def for_negative_step(n):
    out = 0
    for i in range(n, -1, -1):
        out = out * 3 + i
    return out


def for_negative_step_by_two(n):
    acc = []
    s = 0
    for i in range(10, n, -2):
        s = s * 2 + i
    return s, len(acc)


def for_negative_step_runtime(a, b, c):
    s = 0
    for i in range(a, b, c):
        s += i
    return s


def for_reversed_indexing(x):
    y = np.zeros_like(x)
    for i in range(len(x) - 1, -1, -1):
        y[len(x) - 1 - i] = x[i]
    return y


def return_in_nested_loops(m):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > 2:
                return i, j
    return -1, -1


def return_in_while_in_for(x):
    for i in range(len(x)):
        k = 0
        while k < 3:
            if x[i] * k > 5:
                return i * 10 + k
            k += 1
    return -1


def nested_loops_sum(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(i, m.shape[1]):
            s += m[i, j]
    return s


def nested_loops_break_inner(m):
    count = 0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            if m[i, j] > 0:
                break
            count += 1
    return count


def nested_loops_continue_outer_flag(m):
    rows = 0
    for i in range(m.shape[0]):
        skip = False
        for j in range(m.shape[1]):
            if m[i, j] == 0.5:
                skip = True
        if skip:
            continue
        rows += 1
    return rows


def loop_carries_tuple(n):
    a, b = 0, 1
    for _ in range(n):
        a, b = b, a + b
    return a, b


def loop_shape_changes(x):
    y = x
    for _ in range(3):
        y = y[1:]
    return y


def loop_growing_array(x, n):
    y = x
    for _ in range(n):
        y = np.concatenate((y, x))
    return y


# iteration over arrays, enumerate, zip ---------------------------------------------------------

def for_over_array(x):
    s = 0.0
    for v in x:
        s = s + v * v
    return s


def for_over_rows(m):
    t = np.zeros(m.shape[1])
    for row in m:
        t = t + row
    return t


def for_over_rows_unpack(m):
    s = 0.0
    for a, b, c, d in m:
        s = s + a * d - b * c
    return s


def for_enumerate(x):
    s = 0.0
    for i, v in enumerate(x):
        s = s + i * v
    return s


def for_enumerate_start(x):
    best, where = x[0], 0
    for i, v in enumerate(x, 1):
        if v > best:
            best, where = v, i
    return best, where


def for_zip_arrays(x, y):
    s = 0.0
    for a, b in zip(x, y):  # noqa: B905 - compiled: zip() without strict=
        s = s + a * b
    return s


def for_zip_range(x):
    s = 0
    for i, v in zip(range(10, 0, -1), x):  # noqa: B905
        s = s + i * v
    return s


def for_enumerate_zip(x, y):
    s = 0.0
    for i, (a, b) in enumerate(zip(x, y)):  # noqa: B905
        s = s + i * (a - b)
    return s


def for_over_array_break(x):
    n = 0
    for v in x:
        if v < 0:
            break
        n += 1
    return n


def for_over_empty_range_then_array(x):
    s = x[0] * 0
    for v in x[:0]:
        s = s + v
    return s


# loop variables bound again by later loops ----------------------------------------------------

def reuse_loop_variable(a):
    s = 0.0
    for i in range(a.shape[0]):
        s += a[i]
    for i in range(a.shape[0]):
        s += 2 * a[i]
    return s, i


def reuse_in_nested_loops(m):
    s = 0.0
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            s += m[i, j]
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            s -= j * m[i, j]
        for i in range(2):  # rebinds the outer loop's variable
            s += i
    return s, i


def reuse_in_while_loops(x):
    k = 0
    while k < 3:
        t = x[k]
        x[k] = t + 1
        k += 1
    k = 0
    while k < 2:
        t = x[k] * 2  # bound only inside the loops: a new variable in each
        x[k] = t
        k += 1
    for k in range(2):
        x[k] = k
    while k > 0:
        x[k] += k
        k -= 1
    return k, x.sum()


def reuse_float_name_as_loop_index(x):
    s = 0.0
    for v in x:
        s += v
    for v in range(x.shape[0]):
        s += x[v] * v
    return s, v


def reuse_enumerate_twice(x):
    s = 0.0
    for i, v in enumerate(x):
        s += i * v
    for i, v in enumerate(x[::-1]):
        s -= i * v
    return s, i, v


def reuse_loop_variable_with_break(x):
    for i in range(x.shape[0]):
        x[i] += 1
    for i in range(x.shape[0]):
        if x[i] < 0:
            break
    return i


def reuse_loop_variable_dynamic(x, n):
    i = -1
    for i in range(n):
        x[i] += i
    for i in range(n, 0, -1):
        x[i - 1] *= i
    return x.sum(), i


# comparisons and boolean operators ------------------------------------------------------------

def chained_comparison(a):
    return 0 < a < 3


def chained_comparison_three(a, b):
    return a <= b < 10 != a


def chained_in_if(a):
    if -1 < a <= 2:
        return 1
    return 0


def and_short_circuit(x, i):
    return i < len(x) and x[i] > 0


def or_short_circuit(x, i):
    return i >= len(x) or x[i] > 0


def not_operator(a):
    return not a > 2


def and_returns_operand(a, b):
    return a and b


def or_returns_operand(a, b):
    return a or b


def bool_mix(a, b):
    return (a > 0 and b > 0) or (a < b)


def and_chain_in_while(x):
    i = 0
    while i < len(x) and x[i] >= 0:
        i += 1
    return i


# tuples, augmented assignment, promotion -----------------------------------------------------

def tuple_swap(a, b):
    a, b = b, a
    return a - b


def tuple_unpack_nested_targets(x):
    (a, b), c = (x[0], x[1]), x[2]
    return a + b * c


def tuple_return_mixed(x):
    return x.sum(), x.max(), len(x), 2.5


def tuple_from_function(x):
    def stats(v):
        return v.min(), v.max()
    lo, hi = stats(x)
    return hi - lo


def tuple_unpack_array(x):
    a, b, c, d = x
    return a * d - b * c


def augassign_scalars(a):
    b = a
    b += 2
    b *= 3
    b -= a
    b //= 2
    b %= 7
    return b


def augassign_float(a):
    b = a
    b /= 4
    b **= 2
    return b


def augassign_array_rebinding(x):
    y = x * 1
    y += 1
    y *= y
    return y, x


# A variable whose type differs between paths has the promoted type of all paths: the inputs
# below take the path whose type is the promoted one, where eager Python agrees.
def promote_int_float_branches(a):
    if a > 0:
        r = 1
    else:
        r = 2.5
    return r


def promote_f32_f64_branches(x, a):
    if a > 0:
        r = x.astype(np.float32)
    else:
        r = x.astype(np.float64)
    return r


def promote_in_loop(n):
    s = 0
    for _ in range(n):
        s = s + 0.5
    return s


def promote_i32_i64(x, y, a):
    r = x
    if a > 0:
        r = x + y
    return r


def promote_weak_scalar(x):
    return x * 2, x + 1.5, x // 2


# calls ----------------------------------------------------------------------------------------

def _axpy(a, x, y=None, scale=1.0):
    if y is None:
        return a * x * scale
    return a * x + y * scale


def call_keyword_and_defaults(x, y):
    return _axpy(2.0, x), _axpy(2.0, x, y), _axpy(a=1.0, x=x, y=y, scale=0.5)


def _clip01(v, lo=0.0, *, hi=1.0):
    return np.minimum(np.maximum(v, lo), hi)


def call_kwonly(x):
    return _clip01(x, hi=2.0), _clip01(x, -1.0)


def _varargs(*vals):
    return vals[0] - vals[1] * vals[2]


def call_varargs(a, b):
    return _varargs(a, b, 1.0)


def _early(x):
    if x.sum() > 0:
        return x
    return -x


def call_early_return(x):
    return _early(x) + _early(-x)


CONTROL = [
    (if_scalar, (np.float32(2.5),)), (if_scalar, (np.float32(-2.5),)), (if_scalar, (-3,)),
    (if_elif_else, (np.int64(-5),)), (if_elif_else, (np.int64(0),)),
    (if_elif_else, (np.int64(1),)), (if_elif_else, (np.float64(7.5),)),
    (if_zero_d, (F32,)), (if_zero_d, (F64,)), (if_zero_d_array, (I32,)),
    (if_one_element_array, (F64,)), (if_python_constant, (F32, True)),
    (if_python_constant, (F32, 0)), (if_nested, (np.int32(1), np.int32(-2))),
    (if_nested, (np.int32(-1), np.int32(2))), (if_nested, (np.int32(-1), np.int32(-2))),
    (if_without_else_rebinds, (I64, np.int64(3))), (if_defines_on_both_paths, (np.int16(-4),)),
    (if_array_condition_dynamic, (np.array([2.0]),)),
    (if_array_condition_dynamic, (np.array([0.0]),)),
    (if_array_condition_dynamic, (F64,)), (if_array_condition_dynamic, (F64[:0],)),
    (if_not_scalar, (np.float64(0.0),)),
    (ifexp_scalar, (np.int8(5),)), (ifexp_scalar, (np.int8(-5),)), (ifexp_nested, (1.5,)),
    (ifexp_nested, (np.int64(-1),)), (ifexp_arrays, (F32, np.float32(1))),
    (ifexp_only_one_side_runs, (I32, np.int64(9))), (ifexp_promotes, (-2,)),
    (while_count, (np.int64(6),)), (while_break, (F32,)), (while_continue, (I32,)),
    (while_else_runs, (np.int64(5),)), (while_else_skipped_by_break, (np.int64(7),)),
    (while_else_skipped_by_break, (np.int64(1000),)), (while_true_return, (F64,)),
    (for_range_sum, (F32,)), (for_break, (F32,)), (for_continue, (F32,)),
    (for_else_runs, (F32,)), (for_else_skipped, (F32,)), (for_else_with_return_in_body, (I32,)),
    (for_else_with_return_in_body, (I64,)), (for_start_stop_step, (np.int64(20),)),
    (for_empty_range, (np.int64(3),)), (for_negative_step, (np.int64(5),)),
    (for_negative_step, (4,)), (for_negative_step_by_two, (np.int64(1),)),
    (for_negative_step_runtime, (np.int64(9), np.int64(-4), np.int64(-3))),
    (for_negative_step_runtime, (np.int64(-4), np.int64(9), np.int64(-3))),
    (for_reversed_indexing, (I32,)), (return_in_nested_loops, (M,)),
    (return_in_nested_loops, (M - 100,)), (return_in_while_in_for, (F64,)),
    (nested_loops_sum, (M,)), (nested_loops_break_inner, (M,)),
    (nested_loops_continue_outer_flag, (M,)), (loop_carries_tuple, (np.int64(10),)),
    (loop_shape_changes, (F64,)), (loop_growing_array, (F64[:2], np.int64(3))),
    (for_over_array, (F32,)), (for_over_rows, (M,)), (for_over_rows_unpack, (M,)),
    (for_enumerate, (F64,)), (for_enumerate_start, (I32,)), (for_zip_arrays, (F32, F64)),
    (for_zip_range, (I64,)), (for_enumerate_zip, (F64, I64)), (for_over_array_break, (F32,)),
    (for_over_empty_range_then_array, (F64,)),
    (reuse_loop_variable, (F64,)), (reuse_in_nested_loops, (M,)), (reuse_in_while_loops, (F64,)),
    (reuse_float_name_as_loop_index, (F64,)), (reuse_enumerate_twice, (I32,)),
    (reuse_loop_variable_with_break, (F64,)), (reuse_loop_variable_with_break, (I64,)),
    (reuse_loop_variable_dynamic, (F64, np.int64(0))),
    (reuse_loop_variable_dynamic, (F64, np.int64(3))),
    (chained_comparison, (np.float64(1.5),)), (chained_comparison, (np.float64(3.0),)),
    (chained_comparison_three, (np.int64(1), np.int64(5))),
    (chained_comparison_three, (np.int64(10), np.int64(10))), (chained_in_if, (np.int32(2),)),
    (and_short_circuit, (F32, np.int64(10))), (and_short_circuit, (F32, np.int64(2))),
    (or_short_circuit, (F32, np.int64(10))), (or_short_circuit, (F32, np.int64(1))),
    (not_operator, (np.float32(2.5),)), (and_returns_operand, (np.int64(0), np.int64(3))),
    (and_returns_operand, (np.int64(2), np.int64(3))),
    (or_returns_operand, (np.float64(0.0), np.float64(4.0))),
    (bool_mix, (np.int64(1), np.int64(-1))), (and_chain_in_while, (I32,)),
    (tuple_swap, (np.float32(1), np.float32(4))), (tuple_unpack_nested_targets, (F64,)),
    (tuple_return_mixed, (I32,)), (tuple_from_function, (F32,)), (tuple_unpack_array, (F64,)),
    (augassign_scalars, (np.int64(9),)), (augassign_scalars, (9,)),
    (augassign_float, (np.float32(3),)), (augassign_array_rebinding, (F64,)),
    (promote_int_float_branches, (np.int64(-1),)), (promote_int_float_branches, (1,)),
    (promote_f32_f64_branches, (I32, np.int64(-1))), (promote_in_loop, (np.int64(3),)),
    (promote_i32_i64, (I32[:4], I64, np.int64(1))), (promote_weak_scalar, (I32,)),
    (promote_weak_scalar, (np.uint8(200),)),
    (call_keyword_and_defaults, (F32, F32)), (call_kwonly, (F64,)),
    (call_varargs, (np.float32(1), np.float32(2))), (call_early_return, (F64,)),
]


@pytest.mark.parametrize("fn,args", CONTROL,
                         ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(CONTROL)])
def test_control_flow_matches_eager(fn, args):
    run_both(fn, args)


@settings(max_examples=25, deadline=None)
@given(st.integers(-20, 20), st.integers(-20, 20), st.integers(-5, 5).filter(bool))
def test_ranges_with_any_step_match_eager(a, b, c):
    run_both(for_negative_step_runtime, (np.int64(a), np.int64(b), np.int64(c)))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(-6, 6), min_size=1, max_size=8))
def test_loops_with_break_and_else_match_eager(values):
    x = np.array(values, np.int32)
    run_both(for_else_skipped, (x,))
    run_both(while_break, (x,))


def test_reused_loop_variables_with_dynamic_trip_counts():
    def f(x):
        s = x.sum()
        for i in range(x.shape[0]):
            s += x[i]
        for i in range(x.shape[0]):
            s += 2 * x[i] * i
        for i, v in enumerate(x):
            s -= i * v
        for i, v in enumerate(x[::-1]):
            s += i * v
        return s
    cf = compiler.compile(f, "f64[?]")
    for x in (F64, F64[:0], M.ravel()):
        assert_same(cf(x), f(x))


def test_truth_of_a_dynamic_array_is_checked_at_run_time():
    cf = compiler.compile(if_array_condition_dynamic, "f64[?]")
    assert cf(np.array([2.0])) == 1 and cf(np.array([0.0])) == 0
    with pytest.raises(ValueError, match="more than one element is ambiguous"):
        cf(F64)
    with pytest.raises(ValueError, match="empty array is ambiguous"):
        cf(F64[:0])


def count_by_four(k, stop):
    c = 0
    for _ in range(k, stop, 4):
        c += 1
    return c


@settings(max_examples=25, deadline=None)
@given(st.integers(-50, 50), st.integers(-50, 50))
def test_ranges_with_a_constant_step_and_run_time_bounds_match_eager(k, stop):
    run_both(count_by_four, (np.int64(k), np.int64(stop)))


def test_a_range_whose_counter_would_pass_int64_max_raises():
    """The loop counter is a 64-bit int: a range whose last step would pass 2**63 - 1 is an
    OverflowError at run time, not a wrong count or an endless loop."""
    f = compiler.function(count_by_four)
    big = np.int64(2**63 - 1)
    assert f(big - np.int64(8), big - np.int64(3)) == count_by_four(2**63 - 9, 2**63 - 4) == 2
    with pytest.raises(OverflowError, match="runs past 2\\*\\*63 - 1"):
        f(big - np.int64(8), big)


def shifted_sum(k):
    c = 0
    for i in range(2**62 - 4, 2**62):
        c = i + k
    return c


def test_loop_ranges_drop_only_the_overflow_checks_they_decide():
    """i + k for Python ints: with k = 5 the range of the sum fits in 64 bits and needs no
    check; with k = 2**62 + 1 the last sum is 2**63, an OverflowError at run time (Python's
    exact int does not fit) rather than a wrapped value."""
    f = compiler.function(shifted_sum)
    assert f(5) == shifted_sum(5) == 2**62 + 4
    with pytest.raises(OverflowError, match="does not fit in 64 bits"):
        f(2**62 + 1)
