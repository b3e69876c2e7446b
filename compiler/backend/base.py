"""What a backend is to the compile pipeline (``compiler/pipeline``): ``Backend`` and the
``NativeModule`` its code generation returns.

A backend owns the target-specific part of the stages: ``prepare`` rewrites the optimized
tensor-level module before lowering (the CUDA backend's tiled matmul and row reductions),
``loop_pipeline`` names the loop-level passes run after lowering, and ``codegen`` turns the
loop-level module into native code. Three implement it: ``cpu.JITBackend`` (this CPU,
in-process), ``cpu.ObjectBackend`` (another CPU target: LLVM IR and assembly, saved as an
artifact) and ``ptx.CudaBackend`` (PTX kernels and a host program). ``for_target`` in this
package picks one for a ``compiler.targets`` target.
"""

from __future__ import annotations

import abc
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from collections.abc import Callable

    from ..dialects.builtin import ModuleOp
    from ..targets import CudaTarget, Target


class NativeModule(Protocol):
    """A compiled loop-level module: ``llvm_ir`` (optimized LLVM IR text), ``asm`` (the
    target's assembly, PTX for CUDA), ``errors`` (the run-time checks' table,
    ``backend.llvm.errors.error_table``), ``symbols`` ({function name: entry symbol}, for
    modules an artifact links), ``timings`` (seconds of its own steps, which replace the
    pipeline's single "llvm" time when not empty) and ``entry``."""

    llvm_ir: str
    asm: str
    errors: list
    timings: dict

    def entry(self, name: str, input_types: list | None = None,
              result_types: list | None = None, written=()) -> Callable:
        """A callable running ``func.func @name`` on NumPy arguments (see
        ``backend.llvm.jit.CompiledModule.entry``); ``written``: positions of the array
        parameters the function writes."""


class Backend(abc.ABC):
    """A code generator for one target (see the module docstring)."""

    name: str                          # "jit", "object" or "cuda"
    target: Target | CudaTarget        # what it compiles for (``compiler.targets``)
    loop_pipeline: str | None = None   # loop-level passes; None: ``passes.LOOP_PIPELINE``

    def prepare(self, module: ModuleOp) -> ModuleOp:
        """The optimized tensor-level ``module`` rewritten for this target before lowering
        (in place or a new module); the default leaves it as it is."""
        return module

    @abc.abstractmethod
    def codegen(self, module: ModuleOp) -> NativeModule:
        """Native code of the verified loop-level ``module``. Raises CompileError
        (``errors.unsupported``) for code this backend does not support."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.target.name}>"
