"""Statements: blocks (``block``: unreachable code dropped, the rest of a block guarded once
a ``break``/``continue``/``return`` may have run), assignment (names, tuple unpacking, array
items), augmented assignment, expression statements, ``assert``, nested ``def``, ``return``,
``break``, ``continue`` and ``pass``; everything else is a CompileError naming the construct.
``if`` is branches.py's, ``for``/``while`` loops.py's, writes into arrays
item_assignment.py's."""

from __future__ import annotations

import ast
import functools

from .. import types as T
from ..dialects.grafo import CheckOp
from ..ir.attributes import StringAttr
from ..ir.core import Value
from . import branches, expressions, item_assignment, lists, operators, tracking
from . import globals as module_globals
from .dispatch import STATEMENTS, statement_handler
from .indexing import subscript
from .ops import materialize, truth
from .optional import unwrap
from .scope import BROKE, CONTINUED, RETURNED, RETVAL
from .values import Constant, ListValue, TupleValue, describe

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
    "Match": ("'match' statement", "use if/elif/else"),
}


def block(cx, stmts) -> None:
    """Convert a block of statements; stops at unreachable code and puts the rest of the
    block under a guard once a ``break``/``continue``/``return`` may have run."""
    for k, stmt in enumerate(stmts):
        if cx.scope.terminated:
            return
        if cx.scope.pending_flags():
            branches.guarded(cx, functools.partial(block, cx, stmts[k:]))
            return
        statement(cx, stmt)


def statement(cx, node) -> None:
    """Convert one statement with the handler registered for its kind (dispatch.py)."""
    kind = type(node).__name__
    handler = STATEMENTS.get(type(node))
    with cx.at(node):
        if handler is None:
            what, hint = UNSUPPORTED_STATEMENTS.get(kind, (f"'{kind}' statement", ""))
            cx.fail(f"unsupported syntax {what}", hint)
        handler(cx, node)


@statement_handler(ast.Pass)
def _pass(cx, node) -> None:
    pass


@statement_handler(ast.Global)
def _global(cx, node) -> None:
    """Declarations take effect for the whole body (``Frame.declared``, globals.py)."""


@statement_handler(ast.Expr)
def _expression(cx, node: ast.Expr) -> None:
    if isinstance(node.value, ast.Constant) and isinstance(node.value.value, str):
        return  # docstring
    expressions.expr(cx, node.value)


@statement_handler(ast.Assign)
def _assign(cx, node: ast.Assign) -> None:
    value = expressions.expr(cx, node.value, optional=True)
    if len(node.targets) == 1 and lists.is_grown(cx, node.targets[0], node.value):
        value = lists.from_display(cx, value)
    elif isinstance(value, ListValue):
        cx.fail("a second name for a list built at run time is not supported (the two "
                "names would share one list)", "use one name, or copy it with list(...)")
    for target in node.targets:
        assign(cx, target, value)


@statement_handler(ast.AnnAssign)
def _annotated(cx, node: ast.AnnAssign) -> None:
    if node.value is not None:
        assign(cx, node.target, expressions.expr(cx, node.value, optional=True))


@statement_handler(ast.AugAssign)
def _augmented(cx, node: ast.AugAssign) -> None:
    if isinstance(node.target, ast.Subscript):
        item_assignment.augassign_item(cx, node)
        return
    if item_assignment.is_part(node.target):
        item_assignment.augassign_array(cx, node, item_assignment.part_view(cx, node.target))
        return
    if not isinstance(node.target, ast.Name):
        _bad_target(cx, node.target)
    current = unwrap(cx, expressions.load_name(cx, node.target.id))
    if isinstance(current, Value) and isinstance(current.type, T.TensorType):
        item_assignment.augassign_array(cx, node, current)
        return
    if isinstance(current, Value):
        with cx.at(node):
            item_assignment.check_scalar_update(cx, node, current)
    rhs = expressions.expr(cx, node.value)
    with cx.at(node):
        assign(cx, node.target, operators.binary(cx, node.op, current, rhs))


@statement_handler(ast.Return)
def _return(cx, node: ast.Return) -> None:
    value = expressions.expr(cx, node.value, optional=True) if node.value is not None \
        else Constant(None)
    if isinstance(value, ListValue):
        cx.fail("returning a list built at run time is not supported",
                "return np.array(lst) instead")
    cx.frame.return_loc = cx.loc(node.value or node)
    cx.scope[RETVAL] = value
    cx.scope[RETURNED] = Constant(True)
    tracking.record_exit(cx)
    cx.scope.terminated = cx.scope.returned = True


@statement_handler(ast.Assert)
def _assert(cx, node: ast.Assert) -> None:
    """``assert test, msg``: AssertionError(msg) at run time when ``test`` is false (the
    message must be known at compile time)."""
    test = expressions.expr(cx, node.test, optional=True)
    msg = expressions.expr(cx, node.msg) if node.msg is not None else Constant("")
    if not isinstance(msg, Constant):
        with cx.at(node.msg):
            cx.fail("an assert message must be known at compile time",
                    "use a string literal as the message")
    with cx.at(node.test):
        cond = materialize(cx, truth(cx, test))
    text = str(msg.value).replace("{", "{{").replace("}", "}}")
    cx.emit_op(CheckOp, [cond], {"kind": StringAttr("AssertionError"),
                                 "message": StringAttr(text)})


@statement_handler(ast.FunctionDef)
def _def(cx, node: ast.FunctionDef) -> None:
    if node.decorator_list:
        with cx.at(node.decorator_list[0]):
            cx.fail("decorators on nested functions are not supported",
                    "call the decorated function defined at module level")
    for n in ast.walk(node):
        if isinstance(n, ast.Nonlocal):
            statement(cx, n)  # a CompileError naming the statement
    tracking.before_rebind(cx, node.name)
    cx.scope[node.name] = expressions.local_function(cx, node)


@statement_handler(ast.Break)
def _break(cx, node) -> None:
    cx.scope[BROKE] = Constant(True)
    cx.scope.terminated = True


@statement_handler(ast.Continue)
def _continue(cx, node) -> None:
    cx.scope[CONTINUED] = Constant(True)
    cx.scope.terminated = True


def assign(cx, target, value) -> None:
    """Bind ``target`` (a name or a tuple/list of targets) to ``value``."""
    if isinstance(target, ast.Name):
        if module_globals.store_global(cx, target.id, value):
            return
        tracking.before_rebind(cx, target.id)
        cx.scope[target.id] = value
    elif isinstance(target, ast.Subscript):
        item_assignment.assign_item(cx, target, value)
    elif item_assignment.is_part(target):
        item_assignment.assign_part(cx, target, value)
    elif isinstance(target, (ast.Tuple, ast.List)):
        if any(isinstance(t, ast.Starred) for t in target.elts):
            with cx.at(target):
                cx.fail("unsupported syntax starred assignment target",
                        "unpack a fixed number of values")
        for t, v in zip(target.elts, unpack(cx, value, len(target.elts), target), strict=True):
            assign(cx, t, v)
    else:
        _bad_target(cx, target)


def unpack(cx, value, n: int, node) -> list:
    """The ``n`` items of a tuple, or the rows of an array with a static first dim."""
    with cx.at(node):
        if isinstance(value, Constant) and isinstance(value.value, (tuple, list)):
            value = TupleValue(tuple(Constant(v) for v in value.value))
        if isinstance(value, Value) and getattr(value.type, "shape", ()) \
                and value.type.shape[0] is not None:
            value = TupleValue(tuple(subscript(cx, value, Constant(k))
                                     for k in range(value.type.shape[0])))
        if not isinstance(value, TupleValue):
            cx.fail(f"cannot unpack {describe(value)}",
                    "unpack tuples or arrays whose first dimension is static")
        if len(value.items) != n:
            cx.fail(f"too many values to unpack (expected {n})" if len(value.items) > n
                    else f"not enough values to unpack (expected {n}, got "
                         f"{len(value.items)})")
        return list(value.items)


def _bad_target(cx, target) -> None:
    with cx.at(target):
        cx.fail(f"unsupported assignment target {type(target).__name__.lower()}",
                "assign to a plain variable name")
