"""The CPU backends: ``JITBackend`` (this machine, code loaded into the process) and
``ObjectBackend`` (another CPU target: optimized LLVM IR and assembly, saved as an artifact,
``compiler/aot``). Both lower loop-level IR with ``backend/llvm`` and run the same loop-level
passes (``passes.LOOP_PIPELINE``) and O3 set-up (``backend/llvm/target.py``), and
both call NumPy's BLAS for large float matrix products (``prepare``)."""

from __future__ import annotations

from ..targets import Target, host
from .base import Backend


class _CPU(Backend):
    """What the CPU backends share: matrix products by NumPy's BLAS (``lowering/blas.py``)."""

    def prepare(self, module):
        from ..lowering.blas import prepare
        return prepare(module)


class JITBackend(_CPU):
    """This CPU: ``backend.llvm.jit.CompiledModule``, callable in this process."""

    name = "jit"

    def __init__(self):
        self.target = host()

    def codegen(self, module):
        from .llvm import compile_module
        return compile_module(module)


class ObjectBackend(_CPU):
    """A CPU ``Target`` other than this machine (an x86-64 level, a triple, a CPU model):
    ``backend.llvm.cross.CrossModule``, whose entries raise RuntimeError when called."""

    name = "object"

    def __init__(self, target: Target):
        self.target = target

    def codegen(self, module):
        from .llvm.cross import CrossModule
        return CrossModule(module, self.target)
