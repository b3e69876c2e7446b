"""Pickling ConcreteFunctions and Functions: artifact bytes travel, the code runs in another
process without compiling; dask.array.map_blocks on a process-based LocalCluster."""

import json
import os
import pickle
import subprocess
import sys

import aot_functions as F
import numpy as np
import pytest

import compiler

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)


def test_concrete_function_round_trip(same):
    cf = compiler.compile(F.dot_at, "f32[?], f32[?]")
    data = pickle.dumps(cf)
    assert b"np.sum" not in data   # no source, only the artifact and references
    back = pickle.loads(data)
    x = np.arange(8, dtype=np.float32)
    same(back(x, x), cf(x, x))
    assert back.signature == cf.signature and back.ir == cf.ir and back.timings.keys() == {"load"}
    with pytest.raises(IndexError, match="out of bounds"):
        back(x[:2], x[:2])
    assert pickle.loads(pickle.dumps(back))(x, x) == cf(x, x)


def test_function_round_trip_keeps_specializations(same):
    f = compiler.function(F.scaled)
    x = np.linspace(0, 1, 7)
    f(x, 2)
    f(x.astype(np.float32), 3)
    g = pickle.loads(pickle.dumps(f))
    assert g.tracing_count == 0
    same(g(x, 2), F.scaled(x, 2))
    same(g(x.astype(np.float32), 3), F.scaled(x.astype(np.float32), 3))
    assert g.tracing_count == 0
    same(g(x, 5), F.scaled(x, 5))   # a new specialization compiles: the function is importable
    assert g.tracing_count == 1


CHILD = """
import json, pickle, sys
import numpy as np
cf, f = pickle.load(sys.stdin.buffer)
x = np.linspace(0, 1, 9)
print(json.dumps([cf(x).tolist(), f(x, x).tolist(), f.tracing_count,
                  "compiler.backend.llvm.jit" in sys.modules]))
"""


def test_unpickle_in_another_process():
    cf = compiler.compile(F.smooth, "f64[?]")
    f = compiler.function(F.affine, input_signature="f64[?], f64[?]")
    x = np.linspace(0, 1, 9)
    f(x, x)
    out = subprocess.run([sys.executable, "-c", CHILD], input=pickle.dumps((cf, f)),
                         capture_output=True, check=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, TESTS])})
    assert json.loads(out.stdout) == [F.smooth(x).tolist(), F.affine(x, x).tolist(), 0, False]


def _worker_state():
    """Whether the code generator or LLVM was ever imported on this worker."""
    import sys
    return "compiler.backend.llvm.jit" in sys.modules, "llvmlite.binding" in sys.modules


def test_dask_map_blocks_on_process_cluster():
    da = pytest.importorskip("dask.array")
    distributed = pytest.importorskip("distributed")
    f = compiler.function(F.affine, input_signature="f64[?,?], f64[?,?]")
    rng = np.random.default_rng(3)
    a, b = rng.random((100, 60)), rng.random((100, 60))
    f(a[:2], b[:2])   # compiled here, once
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster, \
            distributed.Client(cluster) as client:
        x = da.from_array(a, chunks=(30, 25))
        y = da.from_array(b, chunks=(30, 25))
        got = da.map_blocks(f, x, y, dtype=np.float64, meta=np.empty((0, 0))).compute()
        states = client.run(_worker_state)
    np.testing.assert_array_equal(got, F.affine(a, b))
    assert len(states) == 2
    assert [tuple(s) for s in states.values()] == [(False, False)] * 2
    assert f.tracing_count == 1


SPAWN_SCRIPT = """
import multiprocessing as mp
import numpy as np
import compiler
G = 0
def fg(x):
    global G
    G += 1
    return x + G
def work(fn):
    return float(fn(np.ones(1))[0]), fg.__globals__["G"]
if __name__ == "__main__":
    cf = compiler.compile(fg, "f64[?]")
    with mp.get_context("spawn").Pool(1) as pool:
        print(pool.map(work, [cf, cf], chunksize=1))
"""


def test_unpickled_function_rebinds_its_own_globals_under_spawn(tmp_path):
    # Regression: a spawn worker's __main__ functions have globals apart from
    # sys.modules["__main__"]; rebinding wrote there, so the function never saw its updates.
    script = tmp_path / "spawn_main.py"
    script.write_text(SPAWN_SCRIPT)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, check=True,
                         text=True, env={**os.environ, "PYTHONPATH": ROOT})
    assert out.stdout.strip() == "[(2.0, 1), (3.0, 2)]"
