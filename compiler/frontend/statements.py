"""Statements: assignment (names, tuple unpacking, array items), augmented assignment,
expression statements, ``assert``, nested ``def``, ``return``, ``break``, ``continue`` and
``pass``; everything else is a
CompileError naming the construct. ``if``/``for``/``while`` live in control_flow.py."""

from __future__ import annotations

import ast
import functools

from .. import types as T
from ..dialects.grafo import CheckOp
from ..ir.attributes import StringAttr
from ..ir.core import Value
from .indexing import subscript
from .ops import materialize, truth
from .optional import unwrap
from .scope import BROKE, CONTINUED, RETURNED, RETVAL
from .values import Constant, TupleValue, describe

UNSUPPORTED_STATEMENTS = {
    "Try": ("'try' statement", "write the computation without exceptions"),
    "TryStar": ("'try' statement", "write the computation without exceptions"),
    "With": ("'with' statement", "move the context manager outside the compiled function"),
    "AsyncWith": ("'async with' statement", "compile synchronous code only"),
    "AsyncFor": ("'async for' statement", "compile synchronous code only"),
    "ClassDef": ("class definition", "define classes outside the compiled function"),
    "AsyncFunctionDef": ("nested function definition", "compile synchronous code only"),
    "Nonlocal": ("'nonlocal' statement",
                 "pass the value as an argument and return the new value instead"),
    "Raise": ("'raise' statement", "check the condition outside the compiled function"),
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

    def _stmt_Global(self, node) -> None:
        """Declarations take effect for the whole body (``Frame.declared``, globals.py)."""

    def _stmt_Expr(self, node: ast.Expr) -> None:
        if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
            return  # docstring
        self.expr(node.value)

    def _stmt_Assign(self, node: ast.Assign) -> None:
        value = self.expr(node.value, optional=True)
        for target in node.targets:
            self.assign(target, value)

    def _stmt_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.assign(node.target, self.expr(node.value, optional=True))

    def _stmt_AugAssign(self, node: ast.AugAssign) -> None:
        if isinstance(node.target, ast.Subscript):
            self.augassign_item(node)
            return
        if not isinstance(node.target, ast.Name):
            self._bad_target(node.target)
        current = unwrap(self, self.load_name(node.target.id))
        if isinstance(current, Value) and isinstance(current.type, T.TensorType):
            self.augassign_array(node, current)
            return
        rhs = self.expr(node.value)
        with self.at(node):
            self.assign(node.target, self.binary(node.op, current, rhs))

    def _stmt_Return(self, node: ast.Return) -> None:
        value = self.expr(node.value, optional=True) if node.value is not None \
            else Constant(None)
        self.frame.return_loc = self.loc(node.value or node)
        self.scope[RETVAL] = value
        self.scope[RETURNED] = Constant(True)
        self.record_exit()
        self.scope.terminated = self.scope.returned = True

    def _stmt_Assert(self, node: ast.Assert) -> None:
        """``assert test, msg``: AssertionError(msg) at run time when ``test`` is false (the
        message must be known at compile time)."""
        test = self.expr(node.test, optional=True)
        msg = self.expr(node.msg) if node.msg is not None else Constant("")
        if not isinstance(msg, Constant):
            with self.at(node.msg):
                self.fail("an assert message must be known at compile time",
                          "use a string literal as the message")
        with self.at(node.test):
            cond = materialize(self, truth(self, test))
        text = str(msg.value).replace("{", "{{").replace("}", "}}")
        self.emit_op(CheckOp, [cond], {"kind": StringAttr("AssertionError"),
                                       "message": StringAttr(text)})

    def _stmt_FunctionDef(self, node: ast.FunctionDef) -> None:
        if node.decorator_list:
            with self.at(node.decorator_list[0]):
                self.fail("decorators on nested functions are not supported",
                          "call the decorated function defined at module level")
        for n in ast.walk(node):
            if isinstance(n, ast.Nonlocal):
                self.statement(n)  # a CompileError naming the statement
        self.before_rebind(node.name)
        self.scope[node.name] = self.local_function(node)

    def _stmt_Break(self, node) -> None:
        self.scope[BROKE] = Constant(True)
        self.scope.terminated = True

    def _stmt_Continue(self, node) -> None:
        self.scope[CONTINUED] = Constant(True)
        self.scope.terminated = True

    def assign(self, target, value) -> None:
        """Bind ``target`` (a name or a tuple/list of targets) to ``value``."""
        if isinstance(target, ast.Name):
            if self.store_global(target.id, value):
                return
            self.before_rebind(target.id)
            self.scope[target.id] = value
        elif isinstance(target, ast.Subscript):
            self.assign_item(target, value)
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
            self.fail(f"unsupported assignment target {type(target).__name__.lower()}",
                      "assign to a plain variable name")

