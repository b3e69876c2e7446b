"""Code generation targets: the host CPU, x86-64 CPU levels, other triples, CPU models, GPUs.

``resolve(spec)`` is the one place a target name is read. It accepts ``"cpu"`` (this
machine: its triple, CPU name and every feature it has), an x86-64 micro-architecture level
(``"x86-64"``, ``"x86-64-v2"`` .. ``"x86-64-v4"``, code for any CPU of that level), a Linux
triple (``"aarch64-linux-gnu"``, ``"x86_64-unknown-linux-gnu"``, generic CPU of that
architecture), ``"cuda"`` or ``"cuda:N"`` (the GPU of device index N, default 0; its name
is always "cuda:N"), or a
``Target`` / ``CudaTarget`` made before. ``cpu_model(name)`` is one CPU model by LLVM's name,
for reading the code that model gets (``grafo translate --mcpu``, tests of code
generation); its code is not saved.

A CPU ``Target`` other than ``"cpu"`` is compiled to an object file only (the object
backend, ``compiler/backend/cpu.py``): it is saved, not run. Which backend compiles for a
target is ``compiler.backend.for_target``'s choice.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from runtime.cpu import X86_LEVELS

_ARCHES = {"x86_64": "x86-64", "aarch64": "generic"}   # architecture -> generic CPU name


@dataclass(frozen=True)
class Target:
    """Where CPU code runs: ``name`` (as given to ``compile``), LLVM ``triple``, ``cpu`` name,
    ``features`` (the LLVM names of the instruction-set features the code may use) and
    ``llvm_features`` (the exact feature string given to LLVM, ``+avx2,-avx512f,...``).
    ``inspect_only``: the features are LLVM's defaults for ``cpu``, which grafo cannot list
    for an artifact's CPU check, so its code can be read but not saved."""

    name: str
    triple: str
    cpu: str
    features: tuple
    llvm_features: str = ""
    inspect_only: bool = False

    @property
    def is_host(self) -> bool:
        """Whether code for it runs in this process (the target "cpu")."""
        return self.name == "cpu"

    @property
    def arch(self) -> str:
        return self.triple.split("-", 1)[0]

    def manifest(self) -> dict:
        return {"name": self.name, "triple": self.triple, "cpu": self.cpu,
                "features": list(self.features), "llvm_features": self.llvm_features}

    @classmethod
    def from_manifest(cls, m: dict) -> Target:
        return cls(m["name"], m["triple"], m["cpu"], tuple(m["features"]),
                   m.get("llvm_features", ""))


@dataclass(frozen=True)
class CudaTarget:
    """An NVIDIA GPU: ``name`` "cuda:N" (N = the CUDA ``device`` index; "cuda" names device
    0), and ``arch``, the ``sm_XY`` compiled for (None until the CUDA backend picks that
    GPU's, or ``sm_80`` without one). Its code runs through the CUDA driver, not in this
    process's address space (``is_host`` is False)."""

    name: str = "cuda:0"
    device: int = 0
    arch: str | None = None

    is_host = False


@functools.cache
def host() -> Target:
    """This machine: its process triple, CPU name and enabled features."""
    import llvmlite.binding as llvm
    features = llvm.get_host_cpu_features()
    return Target("cpu", llvm.get_process_triple(), llvm.get_host_cpu_name(),
                  tuple(sorted(f for f, on in features.items() if on)), features.flatten())


def _normalize_triple(spec: str) -> str | None:
    parts = spec.split("-")
    if parts[0] not in _ARCHES or "linux" not in parts:
        return None
    return "-".join([parts[0], "unknown", *parts[1:]]) if len(parts) == 3 else spec


def is_cuda(spec) -> bool:
    """Whether ``spec`` names a GPU: a CudaTarget or a name starting with "cuda". Reads no
    LLVM, unlike resolving "cpu" (a Function asks this before it looks in the disk cache)."""
    return isinstance(spec, CudaTarget) or (isinstance(spec, str) and spec.startswith("cuda"))


def _cuda(spec: str) -> CudaTarget:
    """The CudaTarget of "cuda" / "cuda:N", named "cuda:N" ("cuda" is device 0). Raises
    ValueError for another name starting "cuda", and, where a CUDA driver is present, for a
    device index it does not have (``runtime.cuda.devices``)."""
    from runtime.cuda import devices
    i = devices.index(spec)
    return CudaTarget(devices.name(i), i)


def resolve(spec) -> Target | CudaTarget:
    """The target named by ``spec`` (see the module docstring): a Target or CudaTarget as it
    is, None, "cpu" or "host" for this machine, an x86-64 level, a Linux triple of x86_64
    or aarch64, "cuda" or "cuda:N". Raises ValueError for anything else."""
    if isinstance(spec, (Target, CudaTarget)):
        return spec
    if spec is None or spec in ("cpu", "host"):
        return host()
    if spec in X86_LEVELS:
        return _generic(spec, "x86_64-unknown-linux-gnu", spec, X86_LEVELS[spec])
    if is_cuda(spec):
        return _cuda(spec)
    triple = _normalize_triple(spec) if isinstance(spec, str) else None
    if triple is None:
        raise ValueError(f"unknown target {spec!r}: use 'cpu' (this machine), one of "
                         f"{', '.join(map(repr, X86_LEVELS))}, a Linux triple such as "
                         f"'aarch64-linux-gnu', or 'cuda' / 'cuda:N'")
    arch = triple.split("-", 1)[0]
    return _generic(spec, triple, _ARCHES[arch], X86_LEVELS["x86-64"] if arch == "x86_64" else ())


def cpu_model(cpu: str, triple: str = "x86_64-unknown-linux-gnu") -> Target:
    """One CPU model by its LLVM name (``"znver4"``, ``"sapphirerapids"``, ``"haswell"``,
    ``"neoverse-v1"`` with an aarch64 triple ...) with all the features LLVM gives it, as
    ``llc -mcpu`` does: its ``llvm_ir`` and ``asm`` show what that CPU gets (vector widths
    follow its tuning). Raises ValueError for a triple ``resolve`` does not accept as a CPU
    target; an unknown CPU name is LLVM's generic CPU of the architecture."""
    target = resolve(triple)
    if not isinstance(target, Target):
        raise ValueError(f"cpu_model needs a CPU triple, got {triple!r}")
    return Target(cpu, target.triple, cpu, (), "", inspect_only=True)


def _generic(name: str, triple: str, cpu: str, features) -> Target:
    return Target(name, triple, cpu, tuple(features), ",".join(f"+{f}" for f in features))


def not_runnable(name: str, target: Target):
    """A callable raising RuntimeError that explains why ``name`` cannot run here."""
    def call(*args):
        raise RuntimeError(f"{name} was compiled for target {target.name!r} ({target.triple}, "
                           f"CPU {target.cpu}) and cannot be called in this process: save it "
                           f"with .save(path) and load it with runtime.load(path) on a "
                           f"matching machine, or compile with target='cpu'")
    return call
