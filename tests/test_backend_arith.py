"""CPU backend: arith/math ops whose LLVM or x86 behaviour differs from NumPy's at the edges
(integer division by 0 and INT_MIN / -1, shifts past the width, float -> int casts of NaN, inf
and out-of-range values, NaN-propagating min/max) and libm-backed math functions."""

import math
import warnings

import numpy as np
import pytest
from loop_ir import elementwise

from compiler import types as T
from compiler.backend.llvm import compile_module
from compiler.dialects import arith
from compiler.dialects import math as m
from compiler.ir.opdef import OPS

INT_TYPES = {np.int8: T.i8, np.int16: T.i16, np.int32: T.i32, np.int64: T.i64}
UINT_TYPES = {np.uint8: T.u8, np.uint16: T.u16, np.uint32: T.u32, np.uint64: T.u64}


def binary(op_cls, el, dtype, out_el=None, out_dtype=None, **kw):
    """Compile ``out = op(x, y)`` elementwise with tensor-level dtypes for the runtime."""
    out_el = out_el or el
    mod = elementwise("f", T.lowered(el), T.lowered(out_el), op_cls, **kw)
    arr = T.TensorType((None,), el)
    return compile_module(mod).entry("f", [arr, arr], [T.TensorType((None,), out_el)])


def edge_operands(dtype):
    info = np.iinfo(dtype)
    vals = np.array([info.min, info.min + 1, -7, -1, 0, 1, 7, info.max], dtype=dtype)
    return np.repeat(vals, len(vals)), np.tile(vals, len(vals))


def numpy_quietly(fn, *args):
    with warnings.catch_warnings(), np.errstate(all="ignore"):
        warnings.simplefilter("ignore")
        return fn(*args)


@pytest.mark.parametrize("dtype", list(INT_TYPES))
def test_signed_division_edges_match_numpy(dtype):
    el = INT_TYPES[dtype]
    a, b = edge_operands(dtype)
    floordiv = binary(arith.FloorDivSIOp, el, dtype)
    np.testing.assert_array_equal(floordiv(a, b), numpy_quietly(np.floor_divide, a, b))
    rem = binary(arith.RemSIOp, el, dtype)
    np.testing.assert_array_equal(rem(a, b), numpy_quietly(np.fmod, a, b))
    bits = 8 * a.itemsize
    pairs = list(zip(a.tolist(), b.tolist(), strict=True))
    trunc = [0 if y == 0 else wrap(abs(x) // abs(y) * (1 if (x < 0) == (y < 0) else -1), bits)
             for x, y in pairs]
    np.testing.assert_array_equal(binary(arith.DivSIOp, el, dtype)(a, b), trunc)
    ceil = [0 if y == 0 else wrap(-((-x) // y), bits) for x, y in pairs]
    np.testing.assert_array_equal(binary(arith.CeilDivSIOp, el, dtype)(a, b), ceil)


def wrap(v: int, bits: int) -> int:
    """``v`` as a two's complement integer of ``bits`` bits (INT_MIN / -1 wraps to INT_MIN)."""
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


@pytest.mark.parametrize("dtype", list(UINT_TYPES))
def test_unsigned_division_by_zero_gives_zero(dtype):
    el = UINT_TYPES[dtype]
    info = np.iinfo(dtype)
    vals = np.array([0, 1, 7, info.max // 2, info.max], dtype=dtype)
    a, b = np.repeat(vals, 5), np.tile(vals, 5)
    np.testing.assert_array_equal(binary(arith.DivUIOp, el, dtype)(a, b),
                                  numpy_quietly(np.floor_divide, a, b))
    np.testing.assert_array_equal(binary(arith.RemUIOp, el, dtype)(a, b),
                                  numpy_quietly(np.remainder, a, b))


@pytest.mark.parametrize("op_cls, fn", [(arith.ShLIOp, np.left_shift),
                                        (arith.ShRSIOp, np.right_shift)])
def test_shifts_past_the_width_match_numpy(op_cls, fn):
    a = np.array([1, -8, 12345, -1, 7, 3], dtype=np.int32)
    n = np.array([40, 40, 31, 32, -1, 2], dtype=np.int32)
    np.testing.assert_array_equal(binary(op_cls, T.i32, np.int32)(a, n), fn(a, n))


CAST_INPUTS = [np.nan, np.inf, -np.inf, 300.0, -300.0, 1e10, -1e10, 3e9, -1.0, 1.9e19, 2.5,
               -2.5, 70000.0, -2147483648.9, 2147483647.9, 9.3e18, -9.3e18, 4294967296.0,
               2147483648.0, -2147483649.0, 0.0, -0.0, 1e-300]


@pytest.mark.parametrize("src", [np.float32, np.float64])
@pytest.mark.parametrize("dst", list(INT_TYPES) + list(UINT_TYPES))
def test_float_to_int_casts_match_numpy_astype(src, dst):
    el_src = T.from_dtype(src)
    el_dst = T.from_dtype(dst)
    op_cls = arith.FPToUIOp if np.dtype(dst).kind == "u" else arith.FPToSIOp
    mod = elementwise("cast", el_src, T.lowered(el_dst), op_cls, n_in=1)
    f = compile_module(mod).entry("cast", [T.TensorType((None,), el_src)],
                                  [T.TensorType((None,), el_dst)])
    x = numpy_quietly(np.array, CAST_INPUTS, src)
    got = f(x)
    assert got.dtype == np.dtype(dst)
    np.testing.assert_array_equal(got, numpy_quietly(x.astype, dst))


def test_nan_propagation_of_min_max():
    x = np.array([1.0, np.nan, 3.0, np.nan, -0.0], np.float32)
    y = np.array([2.0, 1.0, np.nan, np.nan, 0.0], np.float32)
    for op_cls, want in ((arith.MaximumFOp, np.maximum), (arith.MinimumFOp, np.minimum),
                         (arith.MaxNumFOp, np.fmax), (arith.MinNumFOp, np.fmin)):
        np.testing.assert_array_equal(binary(op_cls, T.f32, np.float32)(x, y), want(x, y))


UNARY = [("tanh", np.tanh), ("expm1", np.expm1), ("log1p", np.log1p), ("cbrt", np.cbrt),
         ("sinh", np.sinh), ("cosh", np.cosh), ("exp", np.exp), ("log", np.log),
         ("sqrt", np.sqrt), ("absf", np.abs), ("floor", np.floor), ("ceil", np.ceil),
         ("trunc", np.trunc), ("roundeven", np.rint), ("sin", np.sin), ("cos", np.cos),
         ("tan", np.tan), ("atan", np.arctan), ("asinh", np.arcsinh), ("erf", None),
         ("log10", np.log10), ("log2", np.log2), ("exp2", np.exp2)]


@pytest.mark.parametrize("el, dtype", [(T.f32, np.float32), (T.f64, np.float64)])
@pytest.mark.parametrize("name, fn", UNARY, ids=[n for n, _ in UNARY])
def test_math_functions(name, fn, el, dtype):
    mod = elementwise("g", el, el, OPS["math." + name], n_in=1)
    f = compile_module(mod).entry("g")
    x = np.array([0.25, 1.5, 2.0, 3.7, -0.5, 10.0], dtype)
    want = (np.array([math.erf(v) for v in x.astype(np.float64)], dtype) if fn is None
            else numpy_quietly(fn, x))
    rtol = 2e-6 if dtype == np.float32 else 1e-14
    np.testing.assert_allclose(f(x), want, rtol=rtol, equal_nan=True)


def test_binary_math_functions():
    x = np.array([1.0, -2.0, 0.5, 3.0, 0.0])
    y = np.array([2.0, 3.0, -1.5, 0.5, -1.0])
    np.testing.assert_allclose(binary(m.Atan2Op, T.f64, np.float64)(x, y), np.arctan2(x, y),
                               rtol=1e-15)
    np.testing.assert_allclose(binary(m.PowFOp, T.f64, np.float64)(x, y),
                               numpy_quietly(np.power, x, y), rtol=1e-15)
    np.testing.assert_array_equal(binary(m.CopySignOp, T.f64, np.float64)(x, y),
                                  np.copysign(x, y))


def test_integer_power_and_abs():
    base = np.array([2, -3, 0, 1, -1, 5, 7, -1], np.int64)
    exp = np.array([10, 3, 0, -4, -3, 27, 0, 2], np.int64)
    got = binary(m.IPowIOp, T.i64, np.int64)(base, exp)
    want = [int(b) ** int(e) if e >= 0 else (1 if b == 1 else (-1) ** (-e) if b == -1 else 0)
            for b, e in zip(base, exp, strict=True)]
    np.testing.assert_array_equal(got, np.array(want, dtype=object).astype(np.int64))
    a = np.array([-5, 0, 7, np.iinfo(np.int32).min], np.int32)
    mod = elementwise("absi", T.i32, T.i32, m.AbsIOp, n_in=1)
    np.testing.assert_array_equal(compile_module(mod).entry("absi")(a), np.abs(a))
