"""User-facing compile errors that point at the user's source.

Every error a user can cause at compile time is a ``CompileError`` whose message reads::

    k.py:4:9: error: unsupported syntax 'try' statement
        try:
        ^
    write the computation without exceptions instead
"""

from __future__ import annotations

import builtins
import functools
import linecache

from .ir.core import Location
from .ir.parse_error import IRParseError
from .ir.verifier import VerifyError

# The message of an OverflowError on grafo's 64-bit Python ints (compile or run time).
PY_INT_OVERFLOW = "Python int too large for grafo's 64-bit Python ints: "


def source_excerpt(loc: Location) -> str:
    """The source line at ``loc`` followed by a caret under its column ("" if unknown)."""
    if not loc or loc.line <= 0:
        return ""
    line = linecache.getline(loc.file, loc.line).rstrip("\n")
    if not line:
        return ""
    return f"    {line}\n    {' ' * max(loc.col - 1, 0)}^"


def format_at(loc: Location | None, message: str, hint: str = "") -> str:
    """``file:line:col: error: message``, the source line with a caret, and a hint."""
    head = f"{loc.file}:{loc.line}:{loc.col}: error: {message}" if loc and loc.line > 0 \
        else f"error: {message}"
    parts = [head]
    excerpt = source_excerpt(loc) if loc else ""
    if excerpt:
        parts.append(excerpt)
    if hint:
        parts.append(hint)
    return "\n".join(parts)


class CompileError(Exception):
    """A Python construct, call or type combination that grafo cannot compile.

    Attributes: ``loc`` (the user's source location), ``reason`` (the bare message), ``hint``
    (what to write instead, may be empty)."""

    def __init__(self, reason: str, loc: Location | None = None, hint: str = ""):
        self.reason = reason
        self.loc = loc
        self.hint = hint
        super().__init__(format_at(loc, reason, hint))


def compile_error_class(kind: type[BaseException]) -> type[CompileError]:
    """``CompileError`` that is also ``kind``'s nearest built-in exception class, for errors
    NumPy would raise at run time (``CompileValueError`` is a ``ValueError``), so code written
    as ``except ValueError:`` catches the compile-time report too. The classes are cached in
    this module (they pickle by name)."""
    base = next((c for c in kind.__mro__ if getattr(builtins, c.__name__, None) is c), Exception)
    if base in (Exception, BaseException) or issubclass(base, CompileError):
        return CompileError
    return _combined(base)


def unsupported(reason: str, loc: Location | None = None, hint: str = "") -> CompileError:
    """The error for valid code or IR that a stage of grafo cannot compile (an op without a
    lowering, a construct a back end does not run): a CompileError that is also a
    NotImplementedError."""
    return compile_error_class(NotImplementedError)(reason, loc, hint)


@functools.cache
def _combined(base: type[BaseException]) -> type[CompileError]:
    name = "Compile" + base.__name__
    doc = f"A CompileError that is a {base.__name__}."
    cls = type(name, (CompileError, base),
               {"__module__": __name__, "__qualname__": name, "__doc__": doc})
    globals()[name] = cls
    return cls


def __getattr__(name: str):
    """``CompileValueError`` & co. on first use (unpickling in a fresh process)."""
    base = getattr(builtins, name[len("Compile"):], None) if name.startswith("Compile") else None
    if isinstance(base, type) and issubclass(base, Exception) and base is not Exception:
        return _combined(base)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


# What compiling IR text (parse -> verify -> passes -> lowering -> LLVM IR, as ``grafo opt``
# and ``grafo translate`` do) raises for a fault in that text: the parser's and the
# verifier's errors, and CompileError for valid IR that grafo cannot compile (``unsupported``:
# an op that no lowering rule takes, such as an arith op in tensor-level IR). Any other
# exception is a compiler bug (the CLI reports it as an internal compiler error).
IR_INPUT_ERRORS = (IRParseError, VerifyError, CompileError)
