"""The compile pipeline: one ordered list of named stages (``stages.py``) and one runner,
``stages.Run``, that everything compiling goes through.

1. ``frontend``   Python AST -> tensor-level IR (compiler/frontend)
2. ``optimized``  the pass pipeline (default ``canonicalize,cse,dce``; compiler/passes)
3. ``loops``      the backend's tensor-level rewrites, lowering to loop-level IR with fusion
                  (compiler/lowering), the pass pipeline again and the backend's loop passes
4. ``llvm``       the backend's code generation (compiler/backend: this CPU's JIT, object
                  code for another CPU target, or PTX for CUDA)

Modules: ``stages`` (the stages, ``Run``, ``stage_module``), ``facts`` (what the stages
learn about the function), ``compiled`` (``compile_function`` and its result,
``CompiledFunction``).
"""

from .compiled import Compiled, CompiledFunction, IRText, compile_function, timing_report
from .facts import Facts, written_parameters
from .stages import (
    IR_STAGES,
    STAGE_NAMES,
    STAGES,
    Run,
    frontend_ir,
    optimize,
    optimize_loops,
    stage_module,
)

__all__ = ["IR_STAGES", "STAGES", "STAGE_NAMES", "Compiled", "CompiledFunction", "Facts",
           "IRText", "Run", "compile_function", "frontend_ir", "optimize", "optimize_loops",
           "stage_module", "timing_report", "written_parameters"]
