"""The buffers a function's caller observes: array parameters, Variables, rebound globals
and, for an inlined nested function, the arrays of the enclosing one it writes into.

Each frame tracks them (``Frame.tracked``): the hidden name ``%in:p`` holds ``Alias(p)``
while ``p`` still names the caller's buffer, else that buffer's last value. A path that
returned keeps the names holding them (its other locals are dead), so their values after the
body are the ones the caller sees (``exit_value``); a global, which may be rebound to a value
of any type, instead has its value recorded in ``%exit:p`` at every ``return``. An inlined
function's caller then sees the updates (copy-out, inlining.py), and the compiled function
writes them back with ``np.write_back`` (converter.py). Where control flow decides at run
time whether ``p`` still names the caller's buffer (``p`` rebound on one path of a branch, or
inside a loop), the bool ``%live:p`` says whether it does and ``%in:p`` is kept up to date on
every write into ``p`` while it does (``follow_live``).
"""

from __future__ import annotations

from ..ir.core import Value
from . import branches
from .scope import EXIT, IN, LIVE, Alias, resolve
from .values import Constant


def track(cx, name: str, snapshot: bool = False) -> None:
    """Make ``name`` (bound in the current scope) an observable buffer of this frame.
    With ``snapshot`` (a global, which assignments rebind to values of any type) each
    ``return`` records its value in ``%exit:name``; otherwise paths that returned keep
    the names holding the buffer (``kept_on_return``) and ``exit_value`` reads them."""
    cx.frame.tracked[name] = cx.scope[name]
    cx.scope[IN + name] = Alias(name)
    if snapshot:
        cx.frame.snapshots.add(name)


def record_exit(cx) -> None:
    """At a ``return``: the values of the snapshot buffers, as the caller will see them."""
    for name in cx.frame.tracked:
        if name in cx.frame.snapshots:
            cx.scope[EXIT + name] = resolve(cx.scope, cx.scope[IN + name])


def exit_value(cx, name: str):
    """The value the caller sees in the tracked buffer ``name`` once the frame's body
    has run (every path returned); None for a snapshot no ``return`` recorded."""
    if name in cx.frame.snapshots:
        return cx.scope.get(EXIT + name)
    return resolve(cx.scope, cx.scope[IN + name])


def kept_on_return(cx, paths) -> set:
    """The names a path that returned keeps when the scopes ``paths`` merge (a branch's
    paths, or a loop body's end), where its other locals are dead: ``%in:p`` of each
    tracked buffer ``p`` without snapshot, and ``p`` itself where ``%in:p`` is
    ``Alias(p)`` on all of ``paths`` (``p`` holds the caller's buffer on each, so its
    type agrees). A loop or branch then carries the buffer once, not once more as its
    value at the ``return``, and lowering updates it in place."""
    out = set()
    for name in cx.frame.tracked:
        if name in cx.frame.snapshots:
            continue
        out.add(IN + name)
        if all(isinstance(s.names.get(IN + name), Alias) for s in paths):
            out.add(name)
    return out


def before_rebind(cx, name: str) -> None:
    """``name`` is about to be bound to a new value: a tracked buffer stops following it."""
    if isinstance(cx.scope.get(IN + name), Alias):
        cx.scope[IN + name] = cx.scope[name]
    elif LIVE + name in cx.scope:
        cx.scope[LIVE + name] = Constant(False)


def follow_live(cx, rebound: set, new) -> None:
    """After a write rebound the names ``rebound`` to ``new``: a tracked buffer whose name
    may still hold it (``%live:p`` true at run time) takes the new value."""
    for name in rebound:
        live = cx.scope.get(LIVE + name)
        if live is None or (isinstance(live, Constant) and not live.value):
            continue
        old = cx.scope[IN + name]
        if old is new or not isinstance(old, Value) or old.type.rank != new.type.rank \
                or old.type.element != new.type.element:
            continue  # a different rank or dtype cannot be the caller's buffer
        cx.scope[IN + name] = branches.select(cx, live, lambda: new, lambda old=old: old)
