"""The result of compiling one specialization: ``compile_function`` runs every stage
(``stages.Run``) for a backend and returns a ``CompiledFunction``.

Each IR stage's text (deflated, ``IRText``) and wall time are kept on the result, not its IR
modules (about ten times the text's size; parsed again on demand,
``CompiledFunction.modules``); a backend whose native module reports its own ``timings``
(the JIT: "llvm-ir", "llvm-opt", "machine-code") has them replace the single "llvm" time.
What the stages learned (``facts.py``: written parameters, Variables, rebound globals,
result structure, function types) is kept with them; the artifact's bytes are kept once
built (``artifact_bytes``: a disk cache entry, a pickle). ``Compiled`` is what a
``ConcreteFunction`` reads from one, which an artifact's entry provides too
(``aot/loaded.py``).
"""

from __future__ import annotations

import contextlib
import functools
import gc
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from runtime.results import bind_globals, packer

from .stages import Run


class IRText(Mapping):
    """Stage name -> IR text, kept deflated (four to eight times smaller) and inflated on
    each read: a specialization's IR is read rarely (``cf.ir``, saving, pictures)."""

    def __init__(self, texts: Mapping):
        self._deflated = {stage: zlib.compress(text.encode(), 1) for stage, text in texts.items()}

    def __getitem__(self, stage: str) -> str:
        return zlib.decompress(self._deflated[stage]).decode()

    def __iter__(self):
        return iter(self._deflated)

    def __len__(self) -> int:
        return len(self._deflated)


class Compiled(Protocol):
    """What a ConcreteFunction needs from a compilation (``CompiledFunction``) or from an
    artifact's entry (``aot.loaded.ArtifactCompiled``)."""

    name: str
    stages: Mapping              # stage name -> IR text
    timings: dict                # stage name -> seconds
    result_types: list           # tensor-level result types
    result_tuple: bool
    result_structure: str | None
    native: object               # the backend's NativeModule (or an artifact's view of one)
    callable: object             # runtime callable taking the run-time arguments
    target: object               # compiler.targets.Target or CudaTarget
    written: list                # parameters whose elements it writes
    variables: list              # compiler.Variable s: hidden trailing arguments
    record: dict | None          # the manifest entry it was read from, if any
    artifact_bytes: bytes | None  # its one-entry artifact, once built

    @property
    def modules(self) -> dict: ...


class CompiledViews:
    """``modules``, ``llvm_ir`` and ``asm`` of a compilation from its ``stages`` texts and
    its ``native`` module; shared by ``CompiledFunction`` and artifacts' entries."""

    @functools.cached_property
    def modules(self) -> dict:
        """Stage name -> IR module, parsed from ``stages`` on first use."""
        from ..ir.parser import parse
        return {stage: parse(text, f"<{stage}>") for stage, text in self.stages.items()}

    @property
    def llvm_ir(self) -> str:
        return self.native.llvm_ir

    @property
    def asm(self) -> str:
        return self.native.asm


@dataclass
class CompiledFunction(CompiledViews):
    """Everything the compiler produced for one specialization (see the module docstring)."""

    name: str
    stages: Mapping              # stage name -> IR text (an IRText)
    timings: dict                # stage name -> seconds (see the module docstring)
    result_types: list           # tensor-level result types
    result_tuple: bool           # the Python function returns a tuple
    native: object               # the backend's compiled module (backend.NativeModule)
    callable: object             # runtime callable taking the run-time arguments
    result_structure: str | None = None  # see runtime.results; None: result_tuple says it
    function: str = ""           # sym_name of the compiled func.func
    types: dict = field(default_factory=dict)   # "frontend"/"loops" -> its FunctionType
    global_keys: list = field(default_factory=list)   # "module:name" it rebinds (grafo.globals)
    written: list = field(default_factory=list)  # parameters it writes (written_parameters)
    variables: list = field(default_factory=list)   # the compiler.Variable s it uses
    target: object = None        # the backend's target (compiler.targets)
    record: dict | None = None   # not read from an artifact
    artifact_bytes: bytes | None = None   # its artifact, once built (aot.builder.build)



def compile_function(fn, args, pipeline: str | None = None, backend=None) -> CompiledFunction:
    """Compile ``fn`` for ``args`` (one IR type or ``frontend.Constant`` per parameter) with
    ``backend`` (a ``backend.Backend``; default: this CPU's JIT) through every stage.

    The native module's ``entry(name, input_types, result_types, written)`` (``written``:
    see ``facts.written_parameters``) gives the callable, wrapped to rebind the module
    globals the function assigns and to build nested results. Raises CompileError for
    unsupported code; IR invariants broken by a pass raise VerifyError (a compiler bug)."""
    with collector_paused():
        if backend is None:
            from ..backend.cpu import JITBackend
            backend = JITBackend()
        run = Run(backend, pipeline, keep_ir=True, learn=True)
        native = run.through((fn, args))
        facts, timings = run.facts, run.timings
        entry = native.entry(facts.function, list(facts.frontend_type.inputs),
                             facts.result_types, facts.written)
    if native.timings:
        del timings["llvm"]
        timings.update(native.timings)
    return CompiledFunction(fn.__name__, IRText(run.texts), timings, facts.result_types,
                            facts.result_tuple, native, _python_entry(fn, entry, facts),
                            facts.result_structure, facts.function,
                            {"frontend": facts.frontend_type, "loops": facts.loops_type},
                            facts.global_keys, facts.written, facts.variables, backend.target)


@contextlib.contextmanager
def collector_paused():
    """Python's cyclic garbage collector off for the block, back on after it when it was on.

    A compilation allocates tens of thousands of objects (IR ops, llvmlite values); each
    collection that triggers walks every object the compiler's modules hold, which is a
    sixth of a small function's first call. The cycles a compilation leaves are collected
    after it as usual."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _python_entry(fn, entry, facts):
    """The native ``entry`` as Python calls it: rebinding the globals the function assigns
    (``grafo.globals``), building its result structure, keeping a 1-tuple a tuple."""
    n_own = len(facts.result_types)
    if facts.global_keys:
        from ..frontend.globals import global_slots
        slots = global_slots(fn, facts.global_keys)
        n_own -= len(slots)
        entry = bind_globals(entry, slots, n_own)
    if facts.result_structure is not None:
        native_entry, pack = entry, packer(facts.result_structure)
        return lambda *a: pack(native_entry(*a))
    if facts.result_tuple and n_own == 1:
        single = entry
        return lambda *a: (single(*a),)   # a 1-tuple stays a tuple
    return entry


def timing_report(timings: dict) -> str:
    """``timings`` (stage name -> seconds) as aligned lines in milliseconds, with a total."""
    rows = list(timings.items()) + [("total", sum(timings.values()))]
    return "".join(f"  {name:14s} {1e3 * t:9.2f} ms\n" for name, t in rows)
