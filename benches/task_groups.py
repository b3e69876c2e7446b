"""Task groups (graph-level parallelism) against the same functions compiled without the
``task-groups`` pass, on the same thread count.

    python benches/task_groups.py [--repeats 15]

Cases:

- ``crc + recurrence``: a bitwise CRC-32 over 2 * 10^6 bytes next to the recurrence
  ``acc = 0.5 * acc + x[i]`` over float64 values, sized so that both loops cost about the
  same alone (each time is printed); each loop is serial, so only the task group overlaps
  them;
- ``4 products + sums``: ``(a @ a).sum() + ...`` for four 128 x 128 float64 arrays (each
  product below the size that threads its own loops);
- ``dependent``: two recurrences where the second starts from the first one's result, so
  nothing is independent and the pass changes nothing (the figure checks it costs nothing).

Each figure is the median over ``--repeats`` rounds of the per-call time, the two builds
taking turns call by call after warm-up calls. Prints one Markdown table.
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
import compiler.passes  # noqa: E402

BYTES = 2_000_000


def crc32(data):
    crc = np.uint32(0xFFFFFFFF)
    for i in range(data.shape[0]):
        crc = crc ^ np.uint32(data[i])
        for _ in range(8):
            low = crc & np.uint32(1)
            crc = (crc >> np.uint32(1)) ^ (np.uint32(0xEDB88320) * low)
    return crc


def recurrence(xs):
    acc = np.float64(0.0)
    for i in range(xs.shape[0]):
        acc = 0.5 * acc + xs[i]
    return acc


def crc_and_recurrence(data, xs):
    crc = np.uint32(0xFFFFFFFF)
    for i in range(data.shape[0]):
        crc = crc ^ np.uint32(data[i])
        for _ in range(8):
            low = crc & np.uint32(1)
            crc = (crc >> np.uint32(1)) ^ (np.uint32(0xEDB88320) * low)
    acc = np.float64(0.0)
    for i in range(xs.shape[0]):
        acc = 0.5 * acc + xs[i]
    return crc, acc


def products(a, b, c, d):
    return (a @ a).sum() + (b @ b).sum() + (c @ c).sum() + (d @ d).sum()


def dependent(xs):
    s = np.float64(0.0)
    for i in range(xs.shape[0]):
        s = 0.5 * s + xs[i]
    t = s
    for i in range(xs.shape[0]):
        t = 0.25 * t + xs[i]
    return t


def without_task_groups(fn):
    """``fn`` compiled (on its first call) with the loop pipeline minus ``task-groups``."""
    compiled = compiler.function(fn)
    default = compiler.passes.LOOP_PIPELINE

    def first(*args):
        compiler.passes.LOOP_PIPELINE = ",".join(
            p for p in default.split(",") if p != "task-groups")
        try:
            return compiled(*args)
        finally:
            compiler.passes.LOOP_PIPELINE = default
    first(*WARM[fn])
    return compiled


def _per_call(fn, args, calls: int) -> float:
    t0 = time.perf_counter()
    for _ in range(calls):
        fn(*args)
    return (time.perf_counter() - t0) / calls


def measure(fn, args, repeats: int, calls: int) -> tuple[float, float]:
    """Median per-call seconds of ``fn`` compiled with and without task groups."""
    grouped, plain = compiler.function(fn), without_task_groups(fn)
    assert np.array_equal(np.asarray(grouped(*args)), np.asarray(plain(*args)))
    for f in (grouped, plain):
        _per_call(f, args, calls)
    with_t, without_t = [], []
    for _ in range(repeats):
        with_t.append(_per_call(grouped, args, calls))
        without_t.append(_per_call(plain, args, calls))
    return statistics.median(with_t), statistics.median(without_t)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeats", type=int, default=15)
    opts = ap.parse_args()
    rng = np.random.default_rng(0)
    data = rng.integers(0, 256, BYTES, dtype=np.uint8)
    f_crc, f_rec = compiler.function(crc32), compiler.function(recurrence)
    probe = rng.standard_normal(BYTES)
    f_crc(data), f_rec(probe)
    t_crc = statistics.median(_per_call(f_crc, (data,), 3) for _ in range(5))
    t_rec = statistics.median(_per_call(f_rec, (probe,), 3) for _ in range(5))
    xs = rng.standard_normal(int(BYTES * t_crc / t_rec))
    t_rec = statistics.median(_per_call(f_rec, (xs,), 3) for _ in range(5))
    mats = [rng.standard_normal((128, 128)) for _ in range(4)]
    chain = rng.standard_normal(4 * BYTES)
    cases = [("crc + recurrence", crc_and_recurrence, (data, xs), 3),
             ("4 products + sums", products, tuple(mats), 50),
             ("dependent", dependent, (chain,), 3)]
    for _, fn, args, _ in cases:
        WARM[fn] = args
    print(f"threads: {compiler.get_num_threads()}; CRC alone {t_crc * 1e3:.2f} ms over "
          f"{BYTES} bytes, recurrence alone {t_rec * 1e3:.2f} ms over {xs.size} values\n")
    print("| case | task groups | without | ratio |")
    print("|---|---:|---:|---:|")
    for name, fn, args, calls in cases:
        grouped, plain = measure(fn, args, opts.repeats, calls)
        print(f"| {name} | {grouped * 1e3:.3f} ms | {plain * 1e3:.3f} ms | "
              f"{grouped / plain:.2f}x |")


WARM: dict = {}

if __name__ == "__main__":
    main()
