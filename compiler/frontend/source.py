"""A Python function's source: its AST (``inspect.getsource`` + ``ast``) and the mapping of
AST positions to ``Location`` s in the user's file (line offset, removed indentation,
decorators included)."""

from __future__ import annotations

import ast
import functools
import inspect
import weakref

from .. import nesting
from ..errors import CompileError
from ..ir.core import Location
from ..nesting import ast_depth

# Code object -> FunctionSource, while the code lives (closures made in a loop share one).
_CACHE: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


class FunctionSource:
    """The parsed definition of ``fn``: ``node`` is its ``ast.FunctionDef`` (or ``ast.Lambda``).

    Raises CompileError when the source cannot be read or parsed (functions typed at the
    plain ``python`` prompt, defined by ``python -c`` or by ``exec`` of a string that is not
    in ``linecache``, async functions, several lambdas on one line); its hint says where to
    define the function instead. IPython and Jupyter keep each cell's source in
    ``linecache``, so functions defined in cells compile."""

    def __init__(self, fn):
        self.file = fn.__code__.co_filename
        self.function = fn.__code__.co_name   # not ``fn``: the cache must not keep it alive
        name = fn.__name__
        try:
            lines, start = inspect.getsourcelines(fn)
        except (OSError, TypeError) as e:
            raise _unreadable(fn, self.file, e) from None
        self.first_line = max(start, 1)
        first = lines[0]
        self.indent = len(first) - len(first.lstrip())
        text = "".join(_dedent(line, self.indent) for line in lines)
        try:
            with nesting.LOCK:   # no recursion limit change while the AST is built
                tree = ast.parse(text)
        except SyntaxError as e:
            raise CompileError(f"cannot parse the source code of '{name}' ({e.msg})",
                               self.def_loc,
                               "define the function with a 'def' statement") from None
        self.node = _find_definition(tree, fn, self.def_loc)

    @property
    def def_loc(self) -> Location:
        """The location of the definition's first line (its first decorator's)."""
        return Location(self.file, self.first_line, 1, self.function)

    @functools.cached_property
    def depth(self) -> int:
        """How deep the definition's AST nests (``nesting.ast_depth``)."""
        return ast_depth(self.node)

    def loc(self, node) -> Location:
        """The location of an AST node in the user's file (1-based line and column)."""
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        return Location(self.file, self.first_line + line - 1, col + 1 + self.indent,
                        self.function)


def source_of(fn) -> FunctionSource:
    """The ``FunctionSource`` of ``fn``, cached for as long as its code object lives."""
    code = fn.__code__
    by_file = _CACHE.get(code)
    if by_file is None:
        by_file = _CACHE[code] = {}
    src = by_file.get(code.co_filename)   # equal code objects may be of two files
    if src is None:
        src = by_file[code.co_filename] = FunctionSource(fn)
    return src


def _unreadable(fn, file: str, error: Exception) -> CompileError:
    """The CompileError for a function whose source ``inspect`` cannot read, saying why and
    where to define the function instead."""
    name = fn.__name__
    loc = Location(file, fn.__code__.co_firstlineno, 1, fn.__code__.co_name)
    if file == "<stdin>":
        return CompileError(
            f"cannot read the source code of '{name}': it was typed at the interactive "
            f"prompt, which keeps no source", loc,
            f"define '{name}' in a .py file and import it, or work in IPython or Jupyter, "
            f"which keep each cell's source")
    if file.startswith("<") and file.endswith(">"):
        return CompileError(
            f"cannot read the source code of '{name}': it was compiled from a string "
            f"(python -c, exec, a cell magic such as %%time) whose text Python does not keep",
            loc,
            f"define '{name}' in a .py file and import it, or in a Jupyter or IPython cell; "
            f"to exec a string, first put its text in linecache under the file name given to "
            f"compile(): linecache.cache[filename] = (len(text), None, "
            f"text.splitlines(True), filename)")
    return CompileError(f"cannot read the source code of '{name}' ({error})", loc,
                        f"grafo compiles from source: keep '{file}' readable where "
                        f"'{name}' is compiled")


def _dedent(line: str, n: int) -> str:
    head = line[:n]
    if head.strip():  # less indented than the def: a line of a multi-line string
        return line
    return line[n:] if len(line) > n else line.lstrip(" \t")


def _find_definition(tree: ast.Module, fn, loc: Location):
    if fn.__name__ == "<lambda>":
        lambdas = [n for n in ast.walk(tree) if isinstance(n, ast.Lambda)]
        if len(lambdas) != 1:
            raise CompileError("cannot tell which lambda on this line to compile", loc,
                               "define the function with a 'def' statement")
        return lambdas[0]
    for node in tree.body:
        if isinstance(node, ast.AsyncFunctionDef):
            raise CompileError(f"unsupported syntax: async function '{fn.__name__}'", loc,
                               "use a plain 'def' function")
        if isinstance(node, ast.FunctionDef) and node.name == fn.__name__:
            return node
    raise CompileError(f"cannot find the definition of '{fn.__name__}' in its source", loc,
                       "define the function with a 'def' statement")


def clear_cache() -> None:
    """Forget every cached ``FunctionSource`` (sources are read again on the next compile)."""
    _CACHE.clear()
