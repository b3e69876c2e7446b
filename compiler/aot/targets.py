"""Code generation targets: the host CPU, x86-64 CPU levels and other triples.

``resolve(spec)`` accepts ``"cpu"`` (this machine: its triple, CPU name and every feature it
has), an x86-64 micro-architecture level (``"x86-64"``, ``"x86-64-v2"`` .. ``"x86-64-v4"``,
code for any CPU of that level) or a Linux triple (``"aarch64-linux-gnu"``,
``"x86_64-unknown-linux-gnu"``, generic CPU of that architecture). Code for a target other
than ``"cpu"`` is compiled to an object file only (``cross.CrossModule``): it is saved, not
run. ``cpu_model(name)`` is one CPU model by LLVM's name, for reading the code that model
gets (``grafo translate --mcpu``, tests of code generation); it is not saved.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from runtime.cpu import X86_LEVELS

_ARCHES = {"x86_64": "x86-64", "aarch64": "generic"}   # architecture -> generic CPU name


@dataclass(frozen=True)
class Target:
    """Where code runs: ``name`` (as given to ``compile``), LLVM ``triple``, ``cpu`` name,
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


def resolve(spec) -> Target:
    """The Target named by ``spec`` (a Target, None or "cpu" for the host, an x86-64 level,
    or a Linux triple of x86_64 or aarch64). Raises ValueError for anything else."""
    if isinstance(spec, Target):
        return spec
    if spec is None or spec in ("cpu", "host"):
        return host()
    if spec in X86_LEVELS:
        return _generic(spec, "x86_64-unknown-linux-gnu", spec, X86_LEVELS[spec])
    triple = _normalize_triple(spec) if isinstance(spec, str) else None
    if triple is None:
        raise ValueError(f"unknown target {spec!r}: use 'cpu' (this machine), one of "
                         f"{', '.join(map(repr, X86_LEVELS))}, or a Linux triple such as "
                         f"'aarch64-linux-gnu'")
    arch = triple.split("-", 1)[0]
    return _generic(spec, triple, _ARCHES[arch], X86_LEVELS["x86-64"] if arch == "x86_64" else ())


def cpu_model(cpu: str, triple: str = "x86_64-unknown-linux-gnu") -> Target:
    """One CPU model by its LLVM name (``"znver4"``, ``"sapphirerapids"``, ``"haswell"``,
    ``"neoverse-v1"`` with an aarch64 triple ...) with all the features LLVM gives it, as
    ``llc -mcpu`` does: its ``llvm_ir`` and ``asm`` show what that CPU gets (vector widths
    follow its tuning). Raises ValueError for a triple ``resolve`` does not accept; an
    unknown CPU name is LLVM's generic CPU of the architecture."""
    triple = resolve(triple).triple
    return Target(cpu, triple, cpu, (), "", inspect_only=True)


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
