"""Helpers for frontend tests: convert with argument types derived from sample values, check
the inferred result types against NumPy's eager results, evaluate the IR (ir_eval.py) and
compare values, and check CompileError locations."""

import copy
import inspect
import warnings

import ir_eval
import numpy as np
import pytest

from compiler import types as T
from compiler.errors import CompileError
from compiler.frontend import Constant, convert
from compiler.ir.verifier import verify


def spec(value):
    """The frontend argument for a sample value: arrays and NumPy scalars are run-time
    arguments, Python scalars compile-time constants."""
    if isinstance(value, np.ndarray):
        return T.TensorType(value.shape, T.from_dtype(value.dtype))
    if isinstance(value, np.generic):
        return T.from_dtype(value.dtype)
    return Constant(value)


def to_ir(fn, *values, dynamic=False):
    """The verified module of ``fn`` for sample ``values`` (all dims dynamic if asked)."""
    args = [spec(v) for v in values]
    if dynamic:
        args = [T.TensorType((None,) * a.rank, a.element) if isinstance(a, T.TensorType)
                else a for a in args]
    module = convert(fn, args)
    verify(module)
    return module


def func_of(module):
    return module.functions()[0]


def ops_named(module, name):
    return [op for op in module.walk() if op.name == name]


def run(module, *values):
    """Evaluate ``module`` on the run-time values among ``values``."""
    runtime = [v for v in values if isinstance(v, (np.ndarray, np.generic))]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ir_eval.run(module, *copy.deepcopy(runtime))


def eager(fn, *values):
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*copy.deepcopy(values))


def type_matches(t, value) -> bool:
    """Whether IR type ``t`` describes the eager ``value`` (dtype, static dims, scalar kind)."""
    if isinstance(value, np.ndarray):
        return (isinstance(t, T.TensorType) and t.element == T.from_dtype(value.dtype)
                and len(t.shape) == value.ndim
                and all(d is None or d == e for d, e in zip(t.shape, value.shape, strict=True)))
    if isinstance(value, np.generic):
        return t == T.from_dtype(value.dtype)
    return t == {bool: T.py_bool, int: T.py_int, float: T.py_float}.get(type(value))


def same(got, want) -> bool:
    """Same Python type, dtype, shape and values (NaN equal to NaN)."""
    if isinstance(want, tuple):
        return (isinstance(got, tuple) and len(got) == len(want)
                and all(same(g, w) for g, w in zip(got, want, strict=True)))
    if type(got) is not type(want):
        return False
    g, w = np.asarray(got), np.asarray(want)
    if g.dtype != w.dtype or g.shape != w.shape:
        return False
    if w.dtype.kind == "f":
        return bool(np.allclose(g, w, rtol=1e-6, atol=0, equal_nan=True))
    return bool(np.array_equal(g, w))


def check(fn, *values, dynamic=False, exact=True):
    """Convert ``fn``, check each inferred result type against NumPy's eager result and the
    evaluated IR against the eager values. Returns the module.

    ``exact=False`` compares values only: for code whose eager result type depends on the
    path taken (the compiled type is the promotion of all paths)."""
    module = to_ir(fn, *values, dynamic=dynamic)
    want = eager(fn, *values)
    results = func_of(module).function_type.results
    wants = want if isinstance(want, tuple) else (want,)
    assert len(results) == len(wants), (results, want)
    got = run(module, *values)
    if not exact:
        gots = got if isinstance(got, tuple) else (got,)
        for g, w in zip(gots, wants, strict=True):
            assert np.allclose(g, w, equal_nan=True), f"IR evaluates to {g!r}, NumPy gives {w!r}"
        return module
    for t, w in zip(results, wants, strict=True):
        assert type_matches(t, w), f"inferred {t}, NumPy gives {w!r}"
    assert same(got, want), f"IR evaluates to {got!r}, NumPy gives {want!r}"
    return module


def compile_error(fn, *values) -> CompileError:
    with pytest.raises(CompileError) as info:
        to_ir(fn, *values)
    return info.value


def assert_error_at(err: CompileError, fn, marker: str, *fragments: str) -> None:
    """The error points at the first occurrence of ``marker`` in ``fn``'s source
    (file:line:col), shows that line with a caret, and contains ``fragments``."""
    lines, start = inspect.getsourcelines(fn)
    k = next((i for i, line in enumerate(lines) if marker in line), None)
    assert k is not None, f"marker {marker!r} not in the source"
    col = lines[k].find(marker)
    text = str(err)
    file = fn.__code__.co_filename
    assert text.startswith(f"{file}:{start + k}:{col + 1}: error:"), text
    assert lines[k].rstrip() in text and "^" in text, text
    for f in fragments:
        assert f in text, text
