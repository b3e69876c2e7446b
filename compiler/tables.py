"""Dispatch tables filled by decorators: the lowering's, the LLVM backend's and the
interpreter's rules by op class, the frontend's handlers by AST node class."""

from __future__ import annotations

from typing import Callable


def registrar(table: dict, what: str) -> Callable:
    """A decorator factory filling ``table``: ``@rule(A, B)`` maps the keys ``A`` and ``B``
    to the decorated function. A second entry for a key raises ValueError("two <what> for
    <key>"), so two modules cannot silently claim one op."""
    def rule(*keys):
        def register(fn):
            for key in keys:
                if key in table:
                    raise ValueError(f"two {what} for {_key_name(key)}")
                table[key] = fn
            return fn
        return register
    return rule


def _key_name(key) -> str:
    name = getattr(key, "name", None)   # an op class's name; AST classes have none
    return name if isinstance(name, str) else key.__name__
