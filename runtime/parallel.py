"""Threads for parallel loops: GCC's OpenMP runtime (libgomp), loaded from the system.

Compiled code runs an ``scf.for`` marked ``grafo.parallel`` on threads through
``GOMP_parallel``. It finds libgomp through the process-wide ``ThreadState`` block below: each
compiled module defines a pointer global ``grafo.rt.threads`` that ``bind`` sets to this block
when the module is loaded. The block holds the addresses of ``GOMP_parallel``,
``omp_get_thread_num`` and ``omp_get_num_threads`` (null when libgomp is absent) and the thread
count, which native code reads with an atomic load on every parallel loop, so
``set_num_threads`` takes effect at once for every loaded module and for calls running in
other threads. A module whose global is never bound (null), or a process without libgomp, runs
every loop serially with the same results.

libgomp is looked up with ``ctypes.util.find_library("gomp")``, then as ``libgomp.so.1`` in the
dynamic loader's path. The default thread count is libgomp's ``omp_get_max_threads()``, i.e.
``OMP_NUM_THREADS`` when set, else the number of CPUs this process may run on.

Wait policy: libgomp reads ``OMP_WAIT_POLICY`` and ``GOMP_SPINCOUNT`` once, when it is loaded.
Unless the user set either, it is loaded here with ``OMP_WAIT_POLICY=passive`` (the variable is
removed again afterwards, so child processes see the user's environment): threads that finish
their chunk sleep at once instead of spinning for libgomp's default 300,000 turns. On a machine
where another process holds a core, a spinning thread takes the core its team mate waits for,
and a threaded loop then runs slower than a serial one (docs/architecture.md, "Parallel
loops"; ``benches/busy.py``). A libgomp that another library loaded first keeps its settings.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os

import numpy as np

_GOMP_FUNCTIONS = ("GOMP_parallel", "omp_get_thread_num", "omp_get_num_threads")
# libgomp's variables that choose how idle threads wait; grafo's default applies when none is set
WAIT_VARIABLES = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")
DEFAULT_WAIT_POLICY = "passive"


class ThreadState(ctypes.Structure):
    """``struct { void *parallel, *thread_num, *num_threads; int32_t threads; }`` as read by
    generated code (``compiler/backend/llvm/parallel.py``)."""

    _fields_ = [("parallel", ctypes.c_void_p), ("thread_num", ctypes.c_void_p),
                ("num_threads", ctypes.c_void_p), ("threads", ctypes.c_int32)]


def _load_gomp():
    chosen = not any(v in os.environ for v in WAIT_VARIABLES)
    if chosen:
        os.environ["OMP_WAIT_POLICY"] = DEFAULT_WAIT_POLICY
    try:
        for name in (ctypes.util.find_library("gomp"), "libgomp.so.1"):
            if name is None:
                continue
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
        return None
    finally:
        if chosen:
            del os.environ["OMP_WAIT_POLICY"]


def _initial_state(lib) -> ThreadState:
    if lib is None:
        return ThreadState(None, None, None, 1)
    addresses = [ctypes.cast(getattr(lib, n), ctypes.c_void_p).value for n in _GOMP_FUNCTIONS]
    max_threads = lib.omp_get_max_threads
    max_threads.restype = ctypes.c_int
    return ThreadState(*addresses, max(1, max_threads()))


_gomp = _load_gomp()
_state = _initial_state(_gomp)
STATE_ADDRESS = ctypes.addressof(_state)


def available() -> bool:
    """Whether libgomp was found, so that parallel loops can use more than one thread."""
    return _state.parallel is not None


def library_path() -> str | None:
    """The file name libgomp was loaded from, or None when it is absent."""
    return None if _gomp is None else _gomp._name


def set_num_threads(n: int) -> None:
    """Use ``n`` threads (>= 1) for the parallel loops of every compiled function, from the
    next parallel loop on (calls already running included). Without libgomp loops stay serial
    whatever ``n`` is. Raises TypeError for a non-integer and ValueError for ``n < 1``."""
    if isinstance(n, (bool, np.bool_)) or not hasattr(type(n), "__index__"):
        raise TypeError(f"set_num_threads() expects an int, got {type(n).__name__}")
    n = n.__index__()
    if n < 1:
        raise ValueError(f"set_num_threads() expects at least 1 thread, got {n}")
    _state.threads = min(n, 2**31 - 1)   # one aligned 32-bit store: atomic for readers


def get_num_threads() -> int:
    """The number of threads parallel loops use: the last ``set_num_threads`` value, else
    ``OMP_NUM_THREADS`` or the CPU count as libgomp sees them; 1 without libgomp."""
    return int(_state.threads) if available() else 1


def bind(global_address: int) -> None:
    """Point a loaded module's ``grafo.rt.threads`` global (a ``void *`` at
    ``global_address``) at this process's thread state. Call once per loaded module, before
    its first call."""
    ctypes.c_void_p.from_address(global_address).value = STATE_ADDRESS
