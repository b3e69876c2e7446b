"""Loops that write into an argument update its buffer in place (no copy in, no copy back)
when nothing reads the old value after the loop; every case matches eager Python, mutated
arguments included, also when a run-time error stops the loop midway."""

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler


def triad(a, b, c, s):
    for i in range(a.shape[0]):
        a[i] = b[i] + s * c[i]


def clip(a, hi):
    for i in range(a.shape[0]):
        if a[i] > hi:
            a[i] = hi


def _loops_ir(fn, signature: str) -> str:
    return compiler.compile(fn, signature).ir_stages["loops"]


def test_triad_loop_writes_the_argument_buffer():
    ir = _loops_ir(triad, "f64[?], f64[?], f64[?], f64")
    assert '"memref.alloc"' not in ir                # no copy of `a` in
    loops = [line for line in ir.splitlines() if '"scf.for"' in line]
    assert len(loops) == 2                           # no copy loops in or back: the loop's
    assert ir.count('"scf.if"') == 1                 # unchecked and checked versions only
    assert ir.count('"memref.store"') == 2
    assert '-> ()' in ir.split('"scf.yield"')[1]     # the loop carries nothing
    a, b, c = np.zeros(1000), np.arange(1000.0), np.ones(1000)
    compiler.compile(triad, "f64[?], f64[?], f64[?], f64")(a, b, c, np.float64(3.0))
    np.testing.assert_array_equal(a, b + 3.0 * c)


@pytest.mark.parametrize("fn, signature", [
    (clip, "f64[?], f64"), (triad, "f32[8], f32[8], f32[8], f32")])
def test_conditional_and_static_loops_copy_nothing(fn, signature):
    assert '"memref.alloc"' not in _loops_ir(fn, signature)


def old_value_after(a, b):
    t = a * 2                       # computed before the loop: the old elements
    for i in range(a.shape[0]):
        a[i] = b[i]
    return t + a


def test_a_value_read_after_the_loop_is_computed_before_it():
    ir = _loops_ir(old_value_after, "f64[?], f64[?]")
    assert ir.count('"memref.alloc"') == 1           # t = a * 2, not a copy of a
    assert ir.count('"memref.store"') == 4           # t, a[i] = b[i] (checked and
    assert ir.count('"scf.if"') == 1                 # unchecked versions), t + a
    assert len([line for line in ir.splitlines() if '"memref.store"' in line
                and "%arg0," in line]) == 2   # a[i] = b[i] in each version


def read_ahead(a):
    for i in range(a.shape[0] - 1):
        a[i] = a[i] + a[i + 1]      # reads a[i + 1] before it is written: Python does too


def copy_before(a):
    old = a.copy()
    for i in range(1, a.shape[0]):
        a[i] += a[i - 1]
    return old


def while_fill(a, k):
    i = 0
    while i < a.shape[0] and a[i] < k:
        a[i] = k
        i += 1
    return i


def nested(m):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = m[i, j - 1] + i if j else i


def early_break(a, stop):
    for i in range(a.shape[0]):
        if a[i] > stop:
            break
        a[i] = -a[i]
    return a.sum()


def early_return(a, stop):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2
        if a[i] > stop:
            return i
    return -1


def rebind_each(a):
    for i in range(3):
        a = a * 2                   # a new array: the argument is not written
        a[0] = i
    return a


def rebind_first(a):
    for i in range(a.shape[0]):
        if i == 0:
            a = np.zeros(a.shape[0])
        a[i] = i + 1.0              # the new array: the argument keeps its elements
    return a


def conditional(a, x):
    for i in range(a.shape[0]):
        if x[i] > 0:
            a[i] = x[i]
        elif x[i] < -1:
            a[i] += 1


def view_in_loop(a):
    for i in range(a.shape[0] // 2):
        v = a[::2]
        v[i] = i * 10.0


def rows(m, r):
    for row in m:
        row[:] = row + r


def two_arguments(a, b):
    for i in range(a.shape[0]):
        a[i] = b[i]
        b[i] = a[i] * 3


def out_of_range(a, b, n):
    for i in range(n):
        a[i] = b[i] * 2


def write_then_read_next(a):
    for i in range(a.shape[0] - 1):
        a[i] = a[i] * 3
        a[i + 1] += a[i]            # reads the element just written


def old_value_then_error(a, b, n):
    t = a * 2
    for i in range(n):
        a[i] = b[i]
    return t


def copy_in_body(a):
    s = 0.0
    for i in range(a.shape[0]):
        t = a * 1                   # read after the write: the update copies, the yield
        a[i] = 5.0                  # copies back into the argument
        s += t[a.shape[0] - 1 - i]
    return s


def checked_midway(a):
    for i in range(a.shape[0]):
        a[i] = i
        assert i < 2, "stop"


def write_after_loop(a):
    for i in range(a.shape[0]):
        a[i] = i
    a[:] = a[::-1]
    return a


F = np.arange(8.0)
M = np.arange(12.0).reshape(3, 4)

CASES = [
    (triad, F, F[::-1], np.ones(8), np.float64(0.5)), (triad, F[::2], F[:4], F[4:], 2.0),
    (clip, F, np.float64(4.5)), (read_ahead, F), (old_value_after, F, -F),
    (copy_before, F), (while_fill, F, np.float64(3.0)), (nested, M), (nested, M.T),
    (early_break, F - 4, np.float64(1.0)), (early_return, F, np.float64(5.0)),
    (early_return, F, np.float64(99.0)), (rebind_each, F), (rebind_first, F),
    (conditional, F, np.array([1.0, -2, 0, 3, -5, 0, 2, -1])),
    (view_in_loop, F), (rows, M, np.arange(4.0)), (two_arguments, F, F[::-1]),
    (out_of_range, np.zeros(6), F[:3], np.int64(5)), (out_of_range, np.zeros(6), F, np.int64(7)),
    (old_value_then_error, F, -F[:5], np.int64(8)), (old_value_then_error, F, -F, np.int64(8)),
    (write_then_read_next, F), (copy_in_body, F), (checked_midway, F), (write_after_loop, F),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0].__name__}-{k}" for k, c in
                                             enumerate(CASES)])
def test_loops_writing_arguments_match_eager(case):
    run_both(case[0], case[1:])


def test_error_mid_loop_leaves_the_partial_writes():
    a = np.zeros(5)
    with pytest.raises(IndexError, match="index 3 is out of bounds"):
        compiler.function(out_of_range)(a, np.arange(3.0), np.int64(5))
    np.testing.assert_array_equal(a, [0.0, 2.0, 4.0, 0.0, 0.0])


def scan(a, b, lo, hi, step):
    for i in range(lo, hi, step):
        a[i] = a[i - 1] * 0.5 + b[i % b.shape[0]]
    return a[0]


_F = compiler.function(scan, reduce_retracing=True)


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 9), m=st.integers(1, 5), lo=st.integers(-12, 12),
       hi=st.integers(-12, 12), step=st.sampled_from([-3, -1, 1, 2]), strided=st.booleans())
def test_strided_scans_match_eager(n, m, lo, hi, step, strided):
    base = np.arange(2.0 * n) if strided else np.arange(float(n))
    want_a, got_a = base.copy(), base.copy()
    view = (lambda x: x[::2]) if strided else (lambda x: x)
    b = np.linspace(-1, 1, m)
    args = (np.int64(lo), np.int64(hi), np.int64(step))
    try:
        want = ("ok", scan(view(want_a), b, *args))
    except IndexError as e:
        want = ("raised", str(e))
    try:
        got = ("ok", _F(view(got_a), b, *args))
    except IndexError as e:
        got = ("raised", str(e).splitlines()[0])
    assert got == want
    np.testing.assert_array_equal(got_a, want_a)
