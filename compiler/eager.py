"""Eager mode: ``run_functions_eagerly(True)`` makes every ``Function`` run its Python
function as written (CPython + NumPy) instead of compiled code, as
``tf.config.run_functions_eagerly`` does.

``EAGER.on`` is the switch the Functions' dispatch reads on every call that is not a native
fast entry; turning it on drops every live Function's fast entry (``Function.drop_fast_entry``:
the generated entries do not read the switch), so their next calls read it. The weak set of
live Functions (``track``, ``tracked``) also serves ``compiler.clear_caches``.
"""

from __future__ import annotations

import weakref


class _Switch:
    __slots__ = ("on",)

    def __init__(self):
        self.on = False


EAGER = _Switch()
_functions: weakref.WeakSet = weakref.WeakSet()   # every live Function


def track(function) -> None:
    """Count ``function`` (a ``Function``) among the live ones."""
    _functions.add(function)


def tracked() -> list:
    """The live Functions."""
    return list(_functions)


def run_functions_eagerly(run_eagerly: bool) -> None:
    """When True, every ``Function`` runs its Python function as written (CPython + NumPy)
    instead of compiled code; as ``tf.config.run_functions_eagerly``."""
    EAGER.on = bool(run_eagerly)
    if EAGER.on:
        for f in tracked():
            f.drop_fast_entry()


def functions_run_eagerly() -> bool:
    """Whether ``run_functions_eagerly(True)`` is in effect."""
    return EAGER.on
