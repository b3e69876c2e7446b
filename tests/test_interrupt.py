"""Ctrl-C inside compiled code: long loops poll the interrupt flag and the call raises
KeyboardInterrupt within a fraction of a second, freeing its buffers and keeping the writes
done before it; later calls work; other threads' calls, Python handlers the user installs and
C callers are left alone. Real SIGINTs are sent in subprocesses (their timer threads signal
the process, as a terminal's Ctrl-C does); the flag itself is tested in this process."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import signal
import subprocess
import sys
import threading
import time
import zipfile

import interrupt_functions as F
import numpy as np
import pytest

import compiler
from compiler.passes import PassManager
from runtime import interrupt, parallel

TESTS = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(TESTS)
LATE = 1.0   # seconds from SIGINT to KeyboardInterrupt that fail a test (measured: < 1 ms)
HUGE = 10**13   # iterations: hours of work (subprocesses time out)
LONG = 2 * 10**9   # seconds of work, for this process

PRELUDE = """
import json, os, signal, sys, threading, time
import numpy as np

def interrupted(call, after=0.5):
    \"\"\"Seconds from a SIGINT sent ``after`` seconds into ``call()`` to its
    KeyboardInterrupt.\"\"\"
    sent = []

    def fire():
        sent.append(time.perf_counter())
        os.kill(os.getpid(), signal.SIGINT)

    threading.Timer(after, fire).start()
    try:
        call()
    except KeyboardInterrupt:
        return time.perf_counter() - sent[0]
    raise AssertionError("the call ended without KeyboardInterrupt")

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
"""


def run(body: str, *args: str, **env) -> dict:
    """Run ``PRELUDE + body`` in a fresh Python (this checkout, ``tests/`` importable) and
    return the JSON object its last output line holds."""
    out = subprocess.run(
        [sys.executable, "-c", PRELUDE + body, *args], capture_output=True, text=True,
        cwd=TESTS, timeout=120,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, TESTS]), **env})
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


JIT = f"""
import compiler
import interrupt_functions as F
spin = compiler.compile(F.spin, "f64[?], i64")
count = compiler.compile(F.count, "f64[?], i64")
a, b = np.zeros(8), np.full(8, -1.0)
late = [interrupted(lambda: spin(a, np.int64({HUGE}))),
        interrupted(lambda: count(b, np.int64({HUGE})))]
written = [a.tolist(), b.tolist()]
after = [int(spin(np.zeros(8), np.int64(1000)))]
try:   # a SIGINT that Python handles outside compiled code
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(10)
except KeyboardInterrupt:
    pass
c = np.zeros(8)
after.append(int(spin(c, np.int64(3 * 10**7))))   # runs to its end
after.append(float(c.sum()))
print(json.dumps({{"late": late, "written": written, "after": after}}))
"""


def test_ctrl_c_stops_a_compiled_loop():
    r = run(JIT)
    assert all(0 <= t < LATE for t in r["late"]), r["late"]
    spun, counted = (np.array(w) for w in r["written"])
    # the writes done before the interrupt stay, as in eager Python: each slot of spin's
    # array was incremented, slot k of count's holds the last i with i % 8 == k
    assert spun.min() > 1e5 and spun.max() - spun.min() <= 1
    assert counted.min() > 1e5 and set(counted % 8) == set(range(8))
    assert r["after"] == [1000, 3 * 10**7, 3 * 10**7]


BUFFERS = f"""
import compiler
import interrupt_functions as F
hold = compiler.compile(F.hold, "f64[?], i64")
x = np.zeros(1 << 24)   # a 128 MiB temporary per call
hold(x, np.int64(10))
before = rss()
late = [interrupted(lambda: hold(x, np.int64({HUGE})), after=0.3) for _ in range(4)]
grown = rss() - before
print(json.dumps({{"late": late, "grown": grown, "after": hold(np.zeros(3), np.int64(6))}}))
"""


def test_an_interrupted_call_frees_its_buffers():
    r = run(BUFFERS, GRAFO_BUFFER_POOL_BYTES="0")
    assert all(t < LATE for t in r["late"]), r["late"]
    assert r["grown"] < 256 << 20, r["grown"]   # four leaked temporaries: 512 MiB
    assert r["after"] == 6.0


PARALLEL = """
import compiler
import interrupt_functions as F
from runtime import parallel
rows = compiler.compile(F.rows, "f64[4096], i64")
a = np.zeros(4096)
late = interrupted(lambda: rows(a, np.int64(10**7)))
started = [int(np.count_nonzero(a[:2048])), int(np.count_nonzero(a[2048:]))]
rows(a, np.int64(3))
print(json.dumps({"late": late, "started": started, "after": sorted(set(a.tolist())),
                  "threads": parallel.get_num_threads()}))
"""


@pytest.mark.skipif(not parallel.available(), reason="libgomp not found")
def test_ctrl_c_stops_a_parallel_loop_on_every_thread():
    r = run(PARALLEL, OMP_NUM_THREADS="2")
    assert r["threads"] == 2
    assert r["late"] < LATE   # the call returns once both threads have stopped
    # each thread wrote the rows it finished before the interrupt, from its chunk's start
    assert r["started"][0] > 0 and r["started"][1] > 0, r["started"]
    assert r["after"] == [1.5]


WORKER = """
import compiler
import interrupt_functions as F
spin = compiler.compile(F.spin, "f64[?], i64")
n = 10**8
done = {}

def work():
    a = np.zeros(8)
    done["result"] = int(spin(a, np.int64(n)))
    done["sum"] = float(a.sum())

worker = threading.Thread(target=work)
worker.start()
time.sleep(0.2)
caught = False
try:
    os.kill(os.getpid(), signal.SIGINT)
    while worker.is_alive():
        time.sleep(0.01)
except KeyboardInterrupt:
    caught = True
worker.join()
print(json.dumps({"caught": caught, "done": done, "n": n}))
"""


def test_a_worker_threads_call_is_not_interrupted():
    r = run(WORKER)
    assert r["caught"]   # the main thread got its KeyboardInterrupt
    assert r["done"] == {"result": r["n"], "sum": float(r["n"])}


CUSTOM = """
import compiler
import interrupt_functions as F
spin = compiler.compile(F.spin, "f64[?], i64")   # puts grafo's handler in place
seen = []
signal.signal(signal.SIGINT, lambda signum, frame: seen.append(signum))
threading.Timer(0.2, os.kill, (os.getpid(), signal.SIGINT)).start()
a = np.zeros(8)
result = int(spin(a, np.int64(10**8)))   # runs to its end; then Python runs the handler
time.sleep(0.1)
later = compiler.compile(F.count, "f64[?], i64")   # compiling again keeps the user's handler
print(json.dumps({"result": result, "seen": seen, "sum": float(a.sum()),
                  "kept": signal.getsignal(signal.SIGINT) is not signal.default_int_handler}))
"""


def test_a_python_handler_the_user_installs_keeps_working():
    r = run(CUSTOM)
    assert r == {"result": 10**8, "seen": [2], "sum": 1e8, "kept": True}


PRINTS = f"""
import compiler
import interrupt_functions as F
report = compiler.compile(F.report, "i64")
out, sys.stdout = sys.stdout, open(os.devnull, "w")   # prints call back into Python
out.write("ready\\n")
out.flush()
try:
    report(np.int64({HUGE}))
except KeyboardInterrupt:
    pass
out.write(json.dumps({{"after": int(report(np.int64(10)))}}) + "\\n")
"""


def test_ctrl_c_stops_a_loop_that_prints():
    # SIGINT from another process, as from a terminal: no thread of the child holds the GIL
    # when the signal comes (a timer thread would, and keep the print callback waiting)
    proc = subprocess.Popen(
        [sys.executable, "-c", PRELUDE + PRINTS], stdout=subprocess.PIPE,
        stderr=subprocess.PIPE, text=True, cwd=TESTS,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([ROOT, TESTS])})
    try:
        assert proc.stdout.readline() == "ready\n"
        time.sleep(0.5)
        sent = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        line = proc.stdout.readline()
        late = time.perf_counter() - sent
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 0, err
    assert json.loads(line) == {"after": sum(i % 7 for i in range(10))}
    assert late < LATE
    assert "Exception ignored" not in err   # ctypes drops what a callback raises


ARTIFACT = f"""
import runtime
spin = runtime.load(sys.argv[1])
a = np.zeros(8)
late = interrupted(lambda: spin(a, np.int64({HUGE})))
print(json.dumps({{"late": late, "written": float(a.min()),
                  "after": int(spin(np.zeros(8), np.int64(1000))),
                  "modules": sorted(m for m in sys.modules
                                    if m.split(".")[0] in ("compiler", "llvmlite", "lark"))}}))
"""


def test_ctrl_c_stops_a_loaded_artifact(tmp_path):
    compiler.compile(F.spin, "f64[?], i64").save(tmp_path / "spin.grafo")
    r = run(ARTIFACT, str(tmp_path / "spin.grafo"))
    assert r["late"] < LATE
    assert r["written"] > 1e5
    assert r["after"] == 1000
    assert r["modules"] == []


IPYTHON = f"""
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config
config = Config()
config.HistoryManager.hist_file = ":memory:"
shell = InteractiveShell.instance(config=config)
cells = [
    "import compiler, interrupt_functions as F\\n"
    "spin = compiler.compile(F.spin, 'f64[?], i64')",
    # IPython's prompt and Jupyter's kernel put Python's handler back around each cell
    "import signal\\nsignal.signal(signal.SIGINT, signal.default_int_handler)",
    "import numpy as np, os, threading\\n"
    "threading.Timer(0.3, os.kill, (os.getpid(), signal.SIGINT)).start()\\n"
    "spin(np.zeros(8), np.int64({HUGE}))",
]
errors = []
for cell in cells:
    error = shell.run_cell(cell).error_in_exec
    errors.append(None if error is None else type(error).__name__)
print(json.dumps({{"errors": errors}}))
"""


@pytest.mark.skipif(importlib.util.find_spec("IPython") is None, reason="IPython is missing")
def test_ipython_cells_stop_on_ctrl_c():
    assert run(IPYTHON) == {"errors": [None, None, "KeyboardInterrupt"]}


# the flag, without signals ---------------------------------------------------------------

def _raise_flag_later(seconds: float) -> threading.Timer:
    timer = threading.Timer(seconds, setattr, (interrupt.flag, "value", 1))
    timer.start()
    return timer


def test_the_flag_stops_a_call_of_the_main_thread():
    spin = compiler.compile(F.spin, "f64[?], i64")
    a = np.zeros(4)
    _raise_flag_later(0.2)
    with pytest.raises(KeyboardInterrupt):   # no Python handler pending: grafo raises it
        spin(a, np.int64(LONG))
    assert interrupt.flag.value == 0
    assert a.min() > 0
    assert spin(np.zeros(4), np.int64(100)) == 100


def test_a_stale_flag_is_cleared_by_the_next_call():
    spin = compiler.compile(F.spin, "f64[?], i64")
    interrupt.flag.value = 1   # a SIGINT that Python handled while no compiled code ran
    assert spin(np.zeros(4), np.int64(10**6)) == 10**6
    assert interrupt.flag.value == 0


def test_the_flag_leaves_other_threads_calls_alone():
    spin = compiler.compile(F.spin, "f64[?], i64")
    out = []
    interrupt.flag.value = 1
    try:
        worker = threading.Thread(target=lambda: out.append(spin(np.zeros(4),
                                                                 np.int64(10**6))))
        worker.start()
        worker.join()
        assert interrupt.flag.value == 1   # the main thread's next call clears it
    finally:
        interrupt.flag.value = 0
    assert out == [10**6]


def test_a_parallel_loop_stops_when_the_flag_is_raised():
    rows = compiler.compile(F.rows, "f64[4096], i64")
    a = np.zeros(4096)
    _raise_flag_later(0.2)
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        rows(a, np.int64(LONG // 1000))
    assert time.perf_counter() - t0 < 0.2 + LATE
    rows(a, np.int64(2))
    assert set(a.tolist()) == {1.0}


@pytest.mark.skipif(parallel.get_num_threads() < 2, reason="needs two threads")
def test_a_parallel_loop_stops_when_the_starting_thread_has_no_work_left():
    # the main thread's share of the rows is done at once; the other thread's polls see that
    # the interrupt is for the thread that started the region
    lopsided = compiler.compile(F.lopsided, "f64[65536], i64")
    a = np.zeros(65536)
    _raise_flag_later(0.2)
    t0 = time.perf_counter()
    with pytest.raises(KeyboardInterrupt):
        lopsided(a, np.int64(LONG // 10000))
    assert time.perf_counter() - t0 < 0.2 + LATE
    assert a[0] == 0.5


# where the polls go ----------------------------------------------------------------------

def _polls(fn, signature: str) -> list:
    """``grafo.poll`` of each loop of ``fn``'s loop-level IR in walk order (None: no poll)."""
    cf = compiler.compile(fn, signature)
    return [op.attr("grafo.poll") for op in cf.compiled.modules["loops"].walk()
            if op.name in ("scf.for", "scf.while")]


def _sum_rows(x):
    return np.sum(x, axis=1)


def _small(x):
    for i in range(4):
        x[i] = i


def _matmul(a, b):
    return a @ b


def test_innermost_loops_poll_between_chunks_and_outer_loops_at_each_iteration():
    assert _polls(F.spin, "f64[?], i64") == [1 << 16]
    assert _polls(F.rows, "f64[4096], i64") == [1, 1 << 16]   # walk: outer loop first
    assert _polls(_small, "f64[4]") == [None]   # constant trip count: bounded


def test_bounded_blocks_leave_their_loop_a_shorter_chunk():
    # the 128-element float-sum blocks (16 iterations of 8 lanes, then up to 7 more) are
    # bounded: the block loop around them polls every 65536 // 24 blocks
    polls = _polls(_sum_rows, "f32[?,?]")
    assert (1 << 16) // 24 in polls and None in polls


def test_the_matmul_kernel_keeps_its_k_loop_free_of_polls():
    # dynamic shapes keep the generated kernel beside the BLAS call (static 512s call BLAS only)
    m = compiler.compile(_matmul, "f32[?,?], f32[?,?]").compiled.modules["loops"]
    k_loops = [op for op in m.walk() if "grafo.no_unroll" in op.attributes]
    assert k_loops and all("grafo.poll" not in op.attributes for op in k_loops)


def test_the_pass_is_part_of_the_cpu_loop_pipeline():
    assert PassManager.parse("interrupt-polls")
    assert compiler.passes.LOOP_PIPELINE.split(",")[-1] == "interrupt-polls"


# C callers -------------------------------------------------------------------------------

C_PROGRAM = r"""
#include <pthread.h>
#include <stdio.h>
#include "grafo.h"

static void call(int64_t n) {
    double a[4] = {0};
    grafo_memref_1d x = {a, a, 0, {4}, {1}};
    int64_t out = -1;
    grafo_status st;
    int32_t rc = grafo_spin(&x, n, &out, &st);
    printf("%d %lld %g\n", rc, (long long)out, a[0]);
}

int main(void) {
    call(1000000);   /* grafo_interrupt left null */
    grafo_interrupt_state state = {1, 0, (uint64_t)pthread_self(), NULL};
    grafo_interrupt = &state;
    call(1000000000000);   /* the flag set for this thread: stops early */
    state.thread += 1;   /* set for another thread */
    call(1000000);
    return 0;
}
"""


@pytest.mark.skipif(shutil.which("cc") is None, reason="needs a C compiler")
def test_c_callers_choose_whether_loops_stop(tmp_path):
    compiler.compile(F.spin, "f64[?], i64").save(tmp_path / "spin.grafo")
    with zipfile.ZipFile(tmp_path / "spin.grafo") as zf:
        zf.extractall(tmp_path)
    (tmp_path / "main.c").write_text(C_PROGRAM)
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", "main", "main.c", "-Iinclude",
                    "-Llib", "-lgrafo", "-lpthread", f"-Wl,-rpath,{tmp_path / 'lib'}"],
                   cwd=tmp_path, check=True)
    out = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True,
                         check=True, timeout=60).stdout.splitlines()
    assert out[0] == "0 1000000 250000" and out[2] == out[0]
    rc, result, written = out[1].split()
    assert rc == "-3" and result == "-1" and float(written) > 0   # writes before it stay
