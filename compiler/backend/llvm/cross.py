"""Code for a CPU ``Target`` other than this process's host: ``CrossModule`` (loop-level module
-> LLVM IR optimized at O3 for the target's triple, CPU and features). Its code is not
loaded; ``compiler/aot/native.py`` turns it into an object file and a shared library."""

from __future__ import annotations

import functools

import llvmlite.binding as llvm

from ...targets import Target, not_runnable
from .codegen import lower_module
from .errors import error_table
from .target import cpu_target_machine, optimize


class CrossModule:
    """A loop-level module compiled for a non-host ``target``: ``llvm_ir`` (optimized for
    it), ``asm``, ``errors`` and ``symbols`` as the JIT's ``CompiledModule``; it has no
    entry addresses, and its ``entry`` callables raise RuntimeError."""

    timings: dict = {}   # one "llvm" time: the pipeline measures it

    def __init__(self, module, target: Target):
        self.target = target
        ref, self.symbols = lower_module(module)
        tm = cpu_target_machine(target)
        ref.triple = target.triple
        ref.data_layout = str(tm.target_data)
        optimize(ref, tm)
        self.llvm_ir = str(ref)
        self.errors = error_table(module)

    @functools.cached_property
    def asm(self) -> str:
        """The target's assembly of the optimized module."""
        return cpu_target_machine(self.target).emit_assembly(llvm.parse_assembly(self.llvm_ir))

    def entry(self, name: str, input_types=None, result_types=None, written=()):
        """A callable that raises RuntimeError: code for another target does not run here."""
        return not_runnable(name, self.target)
