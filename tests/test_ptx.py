"""The CUDA back end without a GPU: PTX text of the standard kernels, assembled by ptxas when
it is present."""

import numpy as np
import pytest

import compiler
from compiler.backend.ptx.target import arch, assemble, ptxas_path
from compiler.interpreter import Interpreter


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
    kinds = [k.kind for k in cf.compiled.native.kernels]
    assert kind in kinds
    assert ".entry" in cf.ptx and "ld.global" in cf.ptx
    assert cf.target == "cuda:0"
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
    assert [k.kind for k in cf.compiled.native.kernels] == ["matmul"]
    ptx = cf.ptx
    assert ".shared" in ptx and "bar.sync" in ptx and "ld.shared" in ptx
    if ptxas_path() is not None:
        assert assemble(ptx, "sm_90")


def mm_views(a, b):
    return a.T @ (b + 1)


def test_matmul_operands_with_arithmetic_are_computed_first():
    cf = compiler.compile(mm_views, "f32[?,?], f32[?,?]", target="cuda")
    assert [k.kind for k in cf.compiled.native.kernels][-1] == "matmul"


def test_bool_and_vector_matmul_keep_the_loop_kernels():
    for sig in ("bool[?,?], bool[?,?]", "f32[?], f32[?,?]"):
        cf = compiler.compile(mm, sig, target="cuda")
        assert "matmul" not in [k.kind for k in cf.compiled.native.kernels]


@pytest.mark.parametrize("sig,shapes,dtype", [
    ("f32[?,?], f32[?,?]", [(37, 21), (21, 18)], np.float32),
    ("i64[?,2,?,?], i64[2,?,?]", [(3, 2, 5, 4), (2, 4, 6)], np.int64),
    ("i8[?,?], i8[?,?]", [(9, 40), (40, 3)], np.int8)])
def test_matmul_loop_nest_semantics(sig, shapes, dtype):
    """The loop nest the tiled kernel implements, run by the loop-level interpreter (the
    kernel accumulates in the same k order)."""
    rng = np.random.default_rng(1)
    a, b = (rng.integers(-9, 9, s).astype(dtype) for s in shapes)
    loops = compiler.compile(mm, sig, target="cuda").compiled.modules["loops"]
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
    errors = cf.compiled.native.errors
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
    with pytest.raises(RuntimeError, match="no CUDA (driver|device)"):
        cf(np.ones(3, np.float32), np.ones(3, np.float32))


def row_sum(x):
    return np.sum(x, axis=-1)


def row_max(x):
    return np.max(x, axis=1, keepdims=True)


def row_min(x):
    return np.min(x, axis=-1)


def row_any(x):
    return np.any(x, axis=-1)


def row_prod(x):
    return np.prod(x, axis=-1)


def trailing_sum(x):
    return np.sum(x * x, axis=(1, 2))


def row_mean(x):
    return np.mean(x, axis=-1, keepdims=True)


ROWS = [(row_sum, "f32[?,?]"), (row_sum, "f64[?,?,?]"), (row_sum, "i32[?,?]"),
        (row_max, "f64[?,?]"), (row_max, "f32[7,300]"), (row_min, "i16[?,?]"),
        (row_any, "bool[?,?]"), (row_prod, "i64[?,?]"), (trailing_sum, "f32[?,?,?]"),
        (row_mean, "f32[?,?]")]


@pytest.mark.parametrize("fn,sig", ROWS, ids=[f"{f.__name__}-{s}" for f, s in ROWS])
def test_row_reductions_are_block_reductions(fn, sig):
    """One ``rows`` kernel: the threads of a row combine by warp shuffles and shared memory."""
    cf = compiler.compile(fn, sig, target="cuda")
    assert "rows" in [k.kind for k in cf.compiled.native.kernels]
    ptx = cf.ptx
    assert "shfl.sync.bfly" in ptx and "st.shared" in ptx and "ld.shared" in ptx
    assert "bar.sync" in ptx and "%tid.y" in ptx and "%ntid.x" in ptx
    if ptxas_path() is None:
        pytest.skip("ptxas not found (scripts/install-test-deps.sh installs it)")
    for sm in ("sm_80", "sm_90"):
        assert assemble(ptx, sm)


def test_softmax_uses_row_reductions():
    kinds = [k.kind for k in compiler.compile(softmax, "f32[?,?]",
                                              target="cuda").compiled.native.kernels]
    assert kinds.count("rows") == 2 and "reduce" not in kinds


def _reduced_loop(fn, sig, kind):
    """The loop a ``kind`` kernel of ``fn`` splits among threads."""
    cf = compiler.compile(fn, sig, target="cuda")
    (k,) = [k for k in cf.compiled.native.kernels if k.kind == kind]
    return k.op if kind == "reduce" else k.row_loop


@pytest.mark.parametrize("fn,sig,kind", [(total, "f32[?]", "reduce"),
                                         (total, "f64[300000]", "reduce"),
                                         (row_sum, "f32[?,?]", "rows"),
                                         (row_max, "f32[?,?]", "rows")])
def test_threads_read_consecutive_elements(fn, sig, kind):
    """The loop the threads share steps by one element of a contiguous axis, so thread t of
    a group reads element start + t at each step (coalesced)."""
    loop = _reduced_loop(fn, sig, kind)
    step = loop.operands[2].owner_op()
    assert step.name == "arith.constant" and step.attr("value") == 1
    loads = [o for o in loop.walk() if o.name == "memref.load"]
    assert loads and all(o.operands[-1] is loop.body.args[0] for o in loads)


def _run(fn, sig, *args):
    """``fn`` run by the loop-level interpreter on the CUDA target's loop nest."""
    loops = compiler.compile(fn, sig, target="cuda").compiled.modules["loops"]
    (out,) = Interpreter(loops).call(fn.__name__, *args)
    return out


def test_row_reduction_nest_matches_numpy_special_values():
    nan, inf = np.nan, np.inf
    x = np.array([[1.0, nan, 3.0, -inf], [-0.0, 0.0, -0.0, 0.0], [inf, 1.0, -inf, 2.0],
                  [-0.0, -0.0, -0.0, -0.0], [5.0, -7.5, 2.0, 1e300]])
    for fn in (row_max, row_min, row_sum, row_mean):
        with np.errstate(invalid="ignore"):
            want = fn(x)
        got = _run(fn, "f64[?,?]", x)
        np.testing.assert_array_equal(got, want)
        nonzero = want != 0
        assert np.array_equal(np.signbit(got)[nonzero], np.signbit(want)[nonzero])
    # sums start from +0.0: rows of zeros (all -0.0 included) sum to +0.0
    assert not np.signbit(_run(row_sum, "f64[?,?]", x)[[1, 3]]).any()
    np.testing.assert_array_equal(np.signbit(_run(row_max, "f64[?,?]", x[1:2]))[0], [False])
    np.testing.assert_array_equal(np.signbit(_run(row_min, "f64[?,?]", x[1:2])), [True])


def test_row_reduction_nest_integers_bools_and_empty_rows():
    rng = np.random.default_rng(3)
    a = rng.integers(-2**31, 2**31 - 1, (6, 50), dtype=np.int64).astype(np.int32)
    np.testing.assert_array_equal(_run(row_sum, "i32[?,?]", a), row_sum(a))
    s = rng.integers(-300, 300, (4, 9)).astype(np.int16)
    np.testing.assert_array_equal(_run(row_min, "i16[?,?]", s), row_min(s))
    p = rng.integers(-3, 4, (5, 40)).astype(np.int64)
    np.testing.assert_array_equal(_run(row_prod, "i64[?,?]", p), row_prod(p))
    b = rng.random((6, 33)) < 0.02
    np.testing.assert_array_equal(_run(row_any, "bool[?,?]", b), row_any(b))
    t = rng.random((3, 4, 5), np.float32)
    np.testing.assert_allclose(_run(trailing_sum, "f32[?,?,?]", t), trailing_sum(t), rtol=1e-6)
    empty = np.zeros((3, 0))
    np.testing.assert_array_equal(_run(row_sum, "f64[?,?]", empty), np.zeros(3))
    with pytest.raises(ValueError, match="zero-size array to reduction operation maximum"):
        _run(row_max, "f64[?,?]", empty)


def test_row_sum_nest_is_at_least_as_accurate_as_numpy():
    """float32 rows with mixed magnitudes and signs: the error against the exact sum is at
    most NumPy's (pairwise) error plus one rounding of the result."""
    import math
    rng = np.random.default_rng(5)
    x = (rng.standard_normal((4, 100_000)) * 10.0 ** rng.integers(-3, 4, (4, 100_000))
         ).astype(np.float32)
    got = _run(row_sum, "f32[?,?]", x)
    for row, g, n in zip(x, got, row_sum(x), strict=True):
        exact = math.fsum(row.astype(np.float64))
        ulp = float(np.spacing(np.float32(abs(exact))))
        assert abs(float(g) - exact) <= abs(float(n) - exact) + ulp


def test_row_launch_shape():
    from compiler.backend.ptx.rows import ROW_BLOCK, WARP_ROW, launch_shape
    assert launch_shape(1000, WARP_ROW, 4096) == ((125, 1, 1), (32, ROW_BLOCK // 32, 1))
    assert launch_shape(1000, WARP_ROW + 1, 4096) == ((1000, 1, 1), (ROW_BLOCK, 1, 1))
    assert launch_shape(10**6, None, 4096) == ((4096, 1, 1), (ROW_BLOCK, 1, 1))
    assert launch_shape(3, 5, 4096) == ((1, 1, 1), (32, ROW_BLOCK // 32, 1))
