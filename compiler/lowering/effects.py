"""Lowering of ``grafo.print``: the same op at the loop level, on memrefs and scalars.

A tensor operand that is not already a buffer (a fused expression) is materialized into a
temporary first; the op's attributes (text pieces, conversions, value kinds) are kept, so the
runtime formats each value as NumPy/Python would (see ``dialects/grafo.py``).
"""

from __future__ import annotations

from .. import types as T
from ..dialects.grafo import PrintOp
from .index_expr import materialize
from .lowerer import Lowerer, rule


@rule(PrintOp)
def lower_print(lw: Lowerer, op):
    values = []
    for v in op.operands:
        if isinstance(v.type, T.TensorType):
            e = lw.expr(v)
            if e.buffer is None:
                e = lw.own(None, materialize(lw.em, e), e.element, e.shape)
            values.append(e.buffer)
        else:
            values.append(lw.scalar(v))
    lw.em.effect(PrintOp, *values, **op.attributes)
    return []
