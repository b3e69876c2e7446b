"""The lowering table: op class -> rule emitting LLVM IR for one op.

A rule is ``rule(fe: FunctionEmitter, op) -> list | None``: it reads its operands' generated
values with ``fe.operands(op)``, emits instructions with ``fe.b`` and returns one generated
value per op result (an LLVM value, or a ``MemRef`` for memref results). The table is keyed
by the exact class (``RULES[type(op)]``): a rule does not apply to subclasses.
"""

from __future__ import annotations

from typing import Callable

from ....tables import registrar

RULES: dict[type, Callable] = {}


rule = registrar(RULES, "LLVM lowering rules")   # @rule(OpClass, ...)
