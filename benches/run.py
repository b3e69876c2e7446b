"""grafo against NumPy, Numba and (when importable) JAX and TensorFlow on the same inputs.

    python benches/run.py [--threads 2,1] [--quick] [--only WORD,...] [--out DIR]

Cases (``benches/kernels.py``): ``x ** 100`` (1000 calls), dispatch overhead (identity on a
3-element array), fused ``a*b + c*d - e`` and MSE on 10^7 float32, softmax (2000 x 500
float32), matmul float32 and float64 at 64/256/1024/2048, a tall-skinny, a transposed and a
batched product, gemv at 256/1024/2048, the chains ``1.5*A@B@C - 0.5*D`` and ``A.T @ (A @ x)``
(float64; grafo calls NumPy's BLAS for these, ``compiler/lowering/blas.py``), a 2-D stencil
(2000 x 2000 float32), explicit loops (a
dot-product loop over 10^6 float64, a 200 x 100 Mandelbrot, a triad loop writing into an
argument, ``a[i] = b[i] + s * c[i]`` on 10^7 float64), a 50-term polynomial in three 3-D
float64 arrays (one broadcast) on 4,096 and 10^6 elements (Numba runs the hand-written loop
``polynomial_loop``, ``HAND_WRITTEN``), a horizontal-diffusion weather stencil (20 overlapping
slices of a 68 x 68 x 32 float64 grid into an output argument), a boolean-mask mean per bin in
a loop (50 bins over 10^5 float64), a CRC-16 loop on Python ints over 10^6 uint8 (grafo vs
Numba; NumPy's interpreter would take seconds), and compile latency (first call in a fresh
process, grafo vs Numba; ``import compiler``, a ``cache=True`` hit and the compile time of
straight-line array code, ``benches/latency.py``). Each time is the median, min and max over
repeats of the per-call time; the libraries take turns in three rounds, each turn several calls
long after a half-second pause and warm-up calls (alternating libraries call by call would time
each one while the previous one's worker threads still spin, see ``_measure``).

The suite runs once per thread count of ``--threads`` (default: every CPU, then 1), each in a
fresh process with ``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``, ``NUMBA_NUM_THREADS`` set to
it before NumPy is imported (``OPENBLAS_CORETYPE`` and ``OPENBLAS_L2_SIZE`` are removed so
OpenBLAS picks its kernel for this CPU; at 1 thread XLA's Eigen threads are turned off
too), and with fewer threads than CPUs the process is bound to that many CPUs (XLA's other
thread pools follow the CPU count, not these variables). Every library runs as its users get
it at that setting: grafo's parallel loops, OpenBLAS and XLA use the threads, NumPy's ufuncs
and Numba's ``@njit`` functions run on one.

The machine's memory bandwidth is measured at the same thread count with a STREAM-style triad
``a[i] = b[i] + s * c[i]`` on 2 x 10^7 float64 into a preallocated ``a``: Numba's
``@njit(parallel=True)`` ``prange`` loop (as STREAM uses OpenMP), else grafo's
``a[:] = b + s * c``. Each bandwidth-bound kernel is reported as a fraction of it. Bytes moved
count each array read once and each array written twice (the cache's write-allocate read,
then the write back), so the triad moves 4 arrays and a read-only kernel is not credited with
more than the memory delivers; a kernel that allocates its result also pays for the
allocation.

Writes ``benchmarks.md`` (one table per thread count), ``benchmarks.json`` and
``benchmarks.png`` (the first thread count; when matplotlib is installed) into ``--out``, by
default a new folder ``benches/results/<date>-<time>/``, and prints where; ``--out docs``
regenerates the tracked docs/benchmarks.*. ``--quick`` runs the 10^7-element cases on 10^6
elements (the rows say so).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
RESULTS = os.path.join(ROOT, "benches", "results")
ROUNDS = 3
SETTLE = 0.5   # seconds
WARM_UP = 0.05   # seconds
# (kernel, backend) -> the kernel that backend runs instead: the loop its users would write
HAND_WRITTEN = {("polynomial", "numba"): "polynomial_loop"}


def _set_threads(n: int) -> None:
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "NUMBA_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(n)
    for var in ("OPENBLAS_CORETYPE", "OPENBLAS_L2_SIZE"):
        os.environ.pop(var, None)
    if n == 1:   # XLA's CPU backend threads with Eigen unless told otherwise
        os.environ["XLA_FLAGS"] = "--xla_cpu_multi_thread_eigen=false"
    cpus = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if 0 < n < len(cpus):   # libraries that size their pools by the CPUs (XLA) see n of them
        os.sched_setaffinity(0, cpus[:n])


def _timeit(fn, args, repeat: int, number: int = 1) -> dict:
    return _measure({"": fn}, args, repeat, number)[""]


def _measure(fns: dict, args, repeat: int, number: int = 1) -> dict:
    """{name: {"median", "min", "max"}} per-call seconds of each ``fns[name](*args)``.

    The libraries take turns in ``ROUNDS`` rounds, the order rotated each round: this
    machine's speed drifts over seconds (shared host), and taking turns gives every library
    the same share of fast and slow periods, and none always follows the same neighbour. A
    turn starts with a pause of ``SETTLE`` seconds (the previous library's worker threads,
    OpenBLAS's and XLA's in particular, keep spinning on the cores for a while after its last
    call) and warm-up calls for ``WARM_UP`` seconds (at least three), then takes
    ``ceil(repeat / ROUNDS)`` samples of ``number`` calls; the statistics pool every round's
    samples. A function that raises is reported as {"error": ...}."""
    samples = {name: [] for name in fns}
    errors = {}
    per_round = max(2, -(-repeat // ROUNDS))
    names = list(fns)
    for r in range(ROUNDS):
        for name in names[r % len(names):] + names[:r % len(names)]:
            if name in errors:
                continue
            fn = fns[name]
            time.sleep(SETTLE)
            try:
                start, calls = time.perf_counter(), 0
                while calls < 3 or time.perf_counter() - start < WARM_UP:
                    fn(*args)
                    calls += 1
            except Exception as e:  # a backend that cannot compile or run a case is reported
                errors[name] = {"error": f"{type(e).__name__}: {str(e)[:120]}"}
                continue
            for _ in range(per_round):
                t0 = time.perf_counter()
                for _ in range(number):
                    fn(*args)
                samples[name].append((time.perf_counter() - t0) / number)
    return {name: errors.get(name) or {"median": statistics.median(samples[name]),
                                       "min": min(samples[name]), "max": max(samples[name])}
            for name in names}


def _backends():
    """name -> decorator turning a kernel into a callable (None where not importable)."""
    import compiler
    out = {"numpy": lambda f: f, "grafo": compiler.function}
    try:
        import numba
        out["numba"] = numba.njit
    except ImportError:
        pass
    try:
        import jax
        jax.config.update("jax_enable_x64", True)
        jax_kernels = _kernels_with_numpy(jax.numpy)
        out["jax"] = lambda f: _jax_wrap(jax.jit(getattr(jax_kernels, f.__name__)))
    except ImportError:
        pass
    return out


def _kernels_with_numpy(numpy_module):
    """A separate copy of ``kernels.py`` whose ``np`` is ``numpy_module`` (``jax.numpy``: the
    same source traced by JAX)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location(
        "kernels_" + numpy_module.__name__.replace(".", "_"),
        os.path.join(ROOT, "benches", "kernels.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    module.np = numpy_module
    return module


def _jax_wrap(jitted):
    def call(*args):
        r = jitted(*args)
        return r.block_until_ready() if hasattr(r, "block_until_ready") else r
    return call


def _triad(backends):
    """The bandwidth reference: a parallel Numba loop, else grafo's slice assignment."""
    if "numba" not in backends:
        import kernels
        return backends["grafo"](kernels.triad_slice)
    import numba

    @numba.njit(parallel=True)
    def triad(a, b, c, s):
        for i in numba.prange(a.shape[0]):
            a[i] = b[i] + s * c[i]
    return triad


def _cases(np, quick: bool):
    """(name, kernel name, args, repeat, number, bytes moved or None, flops or None,
    backends that run it)."""
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.random(s, dtype=np.float32)  # noqa: E731
    k = 6 if quick else 7
    n, size = 10**k, f"1e{k}"   # size: the rows' label for n
    big = [f32(n) for _ in range(5)]
    sm = f32(2000, 500)
    img = f32(2000, 2000)
    loops = ("numpy", "grafo", "numba")
    arrays = ("numpy", "grafo", "numba", "jax")
    cases = [
        ("power(x, 100) x1000 calls", "power", (f32(1000), 100), 5, 1000, None, None,
         ("numpy", "grafo", "numba")),
        ("dispatch (identity, 3 elements)", "identity", (f32(3),), 5, 10000, None, None,
         arrays),
        (f"fused a*b+c*d-e, {size} f32", "fused", tuple(big), 7, 1, 7 * 4 * n, None, arrays),
        (f"MSE, {size} f32", "mse", (big[0], big[1]), 7, 1, 2 * 4 * n, None, arrays),
        ("softmax 2000x500 f32", "softmax", (sm,), 15, 1, 3 * sm.nbytes, None, arrays),
        ("2-D stencil 2000x2000 f32", "stencil", (img,), 10, 1, 3 * img.nbytes, None, arrays),
        ("dot-product loop 1e6 f64", "dot_loop", (rng.random(10**6), rng.random(10**6)), 10, 1,
         None, None, loops),
        (f"triad loop into an argument, {size} f64", "triad",
         (np.empty(n), rng.random(n), rng.random(n), np.float64(3.0)), 7, 1, 4 * 8 * n, None,
         ("grafo", "numba")),
        ("Mandelbrot 200x100, 200 iters", "mandelbrot",
         (np.int64(200), np.int64(100), np.int64(200)), 5, 1, None, None, loops),
    ]
    grid = rng.random((68, 68, 32))   # 64 x 64 x 32 with a halo of 2 in i and j
    cases.append(("horizontal diffusion 64x64x32 f64 (20 slices, into an argument)", "hdiff",
                  (np.empty((64, 64, 32)), grid, rng.random((64, 64, 32))), 15, 1,
                  None, None, loops))
    cases.append(("mask reduction v[m].mean(), 50 bins of 1e5 f64 in a loop", "mask_bins",
                  (rng.random(10**5), rng.random(10**5), np.linspace(0.0, 1.0, 51),
                   np.empty(50)), 10, 1, None, None, loops))
    cases.append(("CRC-16 loop on Python ints, 1e6 u8", "crc16",
                  (rng.integers(0, 256, 10**6, dtype=np.uint8),), 7, 1, None, None,
                  ("grafo", "numba")))
    for dt in ("f32", "f64"):   # products of n >= 48 (48^3 multiply-adds) call NumPy's BLAS
        for m in (64, 256, 1024, 2048):
            a, b = (f32(m, m) if dt == "f32" else rng.random((m, m)) for _ in range(2))
            cases.append((f"matmul {m}x{m} {dt}", "matmul", (a, b), 5 if m >= 1024 else 20,
                          max(1, 10**6 // m**2), None, 2 * m**3, arrays))
    tall, skinny = rng.random((20000, 64)), rng.random((64, 64))
    cases.append(("matmul tall-skinny 20000x64 by 64x64, f64", "matmul", (tall, skinny), 10, 1,
                  None, 2 * 20000 * 64 * 64, ("numpy", "grafo")))
    at, bt = rng.random((1024, 1024)), rng.random((1024, 1024))
    cases.append(("matmul a.T @ b 1024x1024, f64", "matmul_transposed", (at, bt), 5, 1, None,
                  2 * 1024**3, ("numpy", "grafo")))
    ba, bb = rng.random((64, 128, 128)), rng.random((64, 128, 128))
    cases.append(("batched matmul 64 of 128x128, f64", "matmul", (ba, bb), 10, 1, None,
                  2 * 64 * 128**3, ("numpy", "grafo")))
    for m in (256, 1024, 2048):
        a, x = rng.random((m, m)), rng.random(m)
        cases.append((f"gemv {m}x{m} by a vector, f64", "matmul", (a, x), 20,
                      max(1, 10**6 // m**2), None, 2 * m**2, ("numpy", "grafo")))
    c = [rng.random((512, 512)) for _ in range(4)]
    cases.append(("chain 1.5*A@B@C - 0.5*D 512 f64", "matmul_chain",
                  (1.5, c[0], c[1], c[2], -0.5, c[3]), 10, 1, None, 4 * 512**3,
                  ("numpy", "grafo")))
    cases.append(("A.T @ (A @ x) 2048 f64", "normal_equations",
                  (rng.random((2048, 2048)), rng.random(2048)), 20, 1, None, 4 * 2048**2,
                  ("numpy", "grafo")))
    for shape in ((16, 16, 16), (100, 100, 100)):   # one thread's work, then many threads'
        x, y = rng.random(shape), rng.random(shape)
        z = rng.random(shape[:2] + (1,))
        count = f"{x.size}" if x.size < 10**5 else f"1e{len(str(x.size)) - 1}"
        name = f"polynomial, 50 terms, {count} f64 ({'x'.join(map(str, shape))}, one broadcast)"
        cases.append((name, "polynomial", (x, y, z), 15 if x.size < 10**5 else 7,
                      max(1, 10**5 // x.size), None, None, loops))
    for m in (64, 256, 1000):   # LU (2/3 m^3) and the two triangular solves (2 m^2 each)
        a, b = rng.random((m, m)) + m * np.eye(m), rng.random(m)
        cases.append((f"np.linalg.solve {m}x{m} f64, one right-hand side", "solve", (a, b), 15,
                      max(1, 10**5 // m**2), None, 2 * m**3 // 3 + 4 * m**2, ("numpy", "grafo")))
    return cases


COMPILE_SNIPPET = """
import sys, time
sys.path.insert(0, {benches!r}); sys.path.insert(0, {root!r})
import numpy as np
import kernels
x = np.ones(1000, dtype=np.float32)
t0 = time.perf_counter()
if {which!r} == "grafo":
    import compiler
    f = compiler.function(kernels.mse)
else:
    import numba
    f = numba.njit(kernels.mse)
t1 = time.perf_counter()
f(x, x)
print(time.perf_counter() - t1, t1 - t0)
"""


def _compile_latency(which: str, runs: int) -> dict | None:
    times = []
    for _ in range(runs):
        code = COMPILE_SNIPPET.format(benches=os.path.join(ROOT, "benches"), root=ROOT,
                                      which=which)
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        if r.returncode != 0:
            return None
        times.append(float(r.stdout.split()[0]))
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def run(quick: bool, only: str = "") -> dict:
    """One thread count's report; ``only``: comma-separated words, the cases whose name has
    one of them (all when empty)."""
    import numpy as np
    sys.path.insert(0, os.path.join(ROOT, "benches"))
    import kernels
    backends = _backends()
    results = []
    tri = _triad(backends)
    nb = 2 * 10**6 if quick else 2 * 10**7
    b, c = np.random.default_rng(1).random((2, nb))
    a = np.empty_like(b)
    t = _timeit(tri, (a, b, c, np.float64(3.0)), 10)
    bandwidth = 4 * 8 * nb / t["median"]
    words = [w for w in only.split(",") if w]
    for name, kname, args, repeat, number, nbytes, flops, which in _cases(np, quick):
        if words and not any(w in name for w in words):
            continue
        row = {"case": name, "bytes": nbytes, "flops": flops}
        fns = {b: backends[b](getattr(kernels, HAND_WRITTEN.get((kname, b), kname)))
               for b in which if b in backends}
        row["times"] = _measure(fns, args, repeat, number)
        g = row["times"].get("grafo", {}).get("median")
        if nbytes and g:
            row["grafo_bandwidth_fraction"] = nbytes / g / bandwidth
        if flops:
            row["gflops"] = {k: flops / v["median"] / 1e9 for k, v in row["times"].items()
                             if "median" in v}
        results.append(row)
        print(name, {k: (f"{v['median'] * 1e3:.3f} ms" if "median" in v else v["error"])
                     for k, v in row["times"].items()}, flush=True)
    latency = {"case": "compile latency: first call of mse in a fresh process", "times": {},
               "bytes": None, "flops": None}
    for which in ("grafo", "numba"):
        r = _compile_latency(which, 3)
        if r is not None:
            latency["times"][which] = r
    results.append(latency)
    import latency as compile_latency  # benches/latency.py: import, cache hit, scaling
    results += [row for row in compile_latency.rows(3, (10, 100) if quick else (10, 100, 1000))
                if row["case"] != latency["case"]]
    return {"machine": platform.processor() or platform.machine(),
            "cpu": cpu_model(), "blas": blas_kernel(), "cpu_count": os.cpu_count(),
            "threads": int(os.environ["OMP_NUM_THREADS"]),
            "triad_bandwidth_GBps": bandwidth / 1e9, "results": results}


def cpu_model() -> str:
    """The CPU's model name (``/proc/cpuinfo``, as ``lscpu`` shows it) and LLVM's name for
    it, which is what grafo tunes for: machines differ (AMD Zen 4, Intel Xeon with 512-bit
    FMA units) and a figure means little without them."""
    import llvmlite.binding as llvm
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            model = next(line.split(":", 1)[1].strip() for line in f
                         if line.startswith("model name"))
    except (OSError, StopIteration):
        pass
    return f"{model} (LLVM: {llvm.get_host_cpu_name()})"


def blas_kernel() -> str:
    """The BLAS NumPy runs and the kernel it chose, from threadpoolctl (e.g. "openblas
    0.3.29, SkylakeX kernel, 2 threads"); "unknown" without threadpoolctl."""
    import numpy  # noqa: F401  (threadpoolctl lists the libraries loaded)
    try:
        import threadpoolctl
    except ImportError:
        return "unknown (threadpoolctl is not installed)"
    blas = [i for i in threadpoolctl.threadpool_info() if i.get("user_api") == "blas"]
    return "; ".join(f"{i['internal_api']} {i.get('version') or ''}, "
                     f"{i.get('architecture') or 'unknown'} kernel, {i['num_threads']} threads"
                     for i in blas) or "none found"


def _fmt(t: dict) -> str:
    if "error" in t:
        return "n/a"
    unit, scale = ("ms", 1e3) if t["median"] >= 1e-3 else ("µs", 1e6)
    return f"{t['median'] * scale:.3g} {unit} ({t['min'] * scale:.3g}–{t['max'] * scale:.3g})"


def markdown(reports: list, command: str) -> str:
    """The Markdown page of ``reports`` (one per thread count)."""
    first = reports[0]
    lines = ["# Benchmarks", "",
             f"Made by `{command}` on {first.get('cpu', first['machine'])}, "
             f"{first['cpu_count']} CPUs; NumPy's BLAS: {first.get('blas', 'not recorded')}. "
             "Each section is one run at one thread count (see benches/run.py): grafo's "
             "parallel loops and OpenBLAS use that many threads, NumPy's ufuncs and Numba's "
             "`@njit` run on one. The STREAM-style triad bandwidth is measured at the same "
             "thread count (preallocated output, write-allocate counted). Times: median "
             "(min–max) per call. Ratios are medians, other / grafo: > 1 means grafo is "
             "faster.", ""]
    for report in reports:
        lines += [f"## {report['threads']} thread(s)", "",
                  f"Triad bandwidth: {report['triad_bandwidth_GBps']:.1f} GB/s.", ""]
        lines += _table(report)
        lines.append("")
    return "\n".join(lines)


def _table(report: dict) -> list:
    names = ["numpy", "grafo", "numba", "jax", "tensorflow"]
    names = [n for n in names if any(n in r["times"] for r in report["results"])]
    head = ["case"] + [f"{n} median (min–max)" for n in names] \
        + [f"{n} / grafo" for n in names if n != "grafo"] + ["grafo notes"]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    for r in report["results"]:
        t = r["times"]
        g = t.get("grafo", {}).get("median")
        cells = [r["case"]] + [_fmt(t[n]) if n in t else "" for n in names]
        for n in names:
            if n == "grafo":
                continue
            ok = n in t and "median" in t[n] and g
            cells.append(f"{t[n]['median'] / g:.2f}" if ok else "")
        notes = []
        if "grafo_bandwidth_fraction" in r:
            notes.append(f"{100 * r['grafo_bandwidth_fraction']:.0f}% of triad bandwidth")
        if r.get("gflops"):
            notes.append(", ".join(f"{k} {v:.1f}" for k, v in r["gflops"].items()) + " GFLOP/s")
        cells.append("; ".join(notes))
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def plot(report: dict, path: str) -> bool:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return False
    rows = [r for r in report["results"] if "median" in r["times"].get("grafo", {})]
    others = [n for n in ("numpy", "numba", "jax", "tensorflow")
              if any(n in r["times"] for r in rows)]
    fig, ax = plt.subplots(figsize=(10, 0.45 * len(rows) + 1.5))
    height = 0.8 / max(len(others), 1)
    for k, n in enumerate(others):
        ys, xs = [], []
        for i, r in enumerate(rows):
            if "median" in r["times"].get(n, {}):
                ys.append(i + k * height)
                xs.append(r["times"][n]["median"] / r["times"]["grafo"]["median"])
        ax.barh(ys, xs, height=height, label=n)
    ax.axvline(1.0, color="black", linewidth=0.8)
    ax.set_xscale("log")
    ax.set_yticks([i + 0.4 - height / 2 for i in range(len(rows))])
    ax.set_yticklabels([r["case"] for r in rows], fontsize=8)
    ax.set_xlabel(f"time / grafo's time (> 1: grafo is faster), {report['threads']} thread(s)")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    return True


def _run_child(threads: int, quick: bool, only: str = "") -> dict:
    """One thread count's report, from a fresh process (thread counts are fixed at import)."""
    with tempfile.TemporaryDirectory(prefix="grafo-bench-") as d:
        path = os.path.join(d, "report.json")
        cmd = [sys.executable, os.path.abspath(__file__), "--threads", str(threads),
               "--report", path, "--only", only] + (["--quick"] if quick else [])
        subprocess.run(cmd, check=True)
        with open(path) as f:
            return json.load(f)


def fresh_folder(base: str) -> str:
    """A new folder ``<base>/<date>-<time>`` (with a ``-2``, ``-3``, ... suffix when a run in
    the same second made one), created with its parents."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path, k = os.path.join(base, stamp), 1
    while True:
        try:
            os.makedirs(path)
            return path
        except FileExistsError:
            k += 1
            path = os.path.join(base, f"{stamp}-{k}")


def write(out: str, reports: list, command: str) -> list:
    """Write the page, the JSON and the plot of ``reports`` into the folder ``out`` (created
    if missing); the paths written."""
    os.makedirs(out, exist_ok=True)
    paths = [os.path.join(out, f"benchmarks.{ext}") for ext in ("md", "json", "png")]
    with open(paths[1], "w") as f:
        json.dump({"command": command, "runs": reports}, f, indent=1)
    with open(paths[0], "w") as f:
        f.write(markdown(reports, command))
    return paths if plot(reports[0], paths[2]) else paths[:2]


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--threads", default=f"{os.cpu_count() or 1},1",
                   help="comma-separated thread counts, one run each (default: all CPUs, 1)")
    p.add_argument("--quick", action="store_true", help="smaller inputs (a smoke test)")
    p.add_argument("--out", help="folder for the results (default: a new folder under "
                   "benches/results/; --out docs regenerates docs/benchmarks.*)")
    p.add_argument("--only", default="", help="comma-separated words: run only the cases "
                   "whose name contains one of them")
    p.add_argument("--report", help=argparse.SUPPRESS)   # child: one run's JSON to this path
    args = p.parse_args(argv)
    counts = list(dict.fromkeys(int(n) for n in args.threads.split(",")))
    if args.report:
        _set_threads(counts[0])
        sys.path.insert(0, ROOT)
        with open(args.report, "w") as f:
            json.dump(run(args.quick, args.only), f)
        return
    reports = [_run_child(n, args.quick, args.only) for n in counts]
    command = "python benches/run.py " + " ".join(argv if argv is not None else sys.argv[1:])
    paths = write(args.out or fresh_folder(RESULTS), reports, command.strip())
    with open(paths[0]) as f:
        print(f.read())
    print("wrote", ", ".join(paths))


if __name__ == "__main__":
    main()
