"""The blocked matmul kernel (``lowering/matmul.py``) against NumPy: odd and tile-sized
shapes, float and integer dtypes (exact, wrapping), 1-D and batched operands, broadcast
batch dims, transposed and strided inputs, and fused operand expressions."""


import numpy as np
import pytest
from codegen_targets import other_width, scalar_fmas, targets, vector_fmas

import compiler
from compiler.lowering.blas import GEMM_MIN_FLOPS
from compiler.targets import cpu_model


def mm(a, b):
    return a @ b


def scaled_mm(a, b):
    return (2 * a) @ b.T


_DYNAMIC: dict = {}
TARGETS = targets()


def dynamic(dt):
    """One compiled ``a @ b`` for all 2-D shapes of dtype ``dt`` (compiled once per test run)."""
    name = np.dtype(dt).name
    if name not in _DYNAMIC:
        _DYNAMIC[name] = compiler.compile(mm, f"{name}[?,?], {name}[?,?]")
    return _DYNAMIC[name]


def _data(shape, dt, rng):
    if np.issubdtype(dt, np.integer):
        info = np.iinfo(dt)
        return rng.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
    return rng.standard_normal(shape).astype(dt)


def _check(got, want):
    assert got.dtype == want.dtype and got.shape == want.shape
    if np.issubdtype(want.dtype, np.integer):
        np.testing.assert_array_equal(got, want)
    else:
        k = 1 + max(want.shape[-1] if want.ndim else 1, 1)
        tol = 8 * np.finfo(want.dtype).eps * np.sqrt(k)
        np.testing.assert_allclose(got, want, rtol=tol, atol=tol * 40)


SHAPES = [(1, 1, 1), (3, 5, 7), (4, 32, 32), (8, 16, 64), (17, 33, 65), (64, 64, 64),
          (65, 300, 31), (130, 257, 97), (5, 600, 3)]


@pytest.mark.parametrize("m,k,n", SHAPES)
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_float_shapes(m, k, n, dt):
    rng = np.random.default_rng(m * 1000 + n)
    a, b = _data((m, k), dt, rng), _data((k, n), dt, rng)
    _check(dynamic(dt)(a, b), a @ b)


@pytest.mark.parametrize("dt", [np.int8, np.uint8, np.int32, np.int64])
@pytest.mark.parametrize("m,k,n", [(9, 20, 70), (33, 300, 40)])
def test_integer_exact_wraparound(dt, m, k, n):
    rng = np.random.default_rng(7)
    a, b = _data((m, k), dt, rng), _data((k, n), dt, rng)
    _check(dynamic(dt)(a, b), a @ b)


def test_static_shapes():
    rng = np.random.default_rng(0)
    a, b = _data((64, 64), np.float32, rng), _data((64, 64), np.float32, rng)
    _check(compiler.function(mm)(a, b), a @ b)


EDGES = [1, 7, 15, 16, 17, 31, 33, 63, 64, 65]


@pytest.mark.parametrize("n", EDGES)
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32])
def test_tile_edges_static(n, dt):
    """Square and non-square static shapes around the tile sizes (8 or 4 rows, 32, 16 or 8
    columns): full tiles, the 4-row tiles under them and the remainder loops."""
    rng = np.random.default_rng(n)
    f = compiler.function(mm)
    for m, k, c in [(n, n, n), (n, 40, 2 * n + 1), (3 * n + 2, n, 33)]:
        a, b = _data((m, k), dt, rng), _data((k, c), dt, rng)
        _check(f(a, b), a @ b)


@pytest.mark.parametrize("m,k,n", [(12, 300, 40), (70, 600, 530), (36, 513, 300)])
@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32])
def test_several_blocks(m, k, n, dt):
    """Depths over one packed block (later blocks accumulate onto the result) and widths over
    one column block, static and dynamic."""
    rng = np.random.default_rng(k + n)
    a, b = _data((m, k), dt, rng), _data((k, n), dt, rng)
    _check(compiler.function(mm)(a, b), a @ b)
    _check(dynamic(dt)(a, b), a @ b)


def test_float_sums_in_k_order():
    """Each element of a product below BLAS's threshold (the generated kernel's) is one fused
    multiply-add per step of k, in order from zero (as a plain loop with ``math.fma``
    computes it), whatever the tiling."""
    rng = np.random.default_rng(9)
    a, b = _data((9, 300), np.float32, rng), _data((300, 40), np.float32, rng)
    assert 9 * 300 * 40 < GEMM_MIN_FLOPS
    want = np.zeros((9, 40), np.float32)
    for k in range(300):  # the float64 product is exact; its sum rounds as fmaf does here
        want = (a[:, k:k + 1].astype(np.float64) * b[k].astype(np.float64)
                + want.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(compiler.function(mm)(a, b), want)
    np.testing.assert_array_equal(dynamic(np.float32)(a, b), want)


def _fma_reference(a, b):
    """float32 ``a @ b`` summed by one fused multiply-add per step of k, in order."""
    want = np.zeros((a.shape[0], b.shape[1]), np.float32)
    for k in range(a.shape[1]):  # the float64 product is exact; its sum rounds as fmaf does
        want = (a[:, k:k + 1].astype(np.float64) * b[k].astype(np.float64)
                + want.astype(np.float64)).astype(np.float32)
    return want


@pytest.mark.parametrize("m", [1, 3, 5, 9, 13])
@pytest.mark.parametrize("layout", ["rows", "transposed", "strided"])
def test_few_rows_many_columns(m, layout):
    """Few rows: the threads take column parts, each packing its own panels of B (a transposed
    B is packed down its columns); rows under the tiles take one-row tiles; integers are
    exact. Floats this large go to BLAS (``test_blas.py``): NumPy's results within rounding."""
    rng = np.random.default_rng(m)
    a = _data((m, 700), np.float32, rng)
    b = {"rows": lambda: _data((700, 3000), np.float32, rng),
         "transposed": lambda: _data((3000, 700), np.float32, rng).T,
         "strided": lambda: _data((700, 6000), np.float32, rng)[:, ::2]}[layout]()
    _check(compiler.function(mm)(a, b), a @ b)
    _check(dynamic(np.float32)(a, b), a @ b)
    ints = [x.astype(np.int64) * 1_000_003 for x in (a * 1000, b * 1000)]
    np.testing.assert_array_equal(dynamic(np.int64)(*ints), ints[0] @ ints[1])


def test_dynamic_shapes_one_specialization():
    f = dynamic(np.float32)
    rng = np.random.default_rng(1)
    for m, k, n in [(1, 1, 1), (37, 290, 70), (100, 3, 64), (4, 513, 33)]:
        a, b = _data((m, k), np.float32, rng), _data((k, n), np.float32, rng)
        _check(f(a, b), a @ b)


def test_vector_operands():
    rng = np.random.default_rng(2)
    a = _data((70, 45), np.float64, rng)
    v, w = _data(70, np.float64, rng), _data(45, np.float64, rng)
    f = compiler.function(mm)
    _check(f(v, a), v @ a)
    _check(f(a, w), a @ w)
    _check(np.asarray(f(w, w)), np.asarray(w @ w))


@pytest.mark.parametrize("layout", ["rows", "transposed"])
def test_vector_times_wide_matrix(layout):
    """A 1-D left operand takes the blocked kernel as one row (here on column parts; integers,
    exact), or BLAS's gemv for floats this large; batched B too."""
    rng = np.random.default_rng(3)
    v = _data(700, np.float32, rng)
    b = (_data((700, 3000), np.float32, rng) if layout == "rows"
         else _data((3000, 700), np.float32, rng).T)
    _check(compiler.function(mm)(v, b), v @ b)
    bb = _data((3, 700, 2100), np.float32, rng)
    _check(compiler.function(mm)(v, bb), v @ bb)
    ints = [x.astype(np.int32) for x in (v * 100, bb * 100)]
    np.testing.assert_array_equal(compiler.function(mm)(*ints), ints[0] @ ints[1])


@pytest.mark.parametrize("dt", [np.float32, np.float64, np.int32, np.int64])
@pytest.mark.parametrize("layout", ["rows", "transposed", "strided"])
def test_matrix_times_vector(dt, layout):
    """Rows of A summed in vector lanes (a transposed A: b @ A.T by the blocked kernel), depths
    with and without a remainder of lanes, batched A too."""
    rng = np.random.default_rng(4)
    for m, k in [(1000, 300), (997, 1001), (5, 64)]:
        a = (_data((m, k), dt, rng) if layout == "rows" else
             _data((k, m), dt, rng).T if layout == "transposed" else
             _data((m, 2 * k), dt, rng)[:, ::2])
        v = _data(k, dt, rng)
        _check(compiler.function(mm)(a, v), a @ v)
        _check(compiler.function(mm)(a, v[::-1]), a @ v[::-1])
    batched, w = _data((3, 400, 300), dt, rng), _data(300, dt, rng)
    _check(compiler.function(mm)(batched, w), batched @ w)


def test_batched_and_broadcast():
    rng = np.random.default_rng(3)
    f = compiler.function(mm)
    a, b = _data((3, 37, 50), np.float32, rng), _data((3, 50, 70), np.float32, rng)
    _check(f(a, b), a @ b)
    c = _data((50, 33), np.float32, rng)
    _check(f(a, c), a @ c)
    d = _data((2, 1, 9, 40), np.int32, rng)
    e = _data((5, 40, 35), np.int32, rng)
    _check(f(d, e), d @ e)


def test_non_contiguous_inputs():
    rng = np.random.default_rng(4)
    f = dynamic(np.float32)
    a = _data((200, 150), np.float32, rng)
    b = _data((400, 140), np.float32, rng)
    _check(f(a.T, b[::2, 3:]), a.T @ b[::2, 3:])
    _check(f(a[::-1, ::3], b[:50, ::-1]), a[::-1, ::3] @ b[:50, ::-1])
    s = compiler.function(mm)  # static shapes: the packing copy has constant trip counts
    _check(s(a[:64, :64].T, b[:128:2, ::-2][:, :64]), a[:64, :64].T @ b[:128:2, ::-2][:, :64])


def test_fused_operands():
    rng = np.random.default_rng(5)
    a, b = _data((45, 70), np.float64, rng), _data((33, 70), np.float64, rng)
    _check(compiler.function(scaled_mm)(a, b), (2 * a) @ b.T)


def test_bool_matmul():
    rng = np.random.default_rng(6)
    a, b = rng.random((20, 30)) > 0.7, rng.random((30, 40)) > 0.7
    np.testing.assert_array_equal(compiler.function(mm)(a, b), a @ b)


def test_one_thread_gives_the_same_bits():
    """With one thread the row blocks' loop runs its outlined body on the whole range
    (``grafo.serial_outlined``); every element is summed as with two threads (integers: float
    products this large go to BLAS)."""
    rng = np.random.default_rng(6)
    a, b = _data((300, 257), np.int32, rng), _data((257, 700), np.int32, rng)
    want = dynamic(np.int32)(a, b)
    saved = compiler.get_num_threads()
    compiler.set_num_threads(1)
    try:
        got = dynamic(np.int32)(a, b)
    finally:
        compiler.set_num_threads(saved)
    np.testing.assert_array_equal(got, want)
    np.testing.assert_array_equal(want, a @ b)


@pytest.mark.parametrize("target", list(TARGETS), ids=list(TARGETS))
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_tiles_are_vector_fmas(dt, target):
    """Every fma of the kernel is a vector one at the target's width, in the threads' copy and
    the serial one, for static shapes under BLAS's threshold on each CPU model and dynamic shapes here and on a CPU
    of the other width (a destination LLVM cannot see through once left the dynamic tiles
    scalar, 17x slower)."""
    t = TARGETS[target]
    name = np.dtype(dt).name
    kernels = [(compiler.compile(mm, f"{name}[40,40], {name}[40,40]", target=t).asm, t)]
    if t.is_host:
        other = cpu_model(other_width(t))
        kernels += [(dynamic(dt).asm, t),
                    (compiler.compile(mm, f"{name}[?,?], {name}[?,?]", target=other).asm, other)]
    for asm, on in kernels:
        assert vector_fmas(asm, on, dt) >= 16
        assert scalar_fmas(asm, on) == 0


@pytest.mark.parametrize("sig, dt, shapes", [
    ("f64[?,?], f64[?,?]", np.float64, ((300, 0), (0, 300))),
    ("f32[?,?], f32[?,?]", np.float32, ((8, 0), (0, 32))),
    ("i32[?,?,?], i32[?,?,?]", np.int32, ((3, 40, 0), (3, 0, 60))),
])
def test_dynamic_empty_inner_dim_gives_zeros(sig, dt, shapes):
    """A run-time depth of 0 runs no k-block of the blocked kernel: the result is still
    NumPy's zeros, also in a recycled buffer that held other values."""
    def mm(a, b):
        return a @ b
    cf = compiler.compile(mm, sig)
    if dt == np.float64:
        del_me = cf(np.full((300, 300), 7.0), np.eye(300))
        del del_me   # its buffer goes back to the pool, next to be reused
    a, b = np.ones(shapes[0], dt), np.ones(shapes[1], dt)
    got = cf(a, b)
    np.testing.assert_array_equal(got, a @ b)
    assert got.dtype == (a @ b).dtype
