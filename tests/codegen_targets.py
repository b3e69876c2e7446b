"""The CPUs that tests of generated code check, and what vector code looks like on each.

LLVM picks vector widths by the target's tuning, not by the widest registers; grafo turns
off the ``prefer-256-bit`` tuning of Intel CPUs with AVX-512 (``WIDE_VECTORS`` in
``compiler/backend/llvm/target.py``), so every AVX-512 CPU (AMD Zen 4, Intel) gets 512-bit
vectors, AVX2 CPUs 256-bit and generic aarch64 128-bit. A test asserts the width its target machine
chooses (``vector_bits``, which asks LLVM by vectorizing a probe loop), for this machine and
for pinned CPU models (``cpu_model``), so the suite passes on every CPU and still checks the
code each of them gets.
"""

from __future__ import annotations

import re

import numpy as np

from compiler.backend.llvm.target import cpu_target_machine as target_machine
from compiler.backend.llvm.target import vector_bits
from compiler.targets import cpu_model, host, resolve

CPU_MODELS = ("znver4", "sapphirerapids", "skylake-avx512", "rocketlake", "haswell")
AARCH64 = "aarch64-linux-gnu"


def targets() -> dict:
    """{test id: Target}: this machine, the x86-64 CPU models above and generic aarch64."""
    return {"host": host(), **{m: cpu_model(m) for m in CPU_MODELS}, "aarch64": resolve(AARCH64)}


def bits(target) -> int:
    """The vector width LLVM chooses for ``target``'s float loops."""
    return vector_bits() if target.is_host else vector_bits(target_machine(target))


def other_width(target) -> str:
    """A CPU model whose vector width differs from ``target``'s."""
    return "haswell" if bits(target) == 512 else "znver4"


def vector_type(target, dtype) -> str:
    """The LLVM vector type of a full vector of ``dtype`` on ``target``: ``<16 x float>``."""
    dt = np.dtype(dtype)
    name = {"float32": "float", "float64": "double"}.get(dt.name, f"i{8 * dt.itemsize}")
    return f"<{bits(target) // (8 * dt.itemsize)} x {name}>"


def vector_fmas(asm: str, target, dtype) -> int:
    """How many vector FMAs of ``dtype`` at ``target``'s width ``asm`` holds."""
    single = np.dtype(dtype) == np.float32
    if target.arch == "aarch64":
        return len(re.findall(rf"\bfmla\s+v\d+\.{'4s' if single else '2d'}", asm))
    register = {512: "zmm", 256: "ymm", 128: "xmm"}[bits(target)]
    return len(re.findall(rf"vfmadd\w+{'ps' if single else 'pd'}\s[^\n]*{register}", asm))


def scalar_fmas(asm: str, target) -> int:
    """How many scalar FMAs ``asm`` holds."""
    if target.arch == "aarch64":
        return len(re.findall(r"\bfmadd\s+[sd]\d+", asm))
    return len(re.findall(r"vfmadd\w+s[sd]\s", asm))


def widest_vector(llvm_ir: str) -> int:
    """The width in bits of the widest vector of numbers in ``llvm_ir`` (0 when none)."""
    sizes = {"float": 32, "double": 64, "half": 16}
    return max((int(n) * (sizes.get(t) or int(t[1:]))
                for n, t in re.findall(r"<(\d+) x (float|double|half|i\d+)>", llvm_ir)
                if t != "i1"), default=0)
