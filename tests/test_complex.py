"""complex64/complex128 end to end against NumPy: arguments and results, constants, NEP 50
promotion, arithmetic, comparisons, parts, writable ``.real``/``.imag`` views, casts,
reductions, printing and Python's ``(-2.0) ** 0.5``. Elementwise results are compared bit
for bit (NaN-ness and sign of each part), on every pair of special parts (+-0, +-inf, NaN,
huge, tiny), on hypothesis inputs, on empty and non-contiguous (negative-stride) arrays."""

import contextlib
import functools
import io
import itertools
import warnings

import numpy as np
import pytest
from conftest import assert_same
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import compiler
from compiler import types as T
from compiler.interpreter import Interpreter
from compiler.pipeline import stage_module

SETTINGS = settings(max_examples=10, deadline=None)
DTYPES = [np.complex64, np.complex128]
SPECIAL = [0.0, -0.0, 1.0, -1.5, np.inf, -np.inf, np.nan, 1e300, 1e-300, 3.5]


def specials(dtype) -> tuple:
    """Every pair (a, b) of complex values whose parts are special floats, as two arrays."""
    parts = np.array(SPECIAL)
    re, im = np.meshgrid(parts, parts)
    z = np.empty(re.size, np.complex128)
    z.real, z.imag = re.ravel(), im.ravel()
    with np.errstate(over="ignore"):
        z = z.astype(dtype)
    return np.repeat(z, z.size), np.tile(z, z.size)


def bits_equal(got, want) -> None:
    """Same type, dtype and shape, and each part equal bit for bit but for NaN payloads."""
    assert type(got) is type(want), (type(got), type(want))
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, w.dtype, g.shape, w.shape)
    for gp, wp in ((g.real, w.real), (g.imag, w.imag)) if w.dtype.kind == "c" else ((g, w),):
        if wp.dtype.kind != "f":
            np.testing.assert_array_equal(gp, wp)
            continue
        nan = np.isnan(wp)
        assert np.array_equal(np.isnan(gp), nan)
        assert np.array_equal(gp[~nan], wp[~nan]), np.flatnonzero(gp[~nan] != wp[~nan])
        assert np.array_equal(np.signbit(gp[~nan]), np.signbit(wp[~nan]))


@functools.cache
def compiled(fn, signature=None):
    """One ``Function`` per Python function (its specializations are reused across tests),
    or with ``signature`` one concrete function."""
    return compiler.function(fn) if signature is None else compiler.compile(fn, signature)


def both(fn, *args, signature=None):
    """``fn(*args)`` eagerly and compiled, on copies of the arguments, warnings off."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = fn(*[a.copy() if isinstance(a, np.ndarray) else a for a in args])
        got = compiled(fn, signature)(*args)
    return got, want


def check(fn, *args, signature=None):
    got, want = both(fn, *args, signature=signature)
    for g, w in zip(got, want, strict=True) if isinstance(want, tuple) else [(got, want)]:
        bits_equal(g, w)


# arguments, results, constants ---------------------------------------------------------------

def identity(z):
    return z


@pytest.mark.parametrize("dtype", DTYPES)
def test_arrays_and_scalars_cross_the_boundary(dtype):
    z = np.array([1 + 2j, -0.0 - 3j, complex(np.nan, np.inf)], dtype)
    check(identity, z)
    check(identity, z[::-2])
    check(identity, np.zeros((0, 3), dtype))
    check(identity, dtype(2 - 5j))


def test_signatures_name_complex_dtypes():
    for text in ("c64[?]", "complex64[?]"):
        cf = compiler.compile(identity, text)
        assert "tensor<?xcomplex<f32>>" in cf.ir
    cf = compiler.compile(identity, "c128")
    assert cf(3j) == np.complex128(3j) and type(cf(3j)) is np.complex128
    assert "complex<f64>" in compiler.compile(identity, "complex128[2]").ir


def constants(x, y):
    return (1j, 2 + 3j, complex(x, y), complex(x), complex(), np.complex64(x),
            np.complex128(1.5), complex(2j, 1j))


def test_constants_and_python_complex():
    check(constants, np.float64(1.5), np.float64(-0.0))
    check(constants, np.float64(np.inf), np.float64(np.nan))
    check(lambda_free_constant)


def lambda_free_constant():
    return (-2.0) ** 0.5, (-8) ** (1 / 3), 2j ** 2


def test_python_complex_arguments_are_constants():
    f = compiler.function(identity)
    assert f(1 + 2j) == 1 + 2j and type(f(1 + 2j)) is complex


def promotion(a, x, i):
    return a * 2j, a + 1.5, x * 1j, i + 1j, a * x, a + i, np.float32(2) * a


@pytest.mark.parametrize("dtype", DTYPES)
def test_nep50_promotion(dtype):
    a = np.array([1 + 2j, -3j], dtype)
    check(promotion, a, np.array([1.5, 2.5], np.float32), np.array([1, 2], np.int16))


# arithmetic and comparisons ------------------------------------------------------------------

def arithmetic(a, b):
    return a + b, a - b, a * b, a / b, -a, +a, a == b, a != b, abs(a), np.absolute(b), \
        np.square(a), np.reciprocal(b), a ** 2, a ** -1, a ** 0.5


def ordering(a, b):
    return a < b, a <= b, a > b, a >= b, np.maximum(a, b), np.minimum(a, b), \
        np.fmax(a, b), np.fmin(a, b)


def predicates(a):
    return np.isnan(a), np.isinf(a), np.isfinite(a), np.logical_not(a), \
        np.logical_and(a, a[::-1]), np.where(np.isnan(a), 0, a)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("fn", [arithmetic, ordering])
def test_binary_operations_on_every_pair_of_special_values(fn, dtype):
    a, b = specials(dtype)
    check(fn, a, b)
    check(fn, a[::-3], b[::-3])


@pytest.mark.parametrize("dtype", DTYPES)
def test_predicates_and_where(dtype):
    a, _ = specials(dtype)
    check(predicates, a)


def scalar_arithmetic(a, b):
    return a * b, a / b, abs(a), a + b, a == b


@pytest.mark.parametrize("dtype", DTYPES)
def test_numpy_scalars_use_numpy_scalar_math(dtype):
    a, b = specials(dtype)
    for x, y in zip(a[::7], b[::7], strict=True):
        check(scalar_arithmetic, x, y)


def zero_d(a, b):
    return a * b, np.square(a), abs(a), a * b[()]


def test_0d_arrays_use_numpys_array_loops():
    rng = np.random.default_rng(4)
    for _ in range(20):   # products whose parts cancel show the loop's rounding
        x = complex(*rng.standard_normal(2))
        check(zero_d, np.array(x), np.array(complex(x.imag, x.real) * (1 + 1e-9)))


def python_division(x):
    return complex(x, 1.0) / complex(0.0, 0.0)


def test_python_complex_division_by_zero_raises():
    run_both(python_division, (np.float64(1.0),))


complexes = st.complex_numbers(allow_nan=True, allow_infinity=True, width=128)


@SETTINGS
@given(hnp.arrays(np.complex128, st.integers(0, 40), elements=complexes),
       st.sampled_from(DTYPES))
def test_arithmetic_of_hypothesis_arrays(z, dtype):
    with np.errstate(over="ignore"):
        z = z.astype(dtype)
    sig = "c64[?], c64[?]" if dtype == np.complex64 else "c128[?], c128[?]"
    check(arithmetic, z, z[::-1].copy(), signature=sig)
    check(predicates, z, signature=sig.split(",")[0])


def ufuncs(z):
    return (np.exp(z), np.log(z), np.sqrt(z), np.sin(z), np.cos(z), np.tanh(z),
            np.arctan(z), np.log1p(z), np.expm1(z), np.sign(z), np.power(z, z[::-1]),
            np.exp2(z), np.log10(z), np.arcsinh(z))


@pytest.mark.parametrize("dtype", DTYPES)
def test_math_ufuncs(dtype):
    rng = np.random.default_rng(3)
    z = (rng.standard_normal(64) * 3 + 1j * rng.standard_normal(64) * 3).astype(dtype)
    z[:4] = [0, np.inf, complex(np.nan, 1), complex(-0.0, -np.inf)]
    check(ufuncs, z)


# parts and views -----------------------------------------------------------------------------

def parts(z):
    return z.real, z.imag, np.real(z), np.imag(z), np.conj(z), z.conjugate(), \
        np.conjugate(z), np.angle(z), np.angle(z, deg=True)


def real_parts(x):
    return np.real(x), np.imag(x), np.angle(x), np.conj(x), x.real


@pytest.mark.parametrize("dtype", DTYPES)
def test_parts(dtype):
    a, _ = specials(dtype)
    check(parts, a)
    check(parts, a[::-5])
    check(real_parts, np.array([1.5, -0.0, np.nan]))
    check(real_parts, np.arange(3))


def zero_imag(z):
    z.imag[:] = 0
    return z


def shift_real(z):
    z.real += 1
    return z.sum()


def through_a_name(z, x):
    r = z.imag
    r[1] = 7.0
    z.real = x
    z[0] = 3j
    return r, z


def strided_part(z):
    w = z.copy()
    w.imag[::2] = -1
    w.real *= 2
    return w


@pytest.mark.parametrize("dtype", DTYPES)
def test_real_and_imag_are_writable_views(dtype):
    z = np.array([1 + 2j, 3 - 4j, -5j, np.nan], dtype)
    x = np.arange(4.0).astype(z.real.dtype)
    run_both(zero_imag, (z,))
    run_both(zero_imag, (z[::-1],))
    run_both(shift_real, (z,))
    run_both(through_a_name, (z, x))
    run_both(strided_part, (z,))


def write_imag_of_real(x):
    x.imag[:] = 1
    return x


def test_writing_the_imaginary_part_of_a_real_array_is_a_compile_error():
    with pytest.raises(compiler.CompileError, match="read-only: the imaginary part of a real"):
        compiler.function(write_imag_of_real)(np.ones(3))


# indexing, casts -----------------------------------------------------------------------------

def indexing(z, i):
    w = z.copy()
    w[i] = 2.5
    w[0] = 1j
    w[1:3] = z[:2] * 2
    return z[i], z[1:3], z[::-1], w, z[z.real > 0]


@pytest.mark.parametrize("dtype", DTYPES)
def test_indexing_and_assignment(dtype):
    z = np.array([1 + 2j, -3 - 4j, 5j, 6, -0.0 - 0.0j], dtype)
    check(indexing, z, 3)
    check(indexing, z[::-1], -1)


def casts(z, x):
    return (z.astype(np.complex64), z.astype(np.complex128), z.astype(bool),
            x.astype(z.dtype), np.complex128(x[0]), bool(z[0]))


def to_real(z):
    return z.astype(np.float32), z.astype(np.int64)


@pytest.mark.parametrize("dtype", DTYPES)
def test_casts(dtype):
    z = np.array([1 + 2j, -0.0 - 3j, complex(np.nan, 0), 0j, 1e30 + 1e30j], dtype)
    check(casts, z, np.array([2.5, -1, 7], np.float32))
    check(casts, z, np.array([2, -1, 7], np.int8))


def test_complex_to_real_casts_keep_the_real_part_with_numpys_warning():
    z = np.array([1.5 + 2j, -3 - 4j])
    with pytest.warns(np.exceptions.ComplexWarning):
        got = compiler.function(to_real)(z)
    with pytest.warns(np.exceptions.ComplexWarning):
        want = to_real(z)
    assert_same(got, want)


# reductions ----------------------------------------------------------------------------------

def reductions(z):
    return z.sum(), np.sum(z, axis=0), z.sum(axis=-1), z.prod(), z.mean(), \
        np.mean(z, axis=0), np.cumsum(z), np.max(z), np.min(z, axis=0)


@pytest.mark.parametrize("dtype", DTYPES)
def test_reductions(dtype):
    rng = np.random.default_rng(1)
    z = (rng.standard_normal((7, 50)) + 1j * rng.standard_normal((7, 50))).astype(dtype)
    got, want = both(reductions, z)
    assert_same(got, want, rtol=2e-5 if dtype == np.complex64 else 1e-12)
    got, want = both(reductions, z.T)
    assert_same(got, want, rtol=2e-5 if dtype == np.complex64 else 1e-12)


def full_sum(z):
    return z.sum()


@pytest.mark.parametrize("n", [0, 1, 3, 4, 7, 8, 17, 63, 64])
def test_sums_of_up_to_64_elements_add_in_numpys_order(n):
    rng = np.random.default_rng(n)
    z = rng.standard_normal(n) + 1j * rng.standard_normal(n)
    z[:1] = complex(-0.0, -0.0)
    check(full_sum, z)
    check(full_sum, z.astype(np.complex64))


def test_sums_of_special_values():
    a, b = specials(np.complex128)
    check(full_sum, a[:40])
    check(full_sum, b[:40])


# printing ------------------------------------------------------------------------------------

def printing(z, s):
    print(z, s, z[0], (s, z[1]), 1j, complex(2, -3))


@pytest.mark.parametrize("dtype", DTYPES)
def test_printing_is_identical_to_eager(dtype):
    z = np.array([1 + 2j, -0.0 - 3j, complex(np.nan, np.inf)], dtype)
    run_both(printing, (z, np.complex128(3 - 4j)))
    run_both(printing, (z[::-1], dtype(1j)))


def print_python_complex(x):
    print(complex(x, 2.0))


def test_a_python_complex_prints_as_python_does():
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        compiler.function(print_python_complex)(np.float64(-0.0))
    assert out.getvalue() == str(complex(-0.0, 2.0)) + "\n"


# errors --------------------------------------------------------------------------------------

def floor_of(z):
    return np.floor(z)


def bitwise(z):
    return np.remainder(z, 2)


@pytest.mark.parametrize("fn", [floor_of, bitwise])
def test_ufuncs_without_a_complex_loop_are_compile_errors(fn):
    with pytest.raises(compiler.CompileError, match="not supported for the input types"):
        compiler.function(fn)(np.ones(3, np.complex64))


def test_an_unsupported_complex_dtype_suggests_complex128():
    with pytest.raises(compiler.CompileError, match=r"z\.astype\(np\.complex128\)"):
        compiler.function(identity)(np.ones(3, np.clongdouble))


@pytest.mark.parametrize("dtype, kind", itertools.product(DTYPES, ["array", "scalar"]))
def test_interpreter_runs_complex_loop_ir_as_the_backend(dtype, kind):
    """The interpreter's complex rules (the oracle of the lowering) agree with the LLVM
    backend bit for bit."""
    a, b = specials(dtype)
    el = T.from_dtype(dtype)
    args = (a[:30], b[:30]) if kind == "array" else (a[7], b[13])
    t = T.TensorType((30,), el) if kind == "array" else el
    loops = stage_module(arithmetic, [t, t], "loops")
    with np.errstate(all="ignore"):
        got = Interpreter(loops).call("arithmetic", *args)
        want = compiler.compile(arithmetic, [compiler.TensorSpec(
            (30,) if kind == "array" else None, dtype)] * 2)(*args)
    for g, w in zip(got, want, strict=True):
        g = np.asarray(g)
        bits_equal(g.view(bool) if w.dtype == np.bool_ else g, np.asarray(w))


# ahead-of-time artifacts ---------------------------------------------------------------------

def scale_shift(z, s, x):
    return z * s + x, s * 2, abs(s)


C_PROGRAM = r"""
#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include "grafo.h"

int main(void) {
    float _Complex z[3] = {1.0f + 2.0f * I, 3.0f * I, -0.5f};
    float x[3] = {1.0f, 2.0f, -4.0f};
    double _Complex s = 2.0 - 1.0 * I, twice;
    double modulus;
    grafo_memref_1d zd = {z, z, 0, {3}, {1}}, xd = {x, x, 0, {3}, {1}}, out;
    grafo_status status;
    if (grafo_scale_shift(&zd, &s, &xd, &out, &twice, &modulus, &status) != 0) return 3;
    for (int64_t i = 0; i < out.sizes[0]; i++) {
        double _Complex v = ((double _Complex *)out.aligned)[out.offset + i * out.strides[0]];
        printf("%.17g %.17g\n", creal(v), cimag(v));
    }
    printf("%.17g %.17g\n%.17g\n", creal(twice), cimag(twice), modulus);
    free(out.allocated);
    return 0;
}
"""


def test_artifacts_take_complex_arguments_from_python_and_c(tmp_path):
    import shutil
    import subprocess
    import zipfile

    import runtime
    cf = compiler.compile(scale_shift, "c64[?], c128, f32[?]")
    path = tmp_path / "scale.grafo"
    cf.save(path)
    z = np.array([1 + 2j, 3j, -0.5], np.complex64)
    x = np.array([1, 2, -4], np.float32)
    s = np.complex128(2 - 1j)
    want = scale_shift(z, s, x)
    assert_same(runtime.load(path)(z, s, x), want)
    with zipfile.ZipFile(path) as zf:
        header = zf.read("include/grafo.h").decode()
        zf.extract("include/grafo.h", tmp_path)
        zf.extract("lib/libgrafo.so", tmp_path)
    assert ("grafo_scale_shift(grafo_memref_1d *z, const double _Complex *s, grafo_memref_1d "
            "*x, grafo_memref_1d *result0, double _Complex *result1, double *result2") in header
    if shutil.which("cc") is None:
        return
    (tmp_path / "main.c").write_text(C_PROGRAM)
    subprocess.run(["cc", "-std=c11", "-Wall", "-Werror", "-o", "main", "main.c", "-Iinclude",
                    "-Llib", "-lgrafo", f"-Wl,-rpath,{tmp_path / 'lib'}"], cwd=tmp_path,
                   check=True)
    out = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True,
                         check=True).stdout.split()
    values = [float(v) for v in out]
    np.testing.assert_array_equal(values[:6], np.column_stack([want[0].real,
                                                               want[0].imag]).ravel())
    assert values[6:] == [want[1].real, want[1].imag, want[2]]


# linear algebra and sorting ------------------------------------------------------------------

def products(a, b, v):
    return a @ b, np.dot(v, v[::-1]), np.vdot(v, v[::-1]), a @ v[:b.shape[0]], np.matmul(v, v)


@pytest.mark.parametrize("dtype", DTYPES)
def test_matmul_dot_and_vdot(dtype):
    rng = np.random.default_rng(5)
    a = (rng.standard_normal((40, 30)) + 1j * rng.standard_normal((40, 30))).astype(dtype)
    b = (rng.standard_normal((30, 20)) + 1j * rng.standard_normal((30, 20))).astype(dtype)
    got, want = both(products, a, b, a[:, 0].copy())
    tol = 1e-4 if dtype == np.complex64 else 1e-12   # sums of 30 products of size ~1
    assert_same(got, want, rtol=tol, atol=tol)


def sort(z):
    return np.sort(z), np.argsort(z)


@pytest.mark.parametrize("dtype", DTYPES)
def test_sort_is_numpys_lexicographic_order_with_nans_last(dtype):
    parts = [0.0, -1.0, 1.0, np.nan, np.inf, -np.inf]
    z = np.array([complex(r, i) for r, i in itertools.product(parts, parts)], dtype)
    np.random.default_rng(2).shuffle(z)
    check(sort, z)
    check(sort, z[::-2])


def sort_family(z, v):
    m = z.reshape(4, -1)
    s = np.sort(z)
    # NumPy's default kinds order equal keys (0.0, -0.0) as its CPU's sort does: the stable
    # kinds and return_index pin its answer.
    return (np.sort(m, axis=0, kind="stable"), np.argsort(m, axis=1, kind="stable"),
            np.argsort(m, axis=None, kind="stable"),
            np.unique(z, return_index=True, return_inverse=True, return_counts=True),
            np.unique(z, return_index=True, equal_nan=False)[1], np.searchsorted(s, v),
            np.searchsorted(s, v, side="right"))


PARTS = [0.0, -0.0, -1.0, 1.0, 2.5, np.nan, np.inf, -np.inf]


@settings(max_examples=20, deadline=None)
@given(st.sampled_from(DTYPES),
       st.lists(st.tuples(st.sampled_from(PARTS), st.sampled_from(PARTS)), min_size=8,
                max_size=40).filter(lambda p: len(p) % 4 == 0),
       st.lists(st.tuples(st.sampled_from(PARTS), st.sampled_from(PARTS)), max_size=6))
def test_sorting_functions_follow_numpys_complex_order(dtype, pairs, probes):
    """Ties (0.0 and -0.0, repeated values) and every NaN placement: the stable order,
    unique's NaN collapsing and searchsorted's binary search all use NumPy's order."""
    z = np.array([complex(r, i) for r, i in pairs], dtype)
    v = np.array([complex(r, i) for r, i in probes], dtype)
    got, want = both(sort_family, z, v)
    for g, w in zip(got, want, strict=True):
        for gi, wi in zip(*((g, w) if isinstance(w, tuple) else ((g,), (w,))), strict=True):
            if np.asarray(wi).dtype.kind == "c" and not isinstance(w, tuple):
                bits_equal(gi, wi)
            else:
                assert_same(gi, wi)
