"""GPU check: runs the GPU test-suite and measures the CUDA back end, writing
docs/gpu_results.md (a Markdown table). Needs a CUDA device; runs in well under 5 minutes.

    python3 benches/gpu_check.py

Bandwidth is reported as a fraction of the device's peak, 2 * memory clock * bus width / 8
(from the driver), or the H200's 4.8 TB/s when the driver does not report them.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import compiler  # noqa: E402
import runtime.cuda as rc  # noqa: E402
from compiler.backend.ptx.target import arch  # noqa: E402

H200_PEAK = 4.8e12


def fused(a, b, c):
    return a * b + np.exp(c) * 0.5


def total(a):
    return np.sum(a * a)


def softmax(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def mm(a, b):
    return a @ b


def peak_bandwidth(rt) -> tuple:
    try:
        clock_khz = rt.attribute("MEMORY_CLOCK_RATE")
        bus_bits = rt.attribute("GLOBAL_MEMORY_BUS_WIDTH")
        if clock_khz and bus_bits:
            return 2 * clock_khz * 1e3 * bus_bits / 8, "driver"
    except (RuntimeError, AttributeError):   # an error code, or an attribute this
        pass                                    # version of cuda-python does not name
    return H200_PEAK, "H200 datasheet (4.8 TB/s)"


def best(fn, *args, repeat=10) -> float:
    fn(*args)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        rc.get(0).synchronize()
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> int:
    if not rc.available():
        print(f"no CUDA device: {rc.unavailable_reason()}", file=sys.stderr)
        return 1
    try:
        tests = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                "tests/test_ptx.py", "tests/test_cuda_runtime.py"], cwd=ROOT,
                               capture_output=True, text=True, timeout=180)
        summary = (tests.stdout.strip().splitlines() or ["(no output)"])[-1]
        passed = tests.returncode == 0
        if not passed:
            print(tests.stdout[-4000:], file=sys.stderr)
    except subprocess.TimeoutExpired:
        summary, passed = "timed out after 180 s", False
    rt = rc.get(0)
    peak, source = peak_bandwidth(rt)
    rng = np.random.default_rng(0)
    rows = []
    n = 1 << 26
    a, b, c = (rc.to_device(rt, rng.random(n, np.float32)) for _ in range(3))
    f = compiler.compile(fused, "f32[?], f32[?], f32[?]", target="cuda")
    t = best(f, a, b, c)
    rows.append(("fused elementwise (a*b + exp(c)/2), 2^26 f32", t, 4 * n * 4 / t))
    g = compiler.compile(total, "f32[?]", target="cuda")
    t = best(g, a)
    rows.append(("sum(a*a), 2^26 f32", t, n * 4 / t))
    x = rc.to_device(rt, rng.random((8192, 4096), np.float32))
    s = compiler.compile(softmax, "f32[?,?]", target="cuda")
    t = best(s, x, repeat=3)
    rows.append(("softmax rows, 8192x4096 f32", t, 2 * x.nbytes / t))
    m = 1024
    p, q = (rc.to_device(rt, rng.random((m, m), np.float32)) for _ in range(2))
    h = compiler.compile(mm, "f32[?,?], f32[?,?]", target="cuda")
    t = best(h, p, q, repeat=3)
    rows.append((f"matmul {m}x{m} f32 ({2 * m ** 3 / t / 1e9:.1f} GFLOP/s)", t, 3 * p.nbytes / t))
    lines = ["# GPU results", "", f"Device arch: {arch()}; "
             f"peak bandwidth {peak / 1e12:.2f} TB/s ({source}).", "",
             f"GPU tests: `{summary}`", "",
             "| kernel | time (ms) | GB/s | fraction of peak |", "|---|---|---|---|"]
    for name, t, bw in rows:
        lines.append(f"| {name} | {t * 1e3:.3f} | {bw / 1e9:.1f} | {bw / peak:.1%} |")
    path = os.path.join(ROOT, "docs", "gpu_results.md")
    with open(path, "w") as out:
        out.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0 if passed else 1


if __name__ == "__main__":
    sys.exit(main())
