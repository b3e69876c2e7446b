"""Ctrl-C inside compiled code: the interrupt flag, its signal handler, and the status it gives.

Native code runs without the GIL, and Python runs its SIGINT handler only between bytecodes,
so without help a Ctrl-C waits for the native call to end. Long loops of compiled code
therefore poll the process's ``InterruptState`` (``compiler/passes/interrupt_polls.py``):
each compiled module has a pointer global (``grafo.rt.interrupt``; ``grafo_interrupt`` in an
artifact's library) that ``bind`` points at the state when the module is loaded. When the
flag is set and the call is the main thread's (``thread``; on the threads of a parallel loop:
the loop was started by it), the call stops through its error exit
(every buffer it allocated is freed; writes done into input arrays stay, as in eager Python)
and returns status ``INTERRUPTED``; ``interrupted`` then runs Python's pending signal
handlers, so the caller gets the KeyboardInterrupt of Python's own handler. Only the main
thread's calls stop, as only the main thread gets KeyboardInterrupt in Python; a parallel
loop started by the main thread stops on all of its threads.

The flag is set by a C signal handler that generated code defines (a small support module in
a process with the compiler, ``grafo_interrupt_handler`` in an artifact's library) and that
``install`` puts in place with ``sigaction`` in front of CPython's own C handler, which it
then calls, so Python still sees every SIGINT. ``install`` acts only in the main thread and
only while SIGINT has Python's default handler (``signal.default_int_handler``): a handler the
user installs with ``signal.signal`` replaces the C handler, and compiled code then runs to
the end of the call before that handler runs, as before. Code that reinstalls Python's
default handler (IPython does so around each cell) also removes it; it comes back with the
next compilation or artifact load in the main thread, and in IPython before each cell.

A flag left set by a SIGINT that arrived while no compiled code ran (Python handled it) is
cleared by the next call from the main thread (``clear_stale``) before the call starts.
Needs only ctypes (no compiler, llvmlite or lark).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading

INTERRUPTED = -3
SA_SIGINFO = 4   # Linux, every architecture grafo targets
SIG_DFL, SIG_IGN = 0, 1


class InterruptState(ctypes.Structure):
    """``struct { int32_t flag; int32_t reserved; uint64_t thread; void (*previous)(int); }``
    as generated code reads it (``compiler/backend/llvm/interrupt.py``): ``flag`` is set by
    the signal handler, ``thread`` is the ``pthread_self()`` of the thread whose calls stop,
    ``previous`` the handler the signal handler calls after setting the flag (or null)."""

    _fields_ = [("flag", ctypes.c_int32), ("reserved", ctypes.c_int32),
                ("thread", ctypes.c_uint64), ("previous", ctypes.c_void_p)]


class _SigAction(ctypes.Structure):
    """glibc's ``struct sigaction`` on Linux (x86-64 and AArch64)."""

    _fields_ = [("handler", ctypes.c_void_p), ("mask", ctypes.c_uint64 * 16),
                ("flags", ctypes.c_int), ("restorer", ctypes.c_void_p)]


_libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
_sigaction = _libc.sigaction
_sigaction.argtypes = [ctypes.c_int, ctypes.POINTER(_SigAction), ctypes.POINTER(_SigAction)]
_sigaction.restype = ctypes.c_int
_check_signals = ctypes.pythonapi.PyErr_CheckSignals   # raises what a handler raises
_check_signals.restype = ctypes.c_int

_state = InterruptState(0, 0, threading.main_thread().ident, None)
STATE_ADDRESS = ctypes.addressof(_state)
flag = ctypes.c_int32.from_address(STATE_ADDRESS)   # the flag, tested by each call from Python
_ours: set = set()      # addresses of the signal handlers this module installed
_owners: list = []      # what keeps their code loaded (engines, libraries)
_hooked: list = []      # the IPython shell whose cells reinstall the handler


def _after_fork() -> None:
    _state.thread = threading.get_ident()   # the forking thread is the child's main thread


os.register_at_fork(after_in_child=_after_fork)


def bind(global_address: int) -> None:
    """Point a loaded module's interrupt global (a ``void *`` at ``global_address``) at this
    process's interrupt state. Call once per loaded module, before its first call."""
    ctypes.c_void_p.from_address(global_address).value = STATE_ADDRESS


def install(handler: int, owner) -> bool:
    """Put the C signal handler at address ``handler`` (``void handler(int)``, reading a
    global bound with ``bind``) in front of SIGINT's current C handler; ``owner`` keeps its
    code loaded for the process's lifetime. Returns whether a grafo handler is in place.
    Does nothing outside the main thread, when SIGINT's Python handler is not
    ``signal.default_int_handler``, or when another C handler has replaced the one grafo
    chained to."""
    if threading.current_thread() is not threading.main_thread() \
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        return False
    current = _SigAction()
    if _sigaction(signal.SIGINT, None, ctypes.byref(current)) != 0:
        return False
    if current.handler in _ours:
        return True
    if current.handler in (None, SIG_DFL, SIG_IGN) or current.flags & SA_SIGINFO \
            or (_ours and current.handler != _state.previous):
        return False
    _state.previous = current.handler
    mine = _SigAction.from_buffer_copy(current)
    mine.handler = handler
    if _sigaction(signal.SIGINT, ctypes.byref(mine), None) != 0:
        return False
    _ours.add(handler)
    _owners.append(owner)
    _hook_ipython(handler, owner)
    return True


def _hook_ipython(handler: int, owner) -> None:
    """In IPython, reinstall before each cell: its prompt and kernel put Python's default
    handler back (``signal.signal``) around the cells, which removes the C handler."""
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is None or _hooked:
        return
    shell.events.register("pre_run_cell", lambda *info: install(handler, owner))
    _hooked.append(shell)


def clear_stale() -> None:
    """Before a call from the main thread, with the flag set: run Python's pending signal
    handlers (raises what they raise: KeyboardInterrupt for Python's default handler) and
    clear the flag, which a SIGINT handled by Python outside compiled code left set. Other
    threads leave it: a call of the main thread may be running."""
    if threading.get_ident() == _state.thread:
        _state.flag = 0
        _check_signals()


def interrupted() -> BaseException:
    """The exception of status ``INTERRUPTED``: clears the flag and runs Python's pending
    signal handlers, raising what they raise (KeyboardInterrupt for Python's default
    handler); returns KeyboardInterrupt when they return (the SIGINT was already handled,
    e.g. by Python code that the call ran for ``print``)."""
    _state.flag = 0
    _check_signals()
    return KeyboardInterrupt()
