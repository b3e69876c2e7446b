"""Tracebacks that end at the user's source line.

A run-time check of compiled code fails in native code, which has no Python frame of its own.
So that debuggers, IDEs and ``traceback.extract_tb`` take the user to the line that failed,
``raise_at`` raises the exception from a code object made for that line, as Jinja2 does for
template lines and Numba for errors of its compiled code: its ``co_filename``, ``co_name``
and line are the user's file, function and line.

The code's position spans the whole source line, so tracebacks draw no carets under it: a
caret under part of the line would be the traceback's guess at an expression, while the
exception's message already shows the line with a caret at the failed check's column.

Only the error path pays: nothing here runs when a call succeeds.
"""

from __future__ import annotations

import functools
import linecache

_RAISE = "raise "
_BLOCK = "if 1:"   # lets the raise start at the line's indentation


def raise_at(exc: BaseException, file: str, line: int, function: str):
    """Raise ``exc`` from a frame at ``file``, ``line`` (1-based) in ``function``; without a
    line (0 or less) raise it as it is. The class, message and chained exceptions of ``exc``
    are kept; the source line is read through ``linecache`` and need not exist here."""
    names: dict = {}
    try:
        if line > 0:
            text = linecache.getline(file, line).rstrip()
            stripped = text.lstrip()
            indent = len(text) - len(stripped) if stripped else 0
            width = max(len(stripped.encode()) - len(_RAISE), 1)
            code = _code(file, line, indent, function, width)
            names[code.co_names[0]] = exc
            exec(code, names)   # noqa: S102 - runs only ``raise`` at the user's line
        raise exc
    finally:
        # The traceback keeps both frames: neither may keep ``exc`` (a reference cycle).
        names.clear()
        exc = None


@functools.lru_cache(maxsize=256)
def _code(file: str, line: int, indent: int, function: str, width: int):
    """``raise ___`` (a name of ``width`` characters) compiled so that it stands at ``file``,
    ``line`` after ``indent`` characters, in ``function``."""
    statement = _RAISE + "_" * width
    if indent == 0:
        source = "\n" * (line - 1) + statement
    elif line > 1:
        source = "\n" * (line - 2) + _BLOCK + "\n" + " " * indent + statement
    elif indent >= len(_BLOCK):
        source = _BLOCK + " " * (indent - len(_BLOCK)) + statement
    else:   # an indented first line with too little room for the block: start at column 1
        source = statement
    return compile(source, file, "exec", dont_inherit=True).replace(co_name=function)
