"""Constants as folding and rewrite patterns see them: the value of a constant operand
(MLIR's ``m_Constant`` matcher) and a new constant of an op's dialect (MLIR's
``Dialect::materializeConstant``)."""

from __future__ import annotations

import numpy as np

from ... import types as T
from ...ir.attributes import (
    Attribute,
    DenseAttr,
    IntegerAttr,
    attr_value,
    complex_value,
    integer_bounds,
)
from ...ir.core import Operation, Value
from ...ir.opdef import ConstantLike
from .. import arith
from .. import np as npd

# The constant op of each dialect namespace that has its own; the rest use arith's.
_CONSTANT_OPS = {"np": npd.ConstantOp}


def constant_attr(v: Value) -> Attribute | None:
    """The ``value`` attribute of the ``ConstantLike`` op defining ``v``, else None."""
    op = v.owner_op()
    if op is None or not op.has_trait(ConstantLike):
        return None
    return op.attributes.get("value")


def numpy_value(attr: Attribute, t: T.Type):
    """The NumPy value of a constant attribute of type ``t`` (a Python scalar if weak).

    A signless integer in the unsigned range wraps to the dtype (``255 : i8`` is -1); an
    integer that does not fit at all (rejected by the verifier) gives None."""
    if isinstance(attr, DenseAttr):
        return attr.value
    v = complex_value(attr) if T.is_complex(t) else attr_value(attr)
    if T.is_weak(t):
        return T.python_type(t)(v)
    dtype = T.to_dtype(t)
    if isinstance(attr, IntegerAttr) and dtype.kind in "iu":
        lo, hi = integer_bounds(attr.type, signless=True)
        if not lo <= v <= hi:
            return None
        return np.array(v % 2 ** (8 * dtype.itemsize), dtype=np.uint64).astype(dtype)[()]
    return dtype.type(v)


def materialize(op: Operation, attr: Attribute, t: T.Type) -> Value:
    """Insert a constant of type ``t`` holding ``attr`` before ``op``; its result.

    The constant op belongs to ``op``'s dialect: ``np.constant`` for ``np`` ops,
    ``arith.constant`` for the loop-level dialects."""
    const_cls = _CONSTANT_OPS.get(op.name.split(".")[0], arith.ConstantOp)
    const = const_cls.build([], {"value": attr}, [t], loc=op.loc)
    op.parent.insert_before(op, const)
    return const.result
