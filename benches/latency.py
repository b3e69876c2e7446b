"""Compile latency and compile-time scaling, each measured in fresh Python processes.

    python benches/latency.py [--runs N] [--lines 10,100,1000]

Rows (``benches/run.py`` adds them to its report):

- ``import compiler`` next to ``import numpy`` alone (NumPy's import counts against grafo's);
- the first call of ``kernels.mse`` on 1000 float32 (compilation and the call);
- the first call with ``cache=True`` and a warm disk cache (the key, loading the entry, the
  call);
- compile time of straight-line array code of 10/100/1,000 lines (``y = y * c + x * c``, with
  ``x = np.sin(x) + y * k`` every third line), with the size of its optimized LLVM IR.

Times are medians (min-max) over ``--runs`` processes. On a shared machine compare a row with
its neighbours of the same run (``import numpy`` for the import row), not across runs.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

_PRELUDE = """
import sys, time
sys.path.insert(0, {benches!r}); sys.path.insert(0, {root!r})
"""

IMPORT = _PRELUDE + """
t0 = time.perf_counter()
import {module}
print(time.perf_counter() - t0)
"""

FIRST_CALL = _PRELUDE + """
import numpy as np
import compiler
import kernels
x = np.ones(1000, dtype=np.float32)
f = compiler.function(kernels.mse, cache={cache})
t0 = time.perf_counter()
f(x, x)
print(time.perf_counter() - t0)
"""

SCALING = _PRELUDE + """
import json
import numpy as np
import compiler
lines = ["def straight(x, y, c, k):"]
for i in range({n}):
    lines.append("    x = np.sin(x) + y * k" if i % 3 == 2 else "    y = y * c + x * c")
lines.append("    return x + y")
namespace = {{"np": np}}
exec(compile("\\n".join(lines) + "\\n", "<straight>", "exec"), namespace)
import linecache
linecache.cache["<straight>"] = (0, None, [s + "\\n" for s in lines], "<straight>")
t0 = time.perf_counter()
cf = compiler.compile(namespace["straight"], "f64[?], f64[?], f64, f64")
t = time.perf_counter() - t0
print(json.dumps({{"seconds": t, "llvm_ir_bytes": len(cf.llvm_ir)}}))
"""


def _run(code: str, env: dict | None = None) -> str:
    env = {**os.environ, **(env or {})}
    return subprocess.run([sys.executable, "-c", code], env=env, check=True,
                          capture_output=True, text=True).stdout.split("\n")[-2]


def _stats(times: list) -> dict:
    return {"median": statistics.median(times), "min": min(times), "max": max(times)}


def _code(template: str, **kw) -> str:
    return template.format(benches=os.path.join(ROOT, "benches"), root=ROOT, **kw)


def import_times(runs: int) -> dict:
    """``import numpy`` and ``import compiler`` in fresh processes (seconds)."""
    out = {"numpy": [], "grafo": []}
    for _ in range(runs):
        out["numpy"].append(float(_run(_code(IMPORT, module="numpy"))))
        out["grafo"].append(float(_run(_code(IMPORT, module="compiler"))))
    return {k: _stats(v) for k, v in out.items()}


def first_call(runs: int) -> dict:
    return _stats([float(_run(_code(FIRST_CALL, cache=False))) for _ in range(runs)])


def cache_hit(runs: int) -> dict:
    """The first call with a warm disk cache (an entry written by one process beforehand)."""
    with tempfile.TemporaryDirectory() as d:
        env = {"GRAFO_CACHE_DIR": d}
        _run(_code(FIRST_CALL, cache=True), env)
        return _stats([float(_run(_code(FIRST_CALL, cache=True), env)) for _ in range(runs)])


def compile_scaling(n: int, timeout: float = 300) -> dict | None:
    """Compile time (seconds) and optimized LLVM IR size of ``n`` lines of straight-line array
    code; None when it does not finish within ``timeout`` seconds."""
    try:
        r = subprocess.run([sys.executable, "-c", _code(SCALING, n=n)], capture_output=True,
                           text=True, timeout=timeout, check=True)
    except subprocess.TimeoutExpired:
        return None
    return json.loads(r.stdout.split("\n")[-2])


def rows(runs: int = 5, lines=(10, 100, 1000)) -> list:
    """The report rows of ``benches/run.py`` (``case``, ``times``, ``bytes``, ``flops``)."""
    out = [{"case": "compile latency: import compiler (vs import numpy alone)",
            "times": import_times(runs)},
           {"case": "compile latency: first call of mse in a fresh process",
            "times": {"grafo": first_call(runs)}},
           {"case": "compile latency: cache=True hit of mse in a fresh process",
            "times": {"grafo": cache_hit(runs)}}]
    for n in lines:
        r = compile_scaling(n)
        t = {"error": "over 300 s"} if r is None else {
            "median": r["seconds"], "min": r["seconds"], "max": r["seconds"]}
        case = f"compile time: {n} lines of straight-line array code"
        if r is not None:
            case += f" ({r['llvm_ir_bytes'] / 1e3:.0f} kB of LLVM IR)"
        out.append({"case": case, "times": {"grafo": t}})
    for row in out:
        row.update(bytes=None, flops=None)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per latency row")
    parser.add_argument("--lines", default="10,100,1000", help="sizes of the scaling rows")
    args = parser.parse_args()
    for row in rows(args.runs, [int(n) for n in args.lines.split(",") if n]):
        times = {k: (f"{v['median'] * 1e3:.1f} ms ({v['min'] * 1e3:.1f}-{v['max'] * 1e3:.1f})"
                     if "median" in v else v["error"]) for k, v in row["times"].items()}
        print(f"{row['case']}: {times}", flush=True)


if __name__ == "__main__":
    main()
