"""Constant folding (MLIR's ``fold`` hooks as run by its canonicalizer and ``-test-constant-fold``).

An op with the ``Pure`` trait whose operands all come from ``ConstantLike`` ops is evaluated
at compile time and replaced by a constant: ops with an ``evaluate`` method (the ``np``
dialect's NumPy reference semantics) through it, others through their ``Operation.fold``
hook (which may also fold with only some operands constant, returning Attributes or Values).
Constants are materialized as ``np.constant`` for ``np`` ops and ``arith.constant`` otherwise,
as MLIR's ``Dialect::materializeConstant`` does.

An op is left alone when evaluation raises (it must still fail at run time: non-strict
semantics), when its result is a tensor of dynamic shape or of more than
``MAX_FOLD_ELEMENTS`` elements, or when it lacks the ``Pure`` trait.
"""

from __future__ import annotations

import math

import numpy as np

from .. import types as T
from ..dialects.canonicalization.constants import constant_attr, materialize, numpy_value
from ..ir.attributes import Attribute, DenseAttr, scalar_attr
from ..ir.core import Operation, Value
from ..ir.opdef import ConstantLike, Pure, Terminator
from .manager import Pass

MAX_FOLD_ELEMENTS = 1024


def _foldable(op: Operation) -> bool:
    return (op.has_trait(Pure) and not op.has_trait(ConstantLike)
            and not op.has_trait(Terminator) and not op.regions and bool(op.results))


def _small_static(t: T.Type) -> bool:
    shape = T.shape_of(t)
    return None not in shape and math.prod(shape) <= MAX_FOLD_ELEMENTS


def _evaluate(op: Operation, attrs: list) -> list | None:
    """Results of ``op.evaluate`` as attributes, or None when it raises or does not fit."""
    if len(op.results) != 1 or not _small_static(op.result.type):
        return None
    args = [numpy_value(a, v.type) for a, v in zip(attrs, op.operands, strict=True)]
    if any(a is None for a in args):
        return None
    t = op.result.type
    try:
        out = np.asarray(op.evaluate(*args), dtype=T.to_dtype(t))
    except Exception:  # any failure: keep the op so that it fails at run time
        return None
    if out.shape != T.shape_of(t):
        return None
    if isinstance(t, T.TensorType):
        out = out.copy()
        out.flags.writeable = False
        return [DenseAttr(out, t)]
    return [scalar_attr(out.item(), t)]


def fold_op(op: Operation) -> bool:
    """Fold ``op`` in place if possible (see the module docstring); True if it was replaced."""
    if not _foldable(op):
        return False
    attrs = [constant_attr(v) for v in op.operands]
    if hasattr(op, "evaluate"):
        results = _evaluate(op, attrs) if all(a is not None for a in attrs) else None
    else:
        results = op.fold(attrs)
    if not results or len(results) != len(op.results):
        return False
    if any(isinstance(r, Attribute) and not _small_static(res.type)
           for r, res in zip(results, op.results, strict=True)):
        return False
    values = [r if isinstance(r, Value) else materialize(op, r, res.type)
              for r, res in zip(results, op.results, strict=True)]
    op.replace_with(values)
    return True


class FoldPass(Pass):
    """Constant folding over the whole module in one forward sweep, so chains of constant
    ops fold completely (MLIR: ``-test-constant-fold``). The constants the folded ops used
    stay in place; ``dce`` removes the unused ones."""

    name = "fold"

    def run(self, module: Operation) -> None:
        for op in list(module.walk()):
            if op.parent is not None:
                fold_op(op)
