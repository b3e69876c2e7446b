"""The compile pipeline's stage runner, backends and targets, without a GPU: ``resolve`` reads
every target name (and keeps a CUDA device index), each target has a ``Backend``, the
stages record what they learn on the compiled function, and the API, the disk cache and
the artifact modules depend on each other one way and read only public attributes."""

from __future__ import annotations

import pathlib

import numpy as np
import pytest

import compiler
from compiler.backend import Backend, for_target
from compiler.backend.cpu import JITBackend, ObjectBackend
from compiler.backend.ptx import CudaBackend
from compiler.pipeline import IR_STAGES, STAGE_NAMES, Run, frontend_ir, stage_module
from compiler.targets import CudaTarget, Target, cpu_model, host, is_cuda, resolve

ROOT = pathlib.Path(__file__).resolve().parent.parent


def affine(x, k):
    return x * k + 1.0


def scale_into(out, x):
    out[...] = 2.0 * x
    return out


COUNTER = compiler.Variable(0.0)


def count(x):
    COUNTER.assign_add(1.0)
    return x + COUNTER


# targets ---------------------------------------------------------------------------------------

def test_resolve_reads_every_target_name():
    assert resolve("cpu") is host() and resolve(None) is host() and resolve("host") is host()
    assert isinstance(host(), Target) and host().is_host and host().name == "cpu"
    assert resolve("cuda") == CudaTarget("cuda:0", 0) == CudaTarget()
    assert resolve("cuda:1") == CudaTarget("cuda:1", 1) and resolve("cuda:1").name == "cuda:1"
    assert resolve("cuda:0").device == 0 and not resolve("cuda").is_host
    v3 = resolve("x86-64-v3")
    assert (v3.name, v3.triple, v3.cpu) == ("x86-64-v3", "x86_64-unknown-linux-gnu", "x86-64-v3")
    assert "avx2" in v3.features and not v3.is_host
    assert resolve("aarch64-linux-gnu").triple == "aarch64-unknown-linux-gnu"
    for made in (v3, cpu_model("znver4"), CudaTarget("cuda:2", 2)):
        assert resolve(made) is made


@pytest.mark.parametrize("name", ["sparc", "cuda:x", "cuda:", "cudax", "cuda:-1", "gpu"])
def test_resolve_rejects_unknown_names(name):
    with pytest.raises(ValueError, match=f"unknown (target|device) '{name}'"):
        resolve(name)


def test_is_cuda_reads_no_llvm():
    assert is_cuda("cuda") and is_cuda("cuda:3") and is_cuda(CudaTarget())
    assert not is_cuda("cpu") and not is_cuda(None) and not is_cuda(host())


def test_cpu_model_takes_a_cpu_triple_only():
    znver4 = cpu_model("znver4")
    assert znver4.inspect_only and znver4.cpu == "znver4" and znver4.arch == "x86_64"
    with pytest.raises(ValueError):
        cpu_model("znver4", "cuda")


# backends --------------------------------------------------------------------------------------

def test_every_target_has_a_backend():
    cases = {"cpu": (JITBackend, "jit", None), "x86-64-v2": (ObjectBackend, "object", None),
             "aarch64-linux-gnu": (ObjectBackend, "object", None),
             "cuda:1": (CudaBackend, "cuda", "arith-emulate-unsupported-floats")}
    for name, (cls, kind, loop_pipeline) in cases.items():
        backend = for_target(resolve(name))
        assert isinstance(backend, Backend) and type(backend) is cls
        assert backend.name == kind and backend.target == resolve(name)
        assert backend.loop_pipeline == loop_pipeline
    assert isinstance(for_target(cpu_model("haswell")), ObjectBackend)


def test_cuda_target_keeps_its_device_index(two_gpus):
    """``target`` names the device compiled for, "cuda:N" ("cuda" is device 0)."""
    assert compiler.compile(affine, "f32[?], f32", target="cuda:1").target == "cuda:1"
    assert compiler.compile(affine, "f32[?], f32", target="cuda").target == "cuda:0"
    with compiler.device("cuda:1"):
        cf = compiler.compile(affine, "f32[?], f32")
    assert cf.target == "cuda:1" and cf.compiled.native.target.device == 1
    assert cf.compiled.native.target.arch.startswith("sm_") and ".entry" in cf.ptx
    f = compiler.function(affine, target="cuda:1")
    assert f.get_concrete_function(compiler.TensorSpec([None], "float32"),
                                   np.float32(2.0)).target == "cuda:1"


def test_backend_timings():
    x = "f64[?], f64"
    assert {"llvm-ir", "llvm-opt", "machine-code"} <= compiler.compile(affine, x).timings.keys()
    for target in ("x86-64-v2", "cuda"):
        timings = compiler.compile(affine, x, target=target).timings
        assert list(timings) == ["frontend", "optimized", "loops", "llvm"]


# the stage runner ------------------------------------------------------------------------------

def test_stages_in_order():
    assert STAGE_NAMES == ("frontend", "optimized", "loops", "llvm")
    assert IR_STAGES == ("frontend", "optimized", "loops")


def test_run_from_any_stage():
    """``Run.through`` takes the stages from one of them on, as ``grafo translate`` does with
    IR text; a compilation's stage texts are what ``stage_module`` shows."""
    from compiler import types as T
    from compiler.ir.printer import print_op
    args = [T.TensorType((None,), T.f64), T.f64]
    tensor = frontend_ir(affine, args)
    loops = Run(JITBackend()).through(tensor, "optimized", "loops")
    assert isinstance(loops.functions()[0].body.args[0].type, T.MemRefType)
    native = Run(JITBackend()).through(loops, "llvm")
    assert "define" in native.llvm_ir
    cf = compiler.compile(affine, "f64[?], f64")
    for stage in IR_STAGES:
        assert print_op(stage_module(affine, args, stage)) == cf.ir_stages[stage]
    with pytest.raises(ValueError, match="unknown stage 'llvm-ir'"):
        Run(JITBackend()).through(tensor, "llvm-ir")
    with pytest.raises(ValueError, match="unknown stage 'llvm'"):
        stage_module(affine, args, "llvm")


def test_the_pipeline_records_what_it_learns():
    cf = compiler.compile(scale_into, "f64[?], f64[?]")
    assert cf.compiled.written == [0] and cf.written == [0] and cf.compiled.variables == []
    out = np.zeros(3)
    cf(out, np.arange(3.0))
    np.testing.assert_array_equal(out, [0.0, 2.0, 4.0])
    counted = compiler.compile(count, "f64[?]")
    assert counted.compiled.variables == [COUNTER] and counted.variables == [COUNTER]
    assert counted.compiled.written == [1] and counted.written == []   # the hidden argument
    assert counted.compiled.target is host()


def test_targets_and_backend_selection_import_no_llvm():
    import subprocess
    import sys
    code = ("import sys, compiler, compiler.backend, compiler.targets\n"
            "from compiler.targets import resolve\n"
            "resolve('cuda:1'); resolve('x86-64-v3')\n"
            "print(sorted(m for m in sys.modules if m.startswith('llvmlite')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    assert out.strip() == "[]"
