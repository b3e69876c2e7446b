"""Code generation for a ``Target`` with LLVM's target machines: the O3 pipeline, object files
and ``CrossModule`` (loop-level module -> optimized LLVM IR for a target that is not this
process's host)."""

from __future__ import annotations

import functools

import llvmlite.binding as llvm

from ..backend.llvm import error_table, lower_module
from ..backend.llvm.target import optimize
from .targets import Target, not_runnable


@functools.cache
def _initialize() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


def target_machine(target: Target) -> llvm.TargetMachine:
    """An O3 target machine for ``target`` emitting position-independent code (for shared
    libraries)."""
    _initialize()
    return llvm.Target.from_triple(target.triple).create_target_machine(
        cpu=target.cpu, features=target.llvm_features, opt=3, reloc="pic",
        codemodel="default")


class CrossModule:
    """A loop-level module compiled for a non-host ``target``: ``llvm_ir`` (optimized for
    it), ``asm``, ``errors`` and ``symbols`` as the backend's ``CompiledModule``; it has no
    entry addresses, and its ``entry`` callables raise RuntimeError."""

    def __init__(self, module, target: Target):
        self.target = target
        ref, self.symbols = lower_module(module)
        tm = target_machine(target)
        ref.triple = target.triple
        ref.data_layout = str(tm.target_data)
        optimize(ref, tm)
        self.llvm_ir = str(ref)
        self.errors = error_table(module)

    @functools.cached_property
    def asm(self) -> str:
        """The target's assembly of the optimized module."""
        return target_machine(self.target).emit_assembly(llvm.parse_assembly(self.llvm_ir))

    def entry(self, name: str, input_types=None, result_types=None, written=()):
        """A callable that raises RuntimeError: code for another target does not run here."""
        return not_runnable(name, self.target)


def cross_compile(target: Target):
    """The backend function (loop-level module -> ``CrossModule``) for ``target``."""
    return lambda module: CrossModule(module, target)
