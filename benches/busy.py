"""Parallel loops on a busy machine: MSE on 10^7 float32 with and without a competing process.

    python benches/busy.py [--n N] [--repeat R] [--policy default,passive,...]

Each configuration runs in a fresh process (libgomp reads its settings once, when grafo loads
it): 1 thread and every CPU (``OMP_NUM_THREADS``), each with grafo's default wait policy and
with the policies named by ``--policy`` (``passive``, ``active``: ``OMP_WAIT_POLICY``; a
number: ``GOMP_SPINCOUNT``). In each process MSE is timed idle, then while a busy process (a
Python loop spinning, bound to the last CPU) holds one core, then idle again. Prints the
median (min-max) per call of R calls after warm-up calls, in milliseconds; the target of
``runtime/parallel.py``'s default is that the threaded median with the busy process is never
above the single-threaded one.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SPIN = "import os, sys\nos.sched_setaffinity(0, {int(sys.argv[1])})\nwhile True:\n    pass\n"
_OMP = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT", "OMP_NUM_THREADS")


def _time(fn, args, repeat: int) -> dict:
    for _ in range(5):
        fn(*args)
    samples = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        samples.append(time.perf_counter() - t0)
    return {"median": statistics.median(samples), "min": min(samples), "max": max(samples)}


def _child(n: int, repeat: int) -> None:
    """Runs in the configured process: prints {"idle": ..., "busy": ...} as JSON."""
    import numpy as np

    sys.path.insert(0, os.path.join(ROOT, "benches"))
    import kernels

    import compiler
    rng = np.random.default_rng(0)
    a, b = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    fn = compiler.function(kernels.mse)
    idle = [_time(fn, (a, b), repeat)]
    cpu = max(os.sched_getaffinity(0))
    spinner = subprocess.Popen([sys.executable, "-c", SPIN, str(cpu)])
    try:
        time.sleep(0.2)
        busy = _time(fn, (a, b), repeat)
    finally:
        spinner.kill()
        spinner.wait()
    time.sleep(0.2)
    idle.append(_time(fn, (a, b), repeat))
    best = min(idle, key=lambda t: t["median"])
    print(json.dumps({"idle": best, "busy": busy}))


def _run(threads: int, policy: str, n: int, repeat: int) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _OMP}
    env["OMP_NUM_THREADS"] = str(threads)
    if policy in ("passive", "active"):
        env["OMP_WAIT_POLICY"] = policy
    elif policy != "default":
        env["GOMP_SPINCOUNT"] = policy
    env["PYTHONPATH"] = os.pathsep.join([ROOT, env.get("PYTHONPATH", "")])
    out = subprocess.run([sys.executable, __file__, "--child", "--n", str(n),
                          "--repeat", str(repeat)], env=env, capture_output=True, text=True,
                         check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def _ms(t: dict) -> str:
    return f"{t['median'] * 1e3:.2f} ms ({t['min'] * 1e3:.2f}-{t['max'] * 1e3:.2f})"


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--n", type=int, default=10**7)
    p.add_argument("--repeat", type=int, default=31)
    p.add_argument("--policy", default="", help="comma-separated policies besides grafo's")
    p.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.child:
        _child(args.n, args.repeat)
        return 0
    cpus = len(os.sched_getaffinity(0))
    policies = ["default"] + [x for x in args.policy.split(",") if x]
    print(f"MSE on {args.n:.0e} float32, {cpus} CPUs; median (min-max) per call")
    print("| threads | wait policy | idle | one core busy |")
    print("|---|---|---|---|")
    for policy in policies:
        for threads in sorted({1, cpus}):
            r = _run(threads, policy, args.n, args.repeat)
            name = "grafo's default" if policy == "default" else policy
            print(f"| {threads} | {name} | {_ms(r['idle'])} | {_ms(r['busy'])} |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
