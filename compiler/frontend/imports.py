"""``import`` statements inside a compiled function: ``import numpy as np``, ``import math``,
``import numpy.linalg as la``, ``from numpy import sin, cos as c``, ``from . import helpers``.

The module or object is imported when the function is compiled and bound to the local name
as a compile-time ``Constant``, as the statement binds it when Python runs it (``import a.b``
binds ``a``; ``import a.b as m`` binds the submodule; ``from m import x`` takes the attribute
``x`` of ``m``, else the submodule ``m.x``). Something that cannot be imported then is a
CompileError at the statement, with Python's ImportError message."""

from __future__ import annotations

import ast
import importlib

from . import statements
from .ast_scan import imported_name
from .dispatch import statement_handler
from .values import Constant


def _globals(cx) -> dict:
    """The module globals of the function whose body is being converted (a nested
    ``def``'s are its defining function's)."""
    frame = cx.frame
    while frame.parent is not None:
        frame = frame.parent
    return getattr(frame.fn, "__globals__", {})


def _import(cx, name: str, level: int = 0):
    """``importlib.import_module`` of ``name`` (relative to the function's package for
    ``level`` > 0); its ImportError becomes a CompileError at the statement."""
    g = _globals(cx)
    package = g.get("__package__") or g.get("__name__", "").rpartition(".")[0]
    target = "." * level + name
    try:
        return importlib.import_module(target, package if level else None)
    except ImportError as e:
        cx.fail(str(e), "import only modules that are installed where the function is "
                "compiled", ImportError)
    except (TypeError, ValueError) as e:  # a relative import outside a package
        cx.fail(f"attempted relative import with no known parent package ({e})",
                "use an absolute import", ImportError)


def _bind(cx, name: str, value) -> None:
    statements.assign(cx, ast.Name(id=name, ctx=ast.Store()), Constant(value))


@statement_handler(ast.Import)
def _import_statement(cx, node: ast.Import) -> None:
    for alias in node.names:
        module = _import(cx, alias.name)
        name = imported_name(alias)
        _bind(cx, name, module if alias.asname is not None else _import(cx, name))


@statement_handler(ast.ImportFrom)
def _import_from(cx, node: ast.ImportFrom) -> None:
    module = _import(cx, node.module or "", node.level)
    for alias in node.names:
        if alias.name == "*":
            cx.fail("unsupported syntax 'from ... import *'", "import the names one by one")
        try:
            value = getattr(module, alias.name)
        except AttributeError:
            sub = f"{module.__name__}.{alias.name}"
            try:
                value = importlib.import_module(sub)
            except ImportError:
                cx.fail(f"cannot import name '{alias.name}' from '{module.__name__}'",
                        "check the name, or import it at module level", ImportError)
        _bind(cx, imported_name(alias), value)
