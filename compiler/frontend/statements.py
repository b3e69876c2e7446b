"""Statements: assignment (names, tuple unpacking), augmented assignment, expression
statements, ``return``, ``break``, ``continue`` and ``pass``; everything else is a
CompileError naming the construct. ``if``/``for``/``while`` live in control_flow.py."""

from __future__ import annotations

import ast
import functools

from ..ir.core import Value
from .indexing import subscript
from .scope import BROKE, CONTINUED, RETURNED, RETVAL
from .values import Constant, TupleValue, describe

UNSUPPORTED_STATEMENTS = {
    "Try": ("'try' statement", "write the computation without exceptions"),
    "TryStar": ("'try' statement", "write the computation without exceptions"),
    "With": ("'with' statement", "move the context manager outside the compiled function"),
    "AsyncWith": ("'async with' statement", "compile synchronous code only"),
    "AsyncFor": ("'async for' statement", "compile synchronous code only"),
    "ClassDef": ("class definition", "define classes outside the compiled function"),
    "FunctionDef": ("nested function definition",
                    "define the function at module level; calls to it are inlined"),
    "AsyncFunctionDef": ("nested function definition", "compile synchronous code only"),
    "Global": ("'global' statement",
               "pass the value as an argument and return the new value instead"),
    "Nonlocal": ("'nonlocal' statement",
                 "pass the value as an argument and return the new value instead"),
    "Raise": ("'raise' statement", "check the condition outside the compiled function"),
    "Assert": ("'assert' statement", "check the condition outside the compiled function"),
    "Delete": ("'del' statement", "rebind the name instead"),
    "Import": ("'import' statement", "import at module level"),
    "ImportFrom": ("'import' statement", "import at module level"),
    "Match": ("'match' statement", "use if/elif/else"),
}


class StatementMixin:
    """Statement conversion for ``Converter``."""

    def statements(self, stmts) -> None:
        """Convert a block of statements; stops at unreachable code and puts the rest of the
        block under a guard once a ``break``/``continue``/``return`` may have run."""
        for k, stmt in enumerate(stmts):
            if self.scope.terminated:
                return
            if self.scope.pending_flags():
                self.guarded(functools.partial(self.statements, stmts[k:]))
                return
            self.statement(stmt)

    def statement(self, node) -> None:
        kind = type(node).__name__
        method = getattr(self, "_stmt_" + kind, None)
        with self.at(node):
            if method is None:
                what, hint = UNSUPPORTED_STATEMENTS.get(kind, (f"'{kind}' statement", ""))
                self.fail(f"unsupported syntax {what}", hint)
            method(node)

    def _stmt_Pass(self, node) -> None:
        pass

    def _stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        self.expr(node.value)

    def _stmt_Assign(self, node: ast.Assign) -> None:
        value = self.expr(node.value)
        for target in node.targets:
            self.assign(target, value)

    def _stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.expr(node.value))

    def _stmt_AugAssign(self, node: ast.AugAssign) -> None:
        if not isinstance(node.target, ast.Name):
            self._bad_target(node.target)
        current = self.load_name(node.target.id)
        rhs = self.expr(node.value)
        with self.at(node):
            self.assign(node.target, self.binary(node.op, current, rhs))

    def _stmt_Return(self, node: ast.Return) -> None:
        value = self.expr(node.value) if node.value is not None else Constant(None)
        if len(self.frames) == 1 and _is_nested_tuple(value):
            self.fail("returning nested tuples is not supported",
                      "return a flat tuple of arrays and scalars")
        self.scope[RETVAL] = value
        self.scope[RETURNED] = Constant(True)
        self.scope.terminated = self.scope.returned = True

    def _stmt_Break(self, node) -> None:
        self.scope[BROKE] = Constant(True)
        self.scope.terminated = True

    def _stmt_Continue(self, node) -> None:
        self.scope[CONTINUED] = Constant(True)
        self.scope.terminated = True

    def assign(self, target, value) -> None:
        """Bind ``target`` (a name or a tuple/list of targets) to ``value``."""
        if isinstance(target, ast.Name):
            self.scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(t, ast.Starred) for t in target.elts):
                with self.at(target):
                    self.fail("unsupported syntax starred assignment target",
                              "unpack a fixed number of values")
            for t, v in zip(target.elts, self.unpack(value, len(target.elts), target), strict=True):
                self.assign(t, v)
        else:
            self._bad_target(target)

    def unpack(self, value, n: int, node) -> list:
        """The ``n`` items of a tuple, or the rows of an array with a static first dim."""
        with self.at(node):
            if isinstance(value, Constant) and isinstance(value.value, (tuple, list)):
                value = TupleValue(tuple(Constant(v) for v in value.value))
            if isinstance(value, Value) and getattr(value.type, "shape", ()) \
                    and value.type.shape[0] is not None:
                value = TupleValue(tuple(subscript(self, value, Constant(k))
                                         for k in range(value.type.shape[0])))
            if not isinstance(value, TupleValue):
                self.fail(f"cannot unpack {describe(value)}",
                          "unpack tuples or arrays whose first dimension is static")
            if len(value.items) != n:
                self.fail(f"too many values to unpack (expected {n})" if len(value.items) > n
                          else f"not enough values to unpack (expected {n}, got "
                               f"{len(value.items)})")
            return list(value.items)

    def _bad_target(self, target) -> None:
        with self.at(target):
            if isinstance(target, ast.Subscript):
                self.fail("assignment to an array element or slice is not supported yet",
                          "compute the new array (np.where or arithmetic) and "
                          "rebind the name")
            self.fail(f"unsupported assignment target {type(target).__name__.lower()}",
                      "assign to a plain variable name")


def _is_nested_tuple(value) -> bool:
    if isinstance(value, Constant) and isinstance(value.value, tuple):
        value = TupleValue(tuple(Constant(v) for v in value.value))
    return isinstance(value, TupleValue) and any(
        isinstance(v, TupleValue) or (isinstance(v, Constant) and isinstance(v.value, tuple))
        for v in value.items)
