"""The checks in front of a specialization that writes its array arguments.

Compiled code may read an argument after writing another, so a call where a written array
argument shares memory with another array argument (``f(a, a)``) runs the Python function
instead, NumPy's semantics; so does a call where a written argument is a read-only array
(the native entries test the WRITEABLE flags and raise ValueError before running), where
NumPy raises its ValueError at the write. Each case warns once per Python function
(RuntimeWarning, at the caller's line) when the call returns.
"""

from __future__ import annotations

import sys
import warnings
import weakref

from runtime.abi import read_only_argument, written_alias

_alias_warned: weakref.WeakSet = weakref.WeakSet()   # functions warned about shared memory
_read_only_warned: weakref.WeakSet = weakref.WeakSet()   # ... about read-only arguments


def guard_writes(native, written: list, arrays: list, names: list, python_function,
                 fallback):
    """``native`` (a callable taking the run-time arguments) behind the checks of the
    written array parameters ``written`` (positions among the run-time arguments; ``arrays``:
    those of every array parameter; ``names``: the run-time parameters' names).
    ``fallback(args)`` runs the Python function ``python_function`` on the arguments."""
    pairs = [(w, k) for w in written for k in arrays if k != w]
    name = python_function.__name__

    def call(*args):
        hit = written_alias(args, pairs)
        if hit is not None:
            w, k = hit
            _warn_once(_alias_warned, python_function,
                       f"{name}: arguments {names[w]!r} and {names[k]!r} share memory and "
                       f"{names[w]!r} is written: this call ran as Python (pass a copy to run "
                       f"compiled code)")
            return fallback(args)
        try:   # the native entries test the WRITEABLE flags: nothing to pay here
            return native(*args)
        except ValueError:
            # Raised before the native code runs when a written argument is read-only.
            w = read_only_argument(args, written)
            if w is None:
                raise
        out = fallback(args)   # NumPy's ValueError where the write is reached
        _warn_once(_read_only_warned, python_function,
                   f"{name}: argument {names[w]!r} is a read-only array and the function may "
                   f"write it: this call ran as Python (pass a writable array to run compiled "
                   f"code)")
        return out
    return call


def _warn_once(warned: weakref.WeakSet, python_function, message: str) -> None:
    if python_function not in warned:
        warned.add(python_function)
        warnings.warn(message, RuntimeWarning, stacklevel=caller_stacklevel())


def caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside grafo, for a warning issued by the
    caller of this function."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] in (
            "compiler", "runtime"):
        frame, level = frame.f_back, level + 1
    return level
