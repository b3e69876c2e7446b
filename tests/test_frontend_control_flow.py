"""Frontend control flow: compile-time and run-time ``if``, conditional expressions,
``and``/``or``/``not``, chained comparisons, ``for ... in range`` (scf.for), ``while``
(scf.while), ``break``/``continue``/``return`` inside loops, branch merges (dtype promotion,
dynamic dims) and the errors for variables bound on one path only."""

import numpy as np
import pytest
from frontend_helpers import assert_error_at, check, compile_error, func_of, ops_named, to_ir

from compiler import types as T

X = np.array([1.0, -2.0, 3.0, 0.5])
INTS = np.array([3, 1, 2], dtype=np.int32)


# if -----------------------------------------------------------------------------------------

def pick(x, mode):
    if mode == "double":
        y = x * 2
    elif mode == "neg":
        y = -x
    else:
        y = x
    return y


@pytest.mark.parametrize("mode", ["double", "neg", "same"])
def test_constant_condition_picks_branch_at_compile_time(mode):
    module = check(pick, X, mode)
    assert not ops_named(module, "scf.if")


def test_static_shape_condition_is_compile_time():
    def f(a):
        if a.shape[0] == 0:
            return 0.0
        return a[0]
    assert not ops_named(check(f, X), "scf.if")


@pytest.mark.parametrize("s", [np.float64(2.0), np.float64(-1.0), np.float64(0.0)])
def test_runtime_if_elif_else(s):
    def f(x, s):
        if s > 1.0:
            y = x + s
            code = 1
        elif s < 0:
            y = x - s
            code = 2
        else:
            y = x
            code = 3
        return y, code
    module = check(f, X, s)
    results = [r.type for op in ops_named(module, "scf.if") for r in op.results]
    assert T.TensorType((4,), T.f64) in results and T.py_int in results


@pytest.mark.parametrize("s", [np.int64(1), np.int64(-1)])
def test_branch_dtypes_are_promoted(s):
    def f(x, s):
        if s > 0:
            y = x
        else:
            y = x * 0.5
        return y
    module = check(f, INTS, s, exact=False)
    assert func_of(module).function_type.results[0] == T.TensorType((3,), T.f64)


@pytest.mark.parametrize("s", [np.int64(1), np.int64(-1)])
def test_branch_static_shapes_become_dynamic(s):
    def f(x, s):
        if s > 0:
            y = x[1:]
        else:
            y = x
        return y
    module = check(f, X, s)
    assert func_of(module).function_type.results[0] == T.TensorType((None,), T.f64)


def test_variable_on_one_path_is_an_error_when_used():
    def f(x):
        if x.sum() > 0:
            y = x
        return y
    err = compile_error(f, X)
    assert_error_at(err, f, "y\n", "variable 'y'", "only one path")


def test_variable_on_one_path_is_fine_when_unused():
    def f(x):
        if x.sum() > 0:
            tmp = x * 2
            x = tmp
        return x
    check(f, X)


def test_rank_mismatch_between_paths_is_an_error():
    def f(x):
        if x.sum() > 0:
            y = x
        else:
            y = x.sum()
        return y
    err = compile_error(f, X)
    assert "different ranks" in str(err)


def test_dynamic_shape_condition_is_a_run_time_check():
    def f(x):
        if x:
            return 1
        return 2
    text = str(to_ir(f, X, dynamic=True))
    assert '"grafo.check"' in text and "more than one element is ambiguous" in text
    assert "empty array is ambiguous" in text


def test_single_element_array_condition():
    def f(x):
        if x[:1]:
            return x
        return -x
    check(f, X)


# expressions --------------------------------------------------------------------------------

@pytest.mark.parametrize("s", [np.float64(2.0), np.float64(-2.0)])
def test_conditional_expression(s):
    def f(x, s):
        return x if s > 0 else -x, 1 if s > 0 else 2, (s if s > 0 else 0.0)
    module = check(f, X, s, exact=False)
    assert len(ops_named(module, "scf.if")) == 3
    assert func_of(module).function_type.results[1:] == (T.py_int, T.f64)


@pytest.mark.parametrize("a,b", [(np.int64(3), np.int64(7)), (np.int64(0), np.int64(7)),
                                 (np.int64(2), np.int64(0))])
def test_and_or_not_return_operands(a, b):
    def f(a, b):
        return a or b, a and b, not a, (a > 1) and (b > 1), not (a or b)
    check(f, a, b)


def test_and_or_with_constants_short_circuit_at_compile_time():
    def f(x, n):
        return (n and x.sum()) or 5
    module = check(f, X, 0)
    assert not ops_named(module, "np.reduce")


@pytest.mark.parametrize("v", [np.float64(0.5), np.float64(2.0), np.float64(-1.0)])
def test_chained_comparison(v):
    def f(v):
        return 0 < v < 1, -1 <= v <= 1, v > -3 >= v
    check(f, v)


def test_chained_comparison_on_arrays_is_ambiguous():
    def f(x):
        return 0 < x < 1
    err = compile_error(f, X)
    assert "ambiguous" in str(err)


# for loops ----------------------------------------------------------------------------------

@pytest.mark.parametrize("args", [(5,), (2, 7), (2, 11, 3), (10, 0, -3), (0, 10, -1), (5, 5)])
def test_for_range_forms(args):
    def f(x, r):
        total = 0
        for i in range(*r):
            total = total + i * x[0]
        return total
    module = check(f, X, args, exact=False)  # an empty range leaves the Python int 0
    assert ops_named(module, "scf.for")
    assert func_of(module).function_type.results[0] == T.f64


def test_for_range_with_runtime_bounds_is_not_unrolled():
    def f(x, n):
        acc = x
        for i in range(n):
            acc = acc + i
        return acc
    module = check(f, X, np.int64(4))
    loop = ops_named(module, "scf.for")[0]
    assert loop.induction_var.type == T.i64  # signless, as upstream scf.for requires
    (use,) = loop.induction_var.users()
    assert use.name == "np.astype" and use.result.type == T.py_int  # i is a Python int
    assert len(ops_named(module, "np.add")) == 1


@pytest.mark.parametrize("step", [np.int64(2), np.int64(-2)])
def test_for_range_with_runtime_step(step):
    def f(lo, hi, step):
        total = 0
        for v in range(lo, hi, step):
            total += v
        return total
    check(f, np.int64(1), np.int64(9), step)
    check(f, np.int64(9), np.int64(1), step)


def test_loop_carried_dtype_is_widened():
    def f(x):
        s = 0
        for i in range(x.shape[0]):
            s = s + x[i]
        return s
    module = check(f, X)
    assert func_of(module).function_type.results[0] == T.f64


def test_loop_carried_shape_becomes_dynamic():
    def f(x):
        for _ in range(2):
            x = x[1:]
        return x
    module = check(f, X)
    assert func_of(module).function_type.results[0] == T.TensorType((None,), T.f64)


def test_uint64_range_bounds_give_python_ints():
    def f(lo, hi):
        total = 0
        for v in range(lo, hi):
            total += v
        return total
    check(f, np.uint64(2552764644), np.uint64(2552764647))


def test_variable_assigned_only_in_loop_is_an_error_after_it():
    def f(x):
        for i in range(3):
            y = x + i
        return y
    err = compile_error(f, X)
    assert_error_at(err, f, "y\n", "variable 'y' is assigned only inside the loop")


def test_loop_variable_holds_the_last_item_after_a_loop_that_runs():
    def f(x):
        for i in range(3):
            x = x + i
        return x, i
    check(f, X)


def test_loop_variable_of_a_loop_that_may_not_run_is_an_error_after_it():
    def f(x, n):
        for i in range(n):
            x = i + x
        return i
    err = compile_error(f, X, np.int64(2))
    assert_error_at(err, f, "i\n", "variable 'i' is the loop variable of the loop at line",
                    "unbound if the loop runs zero times")


def test_loop_variable_keeps_its_value_when_the_loop_runs_zero_times():
    def f(x, n):
        i = -1
        for i in range(n):
            x = x + i
        return x, i
    module = check(f, X, np.int64(0))
    assert func_of(module).function_type.results[1] == T.py_int
    check(f, X, np.int64(3))


def test_loop_variable_with_an_array_before_a_loop_that_may_not_run():
    def f(x, n):
        i = x
        for i in range(n):
            x = i + x
        return i
    err = compile_error(f, X, np.int64(2))
    assert_error_at(err, f, "i\n", "variable 'i' is the loop variable",
                    "is a run-time array of shape (4,) and dtype float64 if the loop runs zero "
                    "times")


def test_loop_variable_is_not_joined_with_its_value_before_the_loop():
    def f(x):
        i = x[0]
        for i in range(x.shape[0]):
            x[i] = i  # an index: the float before the loop must not widen it
        return x.sum(), i
    module = check(f, X)
    assert func_of(module).function_type.results[1] == T.py_int


def test_loop_variable_of_a_dynamic_loop_after_a_float_is_joined_like_a_branch():
    def f(x, n):
        i = 0.5
        for i in range(n):
            x = x + i
        return i
    for n in (np.int64(0), np.int64(3)):
        assert func_of(check(f, X, n, exact=False)).function_type.results[0] == T.py_float


# while loops, break, continue, return -------------------------------------------------------

@pytest.mark.parametrize("n", [np.int64(0), np.int64(5)])
def test_while_loop(n):
    def f(x, n):
        i = 0
        while i < n:
            x = x * 2
            i += 1
        return x, i
    module = check(f, X, n)
    assert ops_named(module, "scf.while")


def test_nested_infinite_loops_with_break():
    def f(n):
        count = 0
        while True:
            while True:
                count += n
                break
            if count >= 3 * n:
                break
        return count
    check(f, np.int64(2))


@pytest.mark.parametrize("target", [np.int64(91), np.int64(97)])
def test_return_from_nested_loops(target):
    def f(target, bound):
        for i in range(2, bound):
            for j in range(i, bound):
                if i * j == target:
                    return i, j
        return -1, -1
    check(f, target, np.int64(20))


def test_continue_and_break_in_for():
    def f(x, stop):
        total = 0.0
        for i in range(10):
            if i % 2 == 0:
                continue
            if i > stop:
                break
            total += x[i % 4]
        return total
    check(f, X, np.int64(6))


def test_break_in_while_with_condition():
    def f(x):
        i = 0
        while i < 100:
            if x[i % 4] < 0:
                break
            i += 1
        return i
    check(f, X)


def test_early_return_in_while():
    def f(x):
        i = 0
        while True:
            if x[i] < 0:
                return i, x[i]
            i += 1
    module = check(f, X)
    assert "grafo.result_tuple" in func_of(module).attributes


def test_return_none_on_some_paths_gives_an_optional_result():
    def f(x):
        if x.sum() > 0:
            return x
    fn = func_of(to_ir(f, X))
    assert fn.attr("grafo.result_structure") == "?"
    assert len(fn.function_type.results) == 2  # the "has value" flag and the array
