"""First-call time of a compiled function in a fresh process, with the on-disk cache cold
(empty directory: compile + write the entry) and warm (load the entry, no code generation).

    python benches/cache.py [--runs N]

Each run starts a new Python process that imports grafo, decorates a function with
``@compiler.function(cache=True)`` and times its first call (compilation or cache load plus
the call). Prints the median of N runs of each and the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

KERNEL = '''
import numpy as np

def kernel(x, y):
    d = x - y
    s = np.sqrt(d * d + 1.0)
    return np.sum(np.tanh(s) * x) / x.shape[0], np.maximum(s, y)
'''

PROBE = '''
import sys, time
sys.path.insert(0, sys.argv[1])
import numpy as np
import compiler
from cache_kernel import kernel
x = np.random.rand(10000); y = np.random.rand(10000)
f = compiler.function(kernel, cache=True)
t0 = time.perf_counter()
f(x, y)
print(time.perf_counter() - t0)
'''


def first_call(module_dir: str, cache_dir: str) -> float:
    env = {**os.environ, "GRAFO_CACHE_DIR": cache_dir,
           "PYTHONPATH": os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")])}
    out = subprocess.run([sys.executable, "-c", PROBE, module_dir], env=env, check=True,
                         capture_output=True, text=True).stdout
    return float(out.split()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="processes per setting")
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "cache_kernel.py"), "w") as f:
            f.write(KERNEL)
        cold, warm = [], []
        for i in range(runs):
            cache_dir = os.path.join(d, f"cache{i}")
            cold.append(first_call(d, cache_dir))
            warm.append(first_call(d, cache_dir))
    c, w = statistics.median(cold), statistics.median(warm)
    print(f"first call, median of {runs} processes")
    print(f"  cold cache (compile + store): {c * 1e3:8.1f} ms")
    print(f"  warm cache (load artifact):   {w * 1e3:8.1f} ms")
    print(f"  speed-up:                     {c / w:8.1f}x")


if __name__ == "__main__":
    main()
