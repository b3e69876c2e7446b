"""Which function converts each kind of AST node. A handler ``handler(cx, node)`` is
registered next to its definition with ``@statement_handler(ast.If)`` or
``@expression_handler(ast.BinOp)``; ``statements.statement`` and ``expressions.expr`` look
it up here. The tables are complete once converter.py has imported the handler modules."""

from __future__ import annotations

STATEMENTS: dict = {}   # ast.stmt subclass -> handler(cx, node) -> None
EXPRESSIONS: dict = {}  # ast.expr subclass -> handler(cx, node) -> frontend value


def _register(table: dict, kinds):
    def register(handler):
        for kind in kinds:
            if kind in table:
                raise ValueError(f"two handlers for ast.{kind.__name__}")
            table[kind] = handler
        return handler
    return register


def statement_handler(*kinds):
    """Register the decorated function as the handler of the statements ``kinds``."""
    return _register(STATEMENTS, kinds)


def expression_handler(*kinds):
    """Register the decorated function as the handler of the expressions ``kinds``."""
    return _register(EXPRESSIONS, kinds)
