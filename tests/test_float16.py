"""float16 arrays and scalars against NumPy, bit for bit: conversions (every half value,
float32/float64 values next to rounding ties), NumPy's float16 ufunc loops (float32
arithmetic rounded once per ufunc), NEP 50 promotion, sums/means/products in NumPy's order,
printing, artifacts, and the CUDA target's CompileError."""

import contextlib
import functools
import io
import linecache
import re
import zipfile

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler
import runtime

ALL_HALVES = np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)
SPECIAL = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, 2.0, 3.0, 0.1, 65504.0,
           -65504.0, 6e-8, -6e-8, 6.1e-5, 1e-4, 100.0, 255.9, 2048.0, 2049.0]


def assert_bits(got, want):
    """Same Python type, dtype, shape and values bit for bit (NaNs equal whatever their
    payload and sign)."""
    assert type(got) is type(want), (type(got), type(want))
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
    if w.dtype.kind != "f":
        np.testing.assert_array_equal(g, w)
        return
    nan = np.isnan(w)
    assert (np.isnan(g) == nan).all(), (g[np.isnan(g) != nan], w[np.isnan(g) != nan])
    bits = np.dtype(f"u{w.dtype.itemsize}")
    gb, wb = np.ascontiguousarray(g).view(bits), np.ascontiguousarray(w).view(bits)
    bad = (gb != wb) & ~nan
    assert not bad.any(), (g[bad][:5], w[bad][:5])


@functools.cache
def dynamic(fn, signature):
    """``fn`` compiled once for ``signature`` (dims unknown until run time)."""
    return compiler.compile(fn, signature)


def run_both(fn, *args, compiled=None):
    with np.errstate(all="ignore"):
        want = fn(*args)
        got = (compiled or compiler.function(fn))(*args)
    assert_bits(got, want) if not isinstance(want, tuple) else [
        assert_bits(g, w) for g, w in zip(got, want, strict=True)]
    return got


# conversions --------------------------------------------------------------------------------

def to_f32(a):
    return a.astype(np.float32)


def to_f64(a):
    return a.astype(np.float64)


def to_f16(a):
    return a.astype(np.float16)


@pytest.mark.parametrize("fn", [to_f32, to_f64])
def test_every_half_widens_exactly(fn):
    got = compiler.function(fn)(ALL_HALVES)
    want = fn(ALL_HALVES)
    bits = np.dtype(f"u{want.dtype.itemsize}")
    np.testing.assert_array_equal(got.view(bits), want.view(bits))   # NaN payloads too


def _next_to_ties(dtype):
    """Values of ``dtype`` at, just above and just below the midpoints between consecutive
    finite halves, the halves themselves, and values beyond the half range."""
    h = ALL_HALVES[np.isfinite(ALL_HALVES)]
    h = np.sort(h[h >= 0]).astype(np.float64)
    mid = (h[:-1] + h[1:]) / 2
    x = np.concatenate([mid, h, [65519.99, 65520.0, 65520.01, 1e300, 2.0 ** -25,
                                 2.0 ** -25 * (1 + 2.0 ** -30), 2.0 ** -26]]).astype(dtype)
    x = np.concatenate([x, np.nextafter(x, dtype(np.inf)), np.nextafter(x, dtype(-np.inf))])
    return np.concatenate([x, -x, [np.nan, np.inf, -np.inf]]).astype(dtype)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_narrowing_rounds_once_to_nearest_even(dtype):
    """NumPy's npy_floatbits_to_halfbits / npy_doublebits_to_halfbits: one correct
    rounding (a double goes to half directly, never through float), overflow to inf."""
    rng = np.random.default_rng(0)
    width = np.dtype(dtype).itemsize * 8
    random_bits = rng.integers(0, 2 ** 63, 200_000, dtype=np.uint64) >> np.uint64(64 - width)
    random_bits = random_bits.astype(f"u{width // 8}")
    for x in (_next_to_ties(dtype), random_bits.view(dtype)):
        with np.errstate(all="ignore"):
            want = to_f16(x)
        got = compiler.function(to_f16)(x)
        assert_bits(got, want)


@pytest.mark.parametrize("dtype", ["bool", "int8", "int16", "int32", "int64", "uint8",
                                   "uint16", "uint32", "uint64"])
def test_casts_between_half_and_integers(dtype):
    info = np.iinfo(dtype) if dtype != "bool" else None
    ints = np.array([0, 1, 2, 2047, 2049, 4097, 65504, 65519, 65520, 70000, 12345677]
                    + ([int(info.min), int(info.max), int(info.max) - 1] if info else []))
    if dtype == "bool":
        ints = np.array([0, 1])
    ints = ints.astype(dtype) if info is None or info.min < 0 else \
        ints[ints >= 0].astype(dtype)
    run_both(to_f16, ints)
    halves = ALL_HALVES

    def cast(a):
        return a.astype(dtype)
    run_both(cast, halves)


def test_python_and_numpy_scalars_convert_as_numpy_does():
    def f(x, s):
        return np.float16(x), np.float16(1 / 3), s.astype(np.float16), np.float16(s)
    for x in (2.7, 1e300, 65519.0, -1e-9):
        run_both(f, x, np.float64(x))
    run_both(f, 3, np.int64(70000))


# elementwise ops ------------------------------------------------------------------------------

UNARY = ["sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
         "arccosh", "arctanh", "exp", "exp2", "expm1", "log", "log2", "log10", "log1p",
         "sqrt", "cbrt", "floor", "ceil", "trunc", "rint", "deg2rad", "rad2deg", "negative",
         "absolute", "sign", "square", "reciprocal", "positive", "isnan", "isinf",
         "isfinite", "signbit", "logical_not"]
BINARY = ["add", "subtract", "multiply", "divide", "floor_divide", "remainder", "fmod",
          "power", "maximum", "minimum", "fmax", "fmin", "arctan2", "hypot", "copysign",
          "logaddexp", "equal", "not_equal", "less", "less_equal", "greater",
          "greater_equal", "logical_and", "logical_or", "logical_xor"]


def _ufunc(name, arity):
    """``f(a[, b]) = np.<name>(a[, b])``, its source in ``linecache`` for the compiler."""
    args = ", ".join("ab"[:arity])
    src, file = f"def f({args}):\n    return np.{name}({args})\n", f"<float16 {name}>"
    linecache.cache[file] = (len(src), None, src.splitlines(True), file)
    namespace = {"np": np}
    exec(compile(src, file, "exec"), namespace)   # noqa: S102
    return namespace["f"]


@pytest.mark.parametrize("name", UNARY)
def test_unary_ufunc_on_every_half(name):
    """NumPy computes float16 ufuncs in float32 and rounds once: every input agrees bit for
    bit (the transcendental functions too: float32's error never reaches a half
    rounding boundary on these 65536 inputs)."""
    run_both(_ufunc(name, 1), ALL_HALVES)


def _grid():
    rng = np.random.default_rng(1)
    bits = rng.integers(0, 1 << 16, 300).astype(np.uint16)
    bits = bits[(bits & 0x7C00) != 0x7C00]   # quiet NaN only (SPECIAL), no signaling ones
    vals = np.concatenate([np.array(SPECIAL, np.float16), bits.view(np.float16),
                           rng.normal(0, 10, 60).astype(np.float16)])
    a, b = np.meshgrid(vals, vals)
    return a.ravel(), b.ravel()


@pytest.mark.parametrize("name", BINARY)
def test_binary_ufunc_on_special_and_random_pairs(name):
    run_both(_ufunc(name, 2), *_grid())


halves = st.sampled_from(SPECIAL) | st.floats(-65504, 65504, width=16) | \
    st.floats(-2.0 ** -13, 2.0 ** -13, width=16)


def fused(a, b, c):
    return a * b + c, (a - b) / c, np.sqrt(np.abs(a)) * 2.5 + 1, np.where(a > b, a, c)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(halves, halves, halves), min_size=0, max_size=40),
       st.sampled_from([slice(None), slice(None, None, -1), slice(None, None, 2)]))
def test_fused_expressions_round_after_each_ufunc(rows, view):
    """``a * b + c`` is two ufuncs, two roundings to float16 (no fused multiply-add, no
    float32 temporary), on contiguous, reversed and strided views and empty arrays."""
    cols = np.array(rows, np.float16).reshape(-1, 3)
    a, b, c = (cols[:, k].copy()[view] for k in range(3))
    run_both(fused, a, b, c, compiled=dynamic(fused, "f16[?], f16[?], f16[?]"))


def promote(h, i8, i16, f32, s):
    return (h + 2.5, h + i8, h + i16, h + f32, h * 3, h + np.float64(1.0), s + 1.5, s * h,
            h + np.int8(1), s + np.int16(1), np.float32(2) * s)


def test_nep50_promotion():
    """float16 with a Python float stays float16 (the float rounded to half first), with
    int8 it stays float16, with int16 and float32 it is float32, with float64 float64."""
    h = np.array([1.5, -0.0, 65504, np.nan], np.float16)
    got = run_both(promote, h, np.array([1, -2, 3, 4], np.int8),
                   np.array([1, 300, -3, 4], np.int16), np.array([0.1, 2, 3, 4], np.float32),
                   np.float16(0.3))
    assert [np.asarray(g).dtype.name for g in got] == [
        "float16", "float16", "float32", "float32", "float16", "float64", "float16",
        "float16", "float16", "float32", "float32"]


# reductions ----------------------------------------------------------------------------------

def total(a):
    return np.sum(a)


def average(a):
    return np.mean(a)


def total32(a):
    return np.sum(a, dtype=np.float32)


def product(a):
    return np.prod(a)


def extremes(a):
    return np.max(a), np.min(a), np.argmax(a), np.argmin(a), np.nanmax(a)


def running(a):
    return np.cumsum(a)


@pytest.mark.parametrize("n", [0, 1, 7, 8, 9, 127, 128, 129, 1000, 8191, 8192, 8193, 20000,
                               140000])
def test_full_sums_and_means_follow_numpys_order(n):
    """np.sum adds pairwise in float32 (NumPy's HALF_pairwise_sum) and rounds once; np.mean
    and dtype=float32 sums add 8192-element buffers pairwise into a float32 total."""
    a = np.random.default_rng(n).normal(0, 30, n).astype(np.float16)
    for fn in (total, average, total32):
        for x in (a, a[::-3]):
            run_both(fn, x, compiled=dynamic(fn, "f16[?]"))
        if n in (7, 129, 8193):   # static sizes take other paths
            run_both(fn, a)


@pytest.mark.parametrize("shape", [(3, 5), (4, 200), (5, 9000), (300, 7), (2, 3, 300)])
def test_axis_sums_and_means_follow_numpys_order(shape):
    """Over the last axis: pairwise per row; over another axis: each add rounded to half
    (NumPy's binary loop); transposed and strided views as NumPy's iterator orders them."""
    a = np.random.default_rng(7).normal(0, 30, shape).astype(np.float16)

    def axes(x):
        return (np.sum(x, axis=-1), np.sum(x, axis=0), np.mean(x, axis=-1), np.mean(x, axis=0),
                np.sum(x), np.sum(x, axis=-1, keepdims=True))
    for x in (a, a.T, a[..., ::2]):
        run_both(axes, x)


def test_products_and_extremes():
    rng = np.random.default_rng(3)
    a = rng.uniform(0.98, 1.02, 3000).astype(np.float16)
    run_both(product, a)
    b = rng.normal(0, 10, (6, 50)).astype(np.float16)
    run_both(axis_products, b)
    for x in (b.ravel(), np.array([1, np.nan, 3], np.float16), np.array([-0.0, 0.0], np.float16)):
        run_both(extremes, x)
    run_both(running, b.ravel())


def axis_products(b):
    return np.prod(b, axis=0), np.prod(b, axis=1)


def test_empty_reductions():
    run_both(total, np.zeros(0, np.float16))
    run_both(product, np.zeros(0, np.float16))
    with pytest.raises(ValueError, match="zero-size array"):
        compiler.function(extremes)(np.zeros(0, np.float16))


# scalars, signatures, printing ---------------------------------------------------------------

def scalar_math(x, y):
    return x * y + np.float16(0.1), x > y, x.astype(np.float32)


def test_numpy_scalars_in_and_out():
    got = run_both(scalar_math, np.float16(2.5), np.float16(0.3))
    assert type(got[0]) is np.float16


def test_signature_names():
    cf = compiler.compile(scalar_math, "f16, float16")
    assert "f16" in str(cf.signature) or "float16" in str(cf.signature)
    assert_bits(cf(np.float16(2.5), 0.3)[0], scalar_math(np.float16(2.5), np.float16(0.3))[0])
    cf = compiler.compile(total, "f16[?]")
    assert_bits(cf(np.arange(300, dtype=np.float16)), total(np.arange(300, dtype=np.float16)))


def shout(a, s):
    print(a, s, a[0], (s, a[1]))
    return a[1:]


def test_print_matches_eager():
    a = np.array([1, 2.5, -0.0, np.inf, np.nan, 65504, 1e-7, 3], np.float16)
    want, got = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(want):
        shout(a, np.float16(1 / 3))
    with contextlib.redirect_stdout(got):
        compiler.function(shout)(a, np.float16(1 / 3))
    assert got.getvalue() == want.getvalue()


# code, artifacts, other targets --------------------------------------------------------------

_HALF_LIBCALLS = re.compile(r"__(extend|trunc)[sd]fhf2|__extendhf[sd]f2")


def mixed(a, b, s):
    return (np.sin(a) * b + s).astype(np.float64), np.sum(a), np.mean(b), a.astype(np.int32)


@pytest.mark.parametrize("target", ["cpu", "x86-64"])
def test_no_half_libcalls(target):
    """No conversion is left to libgcc's __extendhfsf2/__truncsfhf2/__truncdfhf2 (the JIT
    cannot resolve them; CPUs without F16C would call them for LLVM's half casts)."""
    cf = compiler.compile(mixed, "f16[?], f16[?], f16", target=target)
    assert not _HALF_LIBCALLS.search(cf.asm)
    assert " half " not in " ".join(re.findall(r"= (?:fadd|fsub|fmul|fdiv|fpext|fptrunc) "
                                               r"\w+", cf.llvm_ir))


def test_artifact_round_trip(tmp_path):
    cf = compiler.compile(mixed, "f16[?], f16[?], f16")
    path = tmp_path / "mixed.grafo"
    cf.save(path)
    g = runtime.load(path)
    a = np.array([1, 2.5, -0.0, 3], np.float16)
    b = np.array([3, 0.1, 2, 4], np.float16)
    for got, want in zip(g(a, b, np.float16(1.5)), mixed(a, b, np.float16(1.5)), strict=True):
        assert_bits(got, want)
    header = zipfile.ZipFile(path).read("include/grafo.h").decode()
    assert "uint16_t s" in header and "uint16_t *result1" in header
    assert "float16 scalars and elements are uint16_t" in header


def spread(a):
    return (np.var(a), np.std(a), np.var(a, axis=0), np.std(a, axis=-1, ddof=1),
            np.nanmean(a), np.nanmean(a, axis=0), np.nanmax(a), np.nanmin(a, axis=1),
            np.nansum(a))


@pytest.mark.parametrize("shape", [(4, 5), (3, 300), (1, 9000)])
def test_var_std_and_nan_functions(shape):
    """NumPy's _var on float16: float16 sums and products, the divisions by the count in
    float64 rounded to float16."""
    a = np.random.default_rng(11).normal(0, 5, shape).astype(np.float16)
    a.ravel()[::7] = np.nan if shape[1] > 5 else a.ravel()[::7]
    run_both(spread, a)
    run_both(spread, np.abs(a))


def test_ir_text_round_trip():
    """f16 types and constants print and parse back to the same bits (NaN and inf in MLIR's
    hex form, others as the shortest decimal of the half)."""
    from compiler.ir.parser import parse
    from compiler.ir.printer import print_op
    text = compiler.compile(fused, "f16[?], f16[?], f16[?]").ir
    again = print_op(parse(text))
    assert again == print_op(parse(again)) and "xf16" in again
    values = [0.1, -0.0, 65504.0, 6e-8, np.inf, -np.inf, np.nan]
    body = "".join(f'    %c{k} = "arith.constant"() {{value = {v} : f16}} : () -> f16\n'
                   for k, v in enumerate(["0.1", "-0.0", "65504.0", "6.0e-08", "0x7C00",
                                          "0xFC00", "0x7E00"]))
    module = parse('"builtin.module"() ({\n  "func.func"() ({\n' + body +
                   '    "func.return"() : () -> ()\n  }) {function_type = () -> (), '
                   'sym_name = "f"} : () -> ()\n}) : () -> ()\n')
    printed = print_op(module)
    consts = [op.attributes["value"] for op in parse(printed).walk()
              if "value" in op.attributes]
    got = np.array([c.value for c in consts], np.float16)
    assert_bits(got, np.array(values, np.float16))


def hypot_scaled(a, b):
    return np.hypot(a, b) * a + 1.5


def test_interpreter_runs_float16_loops_as_numpy():
    """The loop-level interpreter (the tests' oracle) gives NumPy's bits for the lowered
    float16 code: float16 scalars, and the emulation pass's extf/truncf."""
    from compiler import types as T
    from compiler.interpreter import Interpreter
    from compiler.pipeline.stages import stage_module
    a = np.random.default_rng(0).normal(0, 10, 1000).astype(np.float16)
    for fn, args in ((total, (a,)), (hypot_scaled, (a, a[::-1].copy()))):
        module = stage_module(fn, [T.TensorType((1000,), T.f16)] * len(args), "loops")
        got = Interpreter(module).call(fn.__name__, *args)[0]
        assert_bits(np.asarray(got)[()] if np.ndim(got) == 0 else got, fn(*args))


def test_fast_calls_take_float16():
    """The generated CPython entry (``runtime.fastcall``'s verified layout) takes float16
    arrays and NumPy scalars and returns float16 scalars, as the ctypes path does."""
    from runtime import fastcall
    assert fastcall.LAYOUT is not None
    cf = compiler.compile(scalar_math, "f16, f16")
    got = cf(np.float16(2.5), np.float16(0.3))
    assert_bits(got[0], scalar_math(np.float16(2.5), np.float16(0.3))[0])
    assert type(got[0]) is np.float16
