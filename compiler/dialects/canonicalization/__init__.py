"""Canonicalization patterns, kept with their dialects as MLIR's ``getCanonicalizationPatterns``
and xDSL's ``canonicalization_patterns`` are: ``np.py``, ``arith.py`` and ``grafo.py`` each
hold a table ``op class -> [rewrite, ...]`` for their dialect's ops (tinygrad-style pattern
tables); ``PATTERNS`` merges them for the greedy driver, ``passes/canonicalize.py``.

A rewrite takes the op and returns what replaces it, or None when it does not apply: the
value replacing its single result, or a list of values, one per result (an empty list erases
an op without results). It may insert new ops before the op (``Builder(op.parent,
before=op)``). The driver moves a constant operand of a ``Commutative`` op second first, so a
rewrite of a binary op only looks at ``x op c``, and it uses a replacement only when its types
are exactly the results' types, so broadcasting rewrites (``x + zeros((3, 4))`` with ``x`` of
shape (4,)) never apply.
"""

from __future__ import annotations

from . import arith, grafo, np
from .rewrites import Rewrite

PATTERNS: dict[type, list[Rewrite]] = {**np.PATTERNS, **arith.PATTERNS, **grafo.PATTERNS}

__all__ = ["PATTERNS", "Rewrite"]
