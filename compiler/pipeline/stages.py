"""The stages of the compile pipeline, as one ordered list, and ``Run``, the one runner that
every caller goes through: ``compile_function`` (``compiler.compile``, ``Function`` calls,
the disk cache), ``stage_module`` (``grafo ir --stage``, ``grafo graph``) and ``grafo
translate``, for every backend (``compiler/backend``).

1. ``frontend``   Python AST -> verified tensor-level IR (``compiler/frontend``)
2. ``optimized``  the pass pipeline (default ``canonicalize,cse,dce``; ``compiler/passes``)
3. ``loops``      the backend's ``prepare``, lowering to loop-level IR with fusion
                  (``compiler/lowering``), the pass pipeline again, then the backend's loop
                  passes (``loop_pipeline``: default ``passes.LOOP_PIPELINE``, none for CUDA)
4. ``llvm``       the backend's ``codegen``: LLVM IR, O3, machine code or PTX

A stage may teach the run facts about the function (``facts.py``), read from its module as
the stage left it; later stages work on that module in place.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import CompileError
from ..ir.core import Location
from ..ir.printer import print_op
from ..ir.verifier import verify
from ..nesting import room_for
from .facts import Facts


def frontend_ir(fn, args):
    """Stage 1 only: the verified tensor-level module of ``fn`` for ``args``."""
    from ..frontend import convert
    module = convert(fn, args)
    verify(module)
    return module


def optimize(module, pipeline: str | None = None):
    """Run the pass pipeline (default ``passes.DEFAULT_PIPELINE``) over ``module``."""
    from ..passes import DEFAULT_PIPELINE, PassManager
    PassManager.parse(pipeline or DEFAULT_PIPELINE).run(module)
    return module


def optimize_loops(module, pipeline: str | None = None, loop_pipeline: str | None = None):
    """A lowered (loop-level) module after ``optimize`` and then ``loop_pipeline`` (default
    ``passes.LOOP_PIPELINE``: explicit loops with independent iterations marked parallel,
    then sibling loop fusion; a backend may ask for another, the CUDA one for float16
    emulation only, as its kernels follow the lowering's loops)."""
    from ..passes import LOOP_PIPELINE, PassManager
    optimize(module, pipeline)
    loop_pipeline = LOOP_PIPELINE if loop_pipeline is None else loop_pipeline
    if loop_pipeline:
        PassManager.parse(loop_pipeline).run(module)
    return module


def _verified(module):
    verify(module)
    return module


def _frontend(run: Run, source):
    fn, args = source
    return frontend_ir(fn, args)


def _optimized(run: Run, module):
    return _verified(optimize(module, run.pipeline))


def _loops(run: Run, module):
    from ..lowering import lower_to_loops
    lowered = lower_to_loops(run.backend.prepare(module))
    return _verified(optimize_loops(lowered, run.pipeline, run.backend.loop_pipeline))


def _llvm(run: Run, module):
    return run.backend.codegen(module)


@dataclass(frozen=True)
class Stage:
    """One step: ``name``, ``step(run, input) -> output`` and, for stages whose output is
    IR, ``learn(run, module)``, which records facts of the module as the stage left it."""

    name: str
    step: Callable
    learn: Callable | None = None
    ir: bool = True


STAGES = (
    Stage("frontend", _frontend, lambda run, m: run.facts.learn_frontend(m, run.fn)),
    Stage("optimized", _optimized, lambda run, m: run.facts.learn_optimized(m)),
    Stage("loops", _loops, lambda run, m: run.facts.learn_loops(m)),
    Stage("llvm", _llvm, ir=False),
)
STAGE_NAMES = tuple(s.name for s in STAGES)
IR_STAGES = tuple(s.name for s in STAGES if s.ir)   # "frontend", "optimized", "loops"


class Run:
    """One run of the stages for ``backend`` (a ``backend.Backend``) and the pass
    ``pipeline``. ``through`` runs a span of them; the run keeps each IR stage's text when
    ``keep_ir`` (``texts``), each stage's wall time in seconds (``timings``) and, when it
    starts at the frontend with ``learn``, what the stages taught it (``facts``)."""

    def __init__(self, backend, pipeline: str | None = None, keep_ir: bool = False,
                 learn: bool = False):
        self.backend, self.pipeline = backend, pipeline
        self.keep_ir, self.learn = keep_ir, learn
        self.texts: dict = {}
        self.timings: dict = {}
        self.facts = Facts()
        self.fn = None

    def through(self, value, first: str = "frontend", last: str = "llvm"):
        """Run the stages ``first`` .. ``last`` on ``value``: ``(fn, args)`` when ``first``
        is "frontend", else the module the stage before ``first`` makes; returns what
        ``last`` makes (a module, or the backend's NativeModule after "llvm"). Raises
        CompileError for unsupported code, ValueError for an unknown stage name; IR
        invariants broken by a pass raise VerifyError (a compiler bug)."""
        for name in (first, last):
            if name not in STAGE_NAMES:
                raise ValueError(f"unknown stage {name!r}; stages: {', '.join(IR_STAGES)}")
        stages = STAGES[STAGE_NAMES.index(first):STAGE_NAMES.index(last) + 1]
        if first != "frontend":
            return self._run(stages, value)
        self.fn = value[0]
        with _nesting(self.fn):
            return self._run(stages, value)

    def _run(self, stages, value):
        learn = self.learn and self.fn is not None
        for stage in stages:
            t0 = time.perf_counter()
            value = stage.step(self, value)
            self.timings[stage.name] = time.perf_counter() - t0
            if stage.ir and self.keep_ir:
                self.texts[stage.name] = print_op(value)
            if stage.learn is not None and learn:
                stage.learn(self, value)
        return value


def stage_module(fn, args, stage: str = "optimized", pipeline: str | None = None,
                 backend=None):
    """The verified IR module of ``fn`` for ``args`` after ``stage`` (one of ``IR_STAGES``),
    as ``compile_function`` builds it for ``backend`` (default: this CPU's JIT; the CUDA
    backend's "loops" IR has its rewrites and none of the CPU's loop passes), without
    generating machine code. Raises CompileError for unsupported code and ValueError for
    an unknown stage."""
    if stage not in IR_STAGES:
        raise ValueError(f"unknown stage {stage!r}; stages: {', '.join(IR_STAGES)}")
    if backend is None:
        from ..backend.cpu import JITBackend
        backend = JITBackend()
    return Run(backend, pipeline).through((fn, args), "frontend", stage)


@contextlib.contextmanager
def _nesting(fn):
    """Room on the stack for ``fn``'s nesting (``nesting.room_for``); a RecursionError
    that still happens (helpers inlined into deep code) becomes a CompileError at ``fn``."""
    from ..frontend.source import source_of
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
