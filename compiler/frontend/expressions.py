"""Expressions: the dispatch (``expr``), names (locals, enclosing functions' locals,
closures, globals, builtins), constants, tuple and list displays, slices, ``lambda``,
attributes and subscripts. Operators are operators.py's, calls calls.py's, conditional
expressions branches.py's."""

from __future__ import annotations

import ast
import inspect
import types

import numpy as np

from ..effects import Variable
from ..ir.core import Value
from . import globals as module_globals
from . import mutation, variables
from .dispatch import EXPRESSIONS, expression_handler
from .indexing import subscript
from .optional import unwrap
from .registry import ATTRIBUTES, METHODS
from .scope import MISSING
from .values import (
    BoundMethod,
    Constant,
    LocalFunction,
    SliceValue,
    TupleValue,
    Undefined,
    describe,
)

UNSUPPORTED_EXPRESSIONS = {
    "ListComp": ("list comprehension", "use NumPy operations or a for loop"),
    "SetComp": ("set comprehension", "use NumPy operations or a for loop"),
    "DictComp": ("dict comprehension", "use NumPy operations or a for loop"),
    "GeneratorExp": ("generator expression", "use NumPy operations or a for loop"),
    "Yield": ("'yield'", "return the values instead"),
    "YieldFrom": ("'yield from'", "return the values instead"),
    "Await": ("'await'", "compile synchronous code only"),
    "JoinedStr": ("f-string", "format strings outside the compiled function"),
    "Dict": ("dict display", "use separate variables or a tuple"),
    "Set": ("set display", "use a tuple"),
    "NamedExpr": ("assignment expression (:=)", "assign in a separate statement"),
    "Starred": ("starred expression", "pass the items one by one"),
}


def expr(cx, node, optional: bool = False):
    """The frontend value of ``node``; a value that may be None (``OptionalValue``) is
    returned as such with ``optional``, else checked to be present at run time."""
    kind = type(node).__name__
    handler = EXPRESSIONS.get(type(node))
    with cx.at(node):
        if handler is None:
            what, hint = UNSUPPORTED_EXPRESSIONS.get(kind, (f"'{kind}' expression", ""))
            cx.fail(f"unsupported syntax {what}", hint)
        value = handler(cx, node)
        return value if optional else unwrap(cx, value)


@expression_handler(ast.Constant)
def _constant(cx, node: ast.Constant):
    return Constant(node.value)


@expression_handler(ast.Name)
def _name(cx, node: ast.Name):
    return load_name(cx, node.id)


def load_name(cx, name: str):
    """A local's value, else the closure's, global's or builtin's value as a Constant
    (the current value of a global the compiled code rebinds, see globals.py)."""
    if name in cx.frame.declared:
        hidden = module_globals.global_slot(cx, name)
        if hidden is not None:
            return cx.scope[hidden]
    value = cx.scope.get(name, MISSING)
    if isinstance(value, Undefined):
        value.fail(cx.builder.loc)
    if value is not MISSING:
        return value
    value = cx.frame.lookup_enclosing(name)
    if isinstance(value, Undefined):
        value.fail(cx.builder.loc)
    if value is not MISSING:
        return _foreign(cx, value)
    hidden = module_globals.global_slot(cx, name)
    if hidden is not None and not cx.frame.in_closure(name):
        return cx.scope[hidden]
    found = cx.frame.lookup_free(name)
    if found is MISSING:
        cx.fail(f"name '{name}' is not defined")
    if isinstance(found, Variable):
        return variables.variable_value(cx, found)
    return _foreign(cx, Constant(found))


def _foreign(cx, value):
    """A value of a global or an enclosing function: views of its array are read-only."""
    if isinstance(value, Constant) and isinstance(value.value, np.ndarray):
        cx.foreign.add(value)
    return value


@expression_handler(ast.Tuple, ast.List)
def _tuple(cx, node):
    return TupleValue(tuple(expr(cx, e, optional=True) for e in node.elts),
                      isinstance(node, ast.List))


@expression_handler(ast.Slice)
def _slice(cx, node: ast.Slice):
    return SliceValue(*[expr(cx, p, optional=True) if p is not None else Constant(None)
                        for p in (node.lower, node.upper, node.step)])


@expression_handler(ast.Lambda)
def _lambda(cx, node: ast.Lambda):
    return local_function(cx, node)


def local_function(cx, node) -> LocalFunction:
    """A nested ``def``/``lambda``: its signature with the defaults evaluated now."""
    a = node.args
    if a.vararg or a.kwarg:
        cx.fail("nested functions with *args or **kwargs are not supported",
                "list the parameters one by one")
    P = inspect.Parameter
    positional = [*a.posonlyargs, *a.args]
    name = getattr(node, "name", "<lambda>")

    def default(p, d):
        return mutation.shared_default(cx, expr(cx, d), f"{name}(default of {p.arg})")

    first = len(positional) - len(a.defaults)
    defaults = [None] * first + [default(p, d) for p, d in zip(positional[first:],
                                                               a.defaults, strict=True)]
    params = [P(p.arg, P.POSITIONAL_ONLY if k < len(a.posonlyargs) else
                P.POSITIONAL_OR_KEYWORD, default=P.empty if d is None else d)
              for k, (p, d) in enumerate(zip(positional, defaults, strict=True))]
    params += [P(p.arg, P.KEYWORD_ONLY, default=P.empty if d is None else default(p, d))
               for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
    return LocalFunction(node, cx.frame, inspect.Signature(params))


@expression_handler(ast.Attribute)
def _attribute(cx, node: ast.Attribute):
    var = variables.variable_named(cx, node.value.id) if isinstance(node.value, ast.Name) else None
    if var is not None:
        return variables.variable_attribute(cx, var, node.attr)
    return attribute(cx, expr(cx, node.value), node.attr)


def attribute(cx, obj, name: str):
    """``obj.name``: module/class/dtype/ufunc attributes (``np.add.reduce``), array
    attributes and methods."""
    if isinstance(obj, Constant) and isinstance(obj.value, (types.ModuleType, type,
                                                            np.dtype, np.ufunc)):
        try:
            return Constant(getattr(obj.value, name))
        except AttributeError as e:
            cx.fail(str(e))
    if isinstance(obj, Value) or (isinstance(obj, Constant) and isinstance(
            obj.value, (np.ndarray, np.generic))):
        if name in ATTRIBUTES:
            views = name in ("T", "real", "imag")
            return ATTRIBUTES[name](cx, mutation.array_operand(cx, obj) if views else obj)
        if name in METHODS:
            return BoundMethod(obj, name)
        cx.fail(f"array attribute '{name}' is not supported")
    cx.fail(f"attribute '{name}' of {describe(obj)} is not supported",
            "lists have a fixed length here: build arrays with NumPy (np.zeros(n), "
            "np.concatenate, np.stack) instead" if getattr(obj, "is_list", False) else "")


@expression_handler(ast.Subscript)
def _subscript(cx, node: ast.Subscript):
    value = mutation.array_operand(cx, expr(cx, node.value))
    index = expr(cx, node.slice, optional=True)  # None is np.newaxis: see indexing._index
    return subscript(cx, value, index)
