"""Canonicalization patterns of the ``grafo`` dialect."""

from __future__ import annotations

from ...ir.core import Operation
from .. import grafo
from .matchers import all_true
from .rewrites import table


def passing_check(op: Operation):
    """A ``grafo.check`` whose condition is the constant true can never fail: it goes (no
    values replace it)."""
    return [] if all_true(op.condition) else None


PATTERNS = table([
    (grafo.CheckOp, passing_check),
])
