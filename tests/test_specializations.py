"""The lifetime of specializations: freeing a Function (or ``clear_cache``/``clear_caches``)
frees their native code and memory, ``max_specializations`` keeps the least recently used
ones alive up to a bound, and a ConcreteFunction someone holds keeps its code."""

import gc
import json
import os
import pickle
import subprocess
import sys
import warnings
import weakref

import numpy as np
import pytest

import compiler
from compiler.frontend import source

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def affine(x, k):
    return x * k + 1.0


def double(x):
    return x * 2.0


def constants(f) -> list:
    """The Python-float constant ``k`` of each live concrete function of ``f``, in order."""
    return sorted(cf.args[1].value for cf in f.concrete_functions())


@pytest.fixture(autouse=True)
def quiet_retracing():
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "affine: argument 'k' changed value")
        yield


MEMORY_SCRIPT = """
import gc, json, os, warnings, weakref
import numpy as np
import compiler

warnings.simplefilter("ignore")


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def affine(x, k):
    return x * k + 1.0


x = np.ones(8)
warm = compiler.function(affine)   # the compiler's imports and caches, before the baseline
for i in range(10):
    warm(x, i + 0.5)
del warm
gc.collect()
base = rss_mb()
f = compiler.function(affine)
for i in range({n}):
    f(x, i + 0.25)
natives = [weakref.ref(cf.compiled.native) for cf in f.concrete_functions()]
gc.collect()
peak = rss_mb()
del f
gc.collect()
print(json.dumps({{"live": len(natives), "peak": peak - base, "after": rss_mb() - base,
                  "alive": sum(w() is not None for w in natives)}}))
"""


def test_deleting_a_function_frees_its_specializations(tmp_path):
    # Regression: each specialization took about 1.05 MB (an MCJIT engine per module that
    # built the host's code generator tables, the IR modules of every stage) and `del f`
    # gave back little: 200 of them left about 205 MB behind (peak 210 MB). Now the process
    # grows by about 0.18 MB per specialization, of which about 0.09 MB per compilation
    # stays inside llvmlite's pass builder; the bounds leave room for the allocator keeping
    # freed pages.
    n = 200
    script = tmp_path / "memory_check.py"
    script.write_text(MEMORY_SCRIPT.format(n=n))
    env = {**os.environ, "PYTHONPATH": ROOT,
           "GRAFO_MAX_SPECIALIZATIONS": "0"}   # all stay alive until `del f`
    out = subprocess.run([sys.executable, str(script)], env=env, capture_output=True,
                         text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    m = json.loads(out.stdout.splitlines()[-1])
    assert m["live"] == n
    assert m["alive"] == 0
    assert m["peak"] < 0.6 * n, m
    assert m["after"] < 0.4 * n, m


def test_least_recently_used_specialization_is_dropped():
    f = compiler.function(affine, max_specializations=3)
    x = np.arange(4.0)
    for k in (0.0, 1.0, 2.0):
        f(x, k)
    f(x, 0.0)   # 1.0 is now the least recently used
    f(x, 3.0)
    assert constants(f) == [0.0, 2.0, 3.0]
    assert f.tracing_count == 4
    np.testing.assert_array_equal(f(x, 1.0), x * 1.0 + 1.0)   # compiles again
    assert f.tracing_count == 5
    assert constants(f) == [0.0, 1.0, 3.0]


def test_bound_holds_for_arrays_on_the_native_dispatch_path():
    f = compiler.function(double, max_specializations=2)
    a, b, c = np.ones(1), np.ones(2), np.ones(3)
    f(a)
    f(b)
    entry_b = f.__call__   # the generated entry of `b`, rebound to the dispatcher
    for _ in range(3):   # it sends `a` back to the dispatcher
        f(a)
    f(c)
    assert sorted(cf.args[0].shape for cf in f.concrete_functions()) == [(1,), (3,)]
    gc.collect()
    np.testing.assert_array_equal(entry_b(b), b * 2.0)   # it keeps the dropped code
    np.testing.assert_array_equal(f(b), b * 2.0)
    assert f.tracing_count == 4


def test_retracing_loop_keeps_a_bounded_number_of_modules_alive():
    f = compiler.function(affine, max_specializations=4)
    x = np.ones(3)
    modules = []
    for i in range(12):
        np.testing.assert_array_equal(f(x, i + 0.5), x * (i + 0.5) + 1.0)
        modules.append(weakref.ref(f.get_concrete_function(x, i + 0.5).compiled.native))
        assert len(f.concrete_functions()) <= 4
    gc.collect()
    assert [m() is not None for m in modules] == [False] * 8 + [True] * 4
    assert f.tracing_count == 12


def test_reduce_retracing_drops_every_key_of_a_specialization():
    f = compiler.function(double, reduce_retracing=True, max_specializations=1)
    f(np.ones(3))
    f(np.ones(4))   # one with a dynamic dim replaces the one for 3 elements
    (cf,) = f.concrete_functions()
    assert cf.signature == "f64[?]"
    np.testing.assert_array_equal(f(np.ones(3)), np.full(3, 2.0))
    assert f.tracing_count == 2


def test_held_concrete_function_outlives_its_function():
    f = compiler.function(affine, max_specializations=1)
    x = np.arange(3.0)
    cf = f.get_concrete_function(x, 2.0)
    entry = cf.entry
    f(x, 3.0)   # drops the held one from the Function
    assert constants(f) == [3.0]
    alive = weakref.ref(f)
    del f
    gc.collect()
    assert alive() is None
    np.testing.assert_array_equal(cf(x), x * 2.0 + 1.0)
    np.testing.assert_array_equal(entry(x), x * 2.0 + 1.0)
    assert "affine" in cf.ir and "fmul" in cf.llvm_ir and "affine:" in cf.asm
    assert list(cf.ir_stages) == ["frontend", "optimized", "loops"]


def test_clear_cache_frees_the_code_and_compiles_again():
    f = compiler.function(affine)
    x = np.arange(3.0)
    f(x, 1.0)
    f(x, 2.0)
    modules = [weakref.ref(cf.compiled.native) for cf in f.concrete_functions()]
    f.clear_cache()
    gc.collect()
    assert f.concrete_functions() == [] and [m() for m in modules] == [None, None]
    np.testing.assert_array_equal(f(x, 1.0), x + 1.0)
    assert f.tracing_count == 3


def test_clear_caches_empties_every_function_and_the_source_cache():
    f, g = compiler.function(affine), compiler.function(double, input_signature="f64[?]")
    x = np.arange(3.0)
    f(x, 1.0)
    g(x)
    assert source._CACHE
    compiler.clear_caches()
    assert f.concrete_functions() == g.concrete_functions() == [] and not source._CACHE
    np.testing.assert_array_equal(g(x), x * 2.0)
    assert g.tracing_count == 2


def test_max_specializations_from_the_environment(monkeypatch):
    x = np.ones(2)
    monkeypatch.setenv("GRAFO_MAX_SPECIALIZATIONS", "2")
    f = compiler.function(affine)
    for k in (1.0, 2.0, 3.0):
        f(x, k)
    assert constants(f) == [2.0, 3.0]
    monkeypatch.setenv("GRAFO_MAX_SPECIALIZATIONS", "0")   # no bound
    g = compiler.function(affine)
    for k in (1.0, 2.0, 3.0):
        g(x, k)
    assert constants(g) == [1.0, 2.0, 3.0]
    monkeypatch.setenv("GRAFO_MAX_SPECIALIZATIONS", "many")
    with pytest.raises(ValueError, match="GRAFO_MAX_SPECIALIZATIONS='many'"):
        compiler.function(affine)


@pytest.mark.parametrize("bad, error, message", [
    (-1, ValueError, "must be at least 0"), (2.5, TypeError, "must be an int, got float"),
    ("4", TypeError, "must be an int, got str"), (True, TypeError, "must be an int, got bool")])
def test_max_specializations_is_checked(bad, error, message):
    with pytest.raises(error, match=f"max_specializations {message}"):
        compiler.function(affine, max_specializations=bad)


def test_compiling_keeps_no_reference_to_the_python_function():
    # Regression: the frontend's source cache held each function, and with it the globals
    # and closure it captured, for the life of the process.
    def make():
        table = np.arange(4.0)

        def lookup(x):
            return x + table
        return lookup

    lookup = make()
    f = compiler.function(lookup)
    np.testing.assert_array_equal(f(np.ones(4)), np.arange(4.0) + 1.0)
    alive = weakref.ref(lookup)
    del f, lookup
    gc.collect()
    assert alive() is None


def _mapped_libraries() -> int:
    """How many loaded artifact libraries (``libgrafo.so`` files) this process maps."""
    with open("/proc/self/maps") as maps:
        return len({line.split()[-2] if line.rstrip().endswith("(deleted)") else
                    line.split()[-1] for line in maps if "libgrafo.so" in line})


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs /proc/self/maps")
def test_loaded_artifact_libraries_are_closed_when_freed():
    cf = compiler.function(double).get_concrete_function(np.ones(3))
    data = pickle.dumps(cf)
    before = _mapped_libraries()
    copies = [pickle.loads(data) for _ in range(5)]
    np.testing.assert_array_equal(copies[-1](np.ones(3)), np.full(3, 2.0))
    assert _mapped_libraries() == before + 5
    del copies
    gc.collect()
    assert _mapped_libraries() == before
