"""LLVM's target machines and the O3 pipeline: the one set-up of every backend.

LLVM itself initializes lazily in llvmlite 0.50; this module registers the native target and
asm printer once, loads the C and math libraries into the process so that JIT-compiled code
resolves ``aligned_alloc``, ``free``, ``madvise`` and libm functions (``tanh``, ``expm1`` ...)
by name, and builds one target machine for the host CPU name and features at opt level 3.
``create_target_machine`` makes the opt level 3 machine of any triple (the host's JIT, a
``compiler.targets.Target``'s object code: ``cpu_target_machine``, the NVPTX target of
``backend/ptx/target.py``), and ``optimize`` runs LLVM's O3 pipeline for one of them.
"""

from __future__ import annotations

import ctypes.util
import functools
import re

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
    return create_target_machine(llvm.get_default_triple(), llvm.get_host_cpu_name(),
                                 llvm.get_host_cpu_features().flatten(), jit=True)


@functools.cache
def _initialize_all() -> None:
    llvm.initialize_all_targets()
    llvm.initialize_all_asmprinters()


def create_target_machine(triple: str, cpu: str, features: str = "", *, reloc: str = "default",
                          codemodel: str = "jitdefault", jit: bool = False) -> llvm.TargetMachine:
    """A new opt level 3 target machine of ``triple`` for ``cpu`` with ``features`` (an LLVM
    feature string, ``+avx2,-avx512f``); ``reloc``/``codemodel``/``jit`` as llvmlite's
    ``create_target_machine`` takes them."""
    # Registering every target LLVM was built with is a cost of the first compilation;
    # the host's JIT needs only the native one.
    if triple == llvm.get_default_triple():
        _initialize()
    else:
        _initialize_all()
    return llvm.Target.from_triple(triple).create_target_machine(
        cpu=cpu, features=vector_width_features(triple, features), opt=3, reloc=reloc,
        codemodel=codemodel, jit=jit)


# LLVM tunes Intel CPUs with AVX-512 (Skylake-X through Sapphire Rapids) with
# ``prefer-256-bit``, its ``"prefer-vector-width"="256"``: the vectorizers stop at 256 bits
# although 512-bit registers are legal (``min-legal-vector-width`` is unbounded without the
# attribute). grafo's elementwise loops are bandwidth- or FMA-bound and gain from the wider
# vectors there, as on AMD Zen 4, whose tuning already prefers 512; on a CPU without AVX-512
# the flag changes nothing.
WIDE_VECTORS = "-prefer-256-bit"


def vector_width_features(triple: str, features: str) -> str:
    """``features`` (an LLVM feature string) with the vector-width choice of ``triple``: x86-64
    targets prefer 512-bit vectors where the CPU has AVX-512 (``WIDE_VECTORS``); other
    architectures keep LLVM's choice."""
    if triple.split("-", 1)[0] != "x86_64":
        return features
    return ",".join(f for f in (features, WIDE_VECTORS) if f)


def cpu_target_machine(target) -> llvm.TargetMachine:
    """An O3 target machine for ``target`` (a ``compiler.targets.Target``) emitting
    position-independent code (for shared libraries)."""
    return create_target_machine(target.triple, target.cpu, target.llvm_features, reloc="pic",
                                 codemodel="default")


class ScratchContext:
    """A private LLVM context for the modules of one compilation (``with ScratchContext() as
    c``), disposed on exit after the modules made in it (``parse``, ``parse_bitcode``,
    ``keep``): LLVM's global context keeps every type, constant and metadata node it ever
    uniqued, so modules parsed there leave memory behind when they are freed."""

    def __enter__(self) -> ScratchContext:
        self.context = llvm.create_context()
        self._modules = []
        return self

    def __exit__(self, *exc) -> None:
        for ref in self._modules:   # a module must go before its context
            ref.close()
        self.context.close()

    def keep(self, ref: llvm.ModuleRef) -> llvm.ModuleRef:
        """Dispose ``ref`` (a module of this context) on exit; returns it."""
        self._modules.append(ref)
        return ref

    def parse(self, text: str) -> llvm.ModuleRef:
        return self.keep(llvm.parse_assembly(text, self.context))

    def parse_bitcode(self, data: bytes) -> llvm.ModuleRef:
        return self.keep(llvm.parse_bitcode(data, self.context))


def triple() -> str:
    """The host's target triple, e.g. ``x86_64-unknown-linux-gnu``."""
    _initialize()
    return llvm.get_process_triple()


def optimize(module: llvm.ModuleRef, tm: llvm.TargetMachine | None = None,
             slp_vectorization: bool = True) -> None:
    """Run LLVM's default O3 pipeline (loop vectorization and unrolling on, SLP vectorization
    as ``slp_vectorization`` says) on ``module`` in place, for ``tm`` (default: this CPU's
    target machine). The one O3 set-up of every backend: the JIT, the cross/ahead-of-time
    object code and the CUDA kernels (which leave SLP vectorization off)."""
    tm = tm or host_target_machine()
    pto = llvm.PipelineTuningOptions(speed_level=3)
    pto.loop_vectorization = True
    pto.slp_vectorization = slp_vectorization
    pto.loop_unrolling = True
    pb = llvm.create_pass_builder(tm, pto)
    pb.getModulePassManager().run(module, pb)


_PROBE = """
define void @probe(ptr noalias %a, ptr noalias %b, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [0, %entry], [%i1, %loop]
  %pa = getelementptr inbounds float, ptr %a, i64 %i
  %pb = getelementptr inbounds float, ptr %b, i64 %i
  %x = load float, ptr %pb, align 4
  %y = fmul float %x, 3.0
  store float %y, ptr %pa, align 4
  %i1 = add nuw nsw i64 %i, 1
  %c = icmp ult i64 %i1, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
"""

def vector_bits(tm: llvm.TargetMachine | None = None) -> int:
    """The width in bits of the vectors LLVM's loop vectorizer chooses for ``tm`` (default:
    this CPU), found by vectorizing a float32 loop: 512 for CPUs with AVX-512 (AMD Zen 4,
    Intel CPUs, whose ``prefer-256-bit`` tuning ``WIDE_VECTORS`` turns off), 256 for AVX2
    CPUs, 128 for baseline x86-64 and generic aarch64 (scalable SVE vectors count as their
    128-bit minimum)."""
    if tm is None:
        return _host_vector_bits()
    ref = llvm.parse_assembly(_PROBE)
    ref.triple = tm.triple
    ref.data_layout = str(tm.target_data)
    optimize(ref, tm)
    lanes = [int(n) for n in re.findall(r"<(?:vscale x )?(\d+) x float>", str(ref))]
    return 32 * max(lanes, default=1)


@functools.cache
def _host_vector_bits() -> int:
    return vector_bits(host_target_machine())
