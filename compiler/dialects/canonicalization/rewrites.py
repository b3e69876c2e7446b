"""Rewrite shapes shared by the dialects' pattern tables, and the table builder.

A rewrite takes an op and returns what replaces it, or None when it does not apply (see
``canonicalization/__init__.py``)."""

from __future__ import annotations

from typing import Callable, Iterable, Sequence

from ...ir.core import Operation, Value

Rewrite = Callable[[Operation], "Value | Sequence[Value] | None"]


def table(rules: Iterable[tuple[type, Rewrite]]) -> dict[type, list[Rewrite]]:
    """``{op class: [rewrite, ...]}`` from ``(op class, rewrite)`` pairs, keeping their order
    (the driver applies the first rewrite that matches)."""
    out: dict[type, list[Rewrite]] = {}
    for cls, rewrite in rules:
        out.setdefault(cls, []).append(rewrite)
    return out


def rhs_identity(pred, applies=lambda v: True) -> Rewrite:
    """``x op c -> x`` when ``pred(c)`` and ``applies(x)``."""
    def rewrite(op: Operation):
        x, c = op.operands
        return x if applies(x) and pred(c) else None
    return rewrite


def same_kind(v: Value, op: Operation) -> Operation | None:
    """The op defining ``v`` when it is of ``op``'s kind, else None."""
    inner = v.owner_op()
    return inner if type(inner) is type(op) else None


def involution(op: Operation):
    """``f(f(x)) -> x`` (negation, bitwise/logical not)."""
    inner = same_kind(op.operands[0], op)
    return inner.operands[0] if inner is not None else None


def idempotent(op: Operation):
    """``f(f(x)) -> f(x)`` (absolute value, rounding)."""
    inner = same_kind(op.operands[0], op)
    return inner.result if inner is not None else None


def same_operands(op: Operation):
    """``f(x, x) -> x`` (max, min, and, or)."""
    a, b = op.operands
    return a if a is b else None
