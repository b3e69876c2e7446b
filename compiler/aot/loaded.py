"""ConcreteFunctions backed by an artifact instead of a fresh compilation (on-disk cache hits,
unpickled objects): ``ArtifactCompiled`` stands in for ``pipeline.CompiledFunction``."""

from __future__ import annotations

import functools
import inspect
import time
from collections.abc import Mapping

from runtime.artifact import read
from runtime.manifest import ir_member, llvm_member

from .. import types as T
from ..ir.core import Location
from ..pipeline.compiled import CompiledViews
from ..targets import Target, not_runnable
from .sources import relocate, source_spans


def _ir_type(record: dict) -> T.Type:
    if record["shape"] is None:
        python = record.get("python")
        return T.WeakType(python) if python else T.from_dtype(record["dtype"])
    return T.TensorType(tuple(record["shape"]), T.from_dtype(record["dtype"]))


class ArtifactIR(Mapping):
    """Stage name -> IR text ("optimized", "loops") of the entry ``name`` of ``artifact``,
    read from the artifact on each access with its locations moved by ``move`` (see
    ``sources.relocate``; None: as recorded). Reading it lazily keeps a cache hit from
    rewriting text that is seldom read."""

    STAGES = ("optimized", "loops")

    def __init__(self, artifact, name: str, move=None):
        self._artifact, self._name, self._move = artifact, name, move

    def __getitem__(self, stage: str) -> str:
        if stage not in self.STAGES:
            raise KeyError(stage)
        text = self._artifact.text(ir_member(self._name, stage))
        return text if self._move is None else self._move(text)

    def __iter__(self):
        return iter(self.STAGES)

    def __len__(self) -> int:
        return len(self.STAGES)


class ArtifactNative:
    """The backend-module view of one artifact entry: ``target``, ``llvm_ir``, ``asm``,
    ``errors``, ``symbols``, ``address(name)``."""

    def __init__(self, artifact, record: dict, function):
        self.target = Target.from_manifest(artifact.manifest["target"])
        self.llvm_ir = artifact.text(llvm_member(record["name"]))
        self.errors = [(e["kind"], e["message"],
                        Location(e["file"], e["line"], e["col"], e.get("function", "")))
                       for e in record["errors"]]
        self.symbols = {record["function"]: record["symbol"]}
        self._function = function

    @functools.cached_property
    def asm(self) -> str:
        """The target's assembly of the entry's optimized LLVM IR."""
        import llvmlite.binding as llvm

        from ..backend.llvm.target import cpu_target_machine
        return cpu_target_machine(self.target).emit_assembly(llvm.parse_assembly(self.llvm_ir))

    def address(self, name: str) -> int:
        """The C entry address of ``name``. Raises KeyError for another name, RuntimeError
        for code of another target."""
        if name not in self.symbols:
            raise KeyError(f"no function @{name} in this artifact (has: "
                           f"{', '.join(self.symbols)})")
        if self._function is None:
            raise RuntimeError(f"{name} was compiled for target {self.target.name!r}; it is "
                               f"not loaded in this process")
        return self._function.native.address


def _namespaces(fn, module: str | None) -> dict:
    """{module name: globals dict} of ``fn`` (under ``module``, its name when it was saved)
    and of the functions it reaches; empty when ``fn`` is not a Python function."""
    if not inspect.isfunction(fn):
        return {}
    from ..frontend.variables import reachable_functions
    found = {}
    for f in reachable_functions(fn):
        found.setdefault(f.__globals__.get("__name__"), f.__globals__)
    if module is not None:
        found[module] = fn.__globals__
    return found


class ArtifactCompiled(CompiledViews):
    """What ``ConcreteFunction`` needs from a compilation (``pipeline.Compiled``), read from
    a one-entry artifact: ``stages`` (optimized and loops IR), ``modules`` (parsed on
    demand), ``result_types``, ``result_tuple``, ``result_structure``, ``written`` (as the
    manifest records it), ``variables`` (none: such functions are not saved), ``native``,
    ``callable``, ``target``, ``timings`` ({"load": seconds}), ``record`` (the manifest
    entry) and ``artifact_bytes``.

    ``python_function``, when given, is the Python function the entry was compiled from: the
    module globals it rebinds are assigned in its ``__globals__`` (and those of the functions
    it reaches), as eager calls do, even where its module is not importable by name (a
    ``__main__`` run by multiprocessing's spawn); and the entry's locations move to where
    its source is now (``sources.relocate``; ``args``: the specialization's arguments, for
    the functions passed as constants). ``cache_key``, when given, must be the key the
    manifest records (a disk cache entry, ``compiler/cache.py``), checked before any code is
    loaded.

    Raises the ``runtime.ArtifactError`` subclass naming what is wrong with ``data``;
    ValueError for an artifact of several entries or of another cache key."""

    def __init__(self, data: bytes, python_function=None, args=(), cache_key=None):
        t0 = time.perf_counter()
        artifact = read(data)
        if cache_key is not None and artifact.manifest.get("cache_key") != cache_key:
            raise ValueError(f"the artifact records cache key "
                             f"{artifact.manifest.get('cache_key')!r}, not {cache_key!r}")
        if len(artifact.entries) != 1:
            raise ValueError(f"expected an artifact with one entry point, got "
                             f"{len(artifact.entries)}")
        self.record = record = artifact.entries[0]
        self.artifact_bytes = data
        self.name = record["function"]
        move = None
        if inspect.isfunction(python_function):
            move = relocate(record, source_spans(python_function, args))
        self.stages = ArtifactIR(artifact, record["name"], move)
        self.written = record["written"]   # required by the manifest's schema
        self.variables = []
        self.result_types = [_ir_type(r) for r in record["results"]]
        self.result_tuple = record["result_tuple"]
        self.result_structure = record.get("result_structure")
        self.target = Target.from_manifest(artifact.manifest["target"])
        if self.target.is_host:
            namespaces = _namespaces(python_function, record.get("module"))
            function = artifact.open_library(namespaces)[record["name"]]
            self.callable = function
        else:
            function = None
            self.callable = not_runnable(self.name, self.target)
        self.native = ArtifactNative(artifact, record, function)
        self.timings = {"load": time.perf_counter() - t0}

