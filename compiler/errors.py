"""User-facing compile errors that point at the user's source.

Every error a user can cause at compile time is a ``CompileError`` whose message reads::

    k.py:4:9: error: unsupported syntax 'try' statement
        try:
        ^
    write the computation without exceptions instead
"""

from __future__ import annotations

import linecache

from .ir.core import Location


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
