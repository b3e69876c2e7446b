"""The compilation pipeline for one specialization, as one ordered list of named stages:

1. ``frontend``   Python AST -> tensor-level IR (compiler/frontend)
2. ``optimized``  the pass pipeline (default ``canonicalize,cse,dce``; compiler/passes)
3. ``loops``      lowering to loop-level IR with fusion (compiler/lowering), then the same
                  pass pipeline again
4. ``llvm``       LLVM IR, O3 for the host CPU, machine code (compiler/backend/llvm)

Each stage's IR text (deflated, ``IRText``) and wall time are kept on the result
(``CompiledFunction``), not its IR modules (about ten times the text's size; parsed again on
demand, ``CompiledFunction.modules``); a backend that reports its own ``timings`` (the JIT:
"llvm-ir", "llvm-opt", "machine-code") has them replace the single "llvm" time.
"""

from __future__ import annotations

import contextlib
import functools
import time
import zlib
from collections.abc import Mapping
from dataclasses import dataclass, field

from runtime.results import bind_globals, packer

from .errors import CompileError
from .ir.core import Location
from .ir.printer import print_op
from .ir.verifier import verify
from .nesting import room_for


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


@dataclass
class CompiledFunction:
    """Everything the compiler produced for one specialization."""

    name: str
    stages: Mapping              # stage name -> IR text (an IRText)
    timings: dict                # stage name -> seconds (see the module docstring)
    result_types: list           # tensor-level result types
    result_tuple: bool           # the Python function returns a tuple
    native: object               # the backend's compiled module
    callable: object             # runtime callable taking the run-time arguments
    result_structure: str | None = None  # see runtime.results; None: result_tuple says it
    function: str = ""           # sym_name of the compiled func.func
    types: dict = field(default_factory=dict)   # "frontend"/"loops" -> its FunctionType
    global_keys: list = field(default_factory=list)   # "module:name" it rebinds (grafo.globals)
    written: list = field(default_factory=list)  # parameters it writes (written_parameters)

    @functools.cached_property
    def modules(self) -> dict:
        """Stage name -> IR module, parsed from ``stages`` on first use."""
        from .ir.parser import parse
        return {stage: parse(text, f"<{stage}>") for stage, text in self.stages.items()}

    @property
    def llvm_ir(self) -> str:
        return self.native.llvm_ir

    @property
    def asm(self) -> str:
        return self.native.asm


def optimize(module, pipeline: str | None = None):
    """Run the pass pipeline (default ``passes.DEFAULT_PIPELINE``) over ``module``."""
    from .passes import DEFAULT_PIPELINE, PassManager
    PassManager.parse(pipeline or DEFAULT_PIPELINE).run(module)
    return module


def optimize_loops(module, pipeline: str | None = None, loop_pipeline: str | None = None):
    """A lowered (loop-level) module after ``optimize`` and then ``loop_pipeline`` (default
    ``passes.LOOP_PIPELINE``: explicit loops with independent iterations marked parallel,
    then sibling loop fusion; a backend may ask for another, the CUDA one for none, as its
    kernels follow the lowering's loops)."""
    from .passes import LOOP_PIPELINE, PassManager
    optimize(module, pipeline)
    loop_pipeline = LOOP_PIPELINE if loop_pipeline is None else loop_pipeline
    if loop_pipeline:
        PassManager.parse(loop_pipeline).run(module)
    return module


def frontend_ir(fn, args):
    """Stage 1 only: the verified tensor-level module of ``fn`` for ``args``."""
    from .frontend import convert
    module = convert(fn, args)
    verify(module)
    return module


IR_STAGES = ("frontend", "optimized", "loops")


@contextlib.contextmanager
def _nesting(fn):
    """Room on the stack for ``fn``'s nesting (``nesting.room_for``); a RecursionError
    that still happens (helpers inlined into deep code) becomes a CompileError at ``fn``."""
    from .frontend.source import source_of
    try:
        depth = source_of(fn).depth
    except CompileError:
        depth = 0   # no source: the frontend raises that error itself
    with room_for(depth):
        try:
            yield
        except RecursionError:
            code = fn.__code__
            raise CompileError(
                f"'{fn.__name__}' nests too deeply to compile ({depth} levels of its syntax "
                f"tree, with the functions it calls inlined into it)",
                Location(code.co_filename, code.co_firstlineno, 1, code.co_name),
                "split deep if/elif chains or nested expressions into several "
                "functions") from None


def stage_module(fn, args, stage: str = "optimized", pipeline: str | None = None):
    """The verified IR module of ``fn`` for ``args`` after ``stage`` (one of ``IR_STAGES``),
    as ``compile_function`` builds it, without generating machine code. Raises CompileError
    for unsupported code and ValueError for an unknown stage."""
    if stage not in IR_STAGES:
        raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(IR_STAGES)}")
    with _nesting(fn):
        return _stage_module(fn, args, stage, pipeline)


def _stage_module(fn, args, stage, pipeline):
    module = frontend_ir(fn, args)
    if stage == "frontend":
        return module
    module = _verified(optimize(module, pipeline))
    if stage == "optimized":
        return module
    from .lowering import lower_to_loops
    return _verified(optimize_loops(lower_to_loops(module), pipeline))


def compile_function(fn, args, pipeline: str | None = None, backend=None) -> CompiledFunction:
    """Compile ``fn`` for ``args`` (one IR type or ``frontend.Constant`` per parameter).

    ``backend`` turns the loop-level module into a compiled module with
    ``entry(name, input_types, result_types, written)`` (``written``: see
    ``written_parameters``), ``llvm_ir`` and ``asm`` (default ``backend.llvm.compile_module``,
    this CPU's JIT; the ``aot`` package gives one per cross-compilation target); a backend
    with a ``prepare`` method rewrites the optimized tensor-level module before lowering (the
    CUDA backend's tiled matmul). Raises CompileError for unsupported code; IR invariants
    broken by a pass raise VerifyError (a compiler bug)."""
    with _nesting(fn):
        return _compile_function(fn, args, pipeline, backend)


def _compile_function(fn, args, pipeline, backend) -> CompiledFunction:
    from .backend.llvm import compile_module
    from .lowering import lower_to_loops
    backend = backend or compile_module

    timings, stages = {}, {}

    def stage(name, thunk):
        t0 = time.perf_counter()
        out = thunk()
        timings[name] = time.perf_counter() - t0
        if name != "llvm":
            stages[name] = print_op(out)
        return out

    module = stage("frontend", lambda: frontend_ir(fn, args))
    func = module.functions()[0]
    result_types = list(func.function_type.results)
    result_tuple = "grafo.result_tuple" in func.attributes
    structure = func.attributes.get("grafo.result_structure")
    structure = None if structure is None else structure.value
    # Each stage works on a copy, so the modules read below are as their stage left them.
    optimized = stage("optimized", lambda: _verified(optimize(module.clone(), pipeline)))
    prepare = getattr(backend, "prepare", lambda m: m)
    loop_pipeline = getattr(backend, "loop_pipeline", None)
    loops = stage("loops", lambda: _verified(optimize_loops(
        lower_to_loops(prepare(optimized.clone())), pipeline, loop_pipeline)))
    native = stage("llvm", lambda: backend(loops))
    written = written_parameters(optimized)
    entry = native.entry(func.sym_name, list(func.function_type.inputs), result_types, written)
    if getattr(native, "timings", None):
        del timings["llvm"]
        timings.update(native.timings)
    keys = func.attributes.get("grafo.globals")
    keys = [] if keys is None else [k.value for k in keys.value]
    n_own = len(result_types)
    if keys:
        from .frontend.globals import global_slots
        slots = global_slots(fn, keys)
        n_own -= len(slots)
        entry = bind_globals(entry, slots, n_own)
    if structure is not None:
        native_entry, pack = entry, packer(structure)
        entry = lambda *a: pack(native_entry(*a))  # noqa: E731
    elif result_tuple and n_own == 1:
        single = entry
        entry = lambda *a: (single(*a),)  # noqa: E731 - a 1-tuple stays a tuple
    loop_func = {f.sym_name: f for f in loops.functions()}[func.sym_name]
    return CompiledFunction(fn.__name__, IRText(stages), timings, result_types, result_tuple,
                            native, entry, structure, func.sym_name,
                            {"frontend": func.function_type, "loops": loop_func.function_type},
                            keys, written)


def written_parameters(module) -> list:
    """Positions of the parameters of the tensor-level function in ``module`` whose elements
    it writes (``np.write_back``), Variables' hidden parameters included."""
    params, written = {}, set()
    for op in module.walk():
        if op.name == "func.func":
            params = {id(a): k for k, a in enumerate(op.body.args)}
        elif op.name == "np.write_back" and id(op.operands[0]) in params:
            written.add(params[id(op.operands[0])])
    return sorted(written)


def timing_report(timings: dict) -> str:
    """``timings`` (stage name -> seconds) as aligned lines in milliseconds, with a total."""
    rows = list(timings.items()) + [("total", sum(timings.values()))]
    return "".join(f"  {name:14s} {1e3 * t:9.2f} ms\n" for name, t in rows)


def _verified(module):
    verify(module)
    return module

