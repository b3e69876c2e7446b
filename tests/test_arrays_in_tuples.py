"""Arrays held in tuples, list displays and nested functions' defaults are views and aliases
like named ones: a write into the base or an alias reaches the item, and a write through the
item reaches the base, also across branches, loops and inlined functions (tuple arguments,
closures, returned tuples). Where the link is decided at run time, the write is a
CompileError."""

import inspect

import numpy as np
import pytest
from differential_harness import run_both

import compiler


def view_in_tuple(x):
    t = (x[1:], 2)
    x[1] = 9.0
    return t[0].sum()


def alias_in_tuple(x):
    t = (x,)
    x[0] = 5.0
    return t[0][0]


def write_through_item(x):
    t = (x[1:], x)
    t[0][0] = 7.0
    t[1][3] += 1.0
    return x.sum() + t[0].sum()


def nested_tuple(x):
    t = ((x[::2], 1.0), x.T)
    x[2] = -1.0
    t[1][0] = 4.0
    return t[0][0].sum() + x[0]


def list_display(x):
    items = [x, x[1:]]
    items[1][0] = 4.0
    return items[0][1]


def unpack_after_write(x):
    t = (x, x[2:])
    x[2] = 8.0
    a, b = t
    b[0] += 1.0
    return a.sum() + b.sum()


def write_through_unpacked(x):
    a, b = (x[:2], x[2:])
    b[0] = 3.0
    return x.sum() + a.sum()


def _make(x):
    return x[1:], x


def returned_tuple(x):
    t = _make(x)
    x[1] = 6.0
    return t[0][0] + t[1][1]


def lambda_tuple(x):
    mk = lambda: (x[::2], 0)  # noqa: E731
    t = mk()
    x[0] = 3.0
    return t[0].sum()


def _write_item(t):
    t[0][0] = 3.0


def tuple_argument(x):
    _write_item((x, 1))
    return x.sum()


def tuple_argument_view(x):
    t = (x[2:],)
    _write_item(t)
    return x.sum() + t[0].sum()


def closure_tuple(x):
    t = (x[1:],)

    def inner():
        t[0][1] = 9.0
    inner()
    return x.sum() + t[0][1]


def tuple_in_branch(x, c):
    t = (x[1:],)
    if c > 0:
        x[1] = 2.0
    else:
        t[0][1] = 5.0
    x[3] = 7.0
    return t[0].sum()


def tuple_built_in_branch(x, c):
    if c > 0:
        t = (x[1:], 1.0)
    else:
        t = (x[:-1], 2.0)
    return t[0].sum() + t[1]


def tuple_before_loop(x):
    t = (x[1:], x)
    s = 0.0
    for i in range(x.shape[0]):
        x[i] = i * 2.0
        s += t[0].sum()
    t[1][0] = -1.0
    return s + t[0].sum() + t[1].sum()


def write_item_in_loop(x):
    t = (x[::2],)
    for i in range(t[0].shape[0]):
        t[0][i] = 1.0
    return x.sum()


def tuple_carried_through_loop(x, n):
    t = (x[:1], 0.0)
    for _ in range(n):
        t = (x[1:], t[1] + 1.0)
        x[1] += 1.0
    return t[0].sum() + t[1]


def tuple_unused_after_write(x):
    t = (x.sum(), x * 2)
    x[0] = 1.0
    return t


def default_argument(x):
    def inner(a=x, t=(x[1:],)):
        return a[0] + t[0][0]
    x[0] = 5.0
    x[1] = 6.0
    return inner()


def returns_tuple(x):
    return x, x[1:]


def default_written_in_loop(a):
    buf = np.zeros(3)

    def g(k, b=buf):  # b is buf: the loop's writes into buf are seen through it
        return b[k]
    for i in range(3):
        buf[i] = a[i]
        a[i] = g(i) * 2
    return a.sum(), buf.sum()


def default_view_written_in_loop(x):
    buf = x[:4] + 1.0

    def g(k, b=buf[1:]):
        return b[k]
    s = 0.0
    for i in range(3):
        buf[i + 1] += i
        s += g(i)
    return s


def default_written_by_its_function_in_loop(x):
    def count(k, seen=np.zeros(3)):  # noqa: B008 - one array shared by every call
        seen[k] += 1
        return seen.sum()
    s = 0.0
    for i in range(x.shape[0]):
        s += count(i % 3) * x[i]
    return s, count(0)


def default_written_in_branch(x, c):
    buf = np.ones(3)
    get = lambda k, b=buf: b[k]  # noqa: E731 - the construct under test
    if c > 0:
        buf[0] = 5.0
    return get(0) + buf.sum()


def default_written_by_call_in_branch(x, c):
    buf = np.zeros(3)

    def bump(k, b=buf):
        b[k] += x[k]
    if c > 0:
        bump(1)
    bump(2)
    return buf.sum()


F = np.arange(6.0)
CASES = [
    (view_in_tuple, F), (alias_in_tuple, F), (write_through_item, F), (list_display, F),
    (nested_tuple, F), (unpack_after_write, F), (write_through_unpacked, F),
    (returned_tuple, F), (lambda_tuple, F), (tuple_argument, F), (tuple_argument_view, F),
    (closure_tuple, F), (tuple_in_branch, F, np.int64(1)), (tuple_in_branch, F, np.int64(0)),
    (tuple_built_in_branch, F, np.int64(1)), (tuple_built_in_branch, F, np.int64(0)),
    (tuple_before_loop, F), (write_item_in_loop, F),
    (tuple_carried_through_loop, F, np.int64(0)), (tuple_carried_through_loop, F, np.int64(3)),
    (tuple_unused_after_write, F), (default_argument, F), (returns_tuple, F),
    (default_written_in_loop, F), (default_view_written_in_loop, F),
    (default_written_by_its_function_in_loop, F),
    (default_written_in_branch, F, np.int64(1)), (default_written_in_branch, F, np.int64(0)),
    (default_written_by_call_in_branch, F, np.int64(1)),
    (default_written_by_call_in_branch, F, np.int64(0)),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0].__name__}-{k}" for k, c in
                                             enumerate(CASES)])
def test_arrays_in_tuples_match_eager(case):
    run_both(case[0], case[1:])


# writes that depend on a link decided at run time --------------------------------------------

def tuple_rebound_in_branch(x, c):
    if c > 0:
        t = (x[1:],)
    else:
        t = (np.zeros(5),)
    x[1] = 3.0
    return t[0].sum()


def tuple_rebound_in_loop(x, n):
    t = (x[:1], 0.0)
    for _ in range(n):
        t = (x[1:], t[1] + 1.0)
    x[2] = 5.0
    return t[0].sum() + t[1]


def reshaped_item(m):
    t = (m.reshape(-1),)
    m[0, 0] = 1.0
    return t[0].sum()


def loop_over_tuple(x, y):
    for v in (x, y):
        v[0] = 1.0


def lambda_rebound_in_loop(x, n):
    get = lambda: 0.0  # noqa: E731 - the construct under test
    s = 0.0
    for i in range(n):
        get = lambda k=i: x[k]  # noqa: E731
        s += get()
    return s


REJECTED = [
    (tuple_rebound_in_branch, "x[1] = 3.0",
     "'t[0]' is a view of 'x' made on some paths of the branch"),
    (tuple_rebound_in_loop, "x[2] = 5.0", "'t[0]' is a view of 'x' made before the loop"),
    (reshaped_item, "return t[0].sum()", "variable 't[0]' is a reshaped array"),
    (loop_over_tuple, "for v in (x, y):", "for loops over a tuple of 2 items are not supported"),
    (lambda_rebound_in_loop, "for i in range(n):",
     "variable 'get' is bound to a new nested function '<lambda>' (or one with other default "
     "values) in each iteration of the loop"),
]


@pytest.mark.parametrize("fn, line, message", REJECTED, ids=[c[0].__name__ for c in REJECTED])
def test_run_time_links_through_tuples_are_compile_errors(fn, line, message):
    lines, first = inspect.getsourcelines(fn)
    lineno = first + next(k for k, text in enumerate(lines) if text.strip().startswith(line))
    args = [np.arange(6.0).reshape(2, 3)[:, ::2]] if fn is reshaped_item \
        else [np.arange(6.0), np.int64(1)]
    with pytest.raises(compiler.CompileError) as e:
        compiler.function(fn)(*args)
    assert message in e.value.reason
    assert e.value.loc.line == lineno
    assert e.value.hint
