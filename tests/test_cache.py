"""The on-disk compilation cache: a second process loads instead of compiling, concurrent
writers never corrupt an entry, damaged entries are compiled again, keys follow the source."""

import importlib.util
import json
import os
import subprocess
import sys

import aot_functions as F
import numpy as np
import pytest

import compiler
import runtime.artifact
from compiler import cache

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)

SCRIPT = """
import json, sys
import numpy as np
import compiler
import aot_functions as F
f = compiler.function(F.smooth, cache=True)
x = np.linspace(0, 1, 50)
y = f(x)
cf = f.get_concrete_function(x)
print(json.dumps({"tracing_count": f.tracing_count, "timings": sorted(cf.timings),
                  "jit": "compiler.backend.llvm.jit" in sys.modules,
                  "ok": bool(np.allclose(y, F.smooth(x)))}))
"""


def run_script(cache_dir):
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, TESTS]),
           "GRAFO_CACHE_DIR": str(cache_dir)}
    return subprocess.Popen([sys.executable, "-c", SCRIPT], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def result(proc):
    out, err = proc.communicate(timeout=300)
    assert proc.returncode == 0, err
    return json.loads(out.splitlines()[-1])


def test_second_process_loads_from_cache(tmp_path):
    first = result(run_script(tmp_path))
    stages = ["frontend", "llvm-ir", "llvm-opt", "loops", "machine-code", "optimized"]
    assert first == {"tracing_count": 1, "timings": stages, "jit": True, "ok": True}
    entries = [p for p in os.listdir(tmp_path) if p.endswith(".grafo")]
    assert len(entries) == 1 and entries[0].startswith("smooth-")
    second = result(run_script(tmp_path))
    assert second == {"tracing_count": 0, "timings": ["load"], "jit": False, "ok": True}


def test_concurrent_writers(tmp_path):
    procs = [run_script(tmp_path) for _ in range(6)]
    assert all(result(p)["ok"] for p in procs)
    assert [p for p in os.listdir(tmp_path)] == [p for p in os.listdir(tmp_path)
                                                 if p.endswith(".grafo")]
    assert len(os.listdir(tmp_path)) == 1
    assert result(run_script(tmp_path))["tracing_count"] == 0


def _flip_middle_byte(data: bytes) -> bytes:
    k = len(data) // 2
    return data[:k] + bytes([data[k] ^ 0xFF]) + data[k + 1:]


@pytest.mark.parametrize("damage", [lambda b: b[:100], lambda b: b"not an artifact",
                                    lambda b: b"", _flip_middle_byte],
                         ids=["truncated", "garbage", "empty", "flipped-byte"])
def test_damaged_entry_is_compiled_again(tmp_path, monkeypatch, damage):
    monkeypatch.setenv("GRAFO_CACHE_DIR", str(tmp_path))
    x = np.linspace(0, 1, 5)
    compiler.function(F.smooth, cache=True)(x)
    (entry,) = tmp_path.iterdir()
    good = entry.read_bytes()
    entry.write_bytes(damage(good))
    f = compiler.function(F.smooth, cache=True)
    np.testing.assert_allclose(f(x), F.smooth(x))
    assert f.tracing_count == 1
    assert list(tmp_path.iterdir()) == [entry]
    g = compiler.function(F.smooth, cache=True)
    g(x)
    assert g.tracing_count == 0


def test_entry_holding_another_functions_artifact_is_replaced(tmp_path, monkeypatch):
    # Regression: entries were loaded without checking their key, so another function's
    # artifact copied over an entry ran that function's code and was never repaired.
    monkeypatch.setenv("GRAFO_CACHE_DIR", str(tmp_path))
    x = np.linspace(0, 1, 5)
    compiler.function(F.smooth, cache=True)(x)
    (smooth_entry,) = tmp_path.iterdir()
    compiler.function(F.helper, cache=True)(x)
    (helper_entry,) = set(tmp_path.iterdir()) - {smooth_entry}
    helper_entry.write_bytes(smooth_entry.read_bytes())   # same signature: it would load
    f = compiler.function(F.helper, cache=True)
    np.testing.assert_allclose(f(x), F.helper(x))
    assert f.tracing_count == 1
    manifest = runtime.artifact.read(helper_entry).manifest
    key = cache.key(F.helper, ["x"], [compiler.TensorSpec((5,), "float64").to_type()], None)
    assert manifest["cache_key"] == key
    assert [e["function"] for e in manifest["entries"]] == ["helper"]
    assert sorted(tmp_path.iterdir()) == sorted([smooth_entry, helper_entry])
    g = compiler.function(F.helper, cache=True)
    np.testing.assert_allclose(g(x), F.helper(x))
    assert g.tracing_count == 0


def test_key_follows_sources_globals_and_signature(monkeypatch):
    args = [compiler.TensorSpec((None,), "float64").to_type()]
    base = cache.key(F.smooth, ["x"], args, None)
    assert base == cache.key(F.smooth, ["x"], args, None)
    assert base != cache.key(F.smooth, ["x"], [compiler.TensorSpec((3,), "float64").to_type()],
                             None)
    assert base != cache.key(F.smooth, ["x"], args, "canonicalize")
    monkeypatch.setattr(F, "SCALE", 3.0)   # read by the callee helper
    assert base != cache.key(F.smooth, ["x"], args, None)


def test_uncacheable_function_still_compiles(tmp_path, monkeypatch):
    monkeypatch.setenv("GRAFO_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(F, "SCALE", object())
    assert cache.key(F.smooth, ["x"], [], None) is None
    f = compiler.function(F.affine, cache=True)
    np.testing.assert_allclose(f(np.ones(2), np.ones(2)), F.affine(np.ones(2), np.ones(2)))


def test_key_covers_module_attributes(tmp_path, monkeypatch):
    # Regression: a module reached through a global was hashed by name only, so edits to
    # `helper.h` / `helper.SCALE` read as `helper.h(x) + helper.SCALE` reused stale code.
    (tmp_path / "grafo_key_helper.py").write_text(
        "SCALE = 10\ndef h(x):\n    return x * 2\ndef h5(x):\n    return x * 5\n")
    (tmp_path / "grafo_key_main.py").write_text(
        "import grafo_key_helper as helper\n"
        "def f(x):\n    return helper.h(x) + helper.SCALE\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    import grafo_key_helper as helper
    import grafo_key_main as main
    base = cache.key(main.f, ["x"], [], None)
    assert base is not None and cache.key(main.f, ["x"], [], None) == base
    monkeypatch.setattr(helper, "SCALE", 100)
    scaled = cache.key(main.f, ["x"], [], None)
    assert scaled not in (None, base)
    monkeypatch.setattr(helper, "h", helper.h5)
    assert cache.key(main.f, ["x"], [], None) not in (None, base, scaled)


MOVED = """import numpy as np

def at(x, i):
    return x[i]

def pick(x, i):
    return at(x, i) * 2.0
"""


def test_a_hit_for_moved_source_reports_where_it_is_now(tmp_path, monkeypatch):
    # The key is the source text, not its position: a hit for a function moved down its
    # file (or into a new notebook kernel's cell) must name the lines it has now.
    monkeypatch.setenv("GRAFO_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "grafo_moved.py"
    x = np.arange(3.0)

    def load(text):
        path.write_text(text)
        spec = importlib.util.spec_from_file_location("grafo_moved", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        f = compiler.function(module.pick, cache=True)
        assert f(x, np.int64(1)) == 2.0
        with pytest.raises(IndexError) as e:
            f(x, np.int64(7))
        return f.concrete_functions()[0], str(e.value)

    cf, error = load(MOVED)
    assert f'File "{path}", line 4, column 12' in error
    assert f'loc("{path}":4:12)' in cf.ir
    cf, error = load("# one\n# two\n# three\n" + MOVED)
    assert sorted(cf.timings) == ["load"]
    assert f'File "{path}", line 7, column 12' in error and "return x[i]" in error
    assert f'loc("{path}":7:12)' in cf.ir and f'loc("{path}":4:12)' not in cf.ir
    assert [(s["function"], s["line"]) for s in cf.compiled.record["sources"]] == [
        ("grafo_moved.pick", 9), ("grafo_moved.at", 6)]


def _decorated(fn):
    return fn


@_decorated
def _spread_out(x,
                y=(1,
                   2)):
    """A docstring
    over lines."""
    def inner(z):
        return (z +
                1)
    return inner(x) + y[0]   # a comment


def test_key_source_is_the_source_inspect_reads():
    """The key's source lines (read without tokenizing) are ``inspect.getsourcelines``'s, for
    decorated, nested and multi-line functions."""
    import inspect

    from compiler.aot.sources import source_lines
    for fn in [_spread_out, F.smooth, F.affine, *[v for v in vars(F).values()
                                                  if inspect.isfunction(v)]]:
        assert source_lines(fn) == inspect.getsourcelines(fn), fn.__name__
    with pytest.raises(TypeError):
        source_lines(np.sin)
    code = compile("def g():\n    return 1\n", "<no file>", "exec")
    namespace = {}
    exec(code, namespace)
    with pytest.raises(OSError):
        source_lines(namespace["g"])
