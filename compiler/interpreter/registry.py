"""The interpreter's rules, keyed by op class: ``rule(interp, op, xs, env) -> results``, where
``xs`` are the operand values and ``env`` maps values to theirs (region ops run their blocks
in it). Each dialect's module of this package registers its rules when imported."""

from __future__ import annotations

from typing import Callable

from ..tables import registrar

RULES: dict[type, Callable] = {}


rule = registrar(RULES, "interpreter rules")   # @rule(OpClass, ...)


def scalar_rules(table: dict) -> None:
    """Rules of ops with one result: ``fn(op, *xs) -> value`` per op class of ``table``."""
    for cls, fn in table.items():
        rule(cls)(lambda interp, op, xs, env, fn=fn: [fn(op, *xs)])
