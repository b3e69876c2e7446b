"""Views and aliases follow NumPy: a write through a view reaches its base and a write into
a base reaches the views bound to names, also across branches and loops, for views made by
basic indexing, transposes, reshapes and ``np.asarray``/``np.float64(x)`` of an array;
functions that return a new array in NumPy return one. Where the link between two arrays is
decided at run time (a loop or a branch that may rebind one of them), a write that depends
on it is a CompileError at the write."""

import inspect

import numpy as np
import pytest
from differential_harness import run_both

import compiler

G = np.arange(4.0)


# views made before a loop and updated inside it ----------------------------------------------

def view_before_loop(x):
    v = x[::2]
    for i in range(v.shape[0]):
        v[i] = 1.0


def view_of_local_before_loop(n):
    x = np.zeros(n)
    v = x[1:]
    for i in range(n - 1):
        v[i] = i
    return x


def view_before_loop_read_base(x):
    v = x[1:]
    s = 0.0
    for i in range(v.shape[0]):
        v[i] = i
        s += x[i]               # sees the write made through v in the previous iteration
    return s


def alias_before_loop(x):
    v = x
    for i in range(3):
        v[i] = 5.0
    return x.sum()


def base_written_in_loop(x):
    v = x[::2]
    s = 0.0
    for i in range(x.shape[0]):
        x[i] = i * 10.0
        s += v[0] + v[-1]       # v sees the writes into x
    return s


def view_of_view_in_loop(m):
    w = m[1][1:]
    for i in range(w.shape[0]):
        w[i] = -1.0


def view_used_after_loop(x):
    v = x[::2]
    for i in range(2):
        v[i] = 1.0
    v[2] = 8.0


def view_in_while(x):
    v = x[1:]
    i = 0
    while i < v.shape[0]:
        v[i] += 1.0
        i += 1


def transpose_in_loop(m):
    t = m.T
    for i in range(t.shape[0]):
        t[i, 0] = 5.0


def conditional_write_in_loop(x):
    v = x[::2]
    for i in range(v.shape[0]):
        if v[i] > 2:
            v[i] = 0.0


def _writes(v):
    v[0] = 42.0


def callee_writes_view(x):
    v = x[::2]
    for _ in range(2):
        _writes(v)


def view_rebound_before_write(x, n):
    v = x[::2]
    for _ in range(n):
        v = x[1::2]             # a view made inside the loop
        v[0] = 1.0


def argument_alias_rebound_before_loop(a):
    v = a
    a = np.zeros(3)
    for i in range(3):
        v[i] = 4.0
    return a


# arguments written in a loop that may rebind their name --------------------------------------

def rebind_at(a, k):
    for i in range(a.shape[0]):
        if i == k:
            a = np.zeros(a.shape[0])
        a[i] = i + 1.0
    a[0] = -1.0
    return a.sum()


def write_then_rebind(a, k):
    for i in range(a.shape[0]):
        a[i] = i + 1.0
        if i == k:
            a = np.zeros(a.shape[0])
    return a.sum()


def rebind_in_while(a, k):
    i = 0
    while i < a.shape[0]:
        a[i] = 2.0
        if i == k:
            a = a * 3
        i += 1
    return a.sum()


def rebind_in_nested_loop(a, k):
    for _ in range(2):
        for j in range(a.shape[0]):
            if j == k:
                a = a + 1
            a[j] = j
    return a.sum()


def rebind_and_return(a, k):
    for i in range(a.shape[0]):
        if i == k:
            a = np.zeros(3)
            return a.sum()
        a[i] = 9.0
    return a.sum()


def rebind_in_branch(a, c):
    if c > 0:
        a = np.zeros(3)
    a += 1
    return a.sum()


# other views --------------------------------------------------------------------------------

def write_base_then_read_view(x):
    v = x[::2]
    x[0] = 5.0
    return v.copy()


def write_in_branch_then_base(x, c):
    v = x[::2]
    if c > 0:
        v[0] = 7.0
    x[2] = 5.0
    return v.copy()


def write_in_branch_then_view(x, c):
    v = x[1:]
    if c > 0:
        v[0] = 1.0
    else:
        v[1] = 2.0
    v[2] = 3.0


def local_transpose(n):
    m = np.zeros((n, n)) + 1
    t = m.T
    t[0, 1] = 9.0
    return m


def constant_views(n):
    m = np.zeros((2, 3))
    m.T[0, 1] = 1.0
    np.transpose(m)[2, 0] = 2.0
    m.reshape(-1)[1] = 3.0
    m[:, None][0, 0, 2] = 4.0
    v = m[1:]
    v[0, 0] = 5.0
    return m


def constant_rows(n):
    m = np.zeros((3, 3))
    for row in m:
        row[0] = 1.0
    return m


def new_axis_and_swap(m, x):
    x[..., None][1, 0] = 9.0
    np.swapaxes(m, 0, 1)[0, 1] = 9.0
    np.expand_dims(x, 0)[0, 2] = 7.0


def asarray_and_scalar_type(x):
    np.asarray(x)[0] = 1.0
    np.asarray(x, dtype=x.dtype)[1] = 2.0
    np.float64(x)[2] = 3.0
    np.einsum("i->i", x)[3] = 4.0


def copies(x):
    np.array(x)[0] = 7
    np.concatenate([x])[1] = 7
    np.hstack([x])[2] = 7
    np.stack([x])[0, 3] = 7
    np.vstack([x])[0, 4] = 7
    np.floor(x)[5] = 7
    np.round(x)[6] = 7
    x.astype(x.dtype)[7] = 7
    return x.sum()


def enclosing_argument_view(x):
    def inner():
        t = x[1:]
        t[0] = 5.0
    inner()


F = np.arange(8.0)
M = np.arange(12.0).reshape(3, 4)
I8 = np.arange(8)

CASES = [
    (view_before_loop, F), (view_before_loop, F[::-1]), (view_of_local_before_loop, 5),
    (view_before_loop_read_base, F), (alias_before_loop, F), (base_written_in_loop, F),
    (view_of_view_in_loop, M), (view_used_after_loop, F), (view_in_while, F),
    (transpose_in_loop, M), (conditional_write_in_loop, F), (callee_writes_view, F),
    (view_rebound_before_write, F, np.int64(2)), (view_rebound_before_write, F, np.int64(0)),
    (argument_alias_rebound_before_loop, F[:3]),
    (rebind_at, F, np.int64(3)), (rebind_at, F, np.int64(0)), (rebind_at, F, np.int64(99)),
    (write_then_rebind, F, np.int64(2)), (write_then_rebind, F, np.int64(-1)),
    (rebind_in_while, F[:5], np.int64(2)), (rebind_in_nested_loop, F[:4], np.int64(2)),
    (rebind_and_return, F[:5], np.int64(2)), (rebind_and_return, F[:5], np.int64(9)),
    (rebind_in_branch, F[:3], np.int64(0)), (rebind_in_branch, F[:3], np.int64(1)),
    (write_base_then_read_view, F), (write_in_branch_then_base, F, np.int64(1)),
    (write_in_branch_then_base, F, np.int64(0)), (write_in_branch_then_view, F, np.int64(1)),
    (write_in_branch_then_view, F, np.int64(0)), (local_transpose, 3), (constant_views, 1),
    (constant_rows, 1), (new_axis_and_swap, M, F), (asarray_and_scalar_type, F),
    (copies, F), (copies, I8), (enclosing_argument_view, F),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0].__name__}-{k}" for k, c in
                                             enumerate(CASES)])
def test_views_and_aliases_match_eager(case):
    run_both(case[0], case[1:])


# writes that depend on a link decided at run time --------------------------------------------

def write_then_rebind_view(x, n):
    v = x[::2]
    for _ in range(n):
        v[0] = 1.0              # the view of x in the first iteration only
        v = x[1::2]


def rebind_view_in_loop_then_write(x, n):
    v = x[::2]
    for _ in range(n):
        v = np.zeros(2)
    v[0] = 5.0                  # x's view when the loop ran no iteration


def alias_of_argument_rebound_in_loop(a, k):
    b = a
    for i in range(3):
        b[i] = 1.0
        if i == k:
            a = np.zeros(3)


def view_rebound_in_branch(x, c):
    v = x[::2]
    if c > 0:
        v = np.zeros(2)
    v[0] = 7.0


def global_view(x):
    t = G[1:]
    t[0] = 9.0


def global_transpose(x):
    t = np.transpose(G)
    t[0] = 9.0


def enclosing_constant_view(x):
    m = np.zeros(4)

    def inner():
        t = m[1:]
        t[0] = 5.0
    inner()
    return m


def reshaped_argument_then_base_write(m):
    r = m.reshape(-1)
    m[0, 0] = 1.0
    return r.sum()


REJECTED = [
    (write_then_rebind_view, "v[0] = 1.0", "'v' is a view of 'x' made before the loop"),
    (rebind_view_in_loop_then_write, "v[0] = 5.0", "'v' is a view of 'x' made before the loop"),
    (alias_of_argument_rebound_in_loop, "b[i] = 1.0",
     "'a' is the same array as 'b' before the loop"),
    (view_rebound_in_branch, "v[0] = 7.0",
     "'v' is a view of 'x' made on some paths of the branch"),
    (global_view, "t[0] = 9.0", "writing through a view of a global"),
    (global_transpose, "t[0] = 9.0", "writing through a view of a global"),
    (enclosing_constant_view, "t[0] = 5.0", "an enclosing function's array"),
    (reshaped_argument_then_base_write, "return r.sum()", "variable 'r' is a reshaped array"),
]


@pytest.mark.parametrize("fn, line, message", REJECTED, ids=[c[0].__name__ for c in REJECTED])
def test_writes_through_run_time_links_are_compile_errors(fn, line, message):
    lines, first = inspect.getsourcelines(fn)
    lineno = first + next(k for k, text in enumerate(lines) if text.strip().startswith(line))
    args = [np.arange(6.0).reshape(2, 3)] if fn is reshaped_argument_then_base_write \
        else [np.arange(6.0), np.int64(1)][:len(inspect.signature(fn).parameters)]
    with pytest.raises(compiler.CompileError) as e:
        compiler.function(fn)(*args)
    assert message in e.value.reason
    assert e.value.loc.line == lineno
    assert e.value.hint


# an alias or view of another array that a branch or an iteration of a loop may make ----------

def _write(y):
    y[0] = 42.0


def alias_in_branch(a, b, c):
    if c > 0:
        a = b
    a[0] = 99.0                 # writes b when c > 0


def alias_in_elif(a, b, c):
    if c == 0:
        a = b
    elif c == 1:
        a = c * b
    a[0] = 7.0


def swap_in_branch(a, b, c):
    if c > 0:
        a, b = b, a
    a[0] = 5.0


def alias_in_branch_to_callee(a, b, c):
    if c > 0:
        a = b
    _write(a)


def alias_after_write_in_loop(a, b):
    for i in range(3):
        a[i] = 99.0             # writes b from the second iteration on
        if i == 0:
            a = b


def view_after_write_in_loop(a, b):
    for i in range(a.shape[0] - 1):
        a[i] = b[i] + 1.0
        if i == 2:
            a = b[1:]
    return b


def view_after_write_in_while(a, b):
    i = 0
    while i < 3:
        a[0] += 1.0
        a = b[i:]
        i += 1


def alias_to_callee_in_loop(a, b):
    for _ in range(3):
        _write(a)
        a = b


def swap_in_loop(a, b, n):
    for i in range(n):
        a[i] = 1.0              # a is b's buffer in odd iterations
        a, b = b, a


def shrink_in_loop(a):
    for i in range(3):
        a[0] = 1.0 + i          # a view of the argument after the first iteration
        a = a[1:]


def alias_in_loop_then_write(a, b, n):
    for _ in range(n):
        a = b
    a[0] = 7.0                  # b's buffer when the loop ran


ITERATION = "at the end of an iteration of the loop"
RUN_TIME_ALIASES = [
    (alias_in_branch, "a[0] = 99.0", "'a' is the same array as 'b' on some paths of the branch"),
    (alias_in_elif, "a[0] = 7.0", "'a' is the same array as 'b' on some paths of the branch"),
    (swap_in_branch, "a[0] = 5.0",
     "'a' is the same array as the array passed as 'b' on some paths of the branch"),
    (alias_in_branch_to_callee, "y[0] = 42.0", "'a' is the same array as 'b' on some paths"),
    (alias_after_write_in_loop, "a[i] = 99.0", f"'a' may be the same array as 'b' or a view "
                                               f"of it {ITERATION}"),
    (view_after_write_in_loop, "a[i] = b[i] + 1.0", f"'a' may be the same array as 'b' or a "
                                                    f"view of it {ITERATION}"),
    (view_after_write_in_while, "a[0] += 1.0", f"'a' is a view of 'b' made {ITERATION}"),
    (alias_to_callee_in_loop, "y[0] = 42.0", f"'a' is the same array as 'b' {ITERATION}"),
    (swap_in_loop, "a[i] = 1.0", f"'a' is the same array as the array passed as 'b' {ITERATION}"),
    (shrink_in_loop, "a[0] = 1.0 + i",
     f"'a' is a view of the array passed as 'a' made {ITERATION}"),
    (alias_in_loop_then_write, "a[0] = 7.0", f"'a' is the same array as 'b' {ITERATION}"),
]


@pytest.mark.parametrize("fn, line, message", RUN_TIME_ALIASES,
                         ids=[c[0].__name__ for c in RUN_TIME_ALIASES])
def test_writes_through_run_time_aliases_are_compile_errors(fn, line, message):
    """Eager Python writes into another argument on some runs only: rejected at the write,
    never a silently lost write."""
    lines, first = inspect.getsourcelines(_write if line.startswith("y") else fn)
    lineno = first + next(k for k, text in enumerate(lines) if text.strip().startswith(line))
    args = [np.zeros(8), np.arange(8.0) * 10, np.int64(1)][:len(inspect.signature(fn).parameters)]
    with pytest.raises(compiler.CompileError) as e:
        compiler.function(fn)(*args)
    assert message in e.value.reason
    assert e.value.loc.line == lineno
    assert e.value.hint
