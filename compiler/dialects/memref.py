"""The ``memref`` dialect (upstream MLIR semantics): buffers at loop level.

- ``memref.alloc(%dyn_sizes...)``: a new 64-byte aligned buffer; one ``index`` operand per
  dynamic dim of the result type.
- ``memref.load(%m, %i...)`` / ``memref.store(%v, %m, %i...)``: ``index`` subscripts.
- ``memref.dim(%m, %k)``: the run-time size of dim ``%k`` (an ``index``).
- ``memref.dealloc(%m)``.
"""

from .. import types as T
from ..ir.attributes import DenseArrayAttr
from ..ir.opdef import Op, Pure, ReadOnly


class AllocOp(Op):
    """Upstream's op also takes symbol operands (none here); its ``operandSegmentSizes``
    property says how many operands are sizes and how many symbols."""

    name = "memref.alloc"
    num_results = 1

    def properties(self) -> dict:
        return {"operandSegmentSizes": DenseArrayAttr(T.i32, (len(self.operands), 0))}


class DeallocOp(Op):
    name = "memref.dealloc"
    num_operands = 1
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class LoadOp(Op):
    name = "memref.load"
    traits = frozenset({ReadOnly})
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0].element]


class StoreOp(Op):
    name = "memref.store"
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class DimOp(Op):
    name = "memref.dim"
    traits = frozenset({Pure})
    num_operands = 2
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.index]
