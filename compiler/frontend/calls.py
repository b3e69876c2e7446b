"""Calls: NumPy functions and Python builtins (registry.py, folded when every argument is
known at compile time), array methods, ``compiler.Variable`` methods and user functions,
whose bodies are inlined (inlining.py). A NumPy function that returns a new array never
returns one of its operands or a view of one."""

from __future__ import annotations

import ast
import inspect

from .. import types as T
from ..ir.core import Value
from . import arrays as A
from . import expressions, inlining, lists, mutation, operators, statements, variables
from .dispatch import expression_handler
from .ops import fold
from .registry import BUILTINS, FOLDABLE, METHODS, NUMPY, VIEW_FUNCTIONS, VIEW_METHODS
from .values import (
    RUNTIME,
    BoundMethod,
    Constant,
    ListValue,
    LocalFunction,
    TupleValue,
    compile_time,
    describe,
)


@expression_handler(ast.Call)
def _call(cx, node: ast.Call):
    if lists.is_method_call(cx, node):
        return lists.method_call(cx, node)
    callee = expressions.expr(cx, node.func)
    inlined = _inlined(callee)
    args = []
    for a in node.args:
        if isinstance(a, ast.Starred):
            v = expressions.expr(cx, a.value, optional=inlined)
            if _length(v) is None:
                with cx.at(a):
                    cx.fail("unsupported syntax starred argument of "
                            f"{describe(v)}", "pass the items one by one")
            args.extend(statements.unpack(cx, v, _length(v), a))
        else:
            args.append(expressions.expr(cx, a, optional=inlined))
    kwargs = {}
    for k in node.keywords:
        if k.arg is None:
            with cx.at(k):
                cx.fail("unsupported syntax '**' argument", "pass keywords one by one")
        kwargs[k.arg] = expressions.expr(cx, k.value, optional=inlined)
    with cx.at(node):
        return call(cx, callee, args, kwargs, node)


def call(cx, callee, args, kwargs, node):
    """Call a NumPy function, builtin, array method or user function (inlined)."""
    if isinstance(callee, BoundMethod):
        view = callee.name in VIEW_METHODS
        obj = mutation.array_operand(cx, callee.obj) if view else callee.obj
        return _new_array(cx, METHODS[callee.name](cx, [obj, *args], kwargs),
                          [obj, *args, *kwargs.values()], view)
    if isinstance(callee, variables.VariableMethod):
        return variables.variable_call(cx, callee, args, kwargs)
    fn = callee.value if isinstance(callee, Constant) else None
    rule = _lookup(fn)
    if rule is not None:
        view = _lookup_set(fn, VIEW_FUNCTIONS)
        if view:
            args = [mutation.array_operand(cx, a) for a in args]
        values = [compile_time(a) for a in [*args, *kwargs.values()]]
        # a call that writes into ``out`` is never folded: the write is the point
        if _lookup_set(fn, FOLDABLE) and "out" not in kwargs and not any(
                v is RUNTIME for v in values):
            folded = fold(fn, values[:len(args)], dict(zip(kwargs, values[len(args):],
                                                           strict=True)))
            if folded is not None:
                return operators.exact_int(cx, folded, *[Constant(v) for v in values])
        return _new_array(cx, rule(cx, args, kwargs), [*args, *kwargs.values()], view)
    if any(isinstance(a, ListValue) for a in [*args, *kwargs.values()]):
        cx.fail("passing a list built at run time to a function is not supported",
                "pass np.array(lst)")
    if isinstance(callee, LocalFunction):
        return inlining.inline(cx, None, args, kwargs, callee)
    inner = getattr(fn, "python_function", None)  # a compiler.Function: inline its body
    if inspect.isfunction(inner):
        fn = inner
    if inspect.isfunction(fn) and not _is_numpy(fn):
        return inlining.inline(cx, fn, args, kwargs)
    text = ast.unparse(node.func)
    if fn is None:
        cx.fail(f"{text} ({describe(callee)}) is not callable")
    cx.fail(f"{text} is not supported", "use the supported NumPy functions (listed in "
            "docs/numpy_support.md) or call it outside the compiled function")


def _new_array(cx, result, operands, view: bool):
    """``result`` of a NumPy function or method: one that returns a new array in NumPy is
    copied when grafo computed it as an operand itself or a view of one
    (``np.array(x)``, ``np.concatenate([x])``, ``np.floor`` of integers)."""
    if view or not (isinstance(result, Value) and isinstance(result.type, T.TensorType)):
        return result
    inputs = set()
    for v in operands:
        inputs.update(_arrays_in(v))
    v = result
    while True:
        if v in inputs:
            return A.copy(cx, result)
        found = mutation.view_source(cx, v)
        if found is None:
            return result
        v = found[1]


def _arrays_in(v) -> list:
    if isinstance(v, TupleValue):
        return [a for item in v.items for a in _arrays_in(item)]
    return [v] if isinstance(v, Value) else []


def _inlined(callee) -> bool:
    """Whether a call of ``callee`` inlines a Python function (its arguments may be None)."""
    if isinstance(callee, LocalFunction):
        return True
    fn = callee.value if isinstance(callee, Constant) else None
    fn = getattr(fn, "python_function", fn)
    return _lookup(fn) is None and inspect.isfunction(fn) and not _is_numpy(fn)


def _lookup(fn):
    try:
        return NUMPY.get(fn) or BUILTINS.get(fn)
    except TypeError:  # unhashable
        return None


def _lookup_set(fn, table) -> bool:
    try:
        return fn in table
    except TypeError:
        return False


def _is_numpy(fn) -> bool:
    return (getattr(fn, "__module__", None) or "").split(".")[0] == "numpy"


def _length(v):
    if isinstance(v, TupleValue):
        return len(v.items)
    if isinstance(v, Constant) and isinstance(v.value, (tuple, list)):
        return len(v.value)
    return None
