"""Writes into argument arrays update the caller's buffer in place when the old value is
dead, with NumPy's copy-first semantics when the assigned value reads the target."""

import numpy as np
import pytest
from differential_harness import run_both

import compiler


def triad(a, b, c, s):
    a[:] = b + s * c


def _top_level(ir: str, name: str) -> int:
    return sum(1 for line in ir.splitlines()
               if line.startswith("    ") and not line.startswith("     ")
               and f'"{name}"' in line)


def test_triad_writes_the_argument_in_one_pass():
    cf = compiler.compile(triad, "f64[?], f64[?], f64[?], f64")
    ir = cf.ir_stages["loops"]
    assert '"memref.alloc"' not in ir
    assert _top_level(ir, "scf.for") == 1          # no copy in, no copy back
    assert ir.count('"memref.store"') == 1
    a, b, c = np.zeros(1000), np.arange(1000.0), np.ones(1000)
    cf(a, b, c, np.float64(3.0))
    np.testing.assert_array_equal(a, b + 3.0 * c)


def recurrence(a, b):
    for i in range(1, a.shape[0]):
        a[i] = a[i - 1] + b[i]


def test_loop_updates_have_no_allocation_per_iteration():
    ir = compiler.compile(recurrence, "f64[?], f64[?]").ir_stages["loops"]
    body = [line for line in ir.splitlines() if line.startswith("      ")]
    assert not any('"memref.alloc"' in line for line in body)


def shift_right(a):
    a[1:] = a[:-1]


def shift_left_add(a):
    a[:-1] += a[1:]


def reverse_rows(m):
    m[:] = m[::-1]


def transpose_into_self(m):
    m[:] = m.T


def read_then_write(a):
    t = a * 2
    a[:] = 0
    return t


def write_then_read(a):
    a[:2] = 5
    return a * 2


def chained_writes(a, b):
    a[0] = b[1]
    a[1:] = a[:-1] * 2
    b[:] = a[::-1]
    a += b
    return a.sum()


def mask_reads_target(a):
    a[a > 2] = a[a > 2] * 10


def scatter_reads_target(a, i):
    a[i] = a[i[::-1]]


def write_in_branch(a, flag):
    if flag > 0:
        a[:] = a[::-1]
    else:
        a[0] = -1


def two_loops(a, b):
    for i in range(1, a.shape[0]):
        a[i] = a[i - 1] * 0.5 + b[i]
    for j in range(a.shape[0] - 2, -1, -1):
        a[j] += a[j + 1]


def print_after_write(a):
    a[:] = a + 1
    print(a)


V = np.arange(8, dtype=np.float64)
S = np.arange(24, dtype=np.float64).reshape(4, 6)

CASES = [
    (recurrence, V, np.ones(8)), (recurrence, V[::2], np.ones(4)),
    (shift_right, V), (shift_right, S[:, ::2]), (shift_left_add, V),
    (reverse_rows, S), (transpose_into_self, np.arange(9.0).reshape(3, 3)),
    (read_then_write, V), (write_then_read, V), (chained_writes, V, V[::-1]),
    (mask_reads_target, V), (scatter_reads_target, V, np.array([0, 2, 4])),
    (write_in_branch, V, np.int64(1)), (write_in_branch, V, np.int64(0)),
    (two_loops, V, np.ones(8)), (print_after_write, V),
]


@pytest.mark.parametrize("case", CASES, ids=[f"{c[0].__name__}-{k}" for k, c in
                                             enumerate(CASES)])
def test_in_place_writes_match_numpy(case):
    run_both(case[0], case[1:])


def shift_by(a, k):
    a[k:] = a[:a.shape[0] - k]


@pytest.mark.parametrize("k", [0, 1, 3, 7])
def test_overlapping_shift_reads_the_old_values(k):
    run_both(shift_by, (np.arange(8, dtype=np.int32), np.int64(k)))


def checked_after_write(a):
    a[:] = 2
    assert a[0] < 0, "negative"


def test_writes_before_a_failed_check_are_seen_as_in_numpy():
    run_both(checked_after_write, (np.ones(4),))


@pytest.mark.parametrize("fn, view, extra", [
    (shift_right, lambda m: m[::2, 1::2], ()),
    (reverse_rows, lambda m: m[::2, 1::2], ()),
    (recurrence, lambda m: m[1, ::2], (np.ones(3),)),
])
def test_strided_arguments_are_updated_in_place(fn, view, extra):
    want, got = S.copy(), S.copy()
    fn(view(want), *extra)
    compiler.function(fn)(view(got), *extra)
    np.testing.assert_array_equal(got, want)
