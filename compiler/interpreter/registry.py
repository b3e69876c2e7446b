"""The interpreter's rules, keyed by op class: ``rule(interp, op, xs, env) -> results``, where
``xs`` are the operand values and ``env`` maps values to theirs (region ops run their blocks
in it). Each dialect's module of this package registers its rules when imported."""

from __future__ import annotations

from typing import Callable

RULES: dict[type, Callable] = {}


def rule(*classes):
    """Decorator: the rule of the op ``classes``."""
    def register(fn):
        for cls in classes:
            if cls in RULES:
                raise ValueError(f"two interpreter rules for {cls.name}")
            RULES[cls] = fn
        return fn
    return register


def scalar_rules(table: dict) -> None:
    """Rules of ops with one result: ``fn(op, *xs) -> value`` per op class of ``table``."""
    for cls, fn in table.items():
        rule(cls)(lambda interp, op, xs, env, fn=fn: [fn(op, *xs)])
