"""The CUDA back end without a GPU: PTX text of the standard kernels, assembled by ptxas when
it is present."""

import numpy as np
import pytest

import compiler
from compiler.backend.ptx.target import arch, assemble, ptxas_path


def ew(a, b):
    return np.exp(a) * b + 1.0


def total(a):
    return np.sum(a * a)


def softmax(x):
    e = np.exp(x - np.max(x, axis=1, keepdims=True))
    return e / np.sum(e, axis=1, keepdims=True)


def mm(a, b):
    return a @ b


def stencil(u):
    return 0.25 * (u[:-2, 1:-1] + u[2:, 1:-1] + u[1:-1, :-2] + u[1:-1, 2:])


def mandel(cr, ci):
    out = np.zeros(cr.shape, np.int32)
    for i in range(cr.shape[0]):
        zr = 0.0
        zi = 0.0
        n = 0
        while n < 50 and zr * zr + zi * zi < 4.0:
            zr, zi = zr * zr - zi * zi + cr[i], 2 * zr * zi + ci[i]
            n += 1
        out[i] = n
    return out


CASES = [(ew, "f32[?], f32[?]", "parallel"), (total, "f32[?]", "reduce"),
         (softmax, "f32[?,?]", "parallel"), (mm, "f32[?,?], f32[?,?]", "parallel"),
         (stencil, "f64[?,?]", "parallel"), (mandel, "f32[?], f32[?]", "parallel")]


@pytest.mark.parametrize("fn,sig,kind", CASES, ids=[c[0].__name__ for c in CASES])
def test_kernels_ptx(fn, sig, kind):
    cf = compiler.compile(fn, sig, target="cuda")
    kinds = [k.kind for k in cf._compiled.native.kernels]
    assert kind in kinds
    assert ".entry" in cf.ptx and "ld.global" in cf.ptx
    assert cf.target == "cuda"
    if ptxas_path() is None:
        pytest.skip("ptxas not found (scripts/install-test-deps.sh installs it)")
    assert assemble(cf.ptx, "sm_80")


def test_reduction_uses_shared_memory_and_shuffles():
    ptx = compiler.compile(total, "f32[?]", target="cuda").ptx
    assert "st.shared" in ptx and "shfl.sync" in ptx and "bar.sync" in ptx


def test_device_context_and_decorator():
    with compiler.device("cuda:0"):
        assert compiler.current_device() == "cuda:0"
        cf = compiler.compile(ew, "f32[?], f32[?]")
    assert compiler.current_device() == "cpu"
    assert ".entry" in cf.ptx
    f = compiler.function(target="cuda")(ew)
    assert ".entry" in f.get_concrete_function(compiler.TensorSpec((None,), "float32"),
                                               compiler.TensorSpec((None,), "float32")).ptx


def test_arch_names():
    assert arch("90") == arch("sm_90") == arch("9.0") == "sm_90"
    with pytest.raises(ValueError):
        arch("volta")


def test_call_without_gpu_is_a_clear_error():
    import runtime.cuda as rc
    if rc.available():
        pytest.skip("a GPU is present")
    cf = compiler.compile(ew, "f32[?], f32[?]", target="cuda")
    with pytest.raises(RuntimeError, match="no CUDA device"):
        cf(np.ones(3, np.float32), np.ones(3, np.float32))
