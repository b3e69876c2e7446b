"""complex64/complex128 and float16 on the cuda target without a GPU: kernels assembled by
ptxas, results on the simulated driver against NumPy (``compiler/backend/ptx/simulate.py``
runs each kernel's loop-level IR), the libdevice complex functions (``ptx/complexlib.py``)
JIT-compiled for this CPU with its C library's real functions against NumPy, and the clean
errors for what the cuda target does not run."""

import ctypes
import functools
import itertools

import llvmlite.binding as llvm
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from llvmlite import ir

import compiler
from compiler.backend.llvm import complexmath
from compiler.backend.llvm.target import new_host_target_machine, optimize, triple
from compiler.backend.ptx import complexlib
from compiler.backend.ptx.target import assemble, ptxas_path
from runtime.cuda import driver

rng = np.random.default_rng(18)
SPECIAL = [0.0, -0.0, 1.0, -1.0, 0.5, -2.5, 1e30, -3e-39, np.inf, -np.inf, np.nan]


@pytest.fixture
def sim():
    driver.select("simulator")
    yield driver.simulator()
    driver.select(None)


def grid(dtype) -> np.ndarray:
    """Every pair of special parts, then random values."""
    z = [complex(x, y) for x, y in itertools.product(SPECIAL, SPECIAL)]
    z += list(rng.standard_normal(40) * 3 + 1j * rng.standard_normal(40) * 3)
    with np.errstate(over="ignore"):
        return np.array(z, dtype)


def arithmetic(a, b):
    return a + b, a - b, a * b, a / b, -a


def parts(a):
    return np.real(a), np.imag(a), np.conj(a), a.real * 2.0 + a.imag


def compare(a, b):
    return a == b, a != b


def magnitude(a):
    return np.abs(a)


def functions(a):
    return np.exp(a), np.log(a), np.sqrt(a)


def trigonometric(a):
    return np.sin(a), np.cos(a), np.tan(a), np.arcsin(a), np.arccos(a), np.arctan(a)


def hyperbolic(a):
    return np.sinh(a), np.cosh(a), np.tanh(a), np.arcsinh(a), np.arccosh(a), np.arctanh(a)


def power(a, b):
    return a ** b


def total(a):
    return np.sum(a)


def average(a):
    return np.mean(a)


def row_sums(a):
    return a.sum(axis=1)


def half_ops(x, y):
    return x * y + x, x / y, np.exp(x), np.sqrt(x), x > y


SIGS = {np.complex64: "c64", np.complex128: "c128", np.float16: "f16"}
COMPLEX = [np.complex64, np.complex128]


def sig(dtype, n=1, dims="?"):
    return ", ".join([f"{SIGS[dtype]}[{dims}]"] * n)


def check(got, want, rtol, atol=0.0):
    """Same types, dtypes, shapes; values NaN-equal and inf-equal per part, finite parts
    within ``rtol`` of the element's larger finite part plus ``atol`` (rtol 0: equal, signs of zeros
    included)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want)
        for g, w in zip(got, want, strict=True):
            check(g, w, rtol, atol)
        return
    g, w = np.asarray(got), np.asarray(want)
    assert type(got) is type(want) or isinstance(want, np.ndarray), (type(got), type(want))
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
    finite_parts = [np.where(np.isfinite(p), np.abs(p), 0).astype(float)
                    for p in ((w.real, w.imag) if w.dtype.kind == "c" else (w,))]
    scale = np.maximum.reduce(finite_parts)   # the larger finite part
    for gp, wp in ((g.real, w.real), (g.imag, w.imag)) if w.dtype.kind == "c" else ((g, w),):
        if not rtol and not atol:
            np.testing.assert_array_equal(gp, wp)
            assert (np.signbit(gp) == np.signbit(wp)).all()
            continue
        gp, wp = gp.astype(float), wp.astype(float)
        assert (np.isnan(gp) == np.isnan(wp)).all() and (gp[np.isinf(wp)] == wp[np.isinf(wp)]).all()
        finite = np.isfinite(wp)
        err = np.abs(gp[finite] - wp[finite])
        assert (err <= rtol * scale[finite] + atol).all(), (gp[finite], wp[finite])


# -- ptxas ------------------------------------------------------------------------------------
ASSEMBLED = [(arithmetic, 2), (parts, 1), (compare, 2), (magnitude, 1), (functions, 1),
             (power, 2), (total, 1), (average, 1), (trigonometric, 1), (hyperbolic, 1)]


@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
@pytest.mark.parametrize("fn,n", ASSEMBLED, ids=[f.__name__ for f, _ in ASSEMBLED])
def test_ptxas_assembles_complex_kernels(fn, n, dtype):
    if ptxas_path() is None:
        pytest.skip("ptxas not found (scripts/install-test-deps.sh installs it)")
    ptx = compiler.compile(fn, sig(dtype, n), target="cuda").ptx
    assert ".extern .func" not in ptx   # no C library calls left
    assemble(ptx, "sm_80")


@pytest.mark.parametrize("fn,s", [(half_ops, "f16[?], f16[?]"), (total, "f16[?]"),
                                  (average, "f16[?]"), (row_sums, "f16[?,?]")])
def test_ptxas_assembles_float16_kernels(fn, s):
    if ptxas_path() is None:
        pytest.skip("ptxas not found (scripts/install-test-deps.sh installs it)")
    assemble(compiler.compile(fn, s, target="cuda").ptx, "sm_80")


# -- simulated driver ---------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
def test_complex_elementwise_matches_numpy(sim, dtype):
    a = grid(dtype)
    b = np.roll(a, 7)
    ulp = np.finfo(a.real.dtype).eps
    with np.errstate(all="ignore"):
        # products and quotients within 4 ULP of the magnitude: NumPy's SIMD loops fuse
        # multiply-adds, the simulator's interpreter rounds each operation
        for fn, args, rtol in [(arithmetic, (a, b), 8 * ulp), (parts, (a,), 0),
                               (compare, (a, b), 0), (magnitude, (a,), 4 * ulp)]:
            cf = compiler.compile(fn, sig(dtype, len(args)), target="cuda")
            check(cf(*args), fn(*args), rtol)
            views = [x[::-2] for x in args]   # negative strides
            check(cf(*views), fn(*views), rtol)


@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
def test_complex_trigonometric_kernels_match_numpy(sim, dtype):
    """The kernels compile, launch and return NumPy's values (the simulator evaluates
    ``grafo.cmath`` with NumPy; ``test_libdevice_trig_functions_within_4_ulp`` checks the
    kernels' formulas)."""
    a = grid(dtype)
    eps = np.finfo(a.real.dtype).eps
    with np.errstate(all="ignore"):
        for fn in (trigonometric, hyperbolic):
            cf = compiler.compile(fn, sig(dtype), target="cuda")
            check(cf(a), fn(a), 4 * eps)
            check(cf(a[::-2]), fn(a[::-2]), 4 * eps)


@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
def test_complex_reductions_match_numpy(sim, dtype):
    a = (rng.standard_normal(3000) + 1j * rng.standard_normal(3000)).astype(dtype)
    eps = np.finfo(a.real.dtype).eps
    for fn in (total, average):
        cf = compiler.compile(fn, sig(dtype), target="cuda")
        for x in (a, a[::-3]):   # pairwise (NumPy) and compensated (here) sums
            check(cf(x), fn(x), 0, 8 * eps * np.abs(x).sum() / (len(x) if fn is average else 1))
        with np.errstate(all="ignore"):
            check(cf(a[:0]), fn(a[:0]), 0)
        special = a[:50].copy()
        special[[3, 9]] = [complex(np.inf, 1), complex(1, np.nan)]
        check(cf(special), fn(special), 0)   # inf real part, NaN imaginary part
    m = a.reshape(30, 100)
    check(compiler.compile(row_sums, sig(dtype, dims="?,?"), target="cuda")(m), row_sums(m),
          0, 8 * eps * np.abs(m).sum(axis=1).max())


def test_float16_matches_numpy_bit_for_bit(sim):
    x = np.array([0.0, -0.0, 1.0, -2.5, 65504.0, 6e-8, np.inf, -np.inf, np.nan, 0.1, 3.0],
                 np.float16)
    y = np.roll(x, 3)
    with np.errstate(all="ignore"):
        got = compiler.compile(half_ops, "f16[?], f16[?]", target="cuda")(x, y)
        want = half_ops(x, y)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype
        np.testing.assert_array_equal(g.view(np.uint8), w.view(np.uint8))


def test_float16_sums_follow_numpy(sim):
    h = rng.random(3000).astype(np.float16)
    for fn, s, a in [(total, "f16[?]", h), (average, "f16[?]", h),
                     (row_sums, "f16[?,?]", h.reshape(30, 100)), (total, "f16[?]", h[:0])]:
        got, want = compiler.compile(fn, s, target="cuda")(a), fn(a)
        assert np.asarray(got).dtype == np.float16 == np.asarray(want).dtype
        np.testing.assert_allclose(np.asarray(got, float), np.asarray(want, float), rtol=1e-3)


def scale_by(a, x):
    return x * a + a.sum()


def store_into(out, x):
    out[...] = x.sum()
    return out


def product(a, b):
    return a @ b


@pytest.mark.parametrize("dtype", [np.float64, *COMPLEX], ids=["f64", "c64", "c128"])
def test_zero_d_array_arguments_match_numpy(sim, dtype):
    """0-d arguments read in kernels, reduced, returned, and written into."""
    s = "f64" if dtype == np.float64 else SIGS[dtype]
    zero_d = np.array(1.5 - (0.5j if dtype != np.float64 else 0), dtype)
    x = (grid(dtype) if dtype != np.float64 else rng.standard_normal(30)).astype(dtype)
    eps = np.finfo(x.real.dtype).eps
    with np.errstate(all="ignore"):
        for fn, n in [(arithmetic, 2), (compare, 2), (total, 1), (average, 1)]:
            cf = compiler.compile(fn, ", ".join([f"{s}[]"] * n), target="cuda")
            check(cf(*[zero_d] * n), fn(*[zero_d] * n), 4 * eps)
        finite = x[np.isfinite(x)]
        check(compiler.compile(scale_by, f"{s}[], {s}[?]", target="cuda")(zero_d, finite),
              scale_by(zero_d, finite), 8 * eps)
        got = compiler.compile(store_into, f"{s}[], {s}[?]", target="cuda")(zero_d.copy(),
                                                                            finite)
    check(got, store_into(zero_d.copy(), finite), 0, 8 * eps * np.abs(finite).sum())


def triple_in_place(a):
    a[...] = a * 3.0


@pytest.mark.parametrize("dtype", [np.float64, np.complex128], ids=["f64", "c128"])
def test_zero_d_argument_written_in_place_returns_none(sim, dtype):
    a = np.array(2 - 1j if dtype == np.complex128 else 2.0, dtype)
    cf = compiler.compile(triple_in_place, "f64[]" if dtype == np.float64 else "c128[]",
                          target="cuda")
    assert cf(a) is None and triple_in_place(a.copy()) is None
    check(a, np.array(3 * (2 - 1j if dtype == np.complex128 else 2.0), dtype), 0)


@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
def test_complex_matmul_matches_numpy(sim, dtype):
    """Complex products are loop nests (the tiled kernel multiplies reals)."""
    a = (rng.standard_normal((5, 7)) + 1j * rng.standard_normal((5, 7))).astype(dtype)
    b = (rng.standard_normal((7, 3)) + 1j * rng.standard_normal((7, 3))).astype(dtype)
    cf = compiler.compile(product, sig(dtype, 2, "?,?"), target="cuda")
    eps = np.finfo(a.real.dtype).eps
    check(cf(a, b), product(a, b), 0, 16 * eps * (np.abs(a) @ np.abs(b)).max())
    check(cf(a[::-1, ::2], b[::2]), product(a[::-1, ::2], b[::2]), 0,
          16 * eps * (np.abs(a) @ np.abs(b)).max())


# parts that cannot overflow a product (NumPy's fused multiply-add would not), or special
PART = st.one_of(st.floats(-1e150, 1e150), st.sampled_from([np.inf, -np.inf, np.nan, -0.0]))


@settings(max_examples=25, deadline=None)
@given(st.lists(st.tuples(PART, PART), min_size=0, max_size=12))
def test_complex_arithmetic_hypothesis(values):
    driver.select("simulator")
    try:
        a = np.array([complex(x, y) for x, y in values], np.complex128)
        b = a[::-1].copy()
        with np.errstate(all="ignore"):
            check(_arithmetic_c128()(a, b), arithmetic(a, b), 1e-15)
    finally:
        driver.select(None)


@functools.cache
def _arithmetic_c128():
    return compiler.compile(arithmetic, "c128[?], c128[?]", target="cuda")


# -- the libdevice complex functions, on this CPU -------------------------------------------------
class HostReals(complexlib.Libdevice):
    """``complexlib``'s complex functions with this CPU's C library as the real functions."""

    def real(self, name, ty):
        return complexmath.Library.real(self, name, ty)


@functools.cache
def host_kernel(name: str, ty: ir.Type):
    """``f(a, b, out, n)``: ``name`` of ``n`` interleaved complex values, JIT-compiled."""
    i64, ptr = ir.IntType(64), ir.PointerType()
    m = ir.Module(name=f"complexlib_{name}")
    m.triple = triple()
    fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [ptr, ptr, ptr, i64]), "kernel")
    a, bp, out, n = fn.args
    entry, loop, done = (fn.append_basic_block(s) for s in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.cbranch(b.icmp_signed(">", n, ir.Constant(i64, 0)), loop, done)
    b.position_at_end(loop)
    i = b.phi(i64)
    i.add_incoming(ir.Constant(i64, 0), entry)

    def at(p, k):
        return b.gep(p, [b.add(b.mul(i, ir.Constant(i64, 2)), ir.Constant(i64, k))],
                     source_etype=ty)
    z = (b.load(at(a, 0), typ=ty), b.load(at(a, 1), typ=ty))
    w = (b.load(at(bp, 0), typ=ty), b.load(at(bp, 1), typ=ty))
    if name in complexmath.BINARY:
        res = complexmath.binary(b, name, z, w, HostReals())
    else:
        res = complexmath.unary(b, name, *z, HostReals())
    for k, v in enumerate(res):
        b.store(v, at(out, k))
    nxt = b.add(i, ir.Constant(i64, 1))
    i.add_incoming(nxt, loop)
    b.cbranch(b.icmp_signed("<", nxt, n), loop, done)
    b.position_at_end(done)
    b.ret_void()
    ref = llvm.parse_assembly(str(m))
    ref.verify()
    tm = new_host_target_machine()
    ref.data_layout = str(tm.target_data)
    optimize(ref, tm)
    engine = llvm.create_mcjit_compiler(ref, tm)
    engine.finalize_object()
    cfn = ctypes.CFUNCTYPE(None, *[ctypes.c_void_p] * 3, ctypes.c_int64)(
        engine.get_function_address("kernel"))
    cfn.engine = engine
    return cfn


def run_host(name, a, b):
    ty = ir.FloatType() if a.dtype == np.complex64 else ir.DoubleType()
    out = np.empty_like(a)
    host_kernel(name, ty)(a.ctypes.data, b.ctypes.data, out.ctypes.data, len(a))
    return out


# Relative error bound per part (of the larger part's magnitude): glibc computes these with
# extra care near |z| = 1 and for huge arguments; the formulas are a few ULP apart.
REL = {np.complex64: 4e-6, np.complex128: 1e-14}
LIB_UFUNCS = ["exp", "log", "sqrt", "exp2", "log2", "log10", "power", "sin", "cos", "tan",
              "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh", "arccosh",
              "arctanh"]


@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
@pytest.mark.parametrize("name", LIB_UFUNCS)
def test_libdevice_complex_functions_match_numpy(name, dtype):
    a = grid(dtype)
    b = a
    if name == "power":   # finite bases, exponents of modulus about 1: finite results
        a = a[np.isfinite(a) & (np.abs(a) < 1e3)]
        b = (rng.standard_normal(len(a)) + 1j * rng.standard_normal(len(a))).astype(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a, b) if name == "power" else getattr(np, name)(a)
        got = run_host(name, np.ascontiguousarray(a), np.ascontiguousarray(b))
    scale = np.maximum(np.abs(want.real), np.abs(want.imag))
    if name == "power":   # the rounding of w log z grows by its modulus, pow's condition number
        with np.errstate(all="ignore"):
            scale = scale * np.maximum(1, np.abs(b.astype(complex) * np.log(a.astype(complex))))
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert (np.isnan(g) == np.isnan(w)).all(), (a[np.isnan(g) != np.isnan(w)], name)
        inf = np.isinf(w)
        assert (g[inf] == w[inf]).all(), (a[inf][g[inf] != w[inf]], name)
        ok = np.isnan(w) | inf | (np.abs(g - w) <= REL[dtype] * scale) | (g == w)
        assert ok.all(), (name, a[~ok][:4], g[~ok][:4], w[~ok][:4])
    zeros = (want.real == 0) & np.isfinite(want.imag)
    assert (np.signbit(got.real[zeros]) == np.signbit(want.real[zeros])).all() or \
        name in ("exp", "exp2", "power")
    if name in TRIG:   # both parts' zeros, as glibc signs them
        for g, w in ((got.real, want.real), (got.imag, want.imag)):
            zeros = w == 0
            assert (np.signbit(g[zeros]) == np.signbit(w[zeros])).all(), \
                (name, a[zeros][np.signbit(g[zeros]) != np.signbit(w[zeros])])


TRIG = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
        "arccosh", "arctanh"]


def wide_sample(dtype) -> np.ndarray:
    """Moduli from 1e-10 to 1e3 in every direction, points near 1, near the real and the
    imaginary axis (the branch cuts), and huge ones."""
    g = np.random.default_rng(7)
    z = 10.0 ** g.uniform(-10, 3, 3000) * np.exp(1j * g.uniform(-np.pi, np.pi, 3000))
    near = g.standard_normal((4, 500)) * [[1e-3], [1e-3], [1e-12], [1e-12]]
    z = np.concatenate([z, 1 + near[0] + 1j * near[1], g.uniform(-3, 3, 500) + 1j * near[2],
                        near[3] + 1j * g.uniform(-3, 3, 500),
                        10.0 ** g.uniform(3, 30, 300) * np.exp(1j * g.uniform(-np.pi, np.pi, 300))])
    return z.astype(dtype)


@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
@pytest.mark.parametrize("name", TRIG)
def test_libdevice_trig_functions_within_4_ulp(name, dtype):
    """Within 4 ULP of the larger part of NumPy's (glibc's) result, where that is finite."""
    a = wide_sample(dtype)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a)
        got = run_host(name, a, a)
    finite = np.isfinite(want)
    assert (np.isfinite(got) == finite).all(), a[np.isfinite(got) != finite][:4]
    scale = np.maximum(np.abs(want.real), np.abs(want.imag))[finite]
    err = np.maximum(np.abs(got.real - want.real), np.abs(got.imag - want.imag))[finite]
    eps = np.finfo(a.real.dtype).eps
    assert (err <= 4 * eps * scale).all(), a[finite][err > 4 * eps * scale][:4]


ANY_PART = st.one_of(st.floats(allow_nan=True, allow_infinity=True),
                    st.sampled_from([0.0, -0.0, np.inf, -np.inf, np.nan, -np.nan, 1.0, -1.0]))


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(ANY_PART, ANY_PART), min_size=1, max_size=8),
       st.sampled_from(TRIG))
def test_libdevice_trig_functions_hypothesis(values, name):
    """Any parts: NaN and infinity where NumPy has them, zeros signed as NumPy's, finite
    results within 4 ULP of the larger part."""
    a = np.array([complex(x, y) for x, y in values], np.complex128)
    with np.errstate(all="ignore"):
        want = getattr(np, name)(a)
        got = run_host(name, a, a)
    for g, w in ((got.real, want.real), (got.imag, want.imag)):
        assert (np.isnan(g) == np.isnan(w)).all(), (name, a)
        inf = np.isinf(w)
        assert (g[inf] == w[inf]).all(), (name, a)
        zeros = w == 0
        assert (np.signbit(g[zeros]) == np.signbit(w[zeros])).all(), (name, a)
    finite = np.isfinite(want)
    scale = np.maximum(np.abs(want.real), np.abs(want.imag))[finite]
    err = np.maximum(np.abs(got.real - want.real), np.abs(got.imag - want.imag))[finite]
    assert (err <= 4 * np.finfo(np.float64).eps * scale).all(), (name, a[finite], err / scale)


# -- clean errors -------------------------------------------------------------------------------
def scaled(a, z):
    return a * z


def scaled_sum(a, z):
    return (a * z).sum(), z * z + 1


@pytest.mark.parametrize("dtype", COMPLEX, ids=["c64", "c128"])
def test_complex_scalar_arguments_match_numpy(sim, dtype):
    """A complex scalar argument reaches kernels as its two float parts."""
    a = grid(dtype)
    eps = np.finfo(a.real.dtype).eps
    cf = compiler.compile(scaled, f"{SIGS[dtype]}[?], {SIGS[dtype]}", target="cuda")
    fin = a[np.isfinite(a) & (np.abs(a) < 1e3)]
    red = compiler.compile(scaled_sum, f"{SIGS[dtype]}[?], {SIGS[dtype]}", target="cuda")
    with np.errstate(all="ignore"):
        for z in [dtype(2 - 1.5j), dtype(complex(-0.0, np.inf)), dtype(complex(np.nan, 1)),
                  2.5, 1j]:
            check(cf(a, z), scaled(a, dtype(z)), 4 * eps)
            check(cf(a[::-3], z), scaled(a[::-3], dtype(z)), 4 * eps)
        z = dtype(0.5 + 2j)
        check(red(fin, z), scaled_sum(fin, z), 8 * eps, 8 * eps * np.abs(fin).sum())


def test_float16_scalar_argument_matches_numpy(sim):
    x = np.array([0.0, -0.0, 1.0, -2.5, 65504.0, np.inf, np.nan], np.float16)
    cf = compiler.compile(scaled, "f16[?], f16", target="cuda")
    with np.errstate(all="ignore"):
        for h in [np.float16(1.5), np.float16(-0.0), np.float16(np.inf)]:
            got, want = cf(x, h), scaled(x, h)
            assert got.dtype == want.dtype
            np.testing.assert_array_equal(got.view(np.uint16), want.view(np.uint16))


def from_parts(a, re, im):
    return a * complex(re, im)


def test_complex_scalar_built_from_float_arguments_runs(sim):
    """A complex scalar made in the function reaches the kernel as two float parameters."""
    a = grid(np.complex128)
    with np.errstate(all="ignore"):
        check(compiler.compile(from_parts, "c128[?], f64, f64", target="cuda")(a, 2.0, -1.5),
              from_parts(a, 2.0, -1.5), 4 * np.finfo(np.float64).eps)
