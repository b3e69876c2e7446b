"""GPU check: runs the GPU tests on the device, then measures the CUDA back end against a
device-to-device copy and cuBLAS (through CuPy), and writes a Markdown table to OUT.

    python3 benches/gpu_check.py OUT.md            # on a machine with an NVIDIA GPU
    python3 benches/gpu_check.py --dry-run OUT.md  # anywhere: simulated driver, tiny sizes

Rows (issue 21): fused elementwise a*b+c*d-e over 1e8 float32 against the copy's bandwidth
(goal 80%); full and row reductions (sum, max, mean, softmax rows; goal 70%); float32
matmul 4096 against cuBLAS (goal 50%); host-to-device transfer (reported, not counted in
any kernel figure); the launch overhead of a tiny compiled call next to CuPy's. Kernel
times are the best of a few calls, each synchronized; bandwidth counts the bytes a kernel
must read and write once. The whole run takes under 8 minutes on an H200 (the tests at
most ``TEST_SECONDS``). Exit status 0 when the tests pass (dry run: when they are found).
``scripts/gpu_check.sh`` installs what the GPU machine lacks (lark) from carried wheels and
runs this.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import time

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

import compiler  # noqa: E402
import runtime.cuda as rc  # noqa: E402
from runtime.cuda import driver  # noqa: E402

GPU_TESTS = ["tests/test_cuda_runtime.py", "tests/test_ptx.py", "tests/test_ptx_check.py",
             "tests/test_placement.py", "tests/test_cuda_simulator.py",
             "tests/test_cuda_deferred_free.py"]
TEST_SECONDS = 300
# Sizes: (elementwise/reduction elements, softmax rows x cols, matmul n, tiny-call repeats).
SIZES = {"device": (10**8, (16384, 4096), 4096, 2000), "dry": (512, (4, 32), 16, 3)}


def fused(a, b, c, d, e):
    return a * b + c * d - e


def total(a):
    return np.sum(a)


def largest(a):
    return np.max(a)


def average(a):
    return np.mean(a)


def row_sum(x):
    return np.sum(x, axis=1)


def row_max(x):
    return np.max(x, axis=1)


def row_mean(x):
    return np.mean(x, axis=1)


def softmax(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def mm(a, b):
    return a @ b


def tiny(a):
    return a + 1.0


def best(call, sync, repeat: int) -> float:
    """The shortest of ``repeat`` synchronized calls, after one warm-up call (seconds)."""
    call()
    sync()
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        call()
        sync()
        times.append(time.perf_counter() - t0)
    return min(times)


def run_tests(dry: bool) -> tuple:
    """The GPU test files on the device's driver (collected only in a dry run): (summary
    line, passed)."""
    env = {k: v for k, v in os.environ.items() if k != "GRAFO_CUDA_SIMULATOR"}
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *GPU_TESTS]
    if dry:
        cmd.append("--collect-only")
    try:
        proc = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env,
                              timeout=TEST_SECONDS)
    except subprocess.TimeoutExpired:
        return f"timed out after {TEST_SECONDS} s", False
    if proc.returncode != 0:
        sys.stderr.write(proc.stdout[-6000:] + proc.stderr[-2000:])
    lines = [t for t in proc.stdout.strip().splitlines() if t.strip()]
    return (lines[-1] if lines else "(no output)"), proc.returncode == 0


def cupy_or_none():
    try:
        import cupy
        return cupy
    except ImportError:
        return None


def measure(dry: bool) -> list:
    """The table rows: (case, ms, GB/s or GFLOP/s text, reference, fraction, goal)."""
    n, (rows, cols), m, calls = SIZES["dry" if dry else "device"]
    rt = rc.get(0)
    sync = rt.synchronize

    def timed(call, repeat: int, wait=sync) -> float:
        return best(call, wait, 1 if dry else repeat)
    rng = np.random.default_rng(0)
    out = []
    host = rng.random(n, np.float32)
    t0 = time.perf_counter()
    a = rc.to_device(host, rt)
    h2d = time.perf_counter() - t0
    out.append((f"host-to-device copy, {n:.0e} f32 (not in kernel figures)", h2d,
                f"{host.nbytes / h2d / 1e9:.1f} GB/s", "", None, None))
    copy = rt.empty(a.shape, a.dtype)
    t = timed(lambda: rt.copy_device(copy.ptr, a.ptr, a.nbytes), 10)
    copy_bw = 2 * a.nbytes / t
    out.append((f"device-to-device copy, {n:.0e} f32 (reference)", t,
                f"{copy_bw / 1e9:.1f} GB/s", "", None, None))
    vec = "f32[?], f32[?], f32[?], f32[?], f32[?]"
    args = [a] + [rc.to_device(rng.random(n, np.float32), rt) for _ in range(4)]
    cf = compiler.compile(fused, vec, target="cuda")
    t = timed(lambda: cf(*args), 10)
    bw = 6 * a.nbytes / t
    out.append((f"fused a*b+c*d-e, {n:.0e} f32", t, f"{bw / 1e9:.1f} GB/s", "copy",
                bw / copy_bw, 0.8))
    for fn in (total, largest, average):
        cf = compiler.compile(fn, "f32[?]", target="cuda")
        t = timed(lambda cf=cf: cf(a), 10)
        bw = a.nbytes / t
        out.append((f"{fn.__name__} (np.{fn.__code__.co_names[-1]}), {n:.0e} f32", t,
                    f"{bw / 1e9:.1f} GB/s", "copy", bw / copy_bw, 0.7))
    x = rc.to_device(rng.standard_normal((rows, cols)).astype(np.float32), rt)
    for fn, moved in ((row_sum, 1), (row_max, 1), (row_mean, 1), (softmax, 2)):
        try:
            cf = compiler.compile(fn, "f32[?,?]", target="cuda")
        except compiler.CompileError as e:   # softmax's exp needs libdevice (a CUDA toolkit)
            out.append((f"{fn.__name__} rows: not compiled ({e.reason})", float("nan"), "",
                        "", None, None))
            continue
        t = timed(lambda cf=cf: cf(x), 5)
        bw = moved * x.nbytes / t
        out.append((f"{fn.__name__} rows, {rows}x{cols} f32", t, f"{bw / 1e9:.1f} GB/s",
                    "copy", bw / copy_bw, 0.7))
    cp = cupy_or_none()
    p, q = (rc.to_device(rng.random((m, m), np.float32), rt) for _ in range(2))
    cf = compiler.compile(mm, "f32[?,?], f32[?,?]", target="cuda")
    t = timed(lambda: cf(p, q), 5)
    flops = 2 * m ** 3 / t
    if cp is not None:
        cp_p, cp_q = cp.asarray(p), cp.asarray(q)
        tc = timed(lambda: cp_p @ cp_q, 5, cp.cuda.get_current_stream().synchronize)
        out.append((f"matmul {m}x{m} f32", t, f"{flops / 1e9:.0f} GFLOP/s",
                    f"cuBLAS {2 * m ** 3 / tc / 1e9:.0f} GFLOP/s", tc / t, 0.5))
    else:
        out.append((f"matmul {m}x{m} f32", t, f"{flops / 1e9:.0f} GFLOP/s",
                    "cuBLAS: CuPy not installed", None, 0.5))
    one = rc.to_device(np.ones(1, np.float32), rt)
    cf = compiler.compile(tiny, "f32[?]", target="cuda")
    t = timed(lambda: [cf(one) for _ in range(calls)], 3) / calls
    ref = "CuPy not installed"
    if cp is not None:
        c1 = cp.ones(1, cp.float32)
        s = cp.cuda.get_current_stream().synchronize
        tc = timed(lambda: [(c1 + 1.0, s()) for _ in range(calls)], 3, s) / calls
        ref = f"CuPy a + 1.0: {tc * 1e6:.1f} µs"
    out.append(("launch overhead, tiny call a + 1.0 (1 element, synchronized)", t,
                f"{t * 1e6:.1f} µs per call", ref, None, None))
    return out


def table(rows: list, tests: tuple, dry: bool, command: str) -> str:
    arch = rc.device_arch() or "none"
    lines = ["# GPU check" + (" (dry run: simulated driver, tiny sizes)" if dry else ""), "",
             f"Command: `{command}`  ", f"Host: {platform.node()}, Python "
             f"{platform.python_version()}; device 0: {arch}.  ",
             f"GPU tests: `{tests[0]}`", "",
             "| case | time (ms) | rate | reference | fraction | goal | met |",
             "|---|---|---|---|---|---|---|"]
    for case, t, rate, ref, frac, goal in rows:
        f = "" if frac is None else f"{frac:.0%}"
        g = "" if goal is None else f">= {goal:.0%}"
        met = "" if frac is None or goal is None else ("yes" if frac >= goal else "no")
        lines.append(f"| {case} | {t * 1e3:.3f} | {rate} | {ref} | {f} | {g} | {met} |")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="path of the Markdown table to write")
    ap.add_argument("--dry-run", action="store_true",
                    help="no GPU needed: collect the tests, measure on the simulated driver")
    ap.add_argument("--skip-tests", action="store_true", help="measure only")
    args = ap.parse_args(argv)
    if args.dry_run:
        driver.select("simulator")
    elif not rc.available():
        print(f"no GPU: {rc.unavailable_reason()} (use --dry-run to check the script)",
              file=sys.stderr)
        return 1
    start = time.perf_counter()
    tests = ("skipped", True) if args.skip_tests else run_tests(args.dry_run)
    rows = measure(args.dry_run)
    command = "python3 benches/gpu_check.py " + " ".join(argv if argv is not None
                                                          else sys.argv[1:])
    text = table(rows, tests, args.dry_run, command)
    text += f"\nTotal time {time.perf_counter() - start:.0f} s.\n"
    with open(args.out, "w") as f:
        f.write(text)
    print(text)
    return 0 if tests[1] else 1


if __name__ == "__main__":
    sys.exit(main())
