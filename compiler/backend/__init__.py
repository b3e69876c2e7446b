"""Backends: loop-level IR -> native code for one target (``base.Backend``).

- ``cpu.JITBackend``: this CPU, in-process (``backend/llvm``: llvmlite, O3, MCJIT);
- ``cpu.ObjectBackend``: another CPU target (an x86-64 level, a triple, a CPU model);
- ``ptx.CudaBackend``: NVIDIA GPUs (``backend/ptx``: PTX kernels and a host program).

``for_target(target)`` is the backend of a ``compiler.targets`` target. The backends' modules
are imported when one is asked for, so that ``import compiler`` (and running an artifact)
never loads LLVM.
"""

from __future__ import annotations

from ..targets import CudaTarget, Target
from .base import Backend, NativeModule


def for_target(target: Target | CudaTarget) -> Backend:
    """The backend compiling for ``target`` (``compiler.targets.resolve`` gives one)."""
    if isinstance(target, CudaTarget):
        from .ptx import CudaBackend
        return CudaBackend(target)
    from .cpu import JITBackend, ObjectBackend
    return JITBackend() if target.is_host else ObjectBackend(target)


__all__ = ["Backend", "NativeModule", "for_target"]
