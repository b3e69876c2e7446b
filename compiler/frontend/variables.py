"""``compiler.Variable`` inside compiled functions: hidden array arguments with write-back.

``find_variables(fn)`` lists the Variables ``fn`` can reach by name: its globals and closure
cells and, recursively, those of the Python functions (and ``compiler.Function`` s) they name.
Each becomes an extra trailing argument of the compiled function (a tensor of the Variable's
fixed dtype and shape, 0-d for a scalar) bound to the hidden name ``%var:k`` and tracked like
an array parameter, so updates flow through branches, loops and inlined calls and are written
back into the Variable's buffer on every call (``np.write_back``). Reading ``v`` (or
``v.value``, ``v.numpy()``) gives the current value; ``v.assign(x)``,
``v.assign_add(x)``, ``v.assign_sub(x)`` rebind it to an updated copy (``x`` broadcast and cast
as NumPy's ``a[...] = x``). ``State.var_names`` maps each Variable to its hidden name.
"""

from __future__ import annotations

import ast
import inspect
import types
from dataclasses import dataclass

from .. import types as T
from ..effects import Variable
from . import expressions, mutation, operators, tracking
from .scope import MISSING, VAR
from .values import Constant


def find_variables(fn) -> list:
    """The Variables reachable from ``fn``'s globals and closure, in discovery order."""
    return [v for v in _reachable(fn) if isinstance(v, Variable)]


def reachable_functions(fn) -> list:
    """``fn`` and the Python functions reachable from its globals and closure."""
    return [f for f in _reachable(fn) if inspect.isfunction(f)]


def _reachable(fn) -> list:
    """The Python functions and Variables reachable from ``fn``, in discovery order."""
    found, seen = [], set()

    def visit_function(f):
        f = getattr(f, "python_function", f)
        if not inspect.isfunction(f) or id(f) in seen:
            return
        seen.add(id(f))
        found.append(f)
        code = f.__code__
        cells = dict(zip(code.co_freevars, f.__closure__ or (), strict=True))
        for name in _names(code):
            if name in cells:
                try:
                    visit_value(cells[name].cell_contents)
                except ValueError:
                    pass
            elif name in f.__globals__:
                visit_value(f.__globals__[name])

    def visit_value(v):
        if isinstance(v, Variable):
            if not any(v is w for w in found):
                found.append(v)
        else:
            visit_function(v)

    visit_function(fn)
    return found


def _names(code: types.CodeType):
    yield from code.co_names
    yield from code.co_freevars
    for c in code.co_consts:
        if isinstance(c, types.CodeType):
            yield from _names(c)


@dataclass(frozen=True, eq=False)
class VariableMethod:
    """``v.assign`` (etc.) before it is called."""

    var: Variable
    name: str


def bind_variables(cx, variables, args) -> None:
    """Bind the hidden arguments ``args`` of ``variables`` in the compiled function."""
    cx.var_names = {}
    for k, (var, arg) in enumerate(zip(variables, args, strict=True)):
        name = cx.var_names[id(var)] = f"{VAR}{k}"
        cx.scope[name] = arg
        tracking.track(cx, name)


def variable_named(cx, name: str):
    """The Variable a free name denotes, or None (locals shadow globals)."""
    if cx.scope.get(name, MISSING) is not MISSING \
            or cx.frame.lookup_enclosing(name) is not MISSING:
        return None
    found = cx.frame.lookup_free(name)
    return found if isinstance(found, Variable) else None


def variable_value(cx, var: Variable):
    """The current value of ``var`` in this function."""
    name = cx.var_names.get(id(var))
    if name is None or name not in cx.scope.names:
        cx.fail("this compiler.Variable is not reachable by name from the compiled "
                "function's globals or closure",
                "refer to the Variable by a global or closure name")
    return cx.scope[name]


def variable_attribute(cx, var: Variable, attr: str):
    """``v.attr``: its value, an update method, or an array attribute of its value."""
    if attr == "value":
        return variable_value(cx, var)
    if attr in ("numpy", "assign", "assign_add", "assign_sub"):
        return VariableMethod(var, attr)
    return expressions.attribute(cx, variable_value(cx, var), attr)


def variable_call(cx, method: VariableMethod, args, kwargs):
    """``v.numpy()``, ``v.assign(x)``, ``v.assign_add(x)``, ``v.assign_sub(x)``."""
    if kwargs or len(args) != (0 if method.name == "numpy" else 1):
        cx.fail(f"Variable.{method.name}() takes "
                f"{'no' if method.name == 'numpy' else 'one'} positional argument")
    current = variable_value(cx, method.var)
    if method.name == "numpy":
        return current
    new = args[0]
    if method.name != "assign":
        op = ast.Add() if method.name == "assign_add" else ast.Sub()
        new = operators.binary(cx, op, current, new)
    updated = mutation.setitem(cx, current, Constant(()), new)
    cx.scope[cx.var_names[id(method.var)]] = updated
    return Constant(None)


def variable_types(variables) -> list:
    """The tensor types of the hidden arguments of ``variables``."""
    return [T.TensorType(v.shape, T.from_dtype(v.dtype)) for v in variables]
