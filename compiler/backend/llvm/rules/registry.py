"""The lowering table: op name -> rule emitting LLVM IR for one op.

A rule is ``rule(fe: FunctionEmitter, op) -> list | None``: it reads its operands' generated
values with ``fe.operands(op)``, emits instructions with ``fe.b`` and returns one generated
value per op result (an LLVM value, or a ``MemRef`` for memref results).
"""

from __future__ import annotations

from typing import Callable

RULES: dict[str, Callable] = {}


def rule(*names: str):
    """Register the decorated function as the lowering of ops ``names``."""
    def register(fn):
        for n in names:
            if n in RULES:
                raise ValueError(f"two LLVM lowering rules for {n}")
            RULES[n] = fn
        return fn
    return register
