"""grafo's sorting against NumPy: np.sort (default and stable), np.argsort (default and
stable), np.median, np.partition, np.unique and np.histogram (100 bins, the range found
from the data or given) of random float64 at 10^3 .. 10^7 elements, and np.linalg.solve of a
float64 n x n system (n = 64 .. 1024, ``--solve``; LAPACK's dgesv in both).

    python benches/sorting.py [--sizes 1e3,1e5,1e6,1e7] [--repeats 7] [--cases np.histogram]
    python benches/sorting.py --solve 64,256,1024

Each time is the median (with min and max) over ``--repeats`` calls after one warm-up call,
the two libraries taking turns call by call on the same input. Times are the process's CPU
time (``time.process_time``), not wall time: both libraries sort on one thread here, and CPU
time is what stays comparable on a machine that other processes share. Prints a Markdown table
(the one in docs/benchmarks.md, "Sorting") naming the CPU.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

import compiler  # noqa: E402
from benches.run import cpu_model  # noqa: E402


def sort(a):
    return np.sort(a)


def sort_stable(a):
    return np.sort(a, kind="stable")


def argsort(a):
    return np.argsort(a)


def argsort_stable(a):
    return np.argsort(a, kind="stable")


def median(a):
    return np.median(a)


def partition(a):
    return np.partition(a, 7)


def unique(a):
    return np.unique(a)


def histogram(a):
    return np.histogram(a, bins=100)


def histogram_range(a):
    return np.histogram(a, bins=100, range=(-4.0, 4.0))


def solve(a, b):
    return np.linalg.solve(a, b)


CASES = [("np.sort", sort), ("np.sort stable", sort_stable), ("np.argsort", argsort),
         ("np.argsort stable", argsort_stable), ("np.median", median),
         ("np.partition", partition), ("np.unique", unique), ("np.histogram", histogram),
         ("np.histogram range", histogram_range)]


def _time(fn, a, *rest) -> float:
    t = time.process_time()
    fn(a, *rest)
    return time.process_time() - t


def measure(fn, a, repeats: int, signature: str = "f64[?]", *rest) -> tuple:
    """Median, min and max seconds of NumPy's and grafo's calls, taking turns."""
    native = compiler.compile(fn, signature)
    fn(a, *rest)
    native(a, *rest)
    ours, theirs = [], []
    for _ in range(repeats):
        theirs.append(_time(fn, a, *rest))
        ours.append(_time(native, a, *rest))
    return tuple((statistics.median(t), min(t), max(t)) for t in (theirs, ours))


def _fmt(t) -> str:
    med, lo, hi = (x * 1e3 for x in t)
    return f"{med:.3g} ms ({lo:.3g}–{hi:.3g})"


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sizes", default="1e3,1e5,1e6,1e7")
    p.add_argument("--repeats", type=int, default=7)
    p.add_argument("--cases", default="", help="comma-separated prefixes of case names")
    p.add_argument("--solve", default="", help="comma-separated orders for np.linalg.solve")
    args = p.parse_args(argv)
    wanted = [c for c in args.cases.split(",") if c]
    cases = [(name, fn) for name, fn in CASES
             if not wanted or any(name.startswith(w) for w in wanted)]
    rng = np.random.default_rng(0)
    print(f"CPU: {cpu_model()}, {os.cpu_count()} CPUs; NumPy {np.__version__}\n")
    if args.solve:
        _solve_table(rng, [int(n) for n in args.solve.split(",")], args.repeats)
        return
    print("| case | n | numpy median (min–max) | grafo median (min–max) | numpy / grafo |")
    print("|---|---|---|---|---|")
    for size in args.sizes.split(","):
        n = int(float(size))
        a = rng.standard_normal(n)
        for name, fn in cases:
            theirs, ours = measure(fn, a, args.repeats if n < 10**7 else 3)
            print(f"| {name} | {n:.0e} | {_fmt(theirs)} | {_fmt(ours)} | "
                  f"{theirs[0] / ours[0]:.2f} |", flush=True)


def _solve_table(rng, orders, repeats: int) -> None:
    """np.linalg.solve of a well-conditioned n x n system and one right-hand side."""
    print("| case | n | numpy median (min–max) | grafo median (min–max) | numpy / grafo |")
    print("|---|---|---|---|---|")
    for n in orders:
        a = rng.standard_normal((n, n)) + n * np.eye(n)
        b = rng.standard_normal(n)
        theirs, ours = measure(solve, a, repeats, "f64[?,?], f64[?]", b)
        print(f"| np.linalg.solve | {n} | {_fmt(theirs)} | {_fmt(ours)} | "
              f"{theirs[0] / ours[0]:.2f} |", flush=True)


if __name__ == "__main__":
    main()
