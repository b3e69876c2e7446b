"""The ``memref`` dialect (upstream MLIR semantics): buffers at loop level.

- ``memref.alloc(%dyn_sizes...)``: a new 64-byte aligned buffer; one ``index`` operand per
  dynamic dim of the result type.
- ``memref.load(%m, %i...)`` / ``memref.store(%v, %m, %i...)``: ``index`` subscripts.
- ``memref.dim(%m, %k)``: the run-time size of dim ``%k`` (an ``index``).
- ``memref.dealloc(%m)``.
"""

from .. import types as T
from ..ir.attributes import DenseArrayAttr
from ..ir.constraints import Index, LoopElement, MemRef, Variadic, named
from ..ir.opdef import ConstantLike, Op, Pure, ReadOnly, register_ops


def verify_subscripts(op, ref, subscripts) -> None:
    """One subscript per dim of the memref ``ref`` (the types are the op's ``Index``
    constraints)."""
    from ..ir.verifier import VerifyError
    if len(subscripts) != ref.type.rank:
        raise VerifyError(op, f"needs {ref.type.rank} subscripts for {ref.type}, has "
                              f"{len(subscripts)}")


def verify_dim_index(op, ref, k) -> None:
    """A ranked memref, and a dim number ``k`` that is within its rank when it is a
    constant (as upstream ``memref.dim`` checks)."""
    from ..ir.verifier import VerifyError
    rank = ref.type.rank
    if rank == 0:
        raise VerifyError(op, f"needs a memref of rank >= 1, got {ref.type}")
    const = k.owner_op()
    if const is not None and const.has_trait(ConstantLike):
        value = const.attr("value")
        if not (isinstance(value, int) and 0 <= value < rank):
            raise VerifyError(op, f"dim {value} is out of range for {ref.type}")


class AllocOp(Op):
    """Upstream's op also takes symbol operands (none here); its ``operandSegmentSizes``
    property says how many operands are sizes and how many symbols. The result is a
    contiguous memref."""

    name = "memref.alloc"
    operand_defs = named(sizes=Variadic(Index))
    result_defs = named(memref=MemRef)

    def properties(self) -> dict:
        return {"operandSegmentSizes": DenseArrayAttr(T.i32, (len(self.operands), 0))}

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        t = self.memref.type
        dynamic = sum(d is None for d in t.shape)
        if t.strided:
            raise VerifyError(self, f"allocates a contiguous memref, not {t}")
        if len(self.sizes) != dynamic:
            raise VerifyError(self, f"needs one size per dynamic dim of {t} ({dynamic}), has "
                                    f"{len(self.sizes)}")


class DeallocOp(Op):
    name = "memref.dealloc"
    operand_defs = named(memref=MemRef)
    result_defs = ()

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class LoadOp(Op):
    name = "memref.load"
    traits = frozenset({ReadOnly})
    operand_defs = named(memref=MemRef, indices=Variadic(Index))
    result_defs = (LoopElement,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0].element]

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        ref = self.memref
        verify_subscripts(self, ref, self.indices)
        if self.result.type != ref.type.element:
            raise VerifyError(self, f"result type {self.result.type} is not the element type "
                                    f"of {ref.type}")


class StoreOp(Op):
    name = "memref.store"
    operand_defs = named(value=LoopElement, memref=MemRef, indices=Variadic(Index))
    result_defs = ()

    @classmethod
    def infer(cls, operand_types, attributes):
        return []

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        v, ref = self.value, self.memref
        verify_subscripts(self, ref, self.indices)
        if v.type != ref.type.element:
            raise VerifyError(self, f"stores a {v.type} into {ref.type}")


class DimOp(Op):
    name = "memref.dim"
    traits = frozenset({Pure})
    operand_defs = named(source=MemRef, index=Index)
    result_defs = (Index,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.index]

    def verify(self):
        super().verify()
        verify_dim_index(self, self.source, self.index)


register_ops("memref", (AllocOp, DeallocOp, LoadOp, StoreOp, DimOp))
