"""The lowering table: op class -> rule emitting LLVM IR for one op.

A rule is ``rule(fe: FunctionEmitter, op) -> list | None``: it reads its operands' generated
values with ``fe.operands(op)``, emits instructions with ``fe.b`` and returns one generated
value per op result (an LLVM value, or a ``MemRef`` for memref results). The table is keyed
by the exact class (``RULES[type(op)]``): a rule does not apply to subclasses.
"""

from __future__ import annotations

from typing import Callable

RULES: dict[type, Callable] = {}


def rule(*ops: type):
    """Register the decorated function as the lowering of the op classes ``ops``."""
    def register(fn):
        for cls in ops:
            if cls in RULES:
                raise ValueError(f"two LLVM lowering rules for {cls.name}")
            RULES[cls] = fn
        return fn
    return register
