"""Matrix products by NumPy's BLAS (``lowering/blas.py``) against NumPy: every layout BLAS
reads in place (rows, transposes, column and row slices) and those copied first (negative and
zero strides), float32 and float64, empty and zero-size dims, depth 0, batched and broadcast
stacks, vectors on either side, chains of products; the artifact's record of the library."""

import json
import zipfile

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import compiler
from compiler.lowering.blas import GEMM_MIN_FLOPS, GEMV_MIN_ELEMENTS

SETTINGS = settings(max_examples=40, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
RTOL = {np.float32: 2e-5, np.float64: 1e-12}


def mm(a, b):
    return a @ b


def dot(a, b):
    return np.dot(a, b)


def matmul(a, b):
    return np.matmul(a, b)


def chain(alpha, a, b, c, beta, d):
    return alpha * a @ b @ c + beta * d


def normal_equations(a, x):
    return a.T @ (a @ x)


_COMPILED: dict = {}


def compiled(fn, sig):
    if (fn, sig) not in _COMPILED:
        _COMPILED[fn, sig] = compiler.compile(fn, sig)
    return _COMPILED[fn, sig]


def _check(got, want):
    """NumPy's dtype and shape; values within the dtype's rounding of a length-k sum."""
    got = np.asarray(got)
    assert got.dtype == want.dtype and got.shape == want.shape
    scale = max(float(np.abs(want).max(initial=0.0)), 1.0)
    np.testing.assert_allclose(got, want, rtol=RTOL[want.dtype.type] * 50,
                               atol=RTOL[want.dtype.type] * 50 * scale)


def _layout(rng, shape, dt, kind):
    """An array of ``shape`` laid out as ``kind``: rows, a transpose, a slice of every other
    column, reversed rows, or a zero-stride (broadcast) view."""
    if kind == "rows":
        return rng.standard_normal(shape).astype(dt)
    if kind == "transposed":
        return rng.standard_normal(shape[:-2] + shape[-2:][::-1]).astype(dt).swapaxes(-1, -2)
    if kind == "columns":
        return rng.standard_normal(shape[:-1] + (2 * shape[-1] + 1,)).astype(dt)[..., 1::2]
    if kind == "reversed":
        return rng.standard_normal(shape).astype(dt)[..., ::-1, :]
    return np.broadcast_to(rng.standard_normal(shape[:-2] + (1, shape[-1])).astype(dt), shape)


KINDS = ["rows", "transposed", "columns", "reversed", "broadcast"]


def test_large_products_call_blas_and_small_ones_do_not():
    loops = compiler.compile(mm, "f64[?,?], f64[?,?]").ir_stages["loops"]
    assert '"blas.gemm"' in loops and "math.fma" in loops   # a run-time choice of the two
    assert '"blas.gemv"' in compiler.compile(mm, "f32[?,?], f32[?]").ir_stages["loops"]
    assert '"blas.gemv"' in compiler.compile(mm, "f32[?], f32[?,?]").ir_stages["loops"]
    assert "\"blas." not in compiler.compile(mm, "f64[8,8], f64[8,8]").ir_stages["loops"]
    assert "\"blas." not in compiler.compile(mm, "i64[?,?], i64[?,?]").ir_stages["loops"]
    big = compiler.compile(mm, "f64[64,64], f64[64,64]").ir_stages["loops"]
    assert '"blas.gemm"' in big and "math.fma" not in big
    assert 64 ** 3 >= GEMM_MIN_FLOPS > 8 ** 3


@SETTINGS
@given(st.sampled_from([np.float32, np.float64]), st.integers(0, 90), st.integers(0, 90),
       st.integers(0, 90), st.sampled_from(KINDS), st.sampled_from(KINDS),
       st.sampled_from([mm, dot, matmul]), st.integers(0, 2**32 - 1))
def test_matrix_products_match_numpy(dt, m, k, n, kind_a, kind_b, fn, seed):
    rng = np.random.default_rng(seed)
    a, b = _layout(rng, (m, k), dt, kind_a), _layout(rng, (k, n), dt, kind_b)
    name = np.dtype(dt).name
    _check(compiled(fn, f"{name}[?,?], {name}[?,?]")(a, b), fn(a, b))


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("kind_a", KINDS)
@pytest.mark.parametrize("kind_b", KINDS)
def test_large_layouts(dt, kind_a, kind_b):
    """Above the threshold for every pair of layouts (and static shapes)."""
    rng = np.random.default_rng(1)
    a, b = _layout(rng, (130, 97), dt, kind_a), _layout(rng, (97, 150), dt, kind_b)
    name = np.dtype(dt).name
    _check(compiled(mm, f"{name}[?,?], {name}[?,?]")(a, b), a @ b)
    _check(compiled(mm, f"{name}[130,97], {name}[97,150]")(a, b), a @ b)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape_a, shape_b", [((0, 300), (300, 400)), ((300, 0), (0, 400)),
                                              ((300, 400), (400, 0)), ((0, 0), (0, 0))])
def test_zero_size_dims_and_depth_zero(dt, shape_a, shape_b):
    """Depth 0 gives zeros, also in a recycled buffer that held other values."""
    cf = compiled(mm, f"{np.dtype(dt).name}[?,?], {np.dtype(dt).name}[?,?]")
    del_me = cf(np.full((300, 400), 7.0, dt), np.eye(400, dtype=dt))
    del del_me
    a, b = np.ones(shape_a, dt), np.ones(shape_b, dt)
    got = cf(a, b)
    np.testing.assert_array_equal(got, a @ b)
    assert got.dtype == dt


@SETTINGS
@given(st.sampled_from([np.float32, np.float64]), st.integers(0, 300), st.integers(0, 300),
       st.sampled_from(KINDS), st.sampled_from(["unit", "strided", "reversed"]),
       st.booleans(), st.integers(0, 2**32 - 1))
def test_matrix_vector_products_match_numpy(dt, m, k, kind, vec, left, seed):
    rng = np.random.default_rng(seed)
    a = _layout(rng, (m, k), dt, kind)
    n = m if left else k
    x = {"unit": lambda: rng.standard_normal(n),
         "strided": lambda: rng.standard_normal(3 * n)[::3],
         "reversed": lambda: rng.standard_normal(n)[::-1]}[vec]().astype(dt)
    name = np.dtype(dt).name
    if left:
        _check(compiled(mm, f"{name}[?], {name}[?,?]")(x, a), x @ a)
    else:
        _check(compiled(mm, f"{name}[?,?], {name}[?]")(a, x), a @ x)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_column_and_row_slices_in_loops(dt):
    """``data[:, i] @ data[:, i:]`` and ``L[i, :i] @ x[:i]`` (triangular solve) above and below
    the gemv threshold."""
    def columns(data):
        out = np.zeros(data.shape[1], data.dtype)
        for i in range(data.shape[1]):
            out[i] = np.sum(data[:, i] @ data[:, i:])
        return out

    def forward(lower, b):
        x = np.zeros_like(b)
        for i in range(b.shape[0]):
            x[i] = (b[i] - lower[i, :i] @ x[:i]) / lower[i, i]
        return x
    rng = np.random.default_rng(2)
    for n in (30, 200):
        data = rng.standard_normal((n, n)).astype(dt)
        _check(compiler.function(columns)(data), columns(data))
        lower = (np.tril(rng.standard_normal((n, n))) + n * np.eye(n)).astype(dt)
        b = rng.standard_normal(n).astype(dt)
        _check(compiler.function(forward)(lower, b), forward(lower, b))
    assert n * n >= GEMV_MIN_ELEMENTS


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_batched_and_broadcast_stacks(dt):
    rng = np.random.default_rng(3)
    f = compiler.function(mm, reduce_retracing=True)
    a = rng.standard_normal((3, 60, 70)).astype(dt)
    b = rng.standard_normal((3, 70, 80)).astype(dt)
    for x, y in [(a, b), (a, b[0]), (a[0], b), (a[:1], b), (a.swapaxes(1, 2)[:, :60, :60],
                                                            b[:, 69:9:-1, :60]),
                 (rng.standard_normal((2, 1, 50, 60)).astype(dt), b[:, :60]),
                 (a, b[0, :, 0]), (a[0, 0], b), (a[:, :0], b[:, :, :0])]:
        _check(f(x, y), x @ y)


def test_chains_with_scalar_factors():
    rng = np.random.default_rng(4)
    a, b, c, d = (rng.standard_normal((120, 120)) for _ in range(4))
    _check(compiler.function(chain)(1.5, a, b, c, -0.5, d), chain(1.5, a, b, c, -0.5, d))
    x = rng.standard_normal(120)
    _check(compiler.function(normal_equations)(a, x), normal_equations(a, x))


def test_core_dimension_mismatch_is_numpys_error():
    cf = compiled(mm, "f64[?,?], f64[?,?]")
    with pytest.raises(ValueError, match="matmul: Input operand 1 has a mismatch in its core "
                                         "dimension 0"):
        cf(np.ones((100, 100)), np.ones((99, 100)))
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        compiled(mm, "f64[?,?], f64[?]")(np.ones((200, 200)), np.ones(199))


def test_results_do_not_depend_on_thread_count():
    rng = np.random.default_rng(5)
    a, b = rng.standard_normal((300, 200)), rng.standard_normal((200, 250))
    cf = compiled(mm, "f64[?,?], f64[?,?]")
    want = cf(a, b)
    saved = compiler.get_num_threads()
    compiler.set_num_threads(1)
    try:
        got = cf(a, b)
    finally:
        compiler.set_num_threads(saved)
    np.testing.assert_array_equal(got, want)


def test_calls_stay_out_of_parallel_loops():
    """A loop whose body calls BLAS runs serially (BLAS's own threads run each call)."""
    def rows(a, b):
        out = np.zeros((a.shape[0], b.shape[1]))
        for i in range(a.shape[0]):
            out[i] = a[i] @ b
        return out
    from compiler import types as T
    from compiler.dialects import blas, scf
    from compiler.pipeline.stages import stage_module
    module = stage_module(rows, [T.TensorType((None, None), T.f64)] * 2, "loops")
    calls = [op for op in module.walk() if isinstance(op, blas.GemvOp)]
    assert calls
    for op in calls:
        loop = op.parent_op()
        while loop is not None:
            assert not (isinstance(loop, scf.ForOp) and scf.PARALLEL in loop.attributes)
            loop = loop.parent_op()
    cf = compiler.compile(rows, "f64[?,?], f64[?,?]")
    rng = np.random.default_rng(6)
    a, b = rng.standard_normal((50, 300)), rng.standard_normal((300, 200))
    _check(cf(a, b), rows(a, b))


def test_interpreter_runs_the_same_blas_calls():
    """The loop-level interpreter (the lowering's oracle) calls the same routine."""
    from compiler import types as T
    from compiler.interpreter import Interpreter
    from compiler.pipeline.stages import stage_module
    rng = np.random.default_rng(7)
    a, b = rng.standard_normal((70, 60)), rng.standard_normal((60, 50))
    module = stage_module(mm, [T.TensorType((70, 60), T.f64), T.TensorType((60, 50), T.f64)],
                          "loops")
    (got,) = Interpreter(module).call("mm", a, b)
    np.testing.assert_array_equal(np.asarray(got), compiled(mm, "f64[70,60], f64[60,50]")(a, b))


def test_artifact_records_blas_and_refuses_without_it(tmp_path, monkeypatch):
    import runtime
    from runtime import artifact
    from runtime import lapack as runtime_lapack
    path = tmp_path / "mm.grafo"
    cf = compiler.compile(mm, "f32[?,?], f32[?,?]")
    cf.save(path)
    with zipfile.ZipFile(path) as z:
        manifest = json.loads(z.read("manifest.json"))
        header = z.read("include/grafo.h").decode()
    (dep,) = manifest["libraries"]
    assert dep == {"name": "numpy-blas", "pattern": "libscipy_openblas64_*.so",
                   "symbols": ["scipy_cblas_sgemm64_"]}
    assert "BLAS routines of NumPy's OpenBLAS (scipy_cblas_sgemm64_)" in header
    rng = np.random.default_rng(8)
    a, b = rng.standard_normal((100, 90)).astype(np.float32), \
        rng.standard_normal((90, 80)).astype(np.float32)
    _check(runtime.load(path)(a, b), a @ b)
    monkeypatch.setattr(runtime_lapack, "open_library", lambda: None)
    monkeypatch.setattr(runtime_lapack, "library_path", lambda: None)
    with pytest.raises(artifact.MissingLibraryError,
                       match="scipy_cblas_sgemm64_ of NumPy's BLAS"):
        runtime.load(path)


def test_compiling_without_the_library_is_a_clean_error(monkeypatch):
    from compiler.backend.llvm import lapack as backend_lapack
    from runtime import lapack as runtime_lapack
    monkeypatch.setattr(backend_lapack, "library_path", lambda: None)
    monkeypatch.setattr(runtime_lapack, "library_path", lambda: None)
    with pytest.raises(compiler.CompileError, match="OpenBLAS library of NumPy's wheel"):
        compiler.compile(mm, "f64[200,200], f64[200,200]")
