"""Frontend: module structure, arguments and results, locations, assignment forms,
inlining of user functions, and one CompileError test per unsupported construct (message
names the construct, file:line:col, source line with a caret)."""

import numpy as np
import pytest
from frontend_helpers import assert_error_at, check, compile_error, func_of, ops_named, to_ir

import compiler.frontend as frontend
from compiler import types as T
from compiler.errors import CompileError
from compiler.frontend import Constant, convert

X = np.array([[1.0, -2.0, 3.0], [4.0, 5.0, -6.0]])
V = np.array([1, 2, 3], dtype=np.int32)


# structure ----------------------------------------------------------------------------------

def scale(x, y, factor):
    return x * factor + y


def test_function_signature_and_names():
    module = convert(scale, [T.TensorType((2, 3), T.f32), T.f32, Constant(2)])
    fn = func_of(module)
    assert fn.sym_name == "scale"
    assert fn.function_type == T.FunctionType((T.TensorType((2, 3), T.f32), T.f32),
                                              (T.TensorType((2, 3), T.f32),))
    assert [a.name_hint for a in fn.body.args] == ["x", "y"]
    assert "grafo.result_tuple" not in fn.attributes


def test_tuple_result_sets_result_tuple():
    def f(x):
        return x, x.sum()
    fn = func_of(to_ir(f, X))
    assert "grafo.result_tuple" in fn.attributes
    assert fn.function_type.results == (T.TensorType((2, 3), T.f64), T.f64)


def test_python_constant_results_are_weak():
    def f(x):
        return 3, 2.5, True
    module = check(f, X)
    assert func_of(module).function_type.results == (T.py_int, T.py_float, T.py_bool)
    assert all(op.name == "np.constant" for op in ops_named(module, "np.constant"))


def test_returning_none_has_no_results():
    def f(x):
        y = x + 1  # noqa: F841
    assert func_of(to_ir(f, X)).function_type.results == ()


def test_dynamic_dims_are_kept():
    def f(x):
        return x * 2
    module = to_ir(f, X, dynamic=True)
    assert func_of(module).function_type.results[0] == T.TensorType((None, None), T.f64)


def test_convert_rejects_wrong_argument_count():
    with pytest.raises(TypeError):
        convert(scale, [T.f32])


# locations ----------------------------------------------------------------------------------

def located(x):
    y = x + 1.0
    return np.exp(y)


def test_ops_carry_user_locations():
    module = to_ir(located, X)
    file = located.__code__.co_filename
    line = located.__code__.co_firstlineno
    add = ops_named(module, "np.add")[0]
    exp = ops_named(module, "np.exp")[0]
    assert (add.loc.file, add.loc.line, add.loc.col) == (file, line + 1, 9)
    assert (exp.loc.line, exp.loc.col) == (line + 2, 12)
    assert all(op.loc.line > 0 for op in module.walk() if op.name != "builtin.module")


def _decorator(fn):
    return fn


class Holder:
    @staticmethod
    @_decorator
    def method(x):
        return x.foo


def test_error_location_in_indented_decorated_method():
    err = compile_error(Holder.method, X)
    assert_error_at(err, Holder.method, "x.foo", "array attribute 'foo' is not supported")


# assignment ---------------------------------------------------------------------------------

def test_assignment_forms():
    def f(a, b):
        c = d = a + b
        d = d - 1
        a, b = b, a
        a, b, c = b, c, a
        (m, n), k = a.shape, 3
        e: float = 1.5
        d += 1
        d *= e
        r0, r1 = d
        return a, b, c, d, m * n * k, r0 + r1
    check(f, X, X * 2)


def test_augmented_assignment_on_an_array_updates_it_in_place():
    def f(a):
        b = a
        a += 1
        return a, b
    fn = func_of(to_ir(f, X))
    ret = fn.body.terminator
    assert ret.operands[0].owner_op().name == "np.setitem"
    assert ret.operands[1] is ret.operands[0]  # the alias sees the update, as in NumPy
    assert ops_named(fn, "np.write_back")


def test_sequential_tuple_swaps():
    def f(a0, b0, a1, b1):
        a0, b0 = b0, a0
        a1, b1 = b1, a1
        a0, a1, b0 = a1, b0, a0
        return a0, b0, a1, b1
    check(f, np.float64(10), np.float64(30), np.float64(10), np.float64(50))


def test_compile_time_constants_fold():
    def f(x, n):
        k = n * 2 + 1
        return x * k, k, (k > 3) + n
    module = check(f, X, 3)
    assert len(ops_named(module, "np.multiply")) == 1


def test_globals_and_closures_are_compile_time():
    offset = np.float32(0.5)

    def f(x):
        return x + offset + GLOBAL_SCALE
    module = check(f, V)
    assert func_of(module).function_type.results[0].element == T.f64


GLOBAL_SCALE = 2


# inlining -----------------------------------------------------------------------------------

def _affine(x, a=2.0, *, b=1):
    return a * x + b


def _two(x):
    return x.sum(), x.max()


def test_inline_user_functions_with_keywords_and_defaults():
    def f(x):
        s, m = _two(x)
        return _affine(x), _affine(x, 3, b=s), _affine(a=m, x=x)
    module = check(f, X)
    assert not ops_named(module, "func.call")


def test_inline_function_with_early_return():
    def sign(v):
        if v > 0:
            return 1.0
        if v < 0:
            return -1.0
        return 0.0

    def f(x):
        return sign(x[0, 0]) + sign(x[1, 2]) + sign(x[0, 0] * 0)
    check(f, X)


def test_inline_through_closure_and_alias():
    helper = _affine

    def f(x):
        return helper(x, b=0)
    check(f, X)


def _rec(x):
    return _rec(x - 1)


def _ping(x):
    return _pong(x)


def _pong(x):
    return _ping(x)


def test_direct_recursion_is_a_compile_error():
    err = compile_error(_rec, X)
    assert_error_at(err, _rec, "_rec(x - 1)", "recursion of '_rec' deeper than 32 levels")


def test_mutual_recursion_is_a_compile_error():
    err = compile_error(_ping, X)
    assert_error_at(err, _pong, "_ping(x)", "recursion of '_ping' deeper than 32 levels")


def _countdown(x, n):
    if n == 0:
        return x
    return _countdown(x + 1, n - 1)


def test_recursion_inlines_up_to_32_levels():
    """32 calls of a function active at once compile (the README's limit); a 33rd is a
    CompileError naming the limit, also when the base case is decided at compile time."""
    check(_countdown, X, 31)
    err = compile_error(_countdown, X, 32)
    assert_error_at(err, _countdown, "_countdown(x + 1, n - 1)",
                    "recursion of '_countdown' deeper than 32 levels, the most grafo inlines",
                    "at most 32 calls deep")


def test_lambda_is_converted():
    f = lambda x: x * 2  # noqa: E731
    check(f, X)


# unsupported constructs ---------------------------------------------------------------------

def u_try(x):
    try:
        return x
    except ValueError:
        return x


def u_with(x):
    with np.errstate(all="ignore"):
        return x


def u_yield(x):
    yield x


def u_class(x):
    class K:
        pass
    return x


def u_nonlocal(x):
    def inner():
        nonlocal x
    return x


def u_listcomp(x):
    return [v for v in x]


def u_fstring(x):
    return f"{x}"


def u_string_op(x):
    return "a" + "b" + x


def u_unknown_call(x):
    return sorted(x)


def u_fft(x):
    return np.fft.fft(x)


def u_histogramdd(x):
    return np.histogramdd(x)


def u_raise(x):
    raise ValueError("no")


def u_del(x):
    y = x
    del y
    return x


def u_dict(x):
    return {"a": x}


def u_walrus(x):
    return (y := x)  # noqa: F841


def u_undefined(x):
    return x + undefined_name  # noqa: F821


def u_fancy(x):
    return x[x > 0, x > 0]


def u_broadcast(x):
    return x + np.ones(5)


def u_truth(x):
    if x:
        return x
    return -x


def u_for_tuple_of_strings(x):
    for _ in ("a", "b"):
        x = x + 1
    return x


def u_setcomp(x):
    return {v for v in range(3)}


def u_dictcomp(x):
    return {v: v for v in range(3)}


def u_genexp(x):
    return sum(v for v in range(3))


def u_yield_from(x):
    yield from range(3)


def u_async(x):
    async def inner():
        return 1
    return x


def u_starred_assign(x):
    a, *b = 1, 2, 3  # noqa: F841
    return x


def u_match(x):
    match 1:
        case 1:
            return x
    return x


def u_string_method(x):
    return "a".upper() + x


def u_print_file(x):
    print(x, file=None)
    return x


def u_nonlocal_write(x):
    y = 1

    def inner():
        nonlocal y
        y = 2
    inner()
    return x


UNSUPPORTED = [
    (u_try, "try:", "'try' statement"),
    (u_with, "with np", "'with' statement"),
    (u_yield, "yield x", "'yield'"),
    (u_class, "class K", "class definition"),
    (u_nonlocal, "nonlocal x", "'nonlocal' statement"),
    (u_listcomp, "[v for v in x]", "list comprehension"),
    (u_fstring, 'f"{x}"', "f-string"),
    (u_string_op, '"a" + "b" + x', "'ab'"),
    (u_unknown_call, "sorted(x)", "sorted is not supported"),
    (u_fft, "np.fft.fft(x)", "np.fft.fft is not supported"),
    (u_histogramdd, "np.histogramdd(x)", "np.histogramdd is not supported"),
    (u_raise, "raise ValueError", "'raise' statement"),
    (u_del, "del y", "'del' statement"),
    (u_dict, '{"a": x}', "dict display"),
    (u_walrus, "y := x", "assignment expression"),
    (u_undefined, "undefined_name", "name 'undefined_name' is not defined"),
    (u_fancy, "x[x > 0, x > 0]", "boolean mask combined with other indices"),
    (u_broadcast, "x + np.ones(5)", "operands could not be broadcast together"),
    (u_truth, "x:", "truth value of an array with more than one element is ambiguous"),
    (u_for_tuple_of_strings, '("a", "b")', "for loops over"),
    (u_setcomp, "{v for v", "set comprehension"),
    (u_dictcomp, "{v: v for", "dict comprehension"),
    (u_genexp, "(v for v in range(3))", "generator expression"),
    (u_yield_from, "yield from", "'yield from'"),
    (u_async, "async def", "nested function definition"),
    (u_starred_assign, "a, *b", "starred assignment"),
    (u_match, "match 1", "'match' statement"),
    (u_string_method, '"a".upper', "attribute 'upper'"),
    (u_print_file, "print(x, file=None)", "print() keyword 'file'"),
    (u_nonlocal_write, "nonlocal y", "'nonlocal' statement"),
]


@pytest.mark.parametrize("fn,marker,fragment", UNSUPPORTED,
                         ids=[u[0].__name__ for u in UNSUPPORTED])
def test_unsupported_construct_is_a_located_compile_error(fn, marker, fragment):
    err = compile_error(fn, X)
    assert_error_at(err, fn, marker, fragment)
    assert err.loc is not None and err.loc.file == fn.__code__.co_filename


def test_ambiguous_truth_value_is_a_value_error():
    """NumPy raises ValueError for ``if x:`` on an array of several elements; the compile-time
    error is one too, so ``except ValueError`` catches it in both."""
    err = compile_error(u_truth, X)
    assert isinstance(err, ValueError)


def test_unsupported_syntax_errors_carry_a_hint():
    err = compile_error(u_try, X)
    assert err.hint and err.hint in str(err)


def test_frontend_exports():
    assert frontend.__all__ == ["Constant", "convert"]
    assert issubclass(CompileError, Exception)
