"""Frontend: every supported NumPy function, operator and builtin against NumPy itself.

Each case converts a function, checks that the inferred result types (dtype, shape, Python
scalar kind) are what NumPy returns eagerly, and evaluates the IR to compare values."""

import operator

import numpy as np
import pytest
from frontend_helpers import check, func_of, ops_named, to_ir

from compiler import types as T
from compiler.dialects import np as npd
from compiler.frontend.ops import UFUNC_OPS

F64 = np.array([[0.5, 1.5, 2.0], [3.0, 0.25, 4.0]])
F32 = F64.astype(np.float32)
I32 = np.array([[1, -2, 3], [4, 5, -6]], dtype=np.int32)
I16 = np.full(6, 20000, dtype=np.int16)
U8 = np.array([1, 200, 3], dtype=np.uint8)
B = np.array([True, False, True])
POS = np.array([0.5, 0.25, 0.75])


# ufuncs -------------------------------------------------------------------------------------

def _ufunc_inputs(ufunc):
    floats = [POS, np.array([0.25, 2.0, -0.5])][:ufunc.nin]
    try:
        with np.errstate(all="ignore"):
            ufunc(*floats)
    except TypeError:  # integer-only ufuncs (bitwise, shifts, invert)
        return [np.array([1, 6, 3], np.int64), np.array([3, 2, 1], np.int64)][:ufunc.nin]
    return floats


@pytest.mark.parametrize("ufunc", sorted(UFUNC_OPS, key=lambda u: u.__name__),
                         ids=lambda u: u.__name__)
def test_every_dialect_ufunc_matches_numpy(ufunc):
    def unary(x):
        return ufunc(x)

    def binary(x, y):
        return ufunc(x, y)

    module = check(unary if ufunc.nin == 1 else binary, *_ufunc_inputs(ufunc))
    assert ops_named(module, UFUNC_OPS[ufunc].name)


@pytest.mark.parametrize("ufunc", [np.add, np.subtract, np.multiply, np.divide, np.true_divide,
                                   np.floor_divide, np.power, np.maximum, np.minimum,
                                   np.remainder], ids=lambda u: u.__name__)
@pytest.mark.parametrize("a,b", [(I32, F32), (I16[:3], U8), (U8, np.int8(-3)), (B, I32),
                                 (I32, 2), (U8, 3), (F32, 2.5), (I32, np.float64(2.0))],
                         ids=["i32-f32", "i16-u8", "u8-i8scalar", "bool-i32", "i32-pyint",
                              "u8-pyint", "f32-pyfloat", "i32-f64scalar"])
def test_binary_ufunc_promotion_nep50(ufunc, a, b):
    if ufunc is np.power and not isinstance(b, (int, float)):
        b = abs(b)  # NumPy rejects negative integer powers

    def f(x, y):
        return ufunc(x, y)
    check(f, a, b)


@pytest.mark.parametrize("ufunc", [np.exp, np.log, np.sqrt, np.tanh, np.abs, np.absolute,
                                   np.negative, np.floor, np.square],
                         ids=lambda u: u.__name__)
@pytest.mark.parametrize("x", [POS, POS.astype(np.float32), np.array([1, 4], np.int16),
                               np.array([2, 9], np.int64)], ids=["f64", "f32", "i16", "i64"])
def test_unary_ufunc_dtypes(ufunc, x):
    def f(a):
        return ufunc(a)
    check(f, x)


def test_int8_exp_is_float16():
    def f(a):
        return np.exp(a)
    check(f, np.array([1, 2, -3, 11], np.int8))


def test_ufunc_alias_resolved_by_identity():
    plus = np.add

    def f(a, b):
        return plus(a, b)
    module = check(f, F64, F64)
    assert ops_named(module, "np.add")


# operators ----------------------------------------------------------------------------------

OPERATORS = [operator.add, operator.sub, operator.mul, operator.truediv, operator.floordiv,
             operator.mod, operator.pow, operator.lt, operator.le, operator.eq, operator.ne,
             operator.gt, operator.ge]


@pytest.mark.parametrize("op", OPERATORS, ids=lambda o: o.__name__)
@pytest.mark.parametrize("a,b", [(F64, I32), (I32, I32), (I32, 3), (3, I32), (F32, 2),
                                 (np.uint64(5), np.int64(3)), (np.uint64(5), 3),
                                 (np.float32(2.0), 3.0), (I16[:3], np.int64(2))],
                         ids=["f64-i32", "i32-i32", "i32-3", "3-i32", "f32-2", "u64-i64",
                              "u64-pyint", "f32s-pyfloat", "i16-i64s"])
def test_binary_operators(op, a, b):
    if op is operator.pow and not isinstance(b, int):
        b = abs(b)  # NumPy rejects negative integer powers

    def f(x, y):
        return op(x, y)
    check(f, a, b)


@pytest.mark.parametrize("op", [operator.and_, operator.or_, operator.xor, operator.lshift,
                                operator.rshift], ids=lambda o: o.__name__)
def test_bitwise_operators(op):
    def f(x, y):
        return op(x, y)
    check(f, np.array([1, 6, 12], np.int32), np.array([3, 1, 2], np.int16))
    if op not in (operator.lshift, operator.rshift):
        check(f, B, B[::-1].copy())


def test_operator_syntax():
    def f(x, y):
        return -x, +x, ~y, x @ x.T, x ** 2, 2 ** y, x / 2, y // 2, y % 3
    check(f, F64, abs(I32))


def test_true_division_of_ints_is_float64():
    def f(x, y):
        return x / y
    module = check(f, I32, I32)
    assert func_of(module).function_type.results[0].element == T.f64


def test_python_scalar_operands_follow_python():
    def f(x, n, m):
        return n / m, n // m, n ** m, (n < m) + 1, x * n
    module = check(f, np.int64(4), 7, 2)
    # compile-time arithmetic on Python scalars is folded
    assert not ops_named(module, "np.divide")


def test_weak_runtime_scalars_keep_python_semantics():
    def f(lo, hi):
        total = 0
        for v in range(lo, hi):
            total += v
        return total, total / 2, total > 3
    check(f, np.int64(2), np.int64(6))


def test_casts_are_explicit_astype_ops():
    def f(x, y):
        return x + y
    module = to_ir(f, F32, I32)
    add = ops_named(module, "np.add")[0]
    assert {v.type.element for v in add.operands} == {T.f64}
    assert len(ops_named(module, "np.astype")) == 2


# reductions ---------------------------------------------------------------------------------

REDUCTIONS = [np.sum, np.mean, np.max, np.min, np.prod, np.any, np.all, np.argmax, np.argmin]


@pytest.mark.parametrize("fn", REDUCTIONS, ids=lambda f: f.__name__)
@pytest.mark.parametrize("x", [F64, F32, I32, I16.reshape(2, 3), U8.reshape(3, 1),
                               B.reshape(1, 3)], ids=["f64", "f32", "i32", "i16", "u8", "bool"])
@pytest.mark.parametrize("axis", [None, 0, 1, -1])
def test_reductions_match_numpy(fn, x, axis):
    def f(a):
        return fn(a, axis=axis)
    check(f, x)


@pytest.mark.parametrize("name", ["sum", "mean", "max", "min", "prod", "any", "all"])
@pytest.mark.parametrize("axis", [None, (0, 1), (-1,), 1])
def test_reduction_methods_with_keepdims(name, axis):
    def f(a):
        return getattr(a, name)(axis=axis, keepdims=True)
    check(f, np.arange(24.0).reshape(2, 3, 4) - 5)


@pytest.mark.parametrize("name", ["argmax", "argmin", "sum", "mean"])
def test_reduction_methods_positional_axis(name):
    def f(a):
        return getattr(a, name)(1), getattr(a, name)()
    check(f, I32)


def test_reduction_accumulators():
    def f(a, u, b, s):
        return a.sum(), a.mean(), a + a, u.sum(), b.sum(), s.mean(), s.sum(dtype=np.float64)
    module = check(f, I16, U8, B, F32)
    results = func_of(module).function_type.results
    assert results[:2] == (T.i64, T.f64) and results[3:6] == (T.u64, T.i64, T.f32)


def test_reduction_axis_out_of_range_is_compile_error():
    def f(a):
        return a.sum(axis=2)
    with pytest.raises(Exception, match="axis 2 is out of bounds"):
        to_ir(f, F64)


def test_mean_of_dynamic_shape_divides_by_runtime_count():
    def f(a):
        return a.mean(axis=0)
    module = check(f, F64, dynamic=True)
    assert ops_named(module, "np.dim")


# linear algebra, shapes ---------------------------------------------------------------------

def test_matmul_and_dot():
    a = np.array([[2 ** 30, 2 ** 30]], np.int32)
    b = np.array([[2], [2]], np.int32)
    v = np.array([1, 2, 3], np.int64)

    def f(a, b, v, m, x):
        return (np.matmul(a, b), a @ b, np.dot(v, v), v @ v, np.dot(m, v), np.dot(v, m.T),
                np.dot(m, m.T), m.dot(v), np.dot(x, m), m @ m.T.astype(np.float32))
    check(f, a, b, v, I32.astype(np.int64), np.float32(2.0))


def test_transpose_forms():
    x = np.arange(24).reshape(2, 3, 4)

    def f(a):
        return (a.T, np.transpose(a), np.transpose(a, (1, 0, 2)), a.transpose(2, 0, 1),
                a.transpose((0, 2, 1)), np.transpose(a, axes=(-1, 0, 1)))
    check(f, x)


def test_reshape_forms():
    def f(a, n):
        return (a.reshape(3, 2), a.reshape((-1,)), np.reshape(a, (2, -1)), a.reshape(n, -1),
                np.ravel(a), a.flatten(), a.reshape(1, 2, 3))
    check(f, F64, 3)


def test_reshape_with_dynamic_dims():
    def f(a):
        return a.reshape(-1), a.reshape(2, -1)
    module = check(f, F64, dynamic=True)
    assert func_of(module).function_type.results[0] == T.TensorType((None,), T.f64)


def test_reshape_size_mismatch_is_compile_error():
    def f(a):
        return a.reshape(4, 2)
    with pytest.raises(Exception, match=r"cannot reshape array of size 6 into shape \(4,2\)"):
        to_ir(f, F64)


# creation -----------------------------------------------------------------------------------

def test_creation_default_dtypes():
    def f(n):
        return (np.zeros(3), np.ones((2, n)), np.full((2, 2), 7), np.full(3, 1.5),
                np.eye(3), np.eye(2, 3, k=1), np.arange(5), np.arange(1.0, 2.0, 0.25),
                np.arange(10, 0, -3), np.zeros((0, 2)))
    check(f, 2)


def test_creation_dtype_arguments():
    def f(x):
        return (np.zeros(3, dtype=np.int32), np.ones(2, np.float32), np.full(2, 3, dtype=float),
                np.eye(2, dtype=np.int8), np.arange(4, dtype=np.float32),
                np.zeros((2,), dtype="uint16"), np.ones(2, dtype=bool), np.full(2, x),
                np.zeros_like(x), np.ones_like(x, dtype=np.int64), np.full_like(x, 2))
    check(f, np.float32(1.0))
    check(f, np.int16(3))


def test_creation_with_runtime_sizes():
    def f(a, k):
        n = a.shape[0]
        return np.zeros(n), np.arange(n), np.arange(k), np.arange(1, k, 2), np.zeros((n, 2))
    module = check(f, np.arange(5.0), np.int64(7), dynamic=True)
    assert func_of(module).function_type.results[0] == T.TensorType((None,), T.f64)


# selection, casts, attributes ---------------------------------------------------------------

def test_where_and_clip():
    x = np.array([np.nan, 10.0, -10.0, 0.5])

    def f(a, i):
        return (np.where(a > 0, a, 0), np.where(a > 0, 1, 2), np.where(i, i, 2.5),
                np.clip(a, -1.0, 1.0), np.clip(i, np.nan, np.nan), np.clip(i, 0, 2),
                np.clip(a, None, 0), a.clip(-1, 1))
    check(f, x, np.array([1, 2, 0, 3], np.int64))


def test_clip_is_maximum_then_minimum():
    def f(a):
        return np.clip(a, 0.0, 1.0)
    module = to_ir(f, F64)
    names = [op.name for op in func_of(module).body.ops]
    assert names.index("np.maximum") < names.index("np.minimum")


def test_astype_forms():
    def f(a):
        return (a.astype(np.float32), np.astype(a, np.int8), a.astype("uint8"),
                np.float32(a), a.astype(bool), np.int64(a[0, 0]), a.astype(float))
    check(f, F64)


def test_array_attributes_fold_for_static_shapes():
    def f(a):
        return a.shape[0], a.ndim, a.size, len(a), a.dtype == np.float64, a.shape[-1]
    module = check(f, F64)
    assert all(op.name in ("np.constant", "func.return") for op in func_of(module).body.ops)


def test_array_attributes_of_dynamic_shapes_use_dim():
    def f(a):
        return a.shape[0], a.size, len(a)
    module = check(f, F64, dynamic=True)
    assert {op.attr("index") for op in ops_named(module, "np.dim")} == {0, 1}


def test_python_builtins_on_scalars():
    def f(x, y, n):
        return abs(x), abs(n), min(x, y), max(x, y, 0.5), float(y), int(x), min(n, 3), abs(-n)
    check(f, np.float64(-2.5), np.float64(1.25), 4)


# indexing -----------------------------------------------------------------------------------

def test_basic_indexing_forms():
    x = np.arange(24.0).reshape(2, 3, 4)

    def f(a, i):
        return (a[1], a[0, 2], a[1, 2, 3], a[:, 0], a[..., 0], a[None, :], a[::-1],
                a[:, 1:-1], a[0, ::-2, 1:3], a[i], a[-1, i, :], a[..., None], a[:, :, 7:2:-2],
                a[0][1][2])
    check(f, x, np.int64(1))


def test_slices_with_runtime_bounds():
    def f(a, k):
        return a[k:], a[:k], a[::k], a[1:k:1]
    module = check(f, np.arange(10), np.int64(3))
    assert func_of(module).function_type.results[0] == T.TensorType((None,), T.i64)


def test_negative_step_slices():
    def f(a):
        return a[::-1], a[:2:-1], a[7::-3], a[-2::-2], a[3:3:-1]
    check(f, np.arange(10, dtype=np.int64))


def test_subscript_op_spec():
    def f(a):
        return a[None, 1:, 0]
    op = ops_named(to_ir(f, F64), "np.subscript")[0]
    assert op.attr("spec") == ("n", "s", "i")
    assert op.attr("bounds") == (1, "none", "none")


def test_tuple_indexing_and_unpacking():
    def f(a):
        n, m = a.shape
        t = (a, n, m)
        first, *_ = (t[0], 0)
        return t[1] * t[2], t[-1], first[0]
    with pytest.raises(Exception, match="starred"):
        to_ir(f, F64)

    def g(a):
        n, m = a.shape
        t = (a, n, m)
        return t[1] * t[2], t[-1], t[0][0], t[1:][0]
    check(g, F64)


@pytest.mark.parametrize("op_name", sorted(npd.NUMPY_OPS))
def test_dialect_ops_are_known(op_name):
    assert npd.NUMPY_OPS[op_name].name == op_name


def test_constant_arrays_from_literals_fold():
    def f(x):
        y = np.array([[2.0], [3.0]])
        b = np.array(4.0)
        return x @ y + b, np.asarray((1, 2, 3), dtype=np.int8) * 2
    module = check(f, F64[:, :2])
    assert not ops_named(module, "np.reshape")


def test_folded_numpy_scalars_keep_their_dtype():
    def f(v):
        return np.maximum(0.0, v), np.float32(v) * 2, np.sqrt(v)
    module = check(f, 5.5)
    assert func_of(module).function_type.results == (T.f64, T.f32, T.f64)


def test_membership_and_identity_are_compile_time():
    def f(x, mode):
        a = x if mode in ("a", "b") else -x
        return a, mode is None, x is None, x is not None, 3 in (1, 2)
    check(f, F64, "b")
