"""The host target: LLVM's native target, the host CPU's target machine and the O3 pipeline.

LLVM itself initializes lazily in llvmlite 0.50; this module registers the native target and
asm printer once, loads the C and math libraries into the process so that JIT-compiled code
resolves ``aligned_alloc``, ``free``, ``madvise`` and libm functions (``tanh``, ``expm1`` ...)
by name, and builds one target machine for the host CPU name and features at opt level 3.
"""

from __future__ import annotations

import ctypes.util
import functools

import llvmlite.binding as llvm


@functools.cache
def _initialize() -> None:
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    for name in ("c", "m"):
        path = ctypes.util.find_library(name)
        if path is not None:
            llvm.load_library_permanently(path)


@functools.cache
def host_target_machine() -> llvm.TargetMachine:
    """The shared target machine of this CPU, for optimization and assembly output."""
    return new_host_target_machine()


def new_host_target_machine() -> llvm.TargetMachine:
    """A new target machine for this CPU (``llvm.get_host_cpu_name()`` and all its features);
    a JIT engine takes ownership of the one it is given."""
    _initialize()
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=llvm.get_host_cpu_name(), features=llvm.get_host_cpu_features().flatten(),
        opt=3, codemodel="jitdefault", jit=True)


def triple() -> str:
    """The host's target triple, e.g. ``x86_64-unknown-linux-gnu``."""
    _initialize()
    return llvm.get_process_triple()


def optimize(module: llvm.ModuleRef) -> None:
    """Run LLVM's default O3 pipeline (loop and SLP vectorization on) on ``module`` in place."""
    tm = host_target_machine()
    pto = llvm.PipelineTuningOptions(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = True
    pto.loop_unrolling = True
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(module, pb)
