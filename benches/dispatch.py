"""Per-call dispatch cost: calls/s of tiny functions, grafo vs Numba ``@njit`` vs NumPy.

    python benches/dispatch.py [--number N] [--repeat R] [--specializations K]

Cases: ``x + y`` on two 3-element float64 arrays, ``a + b`` on two NumPy float64 scalars, and
``x[0] = 1.0; x + y``, which writes its parameter ``x`` (so a call also checks that ``x`` is
writable and shares no memory with ``y``). Callables timed, in one process:

- ``grafo Function``: ``@compiler.function`` (signature lookup in the specialization cache,
  then the concrete function), after ``K`` other specializations were compiled, so a cost
  that grows with the cache would show;
- ``grafo ConcreteFunction``: ``f.get_concrete_function(...)`` called directly;
- ``grafo fast entry``: the generated CPython entry (``CompiledFunction.callable``);
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


def set_add(x, y):
    x[0] = 1.0
    return x + y


def _numpy_set_add(x, y):
    x[0] = 1.0
    return np.add(x, y)


def _cases(k: int) -> list:
    a, b = np.arange(3.0), np.arange(3.0) + 1
    s, t = np.float64(1.5), np.float64(2.5)
    f = compiler.function(add)
    for n in range(4, 4 + k):   # other specializations in the cache
        f(np.ones(n), np.ones(n))
    g = compiler.function(set_add)
    rows = []
    for label, fn, args, np_call in (
            ("x + y, 2 x f64[3]", f, (a, b), lambda: np.add(a, b)),
            ("a + b, 2 x f64 scalar", f, (s, t), lambda: s + t),
            ("x[0] = 1.0; x + y, 2 x f64[3]", g, (a, b), lambda: _numpy_set_add(a, b))):
        fn(*args)
        cf = fn.get_concrete_function(*args)
        entry = cf.compiled.callable
        rows.append((label, [
            ("grafo Function", lambda fn=fn, args=args: fn(*args)),
            ("grafo ConcreteFunction", lambda cf=cf, args=args: cf(*args)),
            ("grafo fast entry", lambda e=entry, args=args: e(*args)),
            ("grafo ctypes entry", lambda e=entry.__self__, args=args: e(*args)),
            *_numba(fn.python_function, args),
            ("numpy", np_call),
        ]))
    return rows


def _numba(fn, args) -> list:
    try:
        import numba
    except ImportError:
        return []
    jitted = numba.njit(fn)
    jitted(*args)
    return [("numba njit", lambda: jitted(*args))]


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
