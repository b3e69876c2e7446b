"""The on-disk compilation cache of ``@compiler.function(cache=True)``.

Each specialization is stored as an artifact (``compiler.aot``) named
``<function>-<key>.grafo`` in ``GRAFO_CACHE_DIR`` (default ``~/.cache/grafo``). The key is a
SHA-256 of everything the native code depends on:

- the source of the function and of every plain Python function it reaches through its
  globals and closure (by the names its code uses, recursively), plus the values of the
  simple globals it reads (numbers, strings, arrays, modules and library objects by name),
  and what it reads through attributes of user modules (``helper.h``, ``helper.SCALE``),
  described the same way;
- the argument types and trace-time Python constants, the parameter names, the pass
  pipeline;
- the versions of grafo, the artifact format, NumPy and llvmlite;
- this CPU (architecture, model name and feature flags, ``runtime.cpu.host_identity``).

The key holds the source's text, not its place: an entry records where its source was
(``aot/sources.py``), and a hit for source that moved (lines added above it, a notebook cell
of a new Jupyter kernel) reports the lines where it is now. A function whose source or
globals cannot be described (no source file, an object with no stable description) is
compiled as usual and not cached. Each entry's manifest records its full key
(``cache_key``), compared on load: a file that holds another key's artifact (one copied over
it, say) is a miss, as is an unreadable or damaged one; either is compiled and written
again. Entries are written to a temporary file in the cache directory and renamed into
place (``os.replace``), so concurrent processes never read a partial entry.

``entry_for`` gives a specialization's ``Entry``: a ``Function`` (``polymorphic.py``) loads the
compiled function from it, or compiles and stores it there. This module reads only the
public attributes of what it is given, and knows neither Function nor ConcreteFunction.
"""

from __future__ import annotations

import ast
import hashlib
import os
import sys
import textwrap
import types
import warnings

import numpy as np

from runtime.artifact import FORMAT_VERSION, ArtifactError
from runtime.cpu import host_identity

from . import nesting
from .aot.sources import source_lines
from .frontend import Constant
from .interfaces import python_function_of
from .version import __version__

_SCALARS = (bool, int, float, complex, str, bytes, type(None))


class _Unstable(Exception):
    """A value the key cannot describe stably: the function is not cached."""


def cache_dir() -> str:
    """The cache directory: ``$GRAFO_CACHE_DIR`` or ``~/.cache/grafo``."""
    return os.environ.get("GRAFO_CACHE_DIR") or os.path.join(
        os.path.expanduser("~"), ".cache", "grafo")


def _is_library(obj) -> bool:
    module = (getattr(obj, "__module__", None) or "").split(".")[0]
    return module in sys.stdlib_module_names or module in ("numpy", "builtins", "compiler",
                                                           "runtime")


def _code_names(code: types.CodeType) -> set:
    names = set(code.co_names) | set(code.co_freevars)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _describe(value, pending: list) -> str:
    """A stable text for a value a function reads; user functions go to ``pending``."""
    value = python_function_of(value)
    if isinstance(value, types.FunctionType) and not _is_library(value):
        pending.append(value)
        return f"function {value.__module__}.{value.__qualname__}"
    if isinstance(value, types.ModuleType):
        return f"module {value.__name__}"
    if isinstance(value, _SCALARS):
        return f"{type(value).__name__} {value!r}"
    if isinstance(value, tuple):
        return "(" + ", ".join(_describe(v, pending) for v in value) + ")"
    if isinstance(value, (np.ndarray, np.generic)):
        a = np.asarray(value)
        return f"array {a.dtype} {a.shape} {hashlib.sha256(a.tobytes()).hexdigest()}"
    if (isinstance(value, (type, types.BuiltinFunctionType, np.ufunc))
            or (callable(value) and _is_library(value))):
        name = getattr(value, "__qualname__", getattr(value, "__name__", None))
        if name is not None:
            return f"object {getattr(value, '__module__', '')}.{name}"
    raise _Unstable(type(value).__name__)


def _user_module(value) -> bool:
    return (isinstance(value, types.ModuleType)
            and value.__name__.split(".")[0] not in sys.stdlib_module_names
            and value.__name__.split(".")[0] not in ("numpy", "compiler", "runtime"))


def _attribute_chains(source: str, roots: dict) -> list:
    """The sorted dotted names ``m.a.b`` in ``source`` whose root names a user module in
    ``roots`` ({name: value}); raises _Unstable when the source does not parse and such a
    module is in ``roots``."""
    if not any(_user_module(v) for v in roots.values()):
        return []
    try:
        with nesting.LOCK:   # see compiler/nesting.py
            tree = ast.parse(textwrap.dedent(source))
    except SyntaxError as e:
        raise _Unstable(str(e)) from None
    chains = set()
    for node in ast.walk(tree):
        parts = []
        while isinstance(node, ast.Attribute):
            parts.append(node.attr)
            node = node.value
        if parts and isinstance(node, ast.Name) and _user_module(roots.get(node.id)):
            chains.add(".".join([node.id, *reversed(parts)]))
    return sorted(chains)


def _describe_chain(chain: str, roots: dict, pending: list) -> str:
    """The descriptions of the values along ``chain``, through modules only."""
    name, *attrs = chain.split(".")
    value, out = roots[name], []
    for attr in attrs:
        if not isinstance(value, types.ModuleType) or not hasattr(value, attr):
            break
        value = getattr(value, attr)
        name = f"{name}.{attr}"
        out.append(f"{name} = {_describe(value, pending)}")
    return "\n".join(out)


def _source_digest(fn) -> str:
    """The SHA-256 of ``fn``'s source and of what it reaches (see the module docstring)."""
    h = hashlib.sha256()
    pending, seen = [fn], set()
    while pending:
        f = pending.pop()
        if f in seen:
            continue
        seen.add(f)
        try:
            source = "".join(source_lines(f)[0])
        except (OSError, TypeError) as e:
            raise _Unstable(str(e)) from None
        h.update(f"{f.__module__}.{f.__qualname__}\n{source}\n".encode())
        cells = dict(zip(f.__code__.co_freevars, f.__closure__ or (), strict=True))
        roots = {}
        for name in sorted(_code_names(f.__code__)):
            if name in cells:
                try:
                    value = cells[name].cell_contents
                except ValueError:   # an empty cell
                    continue
            elif name in f.__globals__:
                value = f.__globals__[name]
            else:
                continue
            roots[name] = value
            h.update(f"{name} = {_describe(value, pending)}\n".encode())
        for chain in _attribute_chains(source, roots):
            h.update(f"{_describe_chain(chain, roots, pending)}\n".encode())
    return h.hexdigest()


def key(fn, params: list, args: list, pipeline: str | None) -> str | None:
    """The cache key of ``fn`` specialized for ``args``, or None when it cannot be cached."""
    import llvmlite

    pending = []   # the Python functions passed as constants: their code is compiled in
    try:
        source = _source_digest(fn)
        spec = [f"const {_describe(a.value, pending)}" if isinstance(a, Constant)
                else f"type {a}" for a in args]
        called = [_source_digest(f) for f in pending]
    except _Unstable:
        return None
    parts = [f"grafo {__version__} format {FORMAT_VERSION} numpy {np.__version__} "
             f"llvmlite {llvmlite.__version__}", host_identity(), str(pipeline), source,
             repr(params), *spec, *called]
    return hashlib.sha256("\n".join(parts).encode()).hexdigest()


def entry_path(fn, digest: str) -> str:
    """The file of the cache entry with key ``digest``."""
    return os.path.join(cache_dir(), f"{fn.__name__}-{digest[:40]}.grafo")


class Entry:
    """The cache entry of one specialization: its key ``digest`` and file ``path``."""

    def __init__(self, fn, digest: str):
        self.digest = digest
        self.path = entry_path(fn, digest)

    def load(self, python_function, args: list):
        """The compiled function the entry holds (an ``aot.loaded.ArtifactCompiled``, for a
        ``ConcreteFunction`` of ``python_function`` and ``args``; no code generation), or
        None when there is none, or it is damaged, cannot be loaded or is another key's."""
        try:
            with open(self.path, "rb") as f:
                data = f.read()
        except OSError:
            return None
        from .aot.loaded import ArtifactCompiled
        try:
            return ArtifactCompiled(data, python_function, args, self.digest)
        except (ArtifactError, ValueError):   # damaged, or another key's entry: replace it
            return None

    def store(self, cf) -> None:
        """Write the artifact of ``cf`` (a ConcreteFunction compiled for this entry's key)
        into the entry, replacing what is there. Failing to write it warns
        (RuntimeWarning)."""
        try:
            from .aot.builder import atomic_write
            os.makedirs(cache_dir(), exist_ok=True)
            atomic_write(self.path, cf.artifact_bytes(self.digest))
        except (OSError, RuntimeError) as e:
            warnings.warn(f"grafo: cannot write the compilation cache entry {self.path}: {e}",
                          RuntimeWarning, stacklevel=5)


def entry_for(fn, params: list, args: list, pipeline: str | None) -> Entry | None:
    """The cache entry of ``fn`` specialized for ``args`` (with parameter names ``params``
    and pass ``pipeline``), or None when it cannot be cached (see ``key``)."""
    digest = key(fn, params, args, pipeline)
    return None if digest is None else Entry(fn, digest)
