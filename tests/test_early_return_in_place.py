"""A ``return`` inside a loop (or branch) that writes an array leaves the array in one buffer:
the argument's, or the local array's, updated in place, with no copy per iteration. The
caller sees the argument as eager Python leaves it (only the iterations before the return
ran) and the returned value is eager Python's, for a return in the first, a middle or no
iteration."""

import copy
import re

import numpy as np
import pytest
from differential_harness import run_both

import compiler


def first_over(a, t):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0
        if a[i] > t:
            return i
    return -1


def value_over(a, t):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0
        if a[i] > t:
            return a[i]
    return np.float64(-1.0)


def break_over(a, t):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0
        if a[i] > t:
            break
    return a[0] if a.shape[0] else 0.0


def while_over(a, t):
    i = 0
    while i < a.shape[0]:
        a[i] *= 2.0
        if a[i] > t:
            return i
        i += 1
    return -1


def while_true_over(a, t):
    i = 0
    while True:
        if i >= a.shape[0]:
            return -1
        a[i] = a[i] * 2.0
        if a[i] > t:
            return i
        i += 1


def local_over(a, t):
    b = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        b[i] = a[i] * 2.0
        if b[i] > t:
            return b[0] + i
    return b.sum()


def two_over(a, b, t):
    for i in range(a.shape[0]):
        a[i] = b[i] + 1.0
        b[i] = a[i] * 2.0
        if b[i] > t:
            return i
    return -1


def skip_negative(a, t):
    for i in range(a.shape[0]):
        if a[i] < 0.0:
            continue
        a[i] = a[i] * 2.0
        if a[i] > t:
            return i
    return -1


def _helper(x, t):
    for i in range(x.shape[0]):
        x[i] = x[i] * 2.0
        if x[i] > t:
            return i
    return -1


def through_callee(a, t):
    k = _helper(a, t)
    if a.shape[0]:
        a[0] = -1.0
    return k


def cells_over(m, t):
    for i in range(m.shape[0]):
        for j in range(m.shape[1]):
            m[i, j] = m[i, j] * 2.0
            if m[i, j] > t:
                return i * m.shape[1] + j
    return -1


def rows_over(m, t):
    for i in range(m.shape[0]):
        m[i, :] = m[i, :] * 2.0
        if m[i, 0] > t:
            return i
    return -1


def branch_return(a, t):
    if a.shape[0] < 3:
        return -1
    a[0] = 1.0
    if t > 0.0:
        a[1] = t
        return 1
    a[2] = t
    return 2


def rebind_then_return(a, t):
    for i in range(a.shape[0]):
        if i == 1:
            a = a * 1.0             # a new array: later writes miss the argument
        a[i] = a[i] * 2.0
        if a[i] > t:
            return i
    return -1


ONE_D = [first_over, value_over, break_over, while_over, while_true_over, local_over,
         skip_negative, through_callee, branch_return]


def _thresholds(n: int) -> list:
    """Limits a[i] * 2 = 2i passes at the first, a middle and no iteration."""
    return [-1.0, float(n), np.inf]


@pytest.mark.parametrize("n", [0, 1, 7, 100_000])
@pytest.mark.parametrize("fn", ONE_D, ids=lambda f: f.__name__)
def test_early_exit_matches_eager(fn, n):
    for t in _thresholds(n):
        run_both(fn, (np.arange(float(n)), np.float64(t)))


@pytest.mark.parametrize("n", [0, 1, 2, 7])
def test_early_return_after_rebinding_the_argument_matches_eager(n):
    for t in _thresholds(n):
        run_both(rebind_then_return, (np.arange(float(n)), np.float64(t)))


@pytest.mark.parametrize("n", [0, 1, 6, 50_000])
def test_early_return_writing_two_arguments_matches_eager(n):
    for t in [0.5, float(n), np.inf]:
        run_both(two_over, (np.arange(float(n)), np.arange(float(n))[::-1], np.float64(t)))


@pytest.mark.parametrize("fn", [cells_over, rows_over], ids=lambda f: f.__name__)
@pytest.mark.parametrize("shape", [(0, 3), (1, 1), (3, 4), (300, 200)])
def test_early_return_from_2d_loops_matches_eager(fn, shape):
    m = np.arange(float(np.prod(shape))).reshape(shape)
    for t in [-1.0, float(m.size), np.inf]:
        run_both(fn, (m, np.float64(t)))
        run_both(fn, (m.T, np.float64(t)))


def test_early_return_from_a_strided_view_matches_eager():
    a = np.arange(40.0)
    run_both(first_over, (a[::3], np.float64(20.0)))
    run_both(first_over, (a[::-2], np.float64(50.0)))


def _allocs_in_loops(ir: str) -> int:
    """The ``memref.alloc`` ops nested in an ``scf.for`` or ``scf.while`` of printed IR
    (regions are indented one level deeper than the op that holds them)."""
    count, loops = 0, []
    for line in ir.splitlines():
        indent = len(line) - len(line.lstrip())
        if loops and line.lstrip().startswith("})") and indent == loops[-1]:
            loops.pop()
        elif '"scf.for"' in line or '"scf.while"' in line:
            loops.append(indent)
        elif '"memref.alloc"' in line and loops:
            count += 1
    return count


def _loops_ir(fn, signature: str) -> str:
    return compiler.compile(fn, signature).ir_stages["loops"]


@pytest.mark.parametrize("fn, signature", [
    (first_over, "f64[?], f64"), (value_over, "f64[?], f64"), (while_over, "f64[?], f64"),
    (while_true_over, "f64[?], f64"), (two_over, "f64[?], f64[?], f64"),
    (skip_negative, "f64[?], f64"), (through_callee, "f64[?], f64"),
    (cells_over, "f64[?,?], f64"), (branch_return, "f64[?], f64")])
def test_early_return_writes_the_argument_buffer(fn, signature):
    ir = _loops_ir(fn, signature)
    assert '"memref.alloc"' not in ir                # no copy in, per iteration or back
    blocks = re.findall(r"\^bb0\((.*)\):", ir)
    assert not any("memref" in b for b in blocks[1:])  # no region carries an array


def test_early_return_loop_carries_the_flag_and_value_only():
    ir = _loops_ir(first_over, "f64[?], f64")
    assert ir.count('"scf.for"') == 1
    # bounds and step, then the carried return flag and returned index (the loop's
    # attributes, such as its interrupt poll, may come between)
    assert re.search(r"\}\)( \{[^{}]*\})? : \(i64, i64, i64, i1, i64\) -> \(i1, i64\) loc", ir)
    assert ir.count('"memref.store"') == 1


def rows_on(m, t):
    for i in range(m.shape[0]):
        m[i, :] = m[i, :] * 2.0


@pytest.mark.parametrize("fn, signature, without", [
    (local_over, "f64[?], f64", None), (break_over, "f64[?], f64", None),
    (rows_over, "f64[?,?], f64", rows_on)], ids=["local", "break", "rows"])
def test_early_exit_allocates_no_more_per_iteration(fn, signature, without):
    """As many buffers per iteration as the loop without the exit: none, or a row's."""
    want = 0 if without is None else _allocs_in_loops(_loops_ir(without, signature))
    assert _allocs_in_loops(_loops_ir(fn, signature)) == want


def test_allocs_in_loops_counts_only_allocs_nested_in_loops():
    ir = "\n".join([
        '    %0 = "memref.alloc"() : () -> memref<4xf64>',
        '    "scf.for"(%a, %b, %c) ({',
        '      %1 = "memref.alloc"() : () -> memref<4xf64>',
        '      "scf.if"(%f) ({',
        '        %2 = "memref.alloc"() : () -> memref<4xf64>',
        '      }) : (i1) -> ()',
        '    }) : (index, index, index) -> ()',
        '    %3 = "memref.alloc"() : () -> memref<4xf64>'])
    assert _allocs_in_loops(ir) == 2


def return_array_over(a, t):
    for i in range(a.shape[0]):
        a[i] = a[i] * 2.0
        if a[i] > t:
            return a
    return a


def return_other_over(a, b, t):
    for i in range(a.shape[0]):
        if a[i] > t:
            return b
    return a


@pytest.mark.parametrize("n", [0, 1, 7, 100_000])
def test_returning_an_array_from_the_loop_matches_eager(n):
    """One call each (the eager result is the argument itself, which a second call of the
    harness would change; the compiled result is a new array with its values)."""
    for t in _thresholds(n):
        for fn, args in ((return_array_over, (np.arange(float(n)),)),
                         (return_other_over, (np.arange(float(n)), -np.arange(float(n))))):
            eager, compiled = copy.deepcopy(args), copy.deepcopy(args)
            want = fn(*eager, np.float64(t))
            got = compiler.function(fn)(*compiled, np.float64(t))
            np.testing.assert_array_equal(got, want)
            assert got.dtype == want.dtype
            for g, w in zip(compiled, eager, strict=True):
                np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("fn, signature", [(return_array_over, "f64[?], f64"),
                                           (return_other_over, "f64[?], f64[?], f64")])
def test_returned_array_is_carried_without_a_copy_per_iteration(fn, signature):
    """The loop carries the returned array; it is copied once, in the iteration that returns,
    and handed on unchanged in the iterations after (an scf.if branch passing on a buffer it
    owns lends it, ``lowering/control_flow.py``), so the loop stays linear."""
    assert _allocs_in_loops(_loops_ir(fn, signature)) == 1
