"""Where an artifact entry's source was, and moving its locations to where that source is now.

Each entry records ``sources``: for its Python function, each Python function reachable
from its globals and closure, and each function passed as a trace-time constant, the
qualified name, file, first line, line count and SHA-256 of its source text. When an entry is
loaded for a Python function (a disk cache hit, an unpickled object) whose source text is
unchanged but lives elsewhere now, the entry's error locations and IR locations move there.
The disk cache keys entries by source text, not position, so this is what keeps messages
right for a function moved down its file, or defined in a notebook cell of a new Jupyter
kernel, whose cells are files named after the kernel's process.

An artifact never names a file by the build machine's absolute path (``portable_path``, used
for ``sources``, the error table, the C header and the IR's locations): a file below a
project root, the nearest directory above it that holds ``pyproject.toml``, ``setup.py`` or
``.git``, is recorded relative to that root (``examples/kernels.py``); any other file by its
base name; a name that is no file here (``<stdin>``) as it is. A relative name resolves when
the program runs from the project root (``linecache`` also looks for it on ``sys.path``);
elsewhere a loaded artifact shows the source lines its error table recorded. Loaded for its
Python function, an entry's recorded names differ from the files here, so ``relocate``
moves its locations to those files, as it does for moved source.
"""

from __future__ import annotations

import hashlib
import inspect
import linecache
import os
import re
import types

from ..frontend import Constant
from ..frontend.variables import reachable_functions
from ..ir.attributes import escape_string, unescape_string

_LOC = re.compile(r'loc\("((?:[^"\\]|\\.)*)":(\d+):(\d+)\)')
_ROOT_MARKERS = ("pyproject.toml", "setup.py", ".git")


def portable_path(file: str) -> str:
    """``file`` as an artifact records it (see the module docstring)."""
    if not os.path.isabs(file):
        if not os.path.isfile(file):
            return file
        file = os.path.abspath(file)
    root = _project_root(os.path.dirname(file))
    if root is None:
        return os.path.basename(file)
    return os.path.relpath(file, root).replace(os.sep, "/")


def _project_root(directory: str) -> str | None:
    while not any(os.path.exists(os.path.join(directory, m)) for m in _ROOT_MARKERS):
        parent = os.path.dirname(directory)
        if parent == directory:
            return None
        directory = parent
    return directory


def portable_record(record: dict) -> dict:
    """A copy of the manifest entry ``record`` whose ``errors`` and ``sources`` name files by
    ``portable_path`` (for a record read back from an artifact: the disk cache's, an older
    grafo's)."""
    return dict(record, errors=[dict(e, file=portable_path(e["file"])) for e in record["errors"]],
                sources=[dict(s, file=portable_path(s["file"]))
                         for s in record.get("sources") or []])


def portable_ir(text: str) -> str:
    """IR text with the file of every ``loc("file":line:col)`` made ``portable_path``."""
    files: dict = {}   # escaped name -> escaped portable name: a module names few files

    def portable(m: re.Match) -> str:
        name = m.group(1)
        if name not in files:
            files[name] = escape_string(portable_path(unescape_string(name)))
        return f'loc("{files[name]}":{m.group(2)}:{m.group(3)})'
    return _LOC.sub(portable, text)


def _last_line(code: types.CodeType) -> int:
    last = code.co_firstlineno
    for _, end, _, _ in code.co_positions():
        if end is not None and end > last:
            last = end
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            last = max(last, _last_line(const))
    return last


def source_lines(fn) -> tuple[list[str], int]:
    """The source lines of the Python function ``fn`` and the number of the first: from its
    first line (its first decorator's) to the last line its code covers, read through
    ``linecache`` as ``inspect.getsourcelines`` reads them, without tokenizing the file (which
    costs more than a disk cache hit). Raises OSError when the source cannot be read,
    TypeError for an object that is not a Python function."""
    if not inspect.isfunction(fn):
        raise TypeError(f"{fn!r} is not a Python function")
    code = fn.__code__
    linecache.checkcache(code.co_filename)
    lines = linecache.getlines(code.co_filename, fn.__globals__)
    first, last = code.co_firstlineno, _last_line(code)
    if not lines or not 0 < first <= last <= len(lines):
        raise OSError(f"could not get the source of {fn.__qualname__}")
    return lines[first - 1:last], first


def source_spans(fn, args=()) -> list[dict]:
    """The ``sources`` record of ``fn`` specialized for ``args`` (IR types and
    ``frontend.Constant`` s, whose functions are compiled in; see the module docstring);
    functions whose source cannot be read are left out."""
    functions = []
    for root in (fn, *_leaves([a.value for a in args if isinstance(a, Constant)])):
        root = getattr(root, "python_function", root)
        if inspect.isfunction(root):
            functions += [f for f in reachable_functions(root)
                          if not any(f is g for g in functions)]
    spans = []
    for f in functions:
        try:
            lines, first = source_lines(f)
        except (OSError, TypeError):
            continue
        spans.append({"function": f"{f.__module__}.{f.__qualname__}",
                      "file": f.__code__.co_filename, "line": max(first, 1),
                      "lines": len(lines),
                      "sha256": hashlib.sha256("".join(lines).encode()).hexdigest()})
    return spans


def _leaves(values) -> list:
    """The items of ``values`` and of the tuples among them, recursively."""
    out = []
    for v in values:
        out += _leaves(v) if type(v) is tuple else [v]
    return out


def _moves(recorded: list, current: list) -> list[tuple]:
    """(file, first line, last line, new file, line offset) for each recorded span whose
    function, with the same source text, is somewhere else now."""
    here = {(s["function"], s["sha256"]): s for s in current}
    moves = []
    for s in recorded:
        now = here.get((s["function"], s["sha256"]))
        if now is not None and (now["file"], now["line"]) != (s["file"], s["line"]):
            moves.append((s["file"], s["line"], s["line"] + s["lines"] - 1, now["file"],
                          now["line"] - s["line"]))
    return moves


def relocate(record: dict, current: list):
    """Move the locations of the manifest ``record`` (its ``errors``) from the record's
    ``sources`` to ``current`` (``source_spans`` of the function now), record ``current``,
    and return the function that moves the locations of an IR text the same way (None when
    nothing moved): IR texts are read rarely, so they move when read. A location inside
    several moved spans (a closure's function inside its enclosing one) follows the
    innermost."""
    moves = _moves(record.get("sources") or [], current)
    if not moves:
        return None

    def where(file: str, line: int) -> tuple[str, int]:
        inside = [m for m in moves if m[0] == file and m[1] <= line <= m[2]]
        if not inside:
            return file, line
        new_file, offset = min(inside, key=lambda m: m[2] - m[1])[3:]
        return new_file, line + offset

    for e in record["errors"]:
        e["file"], e["line"] = where(e["file"], e["line"])
    record["sources"] = current

    def moved(m: re.Match) -> str:
        file, line = where(unescape_string(m.group(1)), int(m.group(2)))
        return f'loc("{escape_string(file)}":{line}:{m.group(3)})'

    return lambda text: _LOC.sub(moved, text)
