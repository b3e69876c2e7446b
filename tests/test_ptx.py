"""The CUDA back end without a GPU: PTX text of the standard kernels, assembled by ptxas when
it is present."""

import numpy as np
import pytest

import compiler
from compiler.backend.ptx.target import arch, assemble, ptxas_path
from compiler.ir.interpreter import Interpreter


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
         (softmax, "f32[?,?]", "parallel"), (mm, "f32[?,?], f32[?,?]", "matmul"),
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


MATMULS = ["f32[?,?], f32[?,?]", "f64[3,?,?], f64[?,?]", "i32[?,3,?,?], i32[3,?,?]",
           "i8[?,?], i8[?,?]", "u16[5,7], u16[7,?]"]


@pytest.mark.parametrize("sig", MATMULS)
def test_matmul_is_one_tiled_kernel(sig):
    cf = compiler.compile(mm, sig, target="cuda")
    assert [k.kind for k in cf._compiled.native.kernels] == ["matmul"]
    ptx = cf.ptx
    assert ".shared" in ptx and "bar.sync" in ptx and "ld.shared" in ptx
    if ptxas_path() is not None:
        assert assemble(ptx, "sm_90")


def mm_views(a, b):
    return a.T @ (b + 1)


def test_matmul_operands_with_arithmetic_are_computed_first():
    cf = compiler.compile(mm_views, "f32[?,?], f32[?,?]", target="cuda")
    assert [k.kind for k in cf._compiled.native.kernels][-1] == "matmul"


def test_bool_and_vector_matmul_keep_the_loop_kernels():
    for sig in ("bool[?,?], bool[?,?]", "f32[?], f32[?,?]"):
        cf = compiler.compile(mm, sig, target="cuda")
        assert "matmul" not in [k.kind for k in cf._compiled.native.kernels]


@pytest.mark.parametrize("sig,shapes,dtype", [
    ("f32[?,?], f32[?,?]", [(37, 21), (21, 18)], np.float32),
    ("i64[?,2,?,?], i64[2,?,?]", [(3, 2, 5, 4), (2, 4, 6)], np.int64),
    ("i8[?,?], i8[?,?]", [(9, 40), (40, 3)], np.int8)])
def test_matmul_loop_nest_semantics(sig, shapes, dtype):
    """The loop nest the tiled kernel implements, run by the loop-level interpreter (the
    kernel accumulates in the same k order)."""
    rng = np.random.default_rng(1)
    a, b = (rng.integers(-9, 9, s).astype(dtype) for s in shapes)
    loops = compiler.compile(mm, sig, target="cuda")._compiled.modules["loops"]
    (got,) = Interpreter(loops).call("mm", a, b)
    want = a @ b
    if want.dtype.kind == "f":
        np.testing.assert_allclose(got, want, rtol=1e-6)
    else:
        np.testing.assert_array_equal(got.view(want.dtype), want)


def checked(a, i):
    return a[i] * 2.0


def test_errors_carry_the_source_location():
    from runtime.cuda.launcher import status_error
    cf = compiler.compile(checked, "f32[?], i64", target="cuda")
    errors = cf._compiled.native.errors
    assert errors and all(loc[0].endswith("test_ptx.py") and loc[1] > 0
                          for _, _, loc in errors)
    kind, _, _ = errors[0]
    e = status_error(errors, 1, [7, 3, 0, 0])
    assert type(e).__name__ == kind
    assert "test_ptx.py" in str(e) and "a[i] * 2.0" in str(e)


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
