"""The host CPU as the runtime sees it: architecture and instruction-set features.

Artifacts record the LLVM target triple and the LLVM names of the CPU features their code may
use (``avx2``, ``sse4.2``, ...). Loading compares the triple's architecture with this machine's
and the x86 features with the ``flags`` line of ``/proc/cpuinfo`` (Linux's names: ``sse4_2``,
``pni``, ``abm``, ...). Only instruction-set extensions that generated numeric code can use are
checked. Features without a known cpuinfo flag (``shstk``, ``crc32`` ...) and system
instructions (``xsaves``, ``fsgsbase``, ``rdpid``, ``clwb`` ...) are not: code never uses them,
and a hypervisor or kernel may hide their flag while LLVM's CPUID probe still reports them (a
KVM guest on AMD EPYC lists ``xsaves`` to LLVM but not in /proc/cpuinfo).

The x86-64 micro-architecture levels are those of the x86-64 psABI (also LLVM's CPU names
``x86-64-v2`` .. ``x86-64-v4``).
"""

from __future__ import annotations

import functools
import platform

_ARCH = {"x86_64": "x86_64", "amd64": "x86_64", "aarch64": "aarch64", "arm64": "aarch64"}

_BASELINE = ("64bit", "cmov", "cx8", "fxsr", "mmx", "sse", "sse2")
_V2 = _BASELINE + ("cx16", "popcnt", "sahf", "sse3", "sse4.1", "sse4.2", "ssse3")
_V3 = _V2 + ("avx", "avx2", "bmi", "bmi2", "f16c", "fma", "lzcnt", "movbe", "xsave")
_V4 = _V3 + ("avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512vl")
X86_LEVELS = {"x86-64": _BASELINE, "x86-64-v2": _V2, "x86-64-v3": _V3, "x86-64-v4": _V4}

# LLVM x86 feature name -> /proc/cpuinfo flag, where the two differ.
_RENAMED = {
    "64bit": "lm", "sahf": "lahf_lm", "sse3": "pni", "sse4.1": "sse4_1", "sse4.2": "sse4_2",
    "lzcnt": "abm", "bmi": "bmi1", "pclmul": "pclmulqdq", "sha": "sha_ni", "rdrnd": "rdrand",
    "prfchw": "3dnowprefetch", "avxvnni": "avx_vnni", "avx512bf16": "avx512_bf16",
    "avx512bitalg": "avx512_bitalg", "avx512fp16": "avx512_fp16",
    "avx512vbmi2": "avx512_vbmi2", "avx512vnni": "avx512_vnni",
    "avx512vp2intersect": "avx512_vp2intersect", "avx512vpopcntdq": "avx512_vpopcntdq",
    "amx-bf16": "amx_bf16", "amx-int8": "amx_int8", "amx-tile": "amx_tile",
}
# LLVM x86 features whose cpuinfo flag has the same name (xsave stays: it is part of the
# x86-64-v3 level, and the kernel reports it wherever AVX state is enabled).
_SAME = (
    "adx", "aes", "avx", "avx2", "avx512bw", "avx512cd", "avx512dq", "avx512f", "avx512ifma",
    "avx512vbmi", "avx512vl", "bmi2", "cmov", "cx16", "cx8", "f16c", "fma", "fma4", "fxsr",
    "gfni", "mmx", "movbe", "popcnt", "rdseed", "sse", "sse2", "sse4a", "ssse3", "vaes",
    "vpclmulqdq", "xop", "xsave",
)
X86_CPUINFO_FLAG = {**{f: f for f in _SAME}, **_RENAMED}


def arch_of(triple: str) -> str:
    """The normalized architecture of a target triple (``x86_64``, ``aarch64``, or the
    triple's first component when unknown)."""
    first = triple.split("-", 1)[0]
    return _ARCH.get(first, first)


def host_arch() -> str:
    """This machine's architecture, normalized like ``arch_of``."""
    machine = platform.machine().lower()
    return _ARCH.get(machine, machine)


@functools.cache
def _cpuinfo() -> dict:
    """The first processor's ``key: value`` lines of /proc/cpuinfo ({} when unreadable)."""
    info: dict = {}
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            for line in f:
                if not line.strip():
                    if info:
                        break
                    continue
                key, _, value = line.partition(":")
                info.setdefault(key.strip(), value.strip())
    except OSError:
        pass
    return info


def host_flags() -> frozenset | None:
    """The CPU flags the kernel reports (x86 ``flags``, arm64 ``Features``), or None when
    /proc/cpuinfo is not available."""
    info = _cpuinfo()
    text = info.get("flags", info.get("Features"))
    return None if text is None else frozenset(text.split())


def missing_features(triple: str, features) -> list[str]:
    """The LLVM feature names of ``features`` (for code of ``triple``) that this CPU lacks.

    Only x86 features with a known cpuinfo flag are checked; the list is empty when the
    flags cannot be read."""
    flags = host_flags()
    if flags is None or arch_of(triple) != "x86_64":
        return []
    return [f for f in features if f in X86_CPUINFO_FLAG and X86_CPUINFO_FLAG[f] not in flags]


def host_identity() -> str:
    """A stable description of this CPU (architecture, model name and flags) for cache keys."""
    info = _cpuinfo()
    flags = " ".join(sorted(host_flags() or ()))
    # platform.processor() starts a process (uname -p): only where cpuinfo names no model.
    model = info["model name"] if "model name" in info else platform.processor()
    return f"{host_arch()}|{model}|{flags}"
