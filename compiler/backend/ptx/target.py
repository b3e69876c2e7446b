"""The NVPTX target: compute capability, LLVM target machine, libdevice and ``ptxas``.

``arch(None, device)`` is that GPU's ``sm_XY`` (through ``runtime.cuda``) or ``sm_80`` when
there is none. PTX is produced by llvmlite's NVPTX back end (triple ``nvptx64-nvidia-cuda``).
C math functions (``sinf``, ``powf`` ...) come from NVIDIA's libdevice bitcode, found under
``$CUDA_HOME``/``$CUDA_PATH``, ``/usr/local/cuda*`` or the ``nvidia-cuda-nvcc`` wheel.
"""

from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sys
import tempfile

import llvmlite.binding as llvm

from ..llvm.target import create_target_machine
from ..llvm.target import optimize as optimize_for

TRIPLE = "nvptx64-nvidia-cuda"
DEFAULT_ARCH = "sm_80"


def arch(requested: str | None = None, device: int = 0) -> str:
    """``requested`` normalized to ``sm_XY`` (``"sm_90"``, ``"90"`` or ``"9.0"``), else the
    compute capability of CUDA device index ``device`` when present, else ``DEFAULT_ARCH``.
    Raises ValueError for malformed names."""
    if requested is None:
        from runtime.cuda import device_arch
        return device_arch(device) or DEFAULT_ARCH
    digits = requested.removeprefix("sm_").replace(".", "")
    if not digits.isdigit() or len(digits) < 2:
        raise ValueError(f"unknown compute capability {requested!r}; use e.g. 'sm_80' or '9.0'")
    return f"sm_{digits}"


def _ptx_features(sm: str) -> str:
    cc = int(sm.removeprefix("sm_").rstrip("a"))
    return "+ptx86" if cc >= 100 else "+ptx80" if cc >= 90 else ""


@functools.cache
def target_machine(sm: str) -> llvm.TargetMachine:
    """The NVPTX target machine for ``sm`` (O3)."""
    return create_target_machine(TRIPLE, sm, _ptx_features(sm))


def optimize(module: llvm.ModuleRef, sm: str) -> None:
    """Run LLVM's O3 pipeline for ``sm`` over ``module`` (infers global/shared address
    spaces of generic pointers, unrolls, hoists; no SLP vectorization), the CPU backends'
    set-up (``backend/llvm/target.py``)."""
    optimize_for(module, target_machine(sm), slp_vectorization=False)


@functools.cache
def libdevice_path() -> str | None:
    """The path of ``libdevice.10.bc``, or None when no CUDA toolkit provides it."""
    roots = [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH"),
             *sorted(glob.glob("/usr/local/cuda*"), reverse=True)]
    roots += [os.path.join(p, "nvidia", "cuda_nvcc") for p in sys.path if p]
    for root in filter(None, roots):
        path = os.path.join(root, "nvvm", "libdevice", "libdevice.10.bc")
        if os.path.isfile(path):
            return path
    return None


@functools.cache
def ptxas_path() -> str | None:
    """``ptxas`` on PATH, under ``$CUDA_HOME/bin`` or in the ``nvidia-cuda-nvcc`` wheel."""
    found = shutil.which("ptxas")
    if found:
        return found
    candidates = [os.path.join(r, "bin", "ptxas") for r in
                  filter(None, [os.environ.get("CUDA_HOME"), os.environ.get("CUDA_PATH")])]
    candidates += [os.path.join(p, "nvidia", "cuda_nvcc", "bin", "ptxas") for p in sys.path if p]
    return next((c for c in candidates if os.access(c, os.X_OK)), None)


def assemble(ptx: str, sm: str) -> bytes:
    """Assemble ``ptx`` for ``sm`` with ``ptxas``; returns the cubin. Raises FileNotFoundError
    without ptxas and RuntimeError with ptxas's diagnostics when it rejects the code."""
    exe = ptxas_path()
    if exe is None:
        raise FileNotFoundError("ptxas not found (pip install nvidia-cuda-nvcc, or put a CUDA "
                                "toolkit's bin/ on PATH)")
    with tempfile.TemporaryDirectory() as tmp:
        src, out = os.path.join(tmp, "k.ptx"), os.path.join(tmp, "k.cubin")
        with open(src, "w") as f:
            f.write(ptx)
        proc = subprocess.run([exe, f"-arch={sm}", src, "-o", out], capture_output=True,
                              text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"ptxas rejected the PTX:\n{proc.stderr}")
        with open(out, "rb") as f:
            return f.read()
