"""Per-call dispatch cost: calls/s of tiny functions, grafo vs Numba ``@njit`` vs NumPy.

    python benches/dispatch.py [--number N] [--repeat R] [--specializations K]

Cases: ``x + y`` on two 3-element float64 arrays and ``a + b`` on two NumPy float64 scalars.
Callables timed, in one process:

- ``grafo Function``: ``@compiler.function`` (signature lookup in the specialization cache,
  then the concrete function), after ``K`` other specializations were compiled, so a cost
  that grows with the cache would show;
- ``grafo ConcreteFunction``: ``f.get_concrete_function(...)`` called directly;
- ``grafo fast entry``: the generated CPython entry (``ConcreteFunction._call``);
- ``grafo ctypes entry``: the reference ctypes path (``runtime.abi.NativeFunction``);
- ``numba njit`` (if installed) and ``numpy`` (``np.add``; for scalars the ``+`` of two NumPy
  scalars).

Prints the best of R repeats of N calls each: nanoseconds per call and calls per second.
"""

from __future__ import annotations

import argparse
import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import compiler  # noqa: E402


def add(x, y):
    return x + y


def _cases(k: int) -> list:
    a, b = np.arange(3.0), np.arange(3.0) + 1
    s, t = np.float64(1.5), np.float64(2.5)
    f = compiler.function(add)
    for n in range(4, 4 + k):   # other specializations in the cache
        f(np.ones(n), np.ones(n))
    rows = []
    for label, args, np_call in (("x + y, 2 x f64[3]", (a, b), lambda: np.add(a, b)),
                                 ("a + b, 2 x f64 scalar", (s, t), lambda: s + t)):
        f(*args)
        cf = f.get_concrete_function(*args)
        rows.append((label, [
            ("grafo Function", lambda f=f, args=args: f(*args)),
            ("grafo ConcreteFunction", lambda cf=cf, args=args: cf(*args)),
            ("grafo fast entry", lambda e=cf._call, args=args: e(*args)),
            ("grafo ctypes entry", lambda e=cf._call.__self__, args=args: e(*args)),
            *_numba(args),
            ("numpy", np_call),
        ]))
    return rows


def _numba(args) -> list:
    try:
        import numba
    except ImportError:
        return []
    nadd = numba.njit(add)
    nadd(*args)
    return [("numba njit", lambda: nadd(*args))]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--number", type=int, default=100_000)
    p.add_argument("--repeat", type=int, default=7)
    p.add_argument("--specializations", type=int, default=5)
    opts = p.parse_args()
    for label, timers in _cases(opts.specializations):
        print(f"\n{label}")
        print(f"  {'callable':24s} {'ns/call':>9s} {'calls/s':>12s}")
        for name, call in timers:
            best = min(timeit.repeat(call, number=opts.number, repeat=opts.repeat))
            per_call = best / opts.number
            print(f"  {name:24s} {per_call * 1e9:9.0f} {1 / per_call:12,.0f}")


if __name__ == "__main__":
    main()
