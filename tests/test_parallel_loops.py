"""Explicit Python loops whose iterations are independent run on the threads
(``passes/parallelize.py``); every other loop keeps Python's order. Each case runs eagerly
and compiled with 1 and 2 threads: same results, same writes into the arguments."""

import numpy as np
import pytest
from test_backend_parallel import Recorder, needs_gomp, threads  # noqa: F401 (fixture)

import compiler

N = 1 << 16   # above the run-time threshold of parallel loops


def triad(a, b, c, s):
    for i in range(a.shape[0]):
        a[i] = b[i] + s * c[i]


def rows(out, x):
    for i in range(x.shape[0]):
        for j in range(x.shape[1]):
            out[i, j] = x[i, j] * x[i, j] - j
    return out


def scan(a):
    for i in range(1, a.shape[0]):
        a[i] = a[i] + a[i - 1]


def reversed_copy(a, b):
    n = a.shape[0]
    for i in range(n):
        a[i] = b[n - 1 - i]


def smooth(out, x):
    for i in range(1, x.shape[0] - 1):
        out[i] = 0.25 * x[i - 1] + 0.5 * x[i] + 0.25 * x[i + 1]


def last_index(a, b):
    for i in range(a.shape[0]):
        a[i] = b[i] * 2.0
    return i


def overrun(a, b):
    for i in range(a.shape[0] + 1):
        a[i] = b[i] + 1.0


def _run(fn, args, thread_count, threads):  # noqa: F811
    threads(thread_count)
    copies = [np.copy(x) if isinstance(x, np.ndarray) else x for x in args]
    with Recorder() as rec:
        result = compiler.function(fn)(*copies)
    return result, copies, sorted({n for n, _ in rec.calls})


CASES = [
    (triad, lambda r: (np.zeros(N), r.random(N), r.random(N), np.float64(3.0)), True),
    (rows, lambda r: (np.zeros((512, 128), np.float32), r.random((512, 128), np.float32)),
     True),
    (scan, lambda r: (r.random(N),), False),
    (reversed_copy, lambda r: (np.zeros(N), r.random(N)), True),
    (smooth, lambda r: (np.zeros(N), r.random(N)), True),
    (last_index, lambda r: (np.zeros(N), r.random(N)), False),
]


@needs_gomp
@pytest.mark.parametrize("fn, make, parallel", CASES, ids=[c[0].__name__ for c in CASES])
def test_loops_match_python_on_one_and_two_threads(fn, make, parallel, threads):  # noqa: F811
    args = make(np.random.default_rng(0))
    eager = [np.copy(x) if isinstance(x, np.ndarray) else x for x in args]
    want = fn(*eager)
    for count in (1, 2):
        got, written, used = _run(fn, args, count, threads)
        for w, g in zip(eager, written, strict=True):
            if isinstance(w, np.ndarray):
                assert g.dtype == w.dtype and np.array_equal(g, w)
        if isinstance(want, np.ndarray):
            assert got.dtype == want.dtype and np.array_equal(got, want)
        else:
            assert got == want
        if count == 2:
            assert used == ([0, 1] if parallel else []), used


@needs_gomp
def test_out_of_bounds_iteration_keeps_the_earlier_writes(threads):  # noqa: F811
    """The bounds check of a[n] stays in the loop, so it runs serially and fails where
    Python does, with every earlier write done and none after."""
    b = np.random.default_rng(1).random(N + 1)
    eager = np.zeros(N)
    with pytest.raises(IndexError):
        overrun(eager, b)
    for count in (1, 2):
        threads(count)
        a = np.zeros(N)
        with pytest.raises(IndexError, match="out of bounds"):
            compiler.function(overrun)(a, b)
        assert np.array_equal(a, eager)


@needs_gomp
def test_aliased_arguments_keep_python_order(threads):  # noqa: F811
    """A written argument that shares memory with a read one makes the call run as Python
    does, so a parallel loop never sees overlapping buffers."""
    x = np.arange(N, dtype=np.float64)
    eager = np.copy(x)
    triad(eager[1:], eager[:-1], eager[:-1], np.float64(1.0))
    threads(2)
    y = np.copy(x)
    with pytest.warns(RuntimeWarning, match="share memory"):
        compiler.function(triad)(y[1:], y[:-1], y[:-1], np.float64(1.0))
    assert np.array_equal(y, eager)
