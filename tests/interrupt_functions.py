"""Long loops for the interrupt tests (tests/test_interrupt.py; the frontend reads their
source). Each runs for minutes with a large ``n``, so a test that does not interrupt them
times out."""

import numpy as np


def spin(a, n):
    """``n`` iterations of a ``while`` loop adding 1 to ``a[i % len(a)]``; returns ``n``."""
    i = np.int64(0)
    m = a.shape[0]
    while i < n:
        a[i % m] += 1.0
        i += 1
    return i


def count(a, n):
    """A ``for`` loop of ``n`` iterations writing the counter into ``a[i % len(a)]``."""
    m = a.shape[0]
    for i in range(n):
        a[i % m] = i


def hold(x, n):
    """A ``while`` loop of ``n`` iterations reading a temporary buffer of ``x``'s size."""
    t = np.exp(x)
    s = 0.0
    i = np.int64(0)
    m = t.shape[0]
    while i < n:
        s += t[i % m]
        i += 1
    return s


def rows(a, n):
    """A loop over ``a`` with independent iterations (threaded), each ``n`` additions."""
    for i in range(a.shape[0]):
        s = 0.0
        for _ in range(n):
            s += 0.5
        a[i] = s


def report(n):
    """A ``for`` loop of ``n`` iterations that prints every 4096 of them (more often than
    it polls)."""
    total = 0
    for i in range(n):
        total += i % 7
        if i % 4096 == 0:
            print("at", i)
    return total


def lopsided(a, n):
    """``rows`` with only the second half of the rows long: the thread that runs the first
    half is done long before the others."""
    half = a.shape[0] // 2
    for i in range(a.shape[0]):
        s = 0.0
        for _ in range(n if i >= half else 1):
            s += 0.5
        a[i] = s
