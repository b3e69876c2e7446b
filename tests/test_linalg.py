"""np.linalg against NumPy: the functions that run a LAPACK routine give NumPy's bits (the
same routine of the same library runs on the same column-major copy); the others (pinv,
matrix_power, norm) NumPy's values within rounding. Errors: NumPy's LinAlgError at run time,
shape errors at compile time."""

import numpy as np
import pytest
from conftest import assert_same
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import compiler
from compiler import types as T
from compiler.interpreter import Interpreter
from compiler.pipeline.stages import stage_module

SETTINGS = settings(max_examples=25, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])


def assert_bits(got, want):
    """Same Python type (tuples item by item), dtype, shape and bit patterns."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            assert_bits(g, w)
        return
    assert type(got) is type(want), (type(got), type(want))
    g, w = np.asarray(got), np.asarray(want)
    assert (g.dtype, g.shape) == (w.dtype, w.shape)
    assert g.tobytes() == w.tobytes() or np.array_equal(g, w, equal_nan=True), (g, w)


def det(a):
    return np.linalg.det(a)


def slogdet(a):
    return np.linalg.slogdet(a)


def inv(a):
    return np.linalg.inv(a)


def solve(a, b):
    return np.linalg.solve(a, b)


def cholesky(a):
    return np.linalg.cholesky(a)


def cholesky_upper(a):
    return np.linalg.cholesky(a, upper=True)


def eigh(a):
    return np.linalg.eigh(a)


def eigh_upper(a):
    return np.linalg.eigh(a, UPLO="U")


def eigvalsh(a):
    return np.linalg.eigvalsh(a)


def svd(a):
    return np.linalg.svd(a)


def svd_reduced(a):
    return np.linalg.svd(a, full_matrices=False)


def svd_values(a):
    return np.linalg.svd(a, compute_uv=False)


def qr(a):
    return np.linalg.qr(a)


def qr_r(a):
    return np.linalg.qr(a, mode="r")


def qr_complete(a):
    return np.linalg.qr(a, mode="complete")


SQUARE = [det, slogdet, inv, eigh, eigh_upper, eigvalsh]
ANY_SHAPE = [svd, svd_reduced, svd_values, qr, qr_r]
DTYPES = [np.float64, np.float32, np.int64]

_compiled = {}


def compiled(fn, sig):
    """One specialization for dynamic dims, reused by every example."""
    key = (fn, sig)
    if key not in _compiled:
        _compiled[key] = compiler.compile(fn, sig)
    return _compiled[key]


def _sig(dtype, rank):
    name = {np.float64: "f64", np.float32: "f32", np.int64: "i64"}[dtype]
    return f"{name}[{','.join('?' * rank)}]"


def _matrix(rng, shape, dtype):
    if dtype == np.int64:
        return rng.integers(-5, 6, size=shape).astype(np.int64)
    return rng.standard_normal(shape).astype(dtype)


def _call_both(fn, sig, *args):
    try:
        want = ("ok", fn(*args))
    except np.linalg.LinAlgError as e:
        want = ("raised", str(e))
    try:
        got = ("ok", compiled(fn, sig)(*args))
    except np.linalg.LinAlgError as e:
        got = ("raised", str(e).splitlines()[0])
    assert got[0] == want[0], (got, want)
    if want[0] == "ok":
        assert_bits(got[1], want[1])
    else:
        assert got[1] == want[1]


@SETTINGS
@given(st.sampled_from(SQUARE), st.sampled_from(DTYPES), st.integers(0, 8),
       st.lists(st.integers(0, 3), max_size=2), st.integers(0, 2**32 - 1))
def test_square_functions_give_numpys_bits(fn, dtype, n, batch, seed):
    a = _matrix(np.random.default_rng(seed), (*batch, n, n), dtype)
    if fn in (eigh, eigh_upper, eigvalsh):
        a = a + np.swapaxes(a, -1, -2) * (seed % 2)   # symmetric half the time
    _call_both(fn, _sig(dtype, a.ndim), a)


@SETTINGS
@given(st.sampled_from(ANY_SHAPE + [qr_complete]), st.sampled_from(DTYPES),
       st.integers(0, 8), st.integers(0, 8), st.lists(st.integers(0, 2), max_size=1),
       st.integers(0, 2**32 - 1))
def test_rectangular_functions_give_numpys_bits(fn, dtype, m, n, batch, seed):
    a = _matrix(np.random.default_rng(seed), (*batch, m, n), dtype)
    if fn is qr_complete:   # q's shape follows the static dims
        _call_both(fn, _sig(dtype, 0)[:3] + str(list(a.shape)).replace(" ", ""), a)
    else:
        _call_both(fn, _sig(dtype, a.ndim), a)


@SETTINGS
@given(st.sampled_from(DTYPES), st.sampled_from(DTYPES), st.integers(0, 8),
       st.integers(0, 3), st.booleans(), st.integers(0, 2**32 - 1))
def test_solve_gives_numpys_bits(da, db, n, k, vector, seed):
    rng = np.random.default_rng(seed)
    a = _matrix(rng, (n, n), da)
    b = _matrix(rng, (n,) if vector else (n, k), db)
    _call_both(solve, f"{_sig(da, 2)}, {_sig(db, b.ndim)}", a, b)


@SETTINGS
@given(st.sampled_from([cholesky, cholesky_upper]), st.sampled_from(DTYPES),
       st.integers(0, 8), st.lists(st.integers(0, 3), max_size=1), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_cholesky_gives_numpys_bits(fn, dtype, n, batch, definite, seed):
    x = _matrix(np.random.default_rng(seed), (*batch, n, n), dtype)
    a = x @ np.swapaxes(x, -1, -2) + (n * np.eye(n, dtype=dtype) if definite else 0)
    if not definite and n:
        a[..., 0, 0] = -1   # not positive definite
    _call_both(fn, _sig(dtype, a.ndim), a.astype(dtype))


@pytest.mark.parametrize("fn", [det, slogdet, inv, eigh, svd, qr, cholesky])
def test_transposed_and_strided_inputs(fn):
    rng = np.random.default_rng(7)
    x = rng.standard_normal((12, 10))
    x = x @ x.T + 12 * np.eye(12)
    for view in (x.T, x[::2, ::2], x[::-1, 1::2][:6], np.asfortranarray(x)):
        view = view[:min(view.shape), :min(view.shape)] if fn not in (svd, qr) else view
        _call_both(fn, "f64[?,?]", view)


@pytest.mark.parametrize("value", [np.nan, np.inf])
def test_nan_and_inf_entries(value):
    a = np.eye(3)
    a[1, 2] = value
    for fn in (det, slogdet, inv, solve):
        args = (a, np.ones(3)) if fn is solve else (a,)
        try:
            want = fn(*args)
        except np.linalg.LinAlgError:
            continue
        got = compiler.function(fn)(*args)
        assert_bits(got, want)


def test_singular_matrices_raise_numpys_error():
    singular = np.array([[1.0, 2.0], [2.0, 4.0]])
    for fn, args in ((inv, (singular,)), (solve, (singular, np.ones(2)))):
        with pytest.raises(np.linalg.LinAlgError, match="Singular matrix") as e:
            compiler.function(fn)(*args)
        assert e.traceback[-1].path.name == "test_linalg.py"
    assert compiler.function(det)(singular) == np.linalg.det(singular) == 0.0


def test_stacked_singular_matrix_raises():
    a = np.stack([np.eye(2), np.zeros((2, 2))])
    with pytest.raises(np.linalg.LinAlgError, match="Singular matrix"):
        compiler.function(inv)(a)


def test_not_positive_definite_raises_numpys_error():
    with pytest.raises(np.linalg.LinAlgError, match="Matrix is not positive definite"):
        compiler.function(cholesky)(np.array([[1.0, 2.0], [2.0, 1.0]]))


def test_shape_errors_at_compile_time():
    with pytest.raises(compiler.CompileError, match="Last 2 dimensions of the array must be "
                       "square"):
        compiler.function(inv)(np.ones((2, 3)))
    with pytest.raises(compiler.CompileError, match="1-dimensional array given"):
        compiler.function(det)(np.ones(3))
    with pytest.raises(ValueError, match="mismatch in its core dimension 0"):
        compiler.function(solve)(np.eye(2), np.ones(3))


def test_dynamic_non_square_raises_at_run_time():
    cf = compiler.compile(inv, "f64[?,?]")
    with pytest.raises(np.linalg.LinAlgError, match="Last 2 dimensions of the array must be "
                       "square"):
        cf(np.ones((2, 3)))


def test_solve_broadcasts_stacks():
    rng = np.random.default_rng(3)
    a = rng.standard_normal((2, 1, 3, 3))
    b = rng.standard_normal((4, 3, 2))
    assert_bits(compiler.function(solve)(a, b), np.linalg.solve(a, b))
    b1 = rng.standard_normal(3)
    assert_bits(compiler.function(solve)(a, b1), np.linalg.solve(a, b1))


def pinv(a):
    return np.linalg.pinv(a)


def pinv_rcond(a):
    return np.linalg.pinv(a, rcond=0.5)


@pytest.mark.parametrize("shape", [(3, 3), (5, 2), (2, 5), (2, 4, 3), (0, 3), (3, 0)])
@pytest.mark.parametrize("fn", [pinv, pinv_rcond])
def test_pinv(fn, shape):
    a = np.random.default_rng(5).standard_normal(shape)
    assert_same(compiler.function(fn)(a), fn(a), rtol=1e-12)
    assert_same(compiler.function(fn)(a.astype(np.float32)), fn(a.astype(np.float32)),
                rtol=1e-5)


@pytest.mark.parametrize("n", [0, 1, 2, 3, 5, 8, -1, -3])
def test_matrix_power(n):
    def power(a):
        return np.linalg.matrix_power(a, n)
    rng = np.random.default_rng(11)
    a = rng.standard_normal((2, 3, 3)) + 3 * np.eye(3)
    assert_same(compiler.function(power)(a), power(a), rtol=1e-12)
    if n >= 0:
        ints = rng.integers(-3, 4, size=(3, 3))
        assert_same(compiler.function(power)(ints), power(ints))


def test_matrix_power_needs_an_integer():
    def power(a):
        return np.linalg.matrix_power(a, 1.5)
    with pytest.raises(TypeError, match="exponent must be an integer"):
        compiler.function(power)(np.eye(2))


def test_interpreter_runs_the_same_lapack_calls():
    """The loop-level interpreter (the lowering's oracle) calls the same routines."""
    rng = np.random.default_rng(1)
    a = rng.standard_normal((4, 4))
    for fn in (det, inv, eigvalsh, svd_values):
        module = stage_module(fn, [T.TensorType((4, 4), T.f64)], "loops")
        (got,) = Interpreter(module).call(fn.__name__, a)
        want = fn(a)
        assert np.asarray(got).tobytes() == np.asarray(want).tobytes(), fn.__name__


NORMS = [(None, None), (None, 0), (None, -1), (2, None), (np.inf, 0), (-np.inf, 1), (0, 1),
         (1, 0), (3, 1), (0.5, 0), (-1, 1), (2.5, 0), ("fro", None), ("nuc", None),
         (2, (0, 1)), (-2, (0, 1)), (1, (0, 1)), (-1, (1, 0)), (np.inf, (0, 1)),
         (-np.inf, (1, 0)), (None, (0, 1)), ("fro", (1, 0))]


@pytest.mark.parametrize("ord, axis", NORMS)
@pytest.mark.parametrize("keepdims", [False, True])
def test_norm(ord, axis, keepdims):
    def f(x):
        return np.linalg.norm(x, ord, axis, keepdims)
    x = np.random.default_rng(2).standard_normal((4, 5)) * 3
    x[1, 2] = 0.0
    for a in (x, x.astype(np.float32), np.round(x).astype(np.int64), x.T[::2]):
        with np.errstate(divide="ignore"):
            want = f(a)
        assert_same(compiler.function(f)(a), want, rtol=1e-5 if want.dtype == np.float32
                    else 1e-12)


@pytest.mark.parametrize("ord", [None, 2, 1, np.inf, -np.inf, 0, 3])
def test_vector_norm(ord):
    def f(x):
        return np.linalg.norm(x, ord)
    v = np.array([3.0, -4.0, 0.0, 1.5, np.inf if ord == np.inf else 2.0])
    assert_same(compiler.function(f)(v), f(v), rtol=1e-12)
    empty = np.zeros(0)
    if ord == -np.inf:   # the minimum of nothing
        with pytest.raises(ValueError, match="zero-size array"):
            compiler.function(f)(empty)
    else:
        assert_same(compiler.function(f)(empty), f(empty))


def test_norm_errors():
    def bad_ord(x):
        return np.linalg.norm(x, "fro", 0)

    def bad_axes(x):
        return np.linalg.norm(x, None, (0, 0))
    for fn, msg in ((bad_ord, "Invalid norm order 'fro' for vectors"),
                    (bad_axes, "Duplicate axes given.")):
        with pytest.raises(ValueError, match=msg):
            compiler.function(fn)(np.ones((2, 2)))


def _solve_det(a, b):
    return np.linalg.solve(a, b), np.linalg.det(a)


def test_artifact_records_lapack_and_loads_it_without_the_compiler(tmp_path):
    import json
    import subprocess
    import sys
    import zipfile
    path = tmp_path / "f.grafo"
    compiler.compile(_solve_det, "f64[?,?], f64[?]").save(path)
    with zipfile.ZipFile(path) as z:
        manifest = json.loads(z.read("manifest.json"))
        text = z.read("include/grafo.h").decode()
    (dep,) = manifest["libraries"]
    assert dep["symbols"] == ["scipy_dgesv_64_", "scipy_dgetrf_64_"]
    assert "libscipy_openblas64_*.so" in text and "scipy_dgesv_64_" in text
    code = ("import sys, numpy as np, runtime\n"
            "g = runtime.load(sys.argv[1])\n"
            "a = np.array([[2.0, 1.0], [1.0, 3.0]])\n"
            "x, d = g(a, np.ones(2))\n"
            "assert 'compiler' not in sys.modules and 'llvmlite' not in sys.modules\n"
            "assert x.tobytes() == np.linalg.solve(a, np.ones(2)).tobytes()\n"
            "assert d == np.linalg.det(a)\n"
            "try:\n"
            "    g(np.zeros((2, 2)), np.ones(2))\n"
            "except np.linalg.LinAlgError as e:\n"
            "    print(str(e).splitlines()[0])\n")
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                         text=True, check=True, cwd=tmp_path,
                         env={**__import__("os").environ,
                              "PYTHONPATH": str(__import__("pathlib").Path(__file__)
                                                .parents[1])})
    assert out.stdout == "Singular matrix\n"


def test_artifact_refuses_to_load_without_lapack(tmp_path, monkeypatch):
    import runtime
    from runtime import artifact
    from runtime import lapack as runtime_lapack
    path = tmp_path / "f.grafo"
    compiler.compile(_solve_det, "f64[?,?], f64[?]").save(path)
    monkeypatch.setattr(runtime_lapack, "open_library", lambda: None)
    monkeypatch.setattr(runtime_lapack, "library_path", lambda: None)
    with pytest.raises(artifact.MissingLibraryError, match="scipy_dgesv_64_, scipy_dgetrf_64_ "
                       "of NumPy's LAPACK"):
        runtime.load(path)


def lstsq(a, b):
    return np.linalg.lstsq(a, b)


def lstsq_rcond(a, b):
    return np.linalg.lstsq(a, b, rcond=0.3)


@SETTINGS
@given(st.sampled_from([lstsq, lstsq_rcond]), st.sampled_from(DTYPES), st.integers(0, 8),
       st.integers(0, 8), st.integers(0, 3), st.booleans(), st.booleans(),
       st.integers(0, 2**32 - 1))
def test_lstsq_gives_numpys_bits(fn, dtype, m, n, k, vector, deficient, seed):
    rng = np.random.default_rng(seed)
    a = _matrix(rng, (m, n), dtype)
    if deficient and n > 1:
        a[:, -1] = a[:, 0]   # rank < N: no residuals
    b = _matrix(rng, (m,) if vector else (m, k), dtype)
    _call_both(fn, f"{_sig(dtype, 2)}, {_sig(dtype, b.ndim)}", a, b)


def test_lstsq_errors():
    with pytest.raises(compiler.CompileError, match="Incompatible dimensions"):
        compiler.function(lstsq)(np.ones((3, 2)), np.ones(4))


def test_cuda_target_refuses_lapack_cleanly():
    with pytest.raises(NotImplementedError, match=r"cannot run LAPACK \(lapack.getrf\)"):
        compiler.compile(det, "f64[3,3]", target="cuda")


def _det_loop(a):
    out = np.zeros(a.shape[0])
    for i in range(a.shape[0]):
        out[i] = np.linalg.det(a[i])
    return out


def test_lapack_calls_in_a_parallel_loop():
    """The loop runs on the threads (each iteration has its own work buffers)."""
    a = np.random.default_rng(0).standard_normal((40000, 3, 3))
    cf = compiler.compile(_det_loop, "f64[?,3,3]")
    assert "grafo.parallel" in cf.ir_stages["loops"]
    assert_bits(cf(a), np.linalg.det(a))
