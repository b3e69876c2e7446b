"""Complex functions of the LLVM backend (``backend/llvm/complexmath.py``) against NumPy's
complex64/complex128 ufuncs: one JIT-compiled loop per function over interleaved (re, im)
arrays, compared bit for bit (NaN-ness per part, signs of zeros and infinities) on a grid of
every pair of special parts, branch cuts and random values, and on hypothesis inputs."""

import ctypes
import functools
import itertools

import llvmlite.binding as llvm
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from llvmlite import ir

from compiler.backend.llvm import complexmath
from compiler.backend.llvm.target import new_host_target_machine, optimize, triple
from compiler.errors import CompileError

DTYPES = {"complex64": (np.complex64, ir.FloatType()),
          "complex128": (np.complex128, ir.DoubleType())}
# Largest difference from NumPy in ULP of the part's type, measured on this file's inputs:
# every function reproduces NumPy's computation (see complexmath.py), so 0 everywhere.
ULP_BOUND = dict.fromkeys(complexmath.UNARY | complexmath.BINARY, 0)
I64 = ir.IntType(64)


@functools.cache
def kernel(name: str, dtype: str):
    """A ctypes function ``f(a, b, out, n)`` applying ``name`` to ``n`` interleaved complex
    values (``b`` unused for unary functions; ``out`` holds reals for ``absolute``)."""
    ty = DTYPES[dtype][1]
    m = ir.Module(name=f"cmath_{name}_{dtype}")
    m.triple = triple()
    ptr = ir.PointerType()
    fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [ptr, ptr, ptr, I64]), "kernel")
    a, bp, out, n = fn.args
    entry, loop, done = (fn.append_basic_block(s) for s in ("entry", "loop", "done"))
    b = ir.IRBuilder(entry)
    b.cbranch(b.icmp_signed(">", n, ir.Constant(I64, 0)), loop, done)
    b.position_at_end(loop)
    i = b.phi(I64)
    i.add_incoming(ir.Constant(I64, 0), entry)

    def part(p, k):
        return b.load(b.gep(p, [b.add(b.mul(i, ir.Constant(I64, 2)), ir.Constant(I64, k))],
                            source_etype=ty), typ=ty)

    x = (part(a, 0), part(a, 1))
    if name in complexmath.BINARY:
        result = complexmath.binary(b, name, x, (part(bp, 0), part(bp, 1)))
    else:
        result = complexmath.unary(b, name, *x)
    if name == "absolute":
        b.store(result, b.gep(out, [i], source_etype=ty))
    else:
        for k, v in enumerate(result):
            b.store(v, b.gep(out, [b.add(b.mul(i, ir.Constant(I64, 2)), ir.Constant(I64, k))],
                             source_etype=ty))
    nxt = b.add(i, ir.Constant(I64, 1))
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
    cfn.engine = engine   # the machine code lives as long as the engine
    return cfn, str(m)


def run(name, dtype, a, b=None):
    """``name`` of the complex array ``a`` (and ``b``) through the compiled loop."""
    ct = DTYPES[dtype][0]
    a = np.ascontiguousarray(a, ct)
    b = a if b is None else np.ascontiguousarray(b, ct)
    out = np.empty(a.shape, a.real.dtype if name == "absolute" else ct)
    fn, _ = kernel(name, dtype)
    fn(a.ctypes.data, b.ctypes.data, out.ctypes.data, a.size)
    return out


def numpy_result(name, a, b=None):
    with np.errstate(all="ignore"):
        f = getattr(np, name)
        return f(a) if b is None else f(a, b)


def ulp_diff(got, want):
    """Per-element distance in ULP of two real arrays of one float type; NaN against NaN is
    0, NaN against a number, infinities that differ and zeros of other signs are inf."""
    it = np.int32 if got.dtype == np.float32 else np.int64
    gi, wi = got.view(it).astype(np.int64), want.view(it).astype(np.int64)
    lo = np.iinfo(it).min
    order = lambda v: np.where(v < 0, lo - v, v)  # noqa: E731  (monotonic in the value)
    d = np.abs(order(gi) - order(wi)).astype(np.float64)
    gn, wn = np.isnan(got), np.isnan(want)
    d[gn & wn] = 0
    d[gn ^ wn] = np.inf
    d[(np.isinf(got) | np.isinf(want)) & (got != want) & ~(gn | wn)] = np.inf
    d[(got == 0) & (want == 0) & (np.signbit(got) != np.signbit(want))] = np.inf
    return d


def max_ulp(got, want):
    if got.size == 0:
        return 0.0
    parts = [(got, want)] if got.dtype.kind == "f" else [(got.real, want.real),
                                                         (got.imag, want.imag)]
    return max(float(ulp_diff(np.ascontiguousarray(g), np.ascontiguousarray(w)).max())
               for g, w in parts)


def check(name, dtype, a, b=None):
    ct = DTYPES[dtype][0]
    a = np.asarray(a, ct)
    b = None if b is None else np.asarray(b, ct)
    got, want = run(name, dtype, a, b), numpy_result(name, a, b)
    assert got.dtype == want.dtype and got.shape == want.shape
    err = max_ulp(got, want)
    if err > ULP_BOUND[name]:
        d = (ulp_diff(got, want) if got.dtype.kind == "f" else
             np.maximum(ulp_diff(got.real.copy(), want.real.copy()),
                        ulp_diff(got.imag.copy(), want.imag.copy())))
        k = int(np.argmax(d))
        args = f"{a.flat[k]!r}" + ("" if b is None else f", {b.flat[k]!r}")
        pytest.fail(f"{name}({args}) {dtype}: got {got.flat[k]!r}, NumPy {want.flat[k]!r} "
                    f"({err} ULP)")
    return err


def special_parts(ct):
    f = np.finfo(np.dtype(ct).char.lower())
    big, tiny = float(f.max), float(f.smallest_subnormal)
    return [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.0, 0.5, -0.5, 1.5, -1.5, 2.0, -2.0,
            3.0, np.pi / 2, -np.pi, big, -big, big / 4, tiny, -tiny, float(f.tiny),
            float(f.eps), 1e-20, -1e-20, 1e20, 88.7, -104.0, 710.5, -745.5, 1e10]


def special_grid(ct):
    parts = special_parts(ct)
    return np.array([complex(x, y) for x, y in itertools.product(parts, parts)], ct)


def random_values(ct, n=4000, seed=0):
    """Values over the whole exponent range, in [-4, 4]^2, near the unit circle, and of
    random bit patterns (NaN payloads and subnormals included)."""
    rng = np.random.default_rng(seed)
    f = np.finfo(np.dtype(ct).char.lower())
    lo, hi = np.log10(float(f.tiny)), np.log10(float(f.max))
    mag = lambda s: 10.0 ** rng.uniform(s * lo, s * hi, n)  # noqa: E731
    sign = lambda: rng.choice([-1.0, 1.0], n)  # noqa: E731
    with np.errstate(over="ignore"):
        wide = (sign() * mag(1) + 1j * sign() * mag(1)).astype(ct)
        near = (rng.uniform(-4, 4, n) + 1j * rng.uniform(-4, 4, n)).astype(ct)
        unit = np.exp(1j * rng.uniform(-np.pi, np.pi, n)) * (1 + rng.normal(0, 1e-6, n))
    it = np.uint32 if ct == np.complex64 else np.uint64
    bits = rng.integers(0, np.iinfo(it).max, 2 * n, dtype=it, endpoint=True)  # any pattern
    return np.concatenate([wide, near, unit.astype(ct), bits.view(ct)])


FUNCS = sorted(complexmath.UNARY)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_unary_special_values(name, dtype):
    check(name, dtype, special_grid(DTYPES[dtype][0]))


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", FUNCS)
def test_unary_random_values(name, dtype):
    ct = DTYPES[dtype][0]
    check(name, dtype, random_values(ct))
    check(name, dtype, np.empty(0, ct))


def power_exponents(ct):
    ints = [complex(n) for n in (1, 2, 3, 4, 5, 7, 10, 64, 99, -1, -2, -3, -4, -7, -99)]
    others = [complex(n) for n in (100, -100, 0.5, -0.5, 1e10)] + [1j, -2j, 2 + 1e-30j, 3 - 0j]
    return np.array(ints + others, ct)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(complexmath.BINARY))
def test_binary_special_values(name, dtype):
    ct = DTYPES[dtype][0]
    z = special_grid(ct)[::7]
    pairs = np.array(list(itertools.product(z, z)), ct)
    check(name, dtype, pairs[:, 0], pairs[:, 1])


@pytest.mark.parametrize("dtype", DTYPES)
def test_power_integer_exponents(dtype):
    ct = DTYPES[dtype][0]
    z = np.concatenate([special_grid(ct)[::5], random_values(ct, 200)])
    pairs = np.array(list(itertools.product(z, power_exponents(ct))), ct)
    check("power", dtype, pairs[:, 0], pairs[:, 1])


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("name", sorted(complexmath.BINARY))
def test_binary_random_values(name, dtype):
    ct = DTYPES[dtype][0]
    a, b = random_values(ct, seed=1), random_values(ct, seed=2)
    check(name, dtype, a, b)
    check(name, dtype, a, b[::-1])


def parts(width):
    specials = st.sampled_from(special_parts(np.complex64 if width == 32 else np.complex128))
    return st.one_of(specials, st.floats(width=width), st.floats(-4, 4, width=width))


def complexes(width):
    return st.lists(st.tuples(parts(width), parts(width)), min_size=1, max_size=40).map(
        lambda ps: [complex(x, y) for x, y in ps])


def cuts(width):
    """Points on and next to the branch cuts: the real axis beyond +-1 (arcsin, arccos,
    arctanh), the imaginary axis beyond +-i (arcsinh, arctan), the negative real axis
    (log, sqrt, power), with signed zero or tiny imaginary parts."""
    axis = st.floats(-1e6, 1e6, width=width)
    side = st.sampled_from([0.0, -0.0, 1e-30, -1e-30])
    return st.one_of(st.tuples(axis, side).map(lambda t: complex(*t)),
                     st.tuples(side, axis).map(lambda t: complex(*t)))


@settings(max_examples=40, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("dtype", DTYPES)
def test_unary_hypothesis(dtype, data):
    width = 32 if dtype == "complex64" else 64
    z = data.draw(complexes(width)) + data.draw(st.lists(cuts(width), max_size=20))
    for name in FUNCS:
        check(name, dtype, z)


@settings(max_examples=40, deadline=None)
@given(data=st.data())
@pytest.mark.parametrize("dtype", DTYPES)
def test_binary_hypothesis(dtype, data):
    width = 32 if dtype == "complex64" else 64
    a = data.draw(complexes(width))
    exps = st.one_of(parts(width), st.integers(-120, 120).map(float))
    b = data.draw(st.lists(st.tuples(exps, st.sampled_from([0.0, -0.0]) | parts(width)),
                           min_size=len(a), max_size=len(a)))
    b = [complex(x, y) for x, y in b]
    for name in sorted(complexmath.BINARY):
        check(name, dtype, a, b)


def test_strided_and_negative_stride_views():
    """The kernels see values, not layouts: a non-contiguous, reversed view gives NumPy's
    result on the same view."""
    z = special_grid(np.complex128)[::-3]
    for name in ("exp", "log1p", "square", "absolute", "sign"):
        check(name, "complex128", z)


def test_names():
    assert complexmath.UNARY == {
        "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "square",
        "reciprocal", "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh",
        "tanh", "arcsinh", "arccosh", "arctanh", "absolute", "sign"}
    assert complexmath.BINARY == {"power", "divide"}


def test_c_library_abi():
    """complex128 passes two doubles and returns ``{double, double}``; complex64 passes and
    returns one ``<2 x float>`` (x86-64 System V, as clang emits it)."""
    text = kernel("exp", "complex128")[1]
    assert "declare {double, double} @\"cexp\"(double %\".1\", double %\".2\")" in text
    text = kernel("exp", "complex64")[1]
    assert "declare <2 x float> @\"cexpf\"(<2 x float> %\".1\")" in text
    text = kernel("power", "complex64")[1]
    assert "declare <2 x float> @\"cpowf\"(<2 x float> %\".1\", <2 x float> %\".2\")" in text


def test_other_targets_raise():
    m = ir.Module()
    m.triple = "aarch64-unknown-linux-gnu"
    fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [ir.DoubleType()] * 2), "f")
    b = ir.IRBuilder(fn.append_basic_block())
    with pytest.raises(CompileError, match="x86-64 System V"):
        complexmath.unary(b, "exp", *fn.args)
    with pytest.raises(CompileError, match="aarch64"):
        complexmath.binary(b, "power", fn.args, fn.args)
    assert complexmath.unary(b, "square", *fn.args)[0].type == ir.DoubleType()


def test_one_module_holds_every_function_twice():
    """Declarations and the power helper are made once per module and type: a function
    calling every complex function twice in both float types passes LLVM's verifier."""
    m = ir.Module()
    m.triple = triple()
    f32, f64 = ir.FloatType(), ir.DoubleType()
    fn = ir.Function(m, ir.FunctionType(ir.VoidType(), [f32, f32, f64, f64]), "f")
    b = ir.IRBuilder(fn.append_basic_block())
    for z in ((fn.args[0], fn.args[1]), (fn.args[2], fn.args[3])) * 2:
        for name in sorted(complexmath.UNARY):
            complexmath.unary(b, name, *z)
        for name in sorted(complexmath.BINARY):
            complexmath.binary(b, name, z, z)
    b.ret_void()
    llvm.parse_assembly(str(m)).verify()
    declared = [g.name for g in m.global_values]
    assert len(declared) == len(set(declared))
    assert {"grafo.rt.cpow.float", "grafo.rt.cpow.double", "cexp", "cexpf"} <= set(declared)
