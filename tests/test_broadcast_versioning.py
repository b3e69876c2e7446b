"""Loop versioning on run-time broadcasting (``Emitter.nest(version=True)``): functions
compiled for dynamic shapes against NumPy on shapes that broadcast only at run time — all
sizes equal (the fast version), size-1 dims on either side, zero-size dims, strided,
reversed and transposed views — and on shapes that do not broadcast (NumPy's ValueError);
the fast 1-d loop is vector code, and nothing is versioned without run-time flags."""

import functools
import re
import warnings

import numpy as np
import pytest
from conftest import assert_same
from hypothesis import given, settings
from hypothesis import strategies as st

import compiler

SETTINGS = settings(max_examples=40, deadline=None)
SIZES = [0, 1, 2, 3, 17, 70]   # 70: vector loop plus remainder
SPECIAL = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1e-40])


def fused(a, b, c, d, e):
    return a * b + c * d - e


def add(x, y):
    return x + y


def select(c, x, y):
    return np.where(c > 0, x, np.maximum(x, y))


def scale_exp(x, y):
    e = np.exp(x)   # costly and read twice: written to a buffer
    return e * y, e.sum(-1)


def add_into(x, y):
    x += y
    return x


@functools.cache
def compiled(fn, sig):
    return compiler.compile(fn, sig)


@st.composite
def arrays(draw, shape, dtype=np.float32):
    """A float array of ``shape``: contiguous, every other element, reversed or transposed,
    holding random values and some NaN, ±inf, ±0.0 and subnormals."""
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    layout = draw(st.sampled_from(["c", "step", "rev", "t"] if len(shape) > 1
                                  else ["c", "step", "rev"]))
    base = (rng.standard_normal([2 * d for d in shape]) * 4).astype(dtype)
    if base.size:
        flat = base.reshape(-1)
        flat[rng.integers(0, flat.size, 3)] = rng.choice(SPECIAL, 3)
    full = tuple(slice(None, d) for d in shape)
    if layout == "step":
        return base[tuple(slice(None, None, 2) for _ in shape)]
    if layout == "rev":
        return base[full][tuple(slice(None, None, -1) for _ in shape)]
    if layout == "t":   # Fortran order
        return np.ascontiguousarray(base[full].T).T
    return np.ascontiguousarray(base[full])


@st.composite
def operand_shapes(draw, rank, n, compatible=True):
    """``n`` shapes that broadcast together to one of rank ``rank`` (each dim the common
    size or 1, leading dims sometimes dropped down to one), or, unless ``compatible``,
    that do not."""
    out = [draw(st.sampled_from(SIZES)) for _ in range(rank)]
    shapes = []
    for _ in range(n):
        s = [d if draw(st.integers(0, 3)) else 1 for d in out]
        shapes.append(tuple(s[draw(st.integers(0, rank - 1)) if draw(st.booleans()) else 0:]))
    if not compatible:
        k = draw(st.integers(0, rank - 1))
        i, j = draw(st.permutations(range(n)))[:2]
        for m, d in zip((i, j), draw(st.sampled_from([(2, 3), (0, 2), (3, 17), (17, 0)])),
                        strict=True):
            shapes[m] = tuple(out[:k]) + (d,) + tuple(out[k + 1:])
    return shapes


def check(fn, sig, *args, rtol=0):
    """Same dtype, shape and values as NumPy: exactly, or within ``rtol`` (None: the
    default tolerance of ``assert_same``, for transcendental functions)."""
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        want = fn(*[a.copy() for a in args])
        got = compiled(fn, sig)(*args)
    assert_same(got, want, rtol)


def sig_of(dtype, *ranks):
    return ", ".join(f"{dtype}[{','.join('?' * r)}]" for r in ranks)


@SETTINGS
@given(data=st.data(), equal=st.booleans())
def test_fused_1d(data, equal):
    shapes = data.draw(operand_shapes(1, 5))
    if equal:   # the fast version
        shapes = [shapes[0]] * 5
    args = [data.draw(arrays(s)) for s in shapes]
    check(fused, sig_of("f32", 1, 1, 1, 1, 1), *args)


@SETTINGS
@given(data=st.data(), rank=st.integers(1, 3), dtype=st.sampled_from(["f32", "f64"]))
def test_add_nd(data, rank, dtype):
    sx, sy = data.draw(operand_shapes(rank, 2))
    x, y = (data.draw(arrays(s, np.dtype(dtype.replace("f", "float")))) for s in (sx, sy))
    check(add, sig_of(dtype, len(sx), len(sy)), x, y)


@SETTINGS
@given(data=st.data())
def test_where_2d(data):
    shapes = data.draw(operand_shapes(2, 3))
    args = [data.draw(arrays(s)) for s in shapes]
    check(select, sig_of("f32", *map(len, shapes)), *args)


@SETTINGS
@given(data=st.data())
def test_buffered_operands_and_argument_updates(data):
    n0, n1 = data.draw(st.sampled_from(SIZES)), data.draw(st.sampled_from(SIZES))
    x = data.draw(arrays((n0, n1), np.float64)) / 8
    y = data.draw(arrays((data.draw(st.sampled_from([1, n1])),), np.float64))
    check(scale_exp, "f64[?,?], f64[?]", x, y, rtol=None)
    check(add_into, "f64[?,?], f64[?]", x, y)


@SETTINGS
@given(data=st.data(), rank=st.integers(1, 2))
def test_shapes_that_do_not_broadcast_raise_numpys_error(data, rank):
    sx, sy = data.draw(operand_shapes(rank, 2, compatible=False))
    x, y = (np.zeros(s, np.float32) for s in (sx, sy))
    with pytest.raises(ValueError) as want:
        add(x, y)
    with pytest.raises(ValueError) as got:
        compiled(add, sig_of("f32", len(sx), len(sy)))(x, y)
    assert str(got.value).splitlines()[0] == str(want.value)  # then the source line
    args = [np.zeros(s, np.float32) for s in data.draw(operand_shapes(1, 5, compatible=False))]
    with pytest.raises(ValueError, match="operands could not be broadcast together"):
        compiled(fused, sig_of("f32", 1, 1, 1, 1, 1))(*args)


def test_dynamic_fused_loop_is_vectorized():
    cf = compiled(fused, sig_of("f32", 1, 1, 1, 1, 1))
    assert re.search(r"fmul <(4|8|16) x float>", cf.llvm_ir), "no vector multiply"
    assert re.search(r"vmulps\s[^\n]*\b[xyz]mm\d+", cf.asm)
    loops = cf.ir_stages["loops"]
    assert loops.count('"scf.if"') == 1 and loops.count('"scf.for"') == 2


@pytest.mark.parametrize("sig,nest", [("f32[4,8], f32[8]", 2), ("f32[?], f32[]", 1),
                                      ("f32[?,?], f32[?,1]", 2)])
def test_no_version_without_inner_run_time_flags(sig, nest):
    loops = compiled(add, sig).ir_stages["loops"]
    assert '"scf.if"' not in loops and loops.count('"scf.for"') == nest
