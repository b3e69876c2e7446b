"""Symbol tables: the SSA value bound to each local name on the current path, and the
resolution of free names through the function's closure, globals and builtins.

Control flow that leaves a block (``return``, ``break``, ``continue``) is tracked with flag
variables in the same table, under names no Python identifier can take, so that branches and
loops merge and carry them like any other variable. So are the buffers the caller observes
(``%in:p``, ``%live:p``, ``%exit:p``; tracking.py keeps them up to date), Variables and
rebound globals (``%var:k``, ``%global:k``).
"""

from __future__ import annotations

import builtins
from dataclasses import dataclass

from .source import FunctionSource, source_of
from .values import Constant

RETURNED = "%returned"    # a return statement ran
RETVAL = "%retval"        # the value it returned
BROKE = "%broke"          # a break statement ran in the innermost loop
CONTINUED = "%continued"  # a continue statement ran in the current iteration
FLAGS = (RETURNED, BROKE, CONTINUED)
SPECIAL = FLAGS + (RETVAL,)
IN = "%in:"      # %in:p: Alias(p) while p holds the caller's buffer, else the buffer's value
EXIT = "%exit:"  # %exit:p: the value of a snapshot buffer p at a return
LIVE = "%live:"  # %live:p: whether p holds the caller's buffer, where that is a run-time bool
VALUE = "%value"  # a conditional expression's value while its paths merge (links.relink)
VAR = "%var:"        # %var:k: the value of the k-th compiler.Variable (variables.py)
GLOBAL = "%global:"  # %global:k: the value of the k-th rebound module global (globals.py)
MISSING = object()


class Scope:
    """Local names -> frontend values on one control-flow path.

    ``terminated`` is True when control has certainly left this path (after ``return``,
    ``break`` or ``continue``); later statements on it are unreachable. ``returned`` is True
    when it left through ``return``: then the local variables of this path are dead."""

    def __init__(self, names: dict | None = None, terminated: bool = False,
                 returned: bool = False):
        self.names = dict(names or {})
        self.terminated = terminated
        self.returned = returned

    def copy(self) -> "Scope":
        return Scope(self.names, self.terminated, self.returned)

    def get(self, name: str, default=None):
        return self.names.get(name, default)

    def __contains__(self, name: str) -> bool:
        return name in self.names

    def __getitem__(self, name: str):
        return self.names[name]

    def __setitem__(self, name: str, value) -> None:
        self.names[name] = value

    def pending_flags(self) -> list:
        """Flags that may be set on this path (not the constant False)."""
        return [f for f in FLAGS if not _is_false(self.names.get(f))]


def _is_false(v) -> bool:
    return v is None or (isinstance(v, Constant) and v.value is False)


@dataclass(frozen=True, eq=False)
class Alias:
    """``%in:p`` while the name ``p`` still holds the caller's buffer."""

    name: str


def resolve(scope: Scope, v):
    """The value ``v`` stands for in ``scope`` (an ``Alias`` is its name's value)."""
    return scope.names.get(v.name) if isinstance(v, Alias) else v


def resolved(scope: Scope) -> Scope:
    """``scope`` with each ``%in:p`` that is an ``Alias`` bound to ``p``'s value."""
    return Scope({n: resolve(scope, v) for n, v in scope.names.items()})


def display_name(name: str) -> str:
    """How a (possibly special) variable is named in error messages."""
    return {RETVAL: "the return value", RETURNED: "the return flag", BROKE: "the break flag",
            CONTINUED: "the continue flag"}.get(name, f"variable '{name}'")


def is_special(name: str) -> bool:
    """Whether ``name`` keeps its value on a path that returned (flags, return values)."""
    return name in SPECIAL or name.startswith(EXIT)


class Frame:
    """One function being converted (the compiled one or an inlined callee).

    A nested ``def``/``lambda`` has no function object at compile time: ``node`` is its AST
    and ``parent`` the frame that defined it, whose current locals its free names read
    (Python's late binding). ``tracked`` maps the names of the buffers the caller observes to
    their values on entry (see tracking.py)."""

    def __init__(self, fn, scope: Scope, node=None, parent: "Frame | None" = None):
        self.fn = fn
        self.parent = parent
        self.source: FunctionSource = parent.source if parent is not None else source_of(fn)
        self.node = node if node is not None else self.source.node
        self.scope = scope
        self.tracked: dict = {}
        self.snapshots: set = set()  # tracked names whose value each ``return`` records
        self.declared: set = set()  # names its body declares ``global``
        self.return_loc = None  # the last ``return`` value converted, for result errors
        self.key = fn  # what recursion is counted by: the function or the nested def's AST
        code = getattr(fn, "__code__", None)
        self._closure = dict(zip(code.co_freevars, fn.__closure__ or (), strict=True)) \
            if code is not None else {}

    def lookup_enclosing(self, name: str):
        """A free name's frontend value among the locals of the defining frames, or
        ``MISSING``."""
        frame = self.parent
        while frame is not None:
            value = frame.scope.get(name, MISSING)
            if value is not MISSING:
                return value
            frame = frame.parent
        return MISSING

    def in_closure(self, name: str) -> bool:
        """Whether a free name is a closure cell of the function (not a global)."""
        if self.parent is not None:
            return self.parent.in_closure(name)
        return name in self._closure

    def lookup_free(self, name: str):
        """A free name's value from the closure, globals or builtins, or ``MISSING``."""
        if self.parent is not None:
            return self.parent.lookup_free(name)
        cell = self._closure.get(name)
        if cell is not None:
            try:
                return cell.cell_contents
            except ValueError:
                return MISSING
        g = self.fn.__globals__
        if name in g:
            return g[name]
        return getattr(builtins, name, MISSING)

