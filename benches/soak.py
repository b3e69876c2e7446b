"""Soak test: minutes of mixed calls, errors, interrupts and compilations from several threads,
checking every result against NumPy and that memory stays flat.

    python benches/soak.py [--minutes 10] [--threads 4] [--seed 0] [--sample SECONDS]
                           [--csv FILE]

Not part of the timed suite (``benches/run.py``). The worker threads share the compiled
functions and each repeats a random mix (weights in ``MIXED``) of:

- ``call``: a call of an already compiled function (ConcreteFunctions, polymorphic Functions
  on signatures compiled during the warm-up, entries of a loaded artifact; contiguous and
  strided inputs, in-place writes, a written argument aliasing another), with fresh random
  data; the result (type, dtype, shape, values) and every written array are compared with
  what the Python function returns when NumPy runs it;
- ``error``: a call that must raise (an array of the wrong dtype, the wrong number of
  arguments, a list or a timedelta array, an index out of range at run time, a loop storing
  past the end, a read-only array for a written parameter, a float for an integer scalar, an
  int out of its dtype's range, a failed ``assert``, a bad signature string); the
  exception's type and message are checked each time, and so are the writes a failed call
  leaves behind (those NumPy makes before raising, none into a read-only array);
- ``fresh_constant``, ``fresh_dtype_shape``, ``fresh_compile``: new specializations (a new
  Python-scalar constant, a new dtype and shape for a Function bounded by
  ``max_specializations``, an eager ``compiler.compile`` of a random signature), each a
  compilation; ``clear_cache`` and ``clear_caches`` drop specializations
  (``Function.clear_cache``, rarely ``compiler.clear_caches()``, after which the warm
  signatures compile again);
- ``aot_load``: ``runtime.load`` of an artifact saved during the warm-up, and a call;
  ``aot_save``: ``compiler.save`` of two concrete functions to a new file, load, call;
- ``disk_cache``: a ``cache=True`` Function's specializations dropped and called again, so
  they are loaded from the on-disk cache (a temporary ``GRAFO_CACHE_DIR``).

Ctrl-C runs on the main thread, because only calls from the main thread stop on SIGINT
(Python raises KeyboardInterrupt there alone; README, "Ctrl-C"): it calls long compiled loops
(a serial ``while`` loop, and a parallel loop when libgomp is there) that run for hours
unless stopped, while a timer thread sends SIGINT after a few milliseconds, alternately to
the process (``os.kill``: any thread may take it, as with a terminal's Ctrl-C) and to the
main thread (``signal.pthread_kill``). Each must raise KeyboardInterrupt within ``LATE``
seconds, keep the writes done before it, and the next call must work. (Python's
``_thread.interrupt_main()`` sends no signal, so it does not stop compiled code: the
KeyboardInterrupt comes when the call returns, as with other C extensions.)

Memory: RSS (``/proc/self/status``) is sampled every ``--sample`` seconds with the workers
stopped between two operations, after a garbage collection, ``compiler.release_buffers()``
and glibc's ``malloc_trim(0)``, so that the samples follow what stays, from the end of a
warm-up (the first compilations, then ``WARM_UP`` of the soak's length of the mix on every
thread, which fills the allocators' arenas and the buffer pool). After the soak come two
calibration phases of ``CALIBRATION`` of its length each: calls and errors only (the growth
per operation), then compilations only, with every specialization dropped at both ends (what
a compilation leaves behind). llvmlite 0.50's O3 pipeline keeps memory that nothing can free
on each run (docs/architecture.md, "Specializations and their memory": about 0.09 MB for the
smallest modules, more for larger ones); that is outside grafo, so the soak measures it on
its own: modules like the ones it compiles, each optimized several times by the pipeline
alone. The bound on the RSS slope over the second half of the soak (least-squares line,
MB/min) is ``LEAK_HEADROOM`` times that leak per compilation made there, plus ``BOUND_BASE``
MB/min. The report gives that in bytes per operation at the rate reached (about 40 on two
busy cores), so a leak of 100 bytes per call (seven operations in ten are calls) exceeds it,
as do a few MB that a rare operation (a save, a clear) would keep each time. The check needs
a second half of at least ``MIN_FIT_MINUTES``; shorter runs skip it (and the llvmlite
measurement) and report the slope only.

Prints operations per kind, compilations, failures (each one described), RSS at the start
(after the warm-up) and at the end, the slope and its bound, the calibration results, then
PASS (no failure, and the slope within the bound) or FAIL; the exit status is 0 on PASS,
1 on FAIL. ``--csv FILE`` writes the samples.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import gc
import itertools
import os
import platform
import random
import shutil
import signal
import sys
import tempfile
import threading
import time
import traceback
import warnings
from collections import Counter

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import llvmlite  # noqa: E402
import numpy as np  # noqa: E402
from kernels import mse, softmax  # noqa: E402  (benches/kernels.py)

import compiler  # noqa: E402
import runtime  # noqa: E402
from runtime import parallel  # noqa: E402

LATE = 2.0                # seconds from SIGINT to KeyboardInterrupt that count as a failure
HUGE = 10**13             # loop iterations: hours of work unless interrupted
ROW_WORK = 10**5          # additions per row of the parallel loop (about 0.1 ms)
LLVMLITE_LEAK = 0.09      # MB per O3 run on the smallest modules (docs/architecture.md)
LEAK_HEADROOM = 1.25      # MB allowed per compilation, in units of llvmlite's O3 leak
BOUND_BASE = 2.0          # MB/min allowed on top
MIN_FIT_MINUTES = 1.0     # shortest second half the memory check applies to
CALIBRATION = 0.1         # each calibration phase, as a fraction of the soak (1 s to 60 s)
WARM_UP = 0.05            # the threaded warm-up, as a fraction of the soak (1 s to 30 s)

# -- kernels (the compiler reads their source from this file) -----------------------------


def axpy(a, x, y):
    return a * x + y


def gather(x, i):
    return x[i]


def fill(x, n):
    for i in range(n):
        x[i] = i * 0.5
    return x.sum()


def add_into(x, y):
    x += y
    return x.sum()


def checked(x):
    assert x[0] >= 0.0, "first element is negative"
    return np.sqrt(x[0]) + x.sum()


def scaled(x, k):
    return np.sum(x * k) + k


def poly(x, y):
    z = x * 3 + y
    return z, np.sum(z, axis=0)


def spin(a, n):
    i = np.int64(0)
    m = a.shape[0]
    while i < n:
        a[i % m] += 1.0
        i += 1
    return i


def rows(a, n):
    for i in range(a.shape[0]):
        s = 0.0
        for _ in range(n):
            s += 0.5
        a[i] = s


# -- checking -------------------------------------------------------------------------------


class Failure(Exception):
    """A result or an exception that differs from what NumPy and Python give."""


def check(ok, message):
    if not ok:
        raise Failure(message)


def same(got, want, what):
    """NumPy is the oracle: same type, dtype, shape and values (floats within a tolerance
    for reordered sums: 1e-4 relative for float32, 1e-10 for float64)."""
    if isinstance(want, tuple):
        check(isinstance(got, tuple) and len(got) == len(want), f"{what}: {got!r} vs {want!r}")
        for i, (g, w) in enumerate(zip(got, want, strict=True)):
            same(g, w, f"{what}[{i}]")
        return
    if isinstance(want, np.ndarray):
        check(isinstance(got, np.ndarray), f"{what}: expected an ndarray, got {type(got)}")
    else:
        check(type(got) is type(want), f"{what}: expected {type(want)}, got {type(got)}")
    g, w = np.asarray(got), np.asarray(want)
    check(g.dtype == w.dtype, f"{what}: dtype {g.dtype}, NumPy {w.dtype}")
    check(g.shape == w.shape, f"{what}: shape {g.shape}, NumPy {w.shape}")
    if w.dtype.kind == "f":
        rtol = 1e-4 if w.dtype == np.float32 else 1e-10
        scale = float(np.max(np.abs(w))) if w.size else 0.0
        ok = np.allclose(g, w, rtol=rtol, atol=rtol * scale, equal_nan=True)
    else:
        ok = np.array_equal(g, w)
    if not ok:
        bad = np.flatnonzero(~np.isclose(g, w, equal_nan=True)) if w.dtype.kind == "f" else \
            np.flatnonzero(g.ravel() != w.ravel())
        i = int(bad[0]) if bad.size else 0
        raise Failure(f"{what}: differs from NumPy at flat index {i}: "
                      f"{g.ravel()[i]!r} vs {w.ravel()[i]!r} ({bad.size} of {w.size})")


def call_and_compare(what, native, python, args, written=()):
    """Call ``native(*args)`` and ``python`` on copies of ``args``; compare the results and
    the arrays at positions ``written`` after both calls."""
    copies = [a.copy() if isinstance(a, np.ndarray) else a for a in args]
    want = python(*copies)
    got = native(*args)
    same(got, want, what)
    for i in written:
        same(args[i], copies[i], f"{what}: argument {i} after the call")


def expect(what, exc_type, match, fn, *args):
    """``fn(*args)`` must raise ``exc_type`` with ``match`` in its message."""
    try:
        fn(*args)
    except exc_type as e:
        check(match in str(e), f"{what}: {type(e).__name__} without {match!r}: {e}")
    except Exception as e:   # noqa: BLE001 (any other type is the failure reported)
        raise Failure(f"{what}: expected {exc_type.__name__}, got {type(e).__name__}: "
                      f"{str(e)[:300]}") from None
    else:
        raise Failure(f"{what}: expected {exc_type.__name__}, nothing was raised")


try:
    _malloc_trim = ctypes.CDLL(ctypes.util.find_library("c")).malloc_trim   # glibc
except (AttributeError, OSError, TypeError):
    _malloc_trim = None


def rss_mb() -> float:
    """The resident set size (``VmRSS``) in MB, after glibc's ``malloc_trim(0)`` has
    returned the free memory its arenas keep (every thread has one, and what a thread frees
    stays in its arena), so that the samples follow the memory in use."""
    if _malloc_trim is not None:
        _malloc_trim(0)
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS in /proc/self/status")


def fit(xs, ys) -> float:
    """The slope of the least-squares line through (xs, ys); 0 for fewer than 2 points."""
    if len(xs) < 2 or max(xs) == min(xs):
        return 0.0
    return float(np.polyfit(np.asarray(xs, float), np.asarray(ys, float), 1)[0])


# -- the shared state -----------------------------------------------------------------------

DTYPES = [np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
          np.uint64, np.float32, np.float64]


class Soak:
    """What the workers share: compiled functions, counters, failures, the phase."""

    def __init__(self, threads: int, seed: int, tmp: str):
        self.tmp = tmp
        self.seed = seed
        self.phase = "warm-up"
        # operations per kind, per worker and (last) the main thread; every key there from
        # the start, so that the main thread can sum them while the workers count
        self.counts = [Counter(dict.fromkeys([*OPS, "interrupt"], 0))
                       for _ in range(threads + 1)]
        self.current = ["-"] * (threads + 1)
        self.parked = [0] * threads   # the pause each worker is parked in (see ``pause``)
        self.generation = 0
        self.paused = 0.0   # seconds spent waiting for the workers to pause
        self.pooled = 0     # the most bytes the buffer pool held at a sample
        self.failures: list = []
        self.lock = threading.Lock()
        self.constants = itertools.count(1)
        self.files = itertools.count()
        self.explicit = 0   # compiler.compile calls
        self.latencies: list = []
        t0 = time.perf_counter()
        c = compiler.compile
        self.cf_axpy = c(axpy, "f64, f64[?], f64[?]")
        self.cf_mse = c(mse, "f32[?], f32[?]")
        self.cf_softmax = c(softmax, "f32[?,?]")
        self.cf_gather = c(gather, "f64[?], i64")
        self.cf_fill = c(fill, "f64[?], i64")
        self.cf_checked = c(checked, "f64[?]")
        self.cf_spin = c(spin, "f64[?], i64")      # in the main thread: installs the handler
        self.cf_rows = c(rows, "f64[4096], i64") if parallel.available() else None
        self.explicit = 7 + (self.cf_rows is not None)
        self.fn_axpy = compiler.function(axpy)
        self.fn_add = compiler.function(add_into)
        self.fn_gather = compiler.function(gather)
        self.fn_fill = compiler.function(fill)
        self.fn_scaled = compiler.function(scaled, max_specializations=32)
        self.fn_poly = compiler.function(poly, max_specializations=8)
        os.environ["GRAFO_CACHE_DIR"] = os.path.join(tmp, "cache")
        self.fn_cached = compiler.function(mse, cache=True)
        self.functions = [self.fn_axpy, self.fn_add, self.fn_gather, self.fn_fill,
                          self.fn_scaled, self.fn_poly, self.fn_cached]
        self.artifact = os.path.join(tmp, "lib.grafo")
        compiler.save(self.artifact, {"axpy": self.cf_axpy, "gather": self.cf_gather,
                                      "fill": self.cf_fill})
        self.lib = runtime.load(self.artifact)
        self.warm_compile_s = time.perf_counter() - t0

    def compiles(self) -> int:
        """Compilations so far: ``compiler.compile`` calls and every Function's traces."""
        return self.explicit + sum(f.tracing_count for f in self.functions)

    def total(self, kinds=None) -> int:
        return sum(n for c in self.counts for k, n in c.items() if kinds is None or k in kinds)

    def fail(self, message: str) -> None:
        with self.lock:
            self.failures.append(message)


# -- operations (each takes the soak, a NumPy Generator and a random.Random) ----------------

HOT_SIZES = (64, 1000)   # the shapes the polymorphic Functions are called with (warm)


def _data(rng, n, dtype=np.float64):
    return rng.standard_normal(n).astype(dtype)


LARGE = 150_000   # float64 elements: 1.2 MB, threaded loops and pooled buffers


def _length(r):
    """A length for the dynamic-shape functions: mostly small, 1 in 20 large."""
    x = r.random()
    return LARGE if x < 0.05 else r.choice((1, 2, 7)) if x < 0.2 else r.randint(1, 5000)


def op_call(s, rng, r):
    kind = r.randrange(11)
    if kind == 0:
        n = _length(r)
        x, y = _data(rng, n), _data(rng, n)
        if r.random() < 0.3:   # strided views pass without a copy
            x, y = _data(rng, 2 * n)[::2], _data(rng, 3 * n)[::3]
        call_and_compare("cf axpy", s.cf_axpy, axpy, [np.float64(rng.standard_normal()), x, y])
    elif kind == 1:
        n = _length(r)
        call_and_compare("cf mse", s.cf_mse, mse,
                         [_data(rng, n, np.float32), _data(rng, n, np.float32)])
    elif kind == 2:
        shape = (r.randint(1, 40), r.randint(1, 300))
        x = (rng.standard_normal(shape) * 10).astype(np.float32)
        call_and_compare("cf softmax", s.cf_softmax, softmax, [x])
    elif kind == 3:
        n = r.randint(1, 500)
        call_and_compare("cf gather", s.cf_gather, gather,
                         [_data(rng, n), np.int64(r.randint(-n, n - 1))])
    elif kind == 4:
        n = r.randint(1, 3000)
        call_and_compare("cf fill", s.cf_fill, fill,
                         [_data(rng, n), np.int64(r.randint(0, n))], written=(0,))
    elif kind == 5:
        n = r.choice(HOT_SIZES)
        call_and_compare("fn axpy", s.fn_axpy, axpy,
                         [np.float64(rng.standard_normal()), _data(rng, n), _data(rng, n)])
    elif kind == 6:
        n = HOT_SIZES[1]
        x = _data(rng, n)
        if r.random() < 0.3:   # x aliases y: runs the Python function, as NumPy would
            call_and_compare("fn add_into aliased", s.fn_add, lambda a, _: add_into(a, a),
                             [x, x], written=(0,))
        else:
            call_and_compare("fn add_into", s.fn_add, add_into, [x, _data(rng, n)],
                             written=(0,))
    elif kind == 7:
        x = np.abs(_data(rng, r.randint(1, 2000)))
        call_and_compare("cf checked", s.cf_checked, checked, [x])
    elif kind == 8:
        n = _length(r)
        call_and_compare("artifact axpy", s.lib["axpy"], axpy,
                         [np.float64(rng.standard_normal()), _data(rng, n), _data(rng, n)])
    elif kind == 9:
        n = r.randint(1, 500)
        call_and_compare("artifact gather", s.lib["gather"], gather,
                         [_data(rng, n), np.int64(r.randint(-n, n - 1))])
    else:
        n = r.randint(1, 3000)
        call_and_compare("artifact fill", s.lib["fill"], fill,
                         [_data(rng, n), np.int64(r.randint(0, n))], written=(0,))


def _read_only(n):
    a = np.zeros(n)
    a.setflags(write=False)
    return a


def op_error(s, rng, r):
    kind = r.randrange(16)
    n = r.randint(1, 200)
    x = _data(rng, n)
    a = np.float64(1.5)
    if kind == 0:
        expect("cf dtype", TypeError, "expected float64[?], got float32", s.cf_axpy,
               a, x.astype(np.float32), x)
    elif kind == 1:
        expect("cf arity", TypeError, "takes 3 arguments", s.cf_axpy, a, x)
    elif kind == 2:
        expect("fn arity", TypeError, "missing a required argument", s.fn_axpy, a, x)
    elif kind == 3:
        expect("fn list", TypeError, "of type list is not supported", s.fn_axpy,
               a, x.tolist(), x)
    elif kind == 4:
        expect("fn timedelta", compiler.CompileError, "timedelta64", s.fn_gather,
               x.astype("m8[s]"), np.int64(0))
    elif kind in (5, 6):
        i = r.choice((n + r.randint(0, 5), -n - 1 - r.randint(0, 5)))
        f = s.cf_gather if kind == 5 else s.lib["gather"]
        expect("index out of range", IndexError, f"index {i} is out of bounds", f,
               x, np.int64(i))
    elif kind in (7, 8, 9):
        f = (s.cf_fill, s.lib["fill"], s.fn_fill)[kind - 7]
        n = HOT_SIZES[0] if f is s.fn_fill else n   # a warm signature: no compilation
        y = np.zeros(n)
        want = y.copy()
        try:
            fill(want, n + 1)
        except IndexError:
            pass
        expect("loop store out of range", IndexError, f"index {n} is out of bounds", f,
               y, np.int64(n + 1))
        same(y, want, "writes before the IndexError")
    elif kind in (10, 11):
        # a ConcreteFunction runs the Python function, which raises at the first write;
        # a loaded artifact has none and raises before the call, also when nothing is written
        y = _read_only(n)
        f = s.cf_fill if kind == 10 else s.lib["fill"]
        expect("read-only", ValueError, "assignment destination is read-only", f,
               y, np.int64(r.randint(1 if kind == 10 else 0, n)))
        check(not y.any(), "read-only: the array was written")
    elif kind == 12:
        expect("artifact dtype", TypeError, "expected float64[?], got int64",
               s.lib["axpy"], a, x.astype(np.int64), x)
    elif kind == 13:
        if r.random() < 0.5:
            expect("scalar dtype", TypeError, "expected an int64 scalar, got float",
                   s.cf_gather, x, 0.5)
        else:
            expect("scalar range", OverflowError, "argument 'i'", s.cf_gather, x, 2**70)
    elif kind == 14:
        y = x.copy()
        y[0] = -abs(y[0]) - 1.0
        expect("assert", AssertionError, "first element is negative", s.cf_checked, y)
    else:
        expect("signature", compiler.SignatureError, "", compiler.compile, axpy,
               "f64, f64[?, f64[?]")


def op_fresh_constant(s, rng, r):
    k = next(s.constants)
    k = k if r.random() < 0.5 else k + 0.25
    call_and_compare(f"fresh constant {k}", s.fn_scaled, scaled, [_data(rng, 100), k])


def _random_array(rng, dtype, shape):
    if dtype is np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        info = np.iinfo(dtype)
        return rng.integers(max(info.min, -100), min(info.max, 100), shape, dtype=dtype,
                            endpoint=True)
    return rng.standard_normal(shape).astype(dtype)


def _poly_arguments(rng, r):
    dtype = r.choice(DTYPES)
    shape = tuple(r.randint(1, 9) for _ in range(r.randint(1, 3)))
    return [_random_array(rng, dtype, shape), _random_array(rng, dtype, shape)]


def op_fresh_dtype_shape(s, rng, r):
    x, y = _poly_arguments(rng, r)
    call_and_compare(f"fresh {x.dtype}{list(x.shape)}", s.fn_poly, poly, [x, y])


def _softmax_signature(rng, r):
    rows_, cols = r.randint(1, 30), r.randint(1, 64)
    dims = [r.choice(("?", str(rows_))), r.choice(("?", str(cols)))]
    dtype = r.choice(("f32", "f64"))
    x = (rng.standard_normal((rows_, cols)) * 5).astype(dtype.replace("f", "float"))
    return f"{dtype}[{','.join(dims)}]", x


def op_fresh_compile(s, rng, r):
    signature, x = _softmax_signature(rng, r)
    cf = compiler.compile(softmax, signature)
    with s.lock:
        s.explicit += 1
    call_and_compare(f"compile softmax {signature}", cf, softmax, [x])


def op_clear_cache(s, rng, r):
    r.choice((s.fn_scaled, s.fn_poly)).clear_cache()


def op_clear_caches(s, rng, r):
    compiler.clear_caches()


def op_aot_load(s, rng, r):
    lib = runtime.load(s.artifact)
    n = _length(r)
    call_and_compare("loaded axpy", lib["axpy"], axpy,
                     [np.float64(rng.standard_normal()), _data(rng, n), _data(rng, n)])


def op_aot_save(s, rng, r):
    path = os.path.join(s.tmp, f"saved{next(s.files)}.grafo")
    try:
        compiler.save(path, [s.cf_mse, s.cf_softmax])
        lib = runtime.load(path)
        n = _length(r)
        call_and_compare("saved mse", lib["mse"], mse,
                         [_data(rng, n, np.float32), _data(rng, n, np.float32)])
        x = _data(rng, (r.randint(1, 9), r.randint(1, 99)), np.float32)
        call_and_compare("saved softmax", lib["softmax"], softmax, [x])
    finally:
        if os.path.exists(path):
            os.remove(path)


def op_disk_cache(s, rng, r):
    s.fn_cached.clear_cache()
    n = r.choice((100, 3000))
    call_and_compare("disk cache mse", s.fn_cached, mse,
                     [_data(rng, n, np.float32), _data(rng, n, np.float32)])


OPS = {"call": op_call, "error": op_error, "fresh_constant": op_fresh_constant,
       "fresh_dtype_shape": op_fresh_dtype_shape, "fresh_compile": op_fresh_compile,
       "clear_cache": op_clear_cache, "clear_caches": op_clear_caches,
       "aot_load": op_aot_load, "aot_save": op_aot_save, "disk_cache": op_disk_cache}
# relative weights per phase; a call takes about 0.1-2 ms, a compilation 0.3-1 s
MIXED = {"call": 700, "error": 300, "fresh_constant": 0.12, "fresh_dtype_shape": 0.12,
         "fresh_compile": 0.06, "clear_cache": 0.05, "clear_caches": 0.005, "aot_load": 3,
         "aot_save": 0.05, "disk_cache": 1}
CALLS_ONLY = {"call": 700, "error": 300}
COMPILES_ONLY = {"fresh_constant": 1, "fresh_dtype_shape": 1, "fresh_compile": 1}
WEIGHTS = {"mixed": MIXED, "calls": CALLS_ONLY, "compiles": COMPILES_ONLY}
COMPILING = ("fresh_constant", "fresh_dtype_shape", "fresh_compile")


def worker(s: Soak, index: int) -> None:
    rng = np.random.default_rng([s.seed, index])
    r = random.Random(s.seed * 1000 + index)
    counts = s.counts[index]
    choices = {p: (list(w), list(itertools.accumulate(w.values()))) for p, w in WEIGHTS.items()}
    while s.phase != "stop":
        if s.phase not in choices:   # paused: say so for this pause
            s.current[index] = "-"
            s.parked[index] = s.generation
            time.sleep(0.002)
            continue
        kinds, cumulative = choices[s.phase]
        kind = r.choices(kinds, cum_weights=cumulative)[0]
        s.current[index] = kind
        try:
            OPS[kind](s, rng, r)
        except Failure as e:
            s.fail(f"thread {index}, {kind}: {e}")
        except Exception:   # noqa: BLE001 (reported as a failure)
            s.fail(f"thread {index}, {kind}: unexpected exception\n{traceback.format_exc()}")
        counts[kind] += 1
    s.current[index] = "done"


def pause(s: Soak, threads: int) -> None:
    """Stop the workers between two operations (each finishes the one it is in) and wait
    until every one has; ``s.phase`` is "pause" until the caller sets the next phase."""
    s.generation += 1   # before the phase: a worker parks with it only after seeing "pause"
    s.phase = "pause"
    t0 = time.perf_counter()
    while any(p != s.generation for p in s.parked[:threads]):
        if time.perf_counter() - t0 > 300:
            raise RuntimeError(f"the workers did not pause, in: {s.current[:threads]}")
        time.sleep(0.002)
    s.paused += time.perf_counter() - t0


def warm(s: Soak, rng) -> None:
    """Compile the signatures the ``call`` and ``error`` operations give the polymorphic
    Functions (again after ``compiler.clear_caches()``)."""
    for n in HOT_SIZES:
        s.fn_axpy(np.float64(1.0), _data(rng, n), _data(rng, n))
    s.fn_add(_data(rng, HOT_SIZES[1]), _data(rng, HOT_SIZES[1]))
    s.fn_fill(np.zeros(HOT_SIZES[0]), np.int64(1))


# -- the main thread: interrupts and sampling -----------------------------------------------

def interrupt_round(s: Soak, r: random.Random, how: str) -> None:
    """Call a compiled loop that runs for hours and SIGINT it after a few milliseconds."""
    parallel_loop = s.cf_rows is not None and r.random() < 0.3
    a = np.zeros(4096) if parallel_loop else np.zeros(r.choice((1, 8, 1000)))
    sent: list = []

    def send():
        sent.append(time.perf_counter())
        if how == "process":
            os.kill(os.getpid(), signal.SIGINT)
        else:
            signal.pthread_kill(threading.main_thread().ident, signal.SIGINT)

    timer = threading.Timer(r.uniform(0.002, 0.03), send)
    what = f"interrupt ({'parallel' if parallel_loop else 'serial'} loop, SIGINT to {how})"
    try:
        try:
            timer.start()
            if parallel_loop:
                s.cf_rows(a, np.int64(ROW_WORK))
            else:
                s.cf_spin(a, np.int64(HUGE))
        except KeyboardInterrupt:
            late = time.perf_counter() - sent[0]
            s.latencies.append(late)
            check(late < LATE, f"{what}: KeyboardInterrupt {late:.3f} s after SIGINT")
        else:
            raise Failure(f"{what}: the loop ended without KeyboardInterrupt")
        finally:
            timer.join()
        if parallel_loop:   # each row is written whole or not at all
            check(set(np.unique(a)) <= {0.0, ROW_WORK * 0.5}, f"{what}: rows half written")
            a[:] = 0.0
            s.cf_rows(a, np.int64(3))
            check(bool(np.all(a == 1.5)), f"{what}: the next call went wrong")
        else:   # each slot was incremented in turn
            check(a.max() - a.min() <= 1, f"{what}: writes out of order: {a[:8]}")
            check(s.cf_spin(np.zeros(8), np.int64(1000)) == 1000,
                  f"{what}: the next call went wrong")
    except Failure as e:
        s.fail(f"main thread: {e}")


def o3_leak(rng, r, per_kind: int, runs: int) -> tuple[float, int]:
    """MB that llvmlite's O3 pipeline alone keeps per run, on modules like those the
    compiling operations make (``per_kind`` each of a new constant, a new dtype and shape, a
    random softmax signature): each module is lowered to LLVM IR once and optimized
    ``runs`` times in fresh contexts, as ``backend/llvm/target.optimize`` does it for a
    compilation. Returns (MB per run, runs)."""
    from compiler.backend.llvm.codegen import lower_module
    from compiler.backend.llvm.target import ScratchContext, optimize
    functions = []
    for _ in range(per_kind):
        functions.append(compiler.function(scaled).get_concrete_function(
            _data(rng, 100), r.randint(10**6, 10**7)))
        functions.append(compiler.function(poly).get_concrete_function(*_poly_arguments(rng, r)))
        functions.append(compiler.compile(softmax, _softmax_signature(rng, r)[0]))
    texts = []
    for cf in functions:
        with ScratchContext() as scratch:
            ref, _ = lower_module(cf.compiled.modules["loops"], "soak", scratch.context)
            texts.append(str(scratch.keep(ref)))
    del functions

    def optimized(text):
        with ScratchContext() as scratch:
            optimize(scratch.parse(text))

    for text in texts:   # first runs build what LLVM keeps for every run
        optimized(text)
    gc.collect()
    before = rss_mb()
    for _ in range(runs):
        for text in texts:
            optimized(text)
    gc.collect()
    return (rss_mb() - before) / (runs * len(texts)), runs * len(texts)


def run(minutes: float, threads: int, seed: int, sample: float | None,
        csv: str | None = None) -> bool:
    duration = minutes * 60.0
    sample = sample or min(5.0, max(0.2, duration / 30))
    calibration = min(60.0, max(1.0, CALIBRATION * duration))
    warm_up = min(30.0, max(1.0, WARM_UP * duration))
    warnings.filterwarnings("ignore", category=RuntimeWarning, message=".*share memory.*")
    warnings.filterwarnings("ignore", category=RuntimeWarning, message=".*read-only array.*")
    warnings.filterwarnings("ignore", message=".*consecutive calls.*")
    tmp = tempfile.mkdtemp(prefix="grafo-soak-")
    print(f"grafo soak: {minutes:g} min, {threads} threads + the main thread (interrupts), "
          f"seed {seed}; {os.cpu_count()} CPUs, {parallel.get_num_threads()} OpenMP "
          f"threads; Python {platform.python_version()}, NumPy {np.__version__}, "
          f"llvmlite {llvmlite.__version__}", flush=True)
    try:
        started = time.perf_counter()
        s = Soak(threads, seed, tmp)
        r = random.Random(seed)
        main = s.counts[threads]
        # warm-up: each operation once, then each kind of interrupt
        rng = np.random.default_rng([seed, threads])
        for kind, op in OPS.items():
            try:
                op(s, rng, r)
            except Exception:   # noqa: BLE001
                s.fail(f"warm-up, {kind}:\n{traceback.format_exc()}")
        warm(s, rng)
        for how in ("process", "thread"):
            interrupt_round(s, r, how)
        first = s.compiles()

        s.phase = "mixed"
        workers = [threading.Thread(target=worker, args=(s, i), name=f"soak-{i}", daemon=True)
                   for i in range(threads)]
        for w in workers:
            w.start()
        rounds = 0

        def interrupt():
            nonlocal rounds
            interrupt_round(s, r, ("process", "thread")[rounds % 2])
            main["interrupt"] += 1
            rounds += 1
            time.sleep(r.uniform(0.05, 0.25))

        # the mix on every thread until the allocators' arenas, the buffer pool and the
        # bounded Functions have filled, before the first sample
        end = time.perf_counter() + warm_up
        while time.perf_counter() < end:
            interrupt()
        s.latencies.clear()
        base = Counter()
        for c in s.counts:
            base.update(c)
        print(f"warm-up: {s.compiles()} compilations in {time.perf_counter() - started:.1f} s "
              f"({s.warm_compile_s:.1f} s for the first {first} in the main thread, then "
              f"{warm_up:.0f} s of the mix)", flush=True)
        t0 = time.perf_counter()
        samples = []   # (seconds, RSS MB, compilations, operations, phase)

        def take(phase, clear=False):
            """A sample of what stays: between two operations of every worker, after a
            garbage collection, without the buffer pool's blocks (up to 8 of them, each
            at least 1 MiB: they come and go with the large calls); then the workers go on
            in ``phase``."""
            pause(s, threads)
            if clear:
                compiler.clear_caches()
            gc.collect()
            s.pooled = max(s.pooled, compiler.release_buffers())
            samples.append((time.perf_counter() - t0, rss_mb(), s.compiles(), s.total(), phase))
            s.phase = phase

        take("mixed")
        next_sample, next_report = sample, 60.0
        while (now := time.perf_counter() - t0) < duration:
            interrupt()
            if now >= next_sample:
                take("mixed")
                next_sample += sample
            if now >= next_report:
                next_report += 60.0
                print(f"[{now / 60:5.1f} min] RSS {samples[-1][1]:7.1f} MB, "
                      f"{s.total() - base.total():8d} operations, "
                      f"{s.compiles() - samples[0][2]:5d} compilations, "
                      f"{len(s.failures)} failures", flush=True)
        take("pause")
        soak_end = samples[-1][0]
        done = Counter()
        for c in s.counts:
            done.update(c)

        def calibrate(phase, kinds, clear=False):
            start = len(samples)
            take(phase, clear)
            ops0 = s.total(kinds)
            end = time.perf_counter() + calibration
            while time.perf_counter() < end:
                time.sleep(min(1.0, calibration / 10))
                take(phase)
            take("pause", clear)
            return [x[:4] + (phase,) for x in samples[start:]], s.total(kinds) - ops0

        call_samples, calls = calibrate("calls", ("call", "error"))
        # every specialization freed at both ends: the difference is what compiling leaves
        compile_samples, _ = calibrate("compiles", COMPILING, clear=True)
        s.phase = "stop"
        stuck = []
        for i, w in enumerate(workers):
            w.join(timeout=120)
            if w.is_alive():
                stuck.append(f"thread {i} did not stop (in {s.current[i]})")
        for message in stuck:
            s.fail(message)
        done.subtract(base)
        half_minutes = (soak_end - soak_end / 2) / 60
        leak = o3_leak(rng, r, 4, 5) if half_minutes >= MIN_FIT_MINUTES else None
        if csv:
            with open(csv, "w") as f:
                f.write("seconds,rss_mb,compilations,operations,next_phase\n")
                f.writelines(",".join(map(str, x)) + "\n" for x in samples)
        ok = report(s, done, samples, soak_end, call_samples, calls, compile_samples,
                    calibration, leak)
        print(f"{time.perf_counter() - started:.0f} s in all: warm-up, soak, calibration")
        print("PASS" if ok else "FAIL", flush=True)
        return ok
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def report(s, counts, samples, soak_end, call_samples, calls, compile_samples,
           calibration, leak) -> bool:
    mixed = [x for x in samples if x[0] <= soak_end]
    half = [x for x in mixed if x[0] >= soak_end / 2]
    print(f"operations in the soak ({soak_end / 60:.2f} min; the calibration phases after it "
          f"not counted):")
    for kind in [*OPS, "interrupt"]:
        line = f"  {kind:18s} {counts[kind]:9d}"
        if kind == "interrupt" and s.latencies:
            line += (f"   SIGINT to KeyboardInterrupt: median "
                     f"{np.median(s.latencies) * 1e3:.2f} ms, max {max(s.latencies) * 1e3:.1f} ms")
        print(line)
    operations = sum(counts.values())
    compiles = mixed[-1][2] - mixed[0][2]
    print(f"compilations in the soak: {compiles} ({compiles / (soak_end / 60):.1f}/min)")
    print(f"failures: {len(s.failures)}")
    for f in s.failures[:20]:
        print("  " + f.replace("\n", "\n    "))
    start, end = mixed[0][1], mixed[-1][1]
    print(f"RSS: {start:.1f} MB at the start (after the warm-up), {end:.1f} MB at the end of "
          f"the soak ({end - start:+.1f} MB), peak {max(x[1] for x in samples):.1f} MB; "
          f"{len(mixed)} samples, each taken with the workers between two operations "
          f"(waiting for them: {s.paused:.0f} s in all) and the buffer pool emptied (it held "
          f"up to {s.pooled / 2**20:.1f} MB)")
    if leak is None:   # too short for the memory check: take the documented figure
        per_run = LLVMLITE_LEAK
    else:
        per_run, runs = leak
        print(f"llvmlite's O3 pipeline alone, on {runs} runs over modules like the soak's: "
              f"{per_run:.3f} MB kept per run")
    minutes = (half[-1][0] - half[0][0]) / 60
    slope = fit([x[0] / 60 for x in half], [x[1] for x in half])
    half_compiles = half[-1][2] - half[0][2]
    rate = half_compiles / minutes if minutes else 0.0
    allowed = LEAK_HEADROOM * per_run
    bound = allowed * rate + BOUND_BASE
    per_op = BOUND_BASE * 2**20 / (operations / (soak_end / 60)) if operations else 0.0
    print(f"second half ({minutes:.2f} min, {len(half)} samples): RSS slope {slope:+.2f} MB/min, "
          f"{half_compiles} compilations ({rate:.1f}/min); bound {LEAK_HEADROOM} x "
          f"{per_run:.3f} MB x {rate:.1f}/min + {BOUND_BASE} MB/min = {bound:.2f} MB/min "
          f"({BOUND_BASE} MB/min: {per_op:.0f} bytes per operation at this soak's rate)")
    ops = [x[3] for x in call_samples]
    per_call = fit(ops, [x[1] for x in call_samples]) * 2**20
    grown = call_samples[-1][1] - call_samples[0][1]
    print(f"calibration, calls and errors only ({calibration:.0f} s): {calls} operations, "
          f"RSS {grown:+.2f} MB, {per_call:+.1f} bytes per operation (fit)")
    made = compile_samples[-1][2] - compile_samples[0][2]
    held = compile_samples[:-1]   # the last sample: after compiler.clear_caches()
    per_compile = fit([x[2] for x in held], [x[1] for x in held])
    grown = compile_samples[-1][1] - compile_samples[0][1]
    print(f"calibration, compilations only ({calibration:.0f} s): {made} compilations, "
          f"{grown / made if made else 0.0:+.3f} MB per compilation left after "
          f"compiler.clear_caches() (RSS {grown:+.2f} MB), {per_compile:+.3f} MB per "
          f"compilation while compiling (fit)")
    print(f"RSS at the end: {samples[-1][1]:.1f} MB")

    ok = not s.failures
    if minutes < MIN_FIT_MINUTES:
        print(f"memory check skipped: the second half is shorter than {MIN_FIT_MINUTES} min")
    elif slope > bound:
        print(f"memory grows: {slope:.2f} MB/min over the second half > {bound:.2f} MB/min")
        ok = False
    return ok


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=10.0, help="length of the soak")
    parser.add_argument("--threads", type=int, default=4, help="worker threads")
    parser.add_argument("--seed", type=int, default=0, help="seed of the random mix")
    parser.add_argument("--sample", type=float, default=None,
                        help="seconds between RSS samples (default: 5, less for short runs)")
    parser.add_argument("--csv", default=None,
                        help="write the RSS samples to this CSV file")
    args = parser.parse_args(argv)
    return 0 if run(args.minutes, args.threads, args.seed, args.sample, args.csv) else 1


if __name__ == "__main__":
    sys.exit(main())
