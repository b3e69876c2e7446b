"""``arith-emulate-unsupported-floats`` (MLIR's pass of that name, with ``f16`` as the source
type and ``f32`` as the target): on loop-level IR, every computing op on ``f16`` values runs
in ``f32``, its ``f16`` operands extended (exact) and its ``f16`` results truncated (rounded
to nearest even).

For one ``+ - * /`` or ``sqrt`` this is the correctly rounded ``f16`` result (``f32`` has more
than twice ``f16``'s precision, so the double rounding is innocuous), and for the rest it is
what NumPy's float16 loops compute (``npy_half_to_float``, the float function,
``npy_float_to_half``). The LLVM backend then meets ``half`` only in loads, stores, selects,
constants, bit casts and these conversions, which it emits as integer code
(``backend/llvm/half.py``): no half arithmetic, whose lowering calls ``__extendhfsf2`` and
``__truncsfhf2`` on CPUs without F16C.

An op is rewritten when it is ``Pure``, has no regions, is neither ``ConstantLike`` nor a
``Terminator`` and is not one of the ops that only move or convert values (``select``,
``extf``, ``truncf``, ``bitcast``).
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith
from ..ir.builder import Builder
from ..ir.core import Operation
from ..ir.opdef import ConstantLike, Pure, Terminator
from .manager import Pass

_MOVES = (arith.SelectOp, arith.ExtFOp, arith.TruncFOp, arith.BitcastOp)
SOURCE, TARGET = T.f16, T.f32


class EmulateUnsupportedFloats(Pass):
    name = "arith-emulate-unsupported-floats"

    def run(self, module: Operation) -> None:
        for op in list(module.walk()):
            if _emulated(op):
                _rewrite(op)


def _emulated(op: Operation) -> bool:
    if not op.has_trait(Pure) or op.has_trait(ConstantLike) or op.has_trait(Terminator) \
            or op.regions or isinstance(op, _MOVES):
        return False
    return any(T.element_type(v.type) == SOURCE for v in (*op.operands, *op.results))


def _rewrite(op: Operation) -> None:
    b = Builder(op.parent, before=op, loc=op.loc)
    operands = [b.create(arith.ExtFOp, [v], result_types=[TARGET]).result
                if v.type == SOURCE else v for v in op.operands]
    types = [TARGET if r.type == SOURCE else r.type for r in op.results]
    wide = b.create(type(op), operands, attributes=dict(op.attributes), result_types=types)
    out = [b.create(arith.TruncFOp, [w], result_types=[SOURCE]).result
           if r.type == SOURCE else w for r, w in zip(op.results, wide.results, strict=True)]
    op.replace_with(out)
