"""grafo demo: compile real NumPy functions, show IR, run them natively, check each against
NumPy and time both. Exits with status 1 if any compiled result differs from NumPy's.

Run: python examples/demo.py
"""

import os
import sys
import timeit

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import kernels as K  # noqa: E402

import compiler  # noqa: E402


def cases():
    rng = np.random.default_rng(0)
    f32 = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    yield "mse", K.mse, (f32(1_000_000), f32(1_000_000))
    yield "a_regular_function", K.a_regular_function, (f32(1, 2), f32(2, 2), f32(1, 2))
    yield "outer_function", K.outer_function, (np.array([[1.0, 2.0]]),)
    yield "simple_relu", K.simple_relu, (np.float32(3.0),)
    yield "my_relu", K.my_relu, (np.array([3.0, -3.0]),)
    yield "get_MSE", K.get_MSE, (rng.integers(0, 10, 1000, dtype=np.int32),
                                 rng.integers(0, 10, 1000, dtype=np.int32))
    yield "power", K.power, (rng.integers(-3, 4, (10, 10), dtype=np.int32), 100)
    yield "rosenbrock", K.rosenbrock, (f32(1_000_000).astype(np.float64),)
    yield "row_l2_norm", K.row_l2_norm, (f32(2000, 500),)
    yield "softmax", K.softmax, (f32(2000, 500),)
    yield "laplacian", K.laplacian, (f32(1000, 1000),)
    yield "go_fast", K.go_fast, (np.arange(10_000, dtype=np.float64).reshape(100, 100),)
    yield "gemm", K.gemm, (1.5, f32(256, 256), f32(256, 256), 0.5, f32(256, 256))


def same(got, want) -> bool:
    got, want = np.asarray(got), np.asarray(want)
    if got.dtype != want.dtype or got.shape != want.shape:
        return False
    if want.dtype.kind == "f":
        tol = 1e-4 if want.dtype == np.float32 else 1e-10
        return bool(np.allclose(got, want, rtol=tol, atol=tol, equal_nan=True))
    return bool(np.array_equal(got, want))


def median_time(fn, args, budget=0.2) -> float:
    n = max(1, int(budget / max(timeit.timeit(lambda: fn(*args), number=1), 1e-7)))
    runs = timeit.repeat(lambda: fn(*args), number=n, repeat=5)
    return sorted(runs)[2] / n


def main() -> int:
    cf = compiler.compile(K.mse, "f32[?], f32[?]")
    print("IR of mse for signature", cf.signature, "(optimized):")
    print("\n".join(cf.ir.splitlines()[:12]))
    print()
    print(f"{'function':<20}{'ok':>5}{'compile ms':>12}{'numpy us':>12}{'grafo us':>12}"
          f"{'speedup':>9}")
    failures = 0
    for name, fn, args in cases():
        f = compiler.function(fn)
        t0 = timeit.default_timer()
        got = f(*args)
        t_compile = timeit.default_timer() - t0
        want = fn(*args)
        ok = same(got, want)
        failures += not ok
        t_np, t_gr = median_time(fn, args), median_time(f, args)
        print(f"{name:<20}{'yes' if ok else 'NO':>5}{t_compile * 1e3:>12.1f}{t_np * 1e6:>12.1f}"
              f"{t_gr * 1e6:>12.1f}{t_np / t_gr:>8.2f}x")
    print()
    print("all results equal NumPy's" if not failures else f"{failures} result(s) differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
