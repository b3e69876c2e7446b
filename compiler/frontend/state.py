"""The state of one conversion, the object every handler takes as ``cx``: where ops go, the
functions being inlined, and the side tables of array updates. Building an op and raising a
CompileError at the current source location are its methods, because both read that state.

Who writes which field: ``frames`` converter.py and inlining.py; ``slots`` and
``global_args`` globals.py; ``var_names`` variables.py; ``views``, ``guards``, ``foreign`` and
``frozen`` mutation.py and links.py (``foreign`` also expressions.py, where a name is read).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import CompileError, compile_error_class
from ..ir.builder import Builder
from ..ir.core import Location, Value
from .scope import Frame, Scope

_ERRORS = (TypeError, ValueError, IndexError, OverflowError)


@dataclass(eq=False)
class State:
    """What converting one Python function (and the functions it inlines) knows.

    - ``slots``: the ``(namespace, name)`` module globals the code rebinds (globals.py);
      fixed for one conversion, which restarts when a new one is found.
    - ``builder``: the insertion point and location of the next op.
    - ``frames``: the stack of functions being converted, the compiled one first; the last
      is the current one (``frame``, whose ``scope`` is the current path's names).
    - ``views``: an array -> ``(op, base)`` where its own op does not say what it views (a
      view written into, or made again of a later value of its base): it is the view ``op``
      makes of ``base``; op None: it is a later value of the array ``base`` (and has its
      memory layout).
    - ``guards``: an array that may or may not view another -> ``(partner, message, hint)``:
      writes that depend on that link are a CompileError with that message.
    - ``foreign``: the compile-time arrays read from globals and enclosing functions, whose
      views are read-only; ``frozen``: their run-time values -> ``(message, hint)`` of the
      error a write through one raises.
    - ``var_names``: ``id(Variable)`` -> the hidden name of its value (``%var:k``).
    - ``global_args``: the compiled function's hidden arguments of ``slots``.
    """

    slots: list = field(default_factory=list)
    builder: Builder = field(default_factory=Builder)
    frames: list[Frame] = field(default_factory=list)
    views: dict = field(default_factory=dict)
    guards: dict = field(default_factory=dict)
    foreign: set = field(default_factory=set)
    frozen: dict = field(default_factory=dict)
    var_names: dict = field(default_factory=dict)
    global_args: list = field(default_factory=list)

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    @property
    def scope(self) -> Scope:
        return self.frame.scope

    @scope.setter
    def scope(self, scope: Scope) -> None:
        self.frame.scope = scope

    def loc(self, node) -> Location:
        return self.frame.source.loc(node)

    def at(self, node):
        """Ops built inside this context get the location of ``node``."""
        return self.builder.at_loc(self.loc(node))

    def fail(self, message: str, hint: str = "", kind: type[BaseException] | None = None):
        """Raise a CompileError at the current source location; ``kind``: the exception NumPy
        or Python raises at run time, which the error then also is (``errors.py``)."""
        cls = CompileError if kind is None else compile_error_class(kind)
        raise cls(message, self.builder.loc, hint)

    def insert(self, op):
        return self.builder.insert(op)

    def emit_op(self, op_cls, operands, attributes=None, types=None):
        """Build and insert an op; type-inference errors become CompileErrors here."""
        try:
            return self.builder.create(op_cls, list(operands), attributes, types)
        except _ERRORS as e:
            self.fail(str(e), kind=type(e))

    def emit(self, op_cls, operands, attributes=None, types=None) -> Value:
        """``emit_op`` for a single-result op; returns the result value."""
        return self.emit_op(op_cls, operands, attributes, types).result
