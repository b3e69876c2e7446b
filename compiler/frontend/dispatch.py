"""Which function converts each kind of AST node. A handler ``handler(cx, node)`` is
registered next to its definition with ``@statement_handler(ast.If)`` or
``@expression_handler(ast.BinOp)``; ``statements.statement`` and ``expressions.expr`` look
it up here. The tables are complete once converter.py has imported the handler modules."""

from __future__ import annotations

from ..tables import registrar

STATEMENTS: dict = {}   # ast.stmt subclass -> handler(cx, node) -> None
EXPRESSIONS: dict = {}  # ast.expr subclass -> handler(cx, node) -> frontend value


# Decorators: ``@statement_handler(ast.If)`` registers the handler of those statements.
statement_handler = registrar(STATEMENTS, "statement handlers")
expression_handler = registrar(EXPRESSIONS, "expression handlers")
