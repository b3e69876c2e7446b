"""Helpers for lowering tests: build a tensor-level function, lower it, interpret the loop IR
and compare with NumPy (the ops' own ``evaluate`` run on the same inputs)."""

from __future__ import annotations

import numpy as np

from compiler import types as T
from compiler.dialects import builtin, func
from compiler.dialects import np as npd
from compiler.interpreter import Interpreter
from compiler.ir.attributes import TypeAttr, UnitAttr
from compiler.ir.builder import Builder
from compiler.ir.verifier import verify
from compiler.lowering import lower_to_loops


class Fn:
    """A tensor-level function under construction."""

    def __init__(self, *arg_types, name="f"):
        self.module = builtin.ModuleOp.empty()
        self.fn = func.FuncOp.create(name, T.FunctionType(tuple(arg_types), ()))
        self.module.body.append(self.fn)
        self.b = Builder(self.fn.body)
        self.args = list(self.fn.body.args)

    def __call__(self, cls, *operands, type=None, **attrs):
        """Create an np op; its result."""
        return self.b.create(cls, list(operands), attrs or None,
                             None if type is None else [type]).result

    def const(self, value, t):
        return self.b.insert(npd.ConstantOp.of(value, t)).result

    def ret(self, *values, result_tuple=False):
        self.b.create(func.ReturnOp, list(values))
        ft = T.FunctionType(self.fn.function_type.inputs, tuple(v.type for v in values))
        self.fn.attributes["function_type"] = TypeAttr(ft)
        if result_tuple:
            self.fn.attributes[func.RESULT_TUPLE] = UnitAttr()
        verify(self.module)
        return self


def evaluate(fn: Fn, *args) -> list:
    """NumPy's answer: each op's ``evaluate`` in program order (straight-line code)."""
    env = dict(zip(fn.args, args, strict=True))
    for op in fn.fn.body.ops:
        if isinstance(op, func.ReturnOp):
            return [env[v] for v in op.operands]
        if isinstance(op, npd.ConstantOp):
            env[op.result] = op.value
        else:
            env[op.result] = op.evaluate(*[env[v] for v in op.operands])
    raise AssertionError("no return")


def to_numpy(value, t: T.Type):
    """An interpreter result as NumPy gives it for tensor-level type ``t``."""
    if T.is_weak(t):
        return {"int": int, "float": float, "bool": bool}[T.element_type(t).kind](value)
    dt = T.to_dtype(t)
    if isinstance(t, T.TensorType):
        return value.view(dt) if value.dtype != dt else value
    if T.is_float(t):
        return dt.type(value)
    if dt == np.bool_:
        return np.bool_(value)
    return np.array(value, dtype=dt.str.replace("u", "i")).view(dt)[()]


def lower_and_run(fn: Fn, *args):
    """(results converted to NumPy, the interpreter, the loop-level module)."""
    loops = lower_to_loops(fn.module)
    interp = Interpreter(loops)
    out = interp.call(fn.fn.sym_name, *args)
    types = fn.fn.function_type.results
    return [to_numpy(v, t) for v, t in zip(out, types, strict=True)], interp, loops


def check_same(got, want, rtol=0.0, zero_sign=True):
    """Same type (NumPy scalar/array/Python scalar), dtype, shape and values; NaN == NaN;
    ``rtol`` for floats; sign of zero compared unless ``zero_sign`` is False."""
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), (got, want)
    else:
        assert type(got) is type(want), (type(got), type(want))
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    if w.dtype.kind == "f":
        if rtol:
            np.testing.assert_allclose(g, w, rtol=rtol, atol=rtol, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)
            if zero_sign:
                same = g == w
                assert np.array_equal(np.signbit(g[same]), np.signbit(w[same])), (g, w)
    else:
        np.testing.assert_array_equal(g, w)


def check_against_numpy(fn: Fn, *args, rtol=0.0, zero_sign=True):
    """Lower and interpret ``fn`` on ``args``: the same results as ``evaluate``, or the same
    exception type and message. Also checks that no buffer leaks. Returns the loop module."""
    try:
        with np.errstate(all="ignore"):
            want = evaluate(fn, *args)
    except (ValueError, IndexError, ZeroDivisionError, OverflowError) as e:
        try:
            lower_and_run(fn, *args)
        except type(e) as got:
            assert str(got) == str(e), (str(got), str(e))
            return None
        raise AssertionError(f"expected {type(e).__name__}: {e}") from None
    got, interp, loops = lower_and_run(fn, *args)
    for g, w in zip(got, want, strict=True):
        check_same(g, w, rtol, zero_sign)
    returned = sum(isinstance(t, T.TensorType) for t in fn.fn.function_type.results)
    assert interp.allocated == interp.freed + returned, "leaked or double-freed buffers"
    return loops
