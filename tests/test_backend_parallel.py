"""Parallel loops (``grafo.parallel``) on libgomp's threads: same results as one thread, more
than one thread really used, failures inside a parallel body reported as in a serial run,
serial execution without libgomp or below the work threshold, the thread-count setting."""

import ctypes
import os
import re
import subprocess
import sys
import threading

import numpy as np
import pytest
from loop_ir import Fn, contiguous, elementwise, strided

import compiler
from compiler import types as T
from compiler.backend.llvm import compile_module
from compiler.backend.llvm.parallel import PARALLEL_MIN_WORK
from compiler.dialects import arith, grafo
from compiler.ir.attributes import UnitAttr
from compiler.ir.core import Location
from compiler.ir.opdef import OPS
from runtime import parallel

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
INDEX_CAST = OPS["arith.index_cast"]
needs_gomp = pytest.mark.skipif(not parallel.available(), reason="libgomp not found")


def mark_outer_parallel(module):
    for op in module.walk():
        if op.name == "scf.for":
            op.attributes["grafo.parallel"] = UnitAttr()
            return module
    raise AssertionError("no scf.for")


@pytest.fixture
def threads():
    """Run the test with the process's thread count restored afterwards."""
    saved = parallel._state.threads
    yield parallel.set_num_threads
    parallel._state.threads = saved


class Recorder:
    """Wraps the thread state's omp_get_thread_num / omp_get_num_threads to record, per
    call, the OpenMP thread number, team size and OS thread id."""

    QUERY = ctypes.CFUNCTYPE(ctypes.c_int)

    def __init__(self):
        lib = ctypes.CDLL(parallel.library_path())
        self._num, self._count = lib.omp_get_thread_num, lib.omp_get_num_threads
        self.calls, self.teams = [], []
        self._lock = threading.Lock()
        self._thread_num = self.QUERY(self._thread_num_cb)
        self._num_threads = self.QUERY(self._num_threads_cb)

    def _thread_num_cb(self):
        n = self._num()
        with self._lock:
            self.calls.append((n, threading.get_native_id()))
        return n

    def _num_threads_cb(self):
        n = self._count()
        with self._lock:
            self.teams.append(n)
        return n

    def __enter__(self):
        s = parallel._state
        self._saved = (s.thread_num, s.num_threads)
        s.thread_num = ctypes.cast(self._thread_num, ctypes.c_void_p).value
        s.num_threads = ctypes.cast(self._num_threads, ctypes.c_void_p).value
        return self

    def __exit__(self, *exc):
        parallel._state.thread_num, parallel._state.num_threads = self._saved


@pytest.fixture(scope="module")
def add2d():
    return compile_module(mark_outer_parallel(
        elementwise("add", T.f64, T.f64, arith.AddFOp, rank=2))).entry("add")


@pytest.fixture(scope="module")
def add1d():
    return compile_module(mark_outer_parallel(
        elementwise("add", T.i64, T.i64, arith.AddIOp))).entry("add")


@pytest.mark.parametrize("shape", [(3, 5), (1, 40_000), (257, 129), (1000, 333), (7, 9000)])
def test_two_threads_give_the_one_thread_results(add2d, threads, shape):
    rng = np.random.default_rng(0)
    x, y = rng.random(shape), rng.random(shape)
    threads(1)
    one = add2d(x, y)
    threads(2)
    two = add2d(x, y)
    np.testing.assert_array_equal(one, x + y)
    np.testing.assert_array_equal(two, one)
    np.testing.assert_array_equal(add2d(x[::-2, 1::3], y[::-2, 1::3]), (x + y)[::-2, 1::3])


@pytest.mark.parametrize("n", [0, 1, PARALLEL_MIN_WORK - 1, PARALLEL_MIN_WORK, 100_003])
def test_one_dimensional_loop_every_chunk_boundary(add1d, threads, n):
    x = np.arange(n, dtype=np.int64)
    y = 3 * x[::-1].copy()
    for k in (1, 2, 3):
        threads(k)
        np.testing.assert_array_equal(add1d(x, y), x + y)


@needs_gomp
def test_large_loop_runs_on_two_threads(add2d, threads):
    x = np.ones((400, 300))
    threads(2)
    with Recorder() as rec:
        r = add2d(x, x)
    np.testing.assert_array_equal(r, 2 * x)
    assert sorted(n for n, _ in rec.calls) == [0, 1]
    assert rec.teams == [2, 2]
    assert len({tid for _, tid in rec.calls}) == 2, "both chunks ran on one OS thread"


@needs_gomp
def test_small_loop_and_one_thread_stay_serial(add2d, threads):
    threads(2)
    with Recorder() as rec:
        add2d(np.ones((10, 10)), np.ones((10, 10)))   # below PARALLEL_MIN_WORK
        threads(1)
        add2d(np.ones((400, 300)), np.ones((400, 300)))
    assert rec.calls == [] and rec.teams == []


def test_work_counts_inner_loops(add2d, threads):
    """200 rows of 200: few outer iterations, but 40,000 elements of work in all."""
    if not parallel.available():
        pytest.skip("libgomp not found")
    threads(2)
    with Recorder() as rec:
        add2d(np.ones((200, 200)), np.ones((200, 200)))
    assert rec.teams == [2, 2]


def test_unbound_module_runs_serially():
    cm = compile_module(mark_outer_parallel(elementwise("add", T.f64, T.f64, arith.AddFOp,
                                                         rank=2)))
    assert cm.threads_global is not None
    ctypes.c_void_p.from_address(cm.threads_global).value = None
    x = np.random.default_rng(1).random((300, 300))
    np.testing.assert_array_equal(cm.entry("add")(x, x), x + x)


def test_module_without_parallel_loops_has_no_thread_global():
    cm = compile_module(elementwise("add", T.f64, T.f64, arith.AddFOp))
    assert cm.threads_global is None and "GOMP" not in cm.llvm_ir


def checked_gather_module(path):
    """out[i] = x[idx[i]] in a parallel loop; each index checked (IndexError), and a
    temporary buffer allocated and freed per iteration of the body."""
    loc = Location(str(path), 2, 12)
    f = Fn("gather", [strided((None,), T.f64), strided((None,), T.i64)],
           [contiguous((None,), T.f64)])
    x, idx = f.args
    n, size = f.dim(idx, 0), f.dim(x, 0)
    out = f.alloc(contiguous((None,), T.f64), n)
    size_i64 = f.v(INDEX_CAST, size, type=T.i64)
    with f.loop(0, n) as lp:
        lp.attributes["grafo.parallel"] = UnitAttr()
        i = f.load(idx, lp.induction_var)
        ok = f.v(arith.CmpIOp, i, size_i64, attrs={"predicate": arith.CMPI["ult"]})
        with f.b.at_loc(loc):
            f.op_(grafo.CheckOp, [ok, i, size_i64],
                  {"kind": "IndexError",
                   "message": "index {0} is out of bounds for axis 0 with size {1}"})
        tmp = f.alloc(contiguous((4,), T.f64))
        f.store(f.load(x, f.v(INDEX_CAST, i, type=T.index)), tmp, f.const(0))
        f.store(f.load(tmp, f.const(0)), out, lp.induction_var)
        f.yield_()
    return f.ret(out)


@pytest.fixture(scope="module")
def gather(tmp_path_factory):
    src = tmp_path_factory.mktemp("src") / "k.py"
    src.write_text("def f(x, idx):\n    return x[idx]\n")
    return compile_module(checked_gather_module(src)).entry("gather"), src


@pytest.mark.parametrize("k", [1, 2])
def test_failure_inside_parallel_body_is_the_serial_one(gather, threads, k):
    f, src = gather
    threads(k)
    x = np.arange(10.0)
    n = 200_000
    idx = np.arange(n) % 10
    np.testing.assert_array_equal(f(x, idx), x[idx])
    bad = idx.copy()
    bad[[150_000, 199_999]] = 11      # in the second thread's chunk
    bad[[120_000]] = 12
    with pytest.raises(IndexError) as info:
        f(x, bad)
    msg = str(info.value)
    assert msg.startswith("index 12 is out of bounds for axis 0 with size 10")
    assert f'File "{src}", line 2, column 12' in msg
    bad[3] = -5                      # in the first chunk: reported even if others fail
    with pytest.raises(IndexError, match="^index -5 is out of bounds"):
        f(x, bad)


def test_failures_do_not_leak_buffers(gather, threads):
    from test_backend_runtime import rss_bytes
    f, _ = gather
    threads(2)
    x = np.arange(10.0)
    idx = np.arange(40_000) % 10
    bad = idx.copy()
    bad[30_000] = 10
    for _ in range(20):
        f(x, idx)
    before = rss_bytes()
    for _ in range(100):
        f(x, idx)
        with pytest.raises(IndexError):
            f(x, bad)
    assert rss_bytes() - before < 16 * 2**20   # a leak: >= 30 MB (40,000 temporaries)


def test_lowered_function_marks_and_runs_parallel_loops(threads):
    def scale_add(x, y):
        return x * 2.0 + y

    f = compiler.function(scale_add)
    x = np.random.default_rng(2).random((300, 200))
    y = np.random.default_rng(3).random((300, 200))
    cf = f.get_concrete_function(x, y)
    assert "grafo.parallel" in cf.ir_stages["loops"]
    assert ".par" in cf.llvm_ir
    threads(1)
    one = f(x, y)
    threads(2)
    np.testing.assert_array_equal(f(x, y), one)
    np.testing.assert_allclose(one, x * 2.0 + y, rtol=1e-15)


def test_set_num_threads_validates_and_is_exported(threads):
    assert compiler.set_num_threads is parallel.set_num_threads
    assert compiler.get_num_threads is parallel.get_num_threads
    threads(3)
    assert compiler.get_num_threads() == (3 if parallel.available() else 1)
    compiler.set_num_threads(np.int64(2))
    assert parallel._state.threads == 2
    with pytest.raises(ValueError, match="at least 1"):
        compiler.set_num_threads(0)
    with pytest.raises(TypeError, match="expects an int"):
        compiler.set_num_threads(2.0)
    with pytest.raises(TypeError, match="expects an int"):
        compiler.set_num_threads(True)


def _run(code: str, **env) -> str:
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         cwd=ROOT, env={**os.environ, "PYTHONPATH": ROOT, **env}, timeout=300)
    assert out.returncode == 0, out.stderr
    return out.stdout


@needs_gomp
def test_omp_num_threads_sets_the_default():
    assert _run("from runtime import parallel; print(parallel.get_num_threads())",
                OMP_NUM_THREADS="3").strip() == "3"


def _spin_count(**env) -> str:
    """libgomp's GOMP_SPINCOUNT as it reports it (OMP_DISPLAY_ENV) when grafo loads it."""
    base = {k: v for k, v in os.environ.items() if k not in ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")}
    out = subprocess.run(
        [sys.executable, "-c", "import os; from runtime import parallel; "
         "print(sorted(k for k in os.environ if k in parallel.WAIT_VARIABLES))"],
        capture_output=True, text=True, cwd=ROOT, timeout=300,
        env={**base, "PYTHONPATH": ROOT, "OMP_DISPLAY_ENV": "verbose", **env})
    assert out.returncode == 0, out.stderr
    spin = re.search(r"GOMP_SPINCOUNT = '(\d+)'", out.stderr)
    return spin.group(1), out.stdout.strip()


@needs_gomp
def test_idle_threads_sleep_at_once_by_default():
    # passive: a thread that spins after its chunk takes the core a busy machine has left
    assert _spin_count() == ("0", "[]")   # and the variable is not left to child processes


@needs_gomp
@pytest.mark.parametrize("env, spin", [({"OMP_WAIT_POLICY": "active"}, "30000000000"),
                                       ({"GOMP_SPINCOUNT": "1000"}, "1000")])
def test_user_wait_settings_are_kept(env, spin):
    assert _spin_count(**env) == (spin, str(sorted(env)))


def test_without_libgomp_loops_run_serially():
    code = """
import ctypes, ctypes.util, sys
real_find, real_cdll = ctypes.util.find_library, ctypes.CDLL
ctypes.util.find_library = lambda n: None if n == "gomp" else real_find(n)
class NoGomp(real_cdll):
    def __init__(self, name, *a, **k):
        if name and "gomp" in name:
            raise OSError("no libgomp here")
        super().__init__(name, *a, **k)
ctypes.CDLL = NoGomp
from runtime import parallel
assert not parallel.available() and parallel.library_path() is None
parallel.set_num_threads(4)
assert parallel.get_num_threads() == 1
sys.path.insert(0, "tests")
import numpy as np
from test_backend_parallel import mark_outer_parallel, elementwise, T, arith, compile_module
f = compile_module(mark_outer_parallel(elementwise("add", T.f64, T.f64, arith.AddFOp,
                                                   rank=2))).entry("add")
x = np.random.default_rng(0).random((500, 400))
assert np.array_equal(f(x, x), x + x)
print("serial ok")
"""
    assert _run(code).strip() == "serial ok"


def _straight_line(x, y, c, k):
    y = y * c + x * c
    y = np.sin(y) * c + x
    x = np.sin(x) + y * k
    y = y * c + x * c
    y = np.cos(y) * c + x
    x = np.sin(x) + y * k
    return x + y


@pytest.mark.parametrize("n", [0, 1, 7, 1000, 40_000])
def test_many_parallel_loops_compile_their_bodies_once(threads, n):
    """Straight-line array code on dynamic shapes, with more parallel loops than
    SERIAL_COPIES_UP_TO: each
    loop's serial path calls its outlined body (no second copy in the entry function), and
    small (serial) and large (threaded) inputs give NumPy's results, broadcast ones too."""
    from compiler.backend.llvm.parallel import SERIAL_COPIES_UP_TO
    rng = np.random.default_rng(n)
    x, y = rng.standard_normal(n), rng.standard_normal(n)
    c, k = np.float64(0.5), np.float64(-1.25)
    f = cf = compiler.compile(_straight_line, "f64[?], f64[?], f64, f64")
    assert cf.ir_stages["loops"].count("grafo.parallel") > SERIAL_COPIES_UP_TO
    assert cf.llvm_ir.count("call void @_straight_line.impl.par") == cf.llvm_ir.count(
        "define internal void @_straight_line.impl.par")
    for count in (1, 2):
        threads(count)
        np.testing.assert_allclose(f(x, y, c, k), _straight_line(x, y, c, k), rtol=1e-13)
    one = rng.standard_normal(1)
    np.testing.assert_allclose(f(one, y, c, k), _straight_line(one, y, c, k), rtol=1e-13)
