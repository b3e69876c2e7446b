"""Differential tests of side effects and functions: print, assert, input mutation,
compiler.Variable state, nested defs, closures, lambdas and recursion, each run eagerly and
compiled, twice (differential_harness): same results, text, mutated inputs and state.

PYTEST_DONT_REWRITE: the functions' own ``assert`` statements must keep Python's messages.
"""

import numpy as np
import pytest
from differential_harness import run_both

import compiler

F32 = np.array([0.5, -1.5, 2.0, 3.25], np.float32)
F64 = np.array([1.0, -2.0, 3.5, 0.25, 7.0], np.float64)
I32 = np.array([3, -1, 4, 1, -5], np.int32)
U8 = np.array([250, 3, 7], np.uint8)
B = np.array([True, False, True])
M = np.arange(6, dtype=np.float64).reshape(2, 3)

counter = compiler.Variable(0)
total = compiler.Variable(0.0)
weights = compiler.Variable(np.ones(4, np.float32))
grid = compiler.Variable(np.zeros((2, 3)))
VARIABLES = (counter, total, weights, grid)


# print ----------------------------------------------------------------------------------------

def print_array_and_scalars(x):
    print("x =", x, x.sum(), x.dtype, len(x))
    return x.max()


def print_sep_end(x, n):
    print(x[0], n, "done", sep=", ", end=";\n")
    compiler.print(n * 2, end="")
    compiler.print()


def print_tuple_and_bool(x):
    print((x.min(), x[1]), x > 0, (1,), ())


def print_lists(x):
    """Lists print as lists, not tuples (also after + and *)."""
    print([1, 2], [x[0], x[1]], [], [x[0]], ([1], (2,)), [1] + [x[1]], [0] * 2)


def print_python_scalars(a):
    print(1, 2.5, True, None, "text", a, a + 1, a / 3, 10 // 3)


def print_in_loop(x):
    for i in range(len(x)):
        if x[i] < 0:
            print("negative at", i, x[i])
            continue
        print(i, end=" ")
    print()


def print_in_branches(a):
    if a > 0:
        print("positive", a)
    else:
        print("not positive", a)
    return a


def print_views_and_results(m):
    print(m.T, m[:, ::-1], m[1], m * 2 - 1)
    print(m.reshape(3, 2).sum(axis=0))


def print_dtypes(u, b, i):
    print(u, b, i, u[0], b[0], i[-1], u.astype(np.int64) + 1)


def print_zero_d(x):
    z = x.sum(keepdims=True).reshape(())
    print(z, x[0:1], x[:1].reshape(1, 1))


def print_order_with_mutation(x):
    print(x)
    x[0] = 100
    print(x)


def print_after_return_not_reached(x):
    if x[0] > 0:
        print("early")
        return 1
    print("late")
    return 2


def print_empty_and_large(x):
    print(x[:0], np.zeros((0, 3)), np.arange(2000.0))


def print_special_floats(x):
    y = x / 0.0
    print(y, np.float32(1) / np.float32(3), -0.0 * x[0])


def print_in_nested_function(x):
    def show(v, label="v"):
        print(label, v)
        return v * 2
    return show(x) + show(x[::-1], label="r")


def print_in_while(n):
    k = n
    while k > 0:
        print("k", k)
        k = k // 2
    return k


# assert ---------------------------------------------------------------------------------------

def assert_passes(x):
    assert x.shape[0] > 0, "non-empty"
    assert (x == x).all()
    return x.sum()


def assert_fails_with_message(x):
    assert x.min() > 0, "needs positive values"
    return x


def assert_fails_without_message(a):
    assert a < 0
    return a


def assert_after_print(x):
    print("checking", x[0])
    assert x[0] > 5, "too small"
    print("unreachable")


# input mutation -------------------------------------------------------------------------------

def mutate_in_loop(x):
    for i in range(1, len(x)):
        x[i] += x[i - 1]
    return x.sum()


def mutate_rows(m):
    for row in m:
        row[0] = row.sum()


def mutate_in_branch_and_nested(x, a):
    def bump(v):
        v[0] += 1
    if a > 0:
        bump(x)
    return x[0]


def mutate_bools(b):
    b[1] = True
    b[0] = not b[2]


def mutate_uint_wraps(u):
    u += 10


# Variables ------------------------------------------------------------------------------------

def var_counter():
    counter.assign_add(1)
    return counter + 0


def var_accumulate(x):
    total.assign_add(x.sum())
    return total.value


def var_weights_update(x):
    weights.assign_sub(x * 0.5)
    return (weights * 2).sum()


def var_assign_broadcast(a):
    grid.assign(a)
    grid.assign_add(np.arange(3.0))
    return grid.numpy()


def var_in_loop(n):
    for i in range(n):
        counter.assign_add(i)
        if counter > 5:
            break
    return counter.value


def var_in_branch(a):
    if a > 0:
        total.assign(a)
    else:
        total.assign_sub(1)
    return total.value


def _step(x):
    weights.assign(weights * x)


def var_through_helper(x):
    _step(x)
    _step(x)
    return weights.value


def var_read_attributes():
    print(weights.shape, weights.dtype, weights.ndim, counter)
    return weights.value.shape[0] + counter.value


def var_closure():
    def inc(k=2):
        counter.assign_add(k)
    inc()
    inc(3)
    return counter.value


def var_print_state(x):
    total.assign_add(x[0])
    print("total", total)


# nested defs, closures, lambdas, recursion ----------------------------------------------------

def nested_def(x):
    def sq(v):
        return v * v
    return sq(x) + sq(2)


def closure_reads_late_binding(x):
    k = 2

    def scale(v):
        return v * k
    k = 3
    return scale(x)


def lambda_default(x):
    f = lambda v, s=10: v * s  # noqa: E731
    return f(x), f(x, s=0.5)


def lambda_in_loop(x):
    g = lambda a, b: a + b  # noqa: E731
    s = x * 0
    for i in range(3):
        s = g(s, x * i)
    return s


def nested_closure_two_levels(x):
    def outer(a):
        def inner(b):
            return a * b + x
        return inner(a + 1)
    return outer(x)


def _fact(n):
    if n <= 1:
        return 1
    return n * _fact(n - 1)


def recursion_on_constant(x):
    return x * _fact(5)


def _sum_halves(x):
    if x.shape[0] == 1:
        return x[0]
    h = x.shape[0] // 2
    return _sum_halves(x[:h]) + _sum_halves(x[h:])


def recursion_on_static_shape(x):
    return _sum_halves(x)


def _power(x, n):
    if n == 0:
        return x * 0 + 1
    return x * _power(x, n - 1)


def recursion_with_array(x):
    return _power(x, 4)


EFFECTS = [
    (print_array_and_scalars, (F32,)), (print_array_and_scalars, (I32,)),
    (print_sep_end, (F64, np.int64(7))), (print_sep_end, (F64, 7)),
    (print_tuple_and_bool, (F32,)), (print_lists, (F32,)),
    (print_python_scalars, (np.float32(1.5),)),
    (print_python_scalars, (4,)), (print_in_loop, (F64,)), (print_in_branches, (np.int8(-3),)),
    (print_in_branches, (np.float64(2.0),)), (print_views_and_results, (M,)),
    (print_dtypes, (U8, B, I32)), (print_zero_d, (F32,)), (print_order_with_mutation, (F64,)),
    (print_after_return_not_reached, (F64,)), (print_after_return_not_reached, (-F64,)),
    (print_empty_and_large, (F64,)), (print_special_floats, (F64,)),
    (print_in_nested_function, (F32,)), (print_in_while, (np.int64(37),)),
    (assert_passes, (F32,)), (assert_fails_with_message, (F64,)),
    (assert_fails_with_message, (np.abs(F64),)), (assert_fails_without_message, (np.int64(3),)),
    (assert_after_print, (F64,)),
    (mutate_in_loop, (F64,)), (mutate_rows, (M,)), (mutate_in_branch_and_nested, (I32, 1)),
    (mutate_in_branch_and_nested, (I32, np.int64(-1))), (mutate_bools, (B,)),
    (mutate_uint_wraps, (U8,)),
    (nested_def, (F32,)), (closure_reads_late_binding, (F64,)), (lambda_default, (I32,)),
    (lambda_in_loop, (F64,)), (nested_closure_two_levels, (F64,)),
    (recursion_on_constant, (I32,)), (recursion_on_static_shape, (F64,)),
    (recursion_with_array, (F32,)),
]

VARIABLE_CASES = [
    (var_counter, ()), (var_accumulate, (F64,)), (var_weights_update, (F32,)),
    (var_assign_broadcast, (np.float64(2.5),)), (var_assign_broadcast, (M,)),
    (var_in_loop, (np.int64(10),)), (var_in_branch, (np.float64(4.0),)),
    (var_in_branch, (np.float64(-4.0),)), (var_through_helper, (F32,)),
    (var_read_attributes, ()), (var_closure, ()), (var_print_state, (F64,)),
]


@pytest.mark.parametrize("fn,args", EFFECTS,
                         ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(EFFECTS)])
def test_effects_match_eager(fn, args):
    run_both(fn, args)


@pytest.mark.parametrize("fn,args", VARIABLE_CASES,
                         ids=[f"{f.__name__}-{k}" for k, (f, _) in enumerate(VARIABLE_CASES)])
def test_variables_match_eager(fn, args):
    run_both(fn, args, VARIABLES)


def test_variable_state_persists_across_calls_and_modes():
    v = compiler.Variable(np.zeros(2))

    def step(x):
        v.assign_add(x)
        return v.value

    f = compiler.function(step)
    f(np.ones(2))
    f(np.ones(2))
    compiler.run_functions_eagerly(True)
    try:
        f(np.ones(2))
    finally:
        compiler.run_functions_eagerly(False)
    np.testing.assert_array_equal(f(np.ones(2)), [4.0, 4.0])
    assert f.tracing_count == 1 and len(f.get_concrete_function(np.ones(2)).variables) == 1


def test_print_writes_to_the_current_stdout(capsys):
    f = compiler.function(print_array_and_scalars)
    f(F32)
    f(F32)
    out = capsys.readouterr().out
    print_array_and_scalars(F32)
    assert out == capsys.readouterr().out * 2


def test_functions_without_print_have_no_print_hook():
    cf = compiler.compile(nested_def, "f32[4]")
    assert "grafo.rt.print" not in cf.llvm_ir
    assert "grafo.rt.print" in compiler.compile(print_in_loop, "f64[5]").llvm_ir
