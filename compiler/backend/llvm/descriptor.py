"""``MemRef``: a memref value during code generation, one LLVM value per descriptor field.

Keeping the fields apart (instead of one struct value) lets static sizes stay constants and
lets contiguous memrefs use strides computed from their sizes, so LLVM's scalar evolution sees
unit strides and vectorizes. Structs appear only at function boundaries (``pack``/``unpack``).

Addressing follows MLIR's strided layout:
``aligned + (offset + sum(i_k * stride_k)) * sizeof(element)``.
"""

from __future__ import annotations

from dataclasses import dataclass

from llvmlite import ir

from ... import types as T
from .types import I64, descriptor, storage

NSW = ("nsw",)


@dataclass
class MemRef:
    """The fields of a memref of IR type ``type`` as LLVM values (``i64`` sizes/strides)."""

    type: T.MemRefType
    allocated: ir.Value
    aligned: ir.Value
    offset: ir.Value
    sizes: list
    strides: list

    @classmethod
    def contiguous(cls, b: ir.IRBuilder, t: T.MemRefType, allocated, aligned, sizes) -> "MemRef":
        """A row-major memref over ``aligned`` with offset 0; static dims become constants."""
        sizes = [ir.Constant(I64, d) if d is not None else s
                 for d, s in zip(t.shape, sizes, strict=True)]
        strides = [ir.Constant(I64, 1)] * len(sizes)
        for k in range(len(sizes) - 2, -1, -1):
            strides[k] = mul_i64(b, strides[k + 1], sizes[k + 1])
        return cls(t, allocated, aligned, ir.Constant(I64, 0), sizes, strides)

    @classmethod
    def load(cls, b: ir.IRBuilder, t: T.MemRefType, ptr: ir.Value) -> "MemRef":
        """Read a descriptor from memory at ``ptr``. Static dims of ``t`` are taken as given;
        an identity-layout (non-strided) ``t`` means offset 0 and row-major strides."""
        st = descriptor(t.rank)

        def field(*idx):
            p = b.gep(ptr, [ir.Constant(ir.IntType(32), i) for i in (0, *idx)], inbounds=True,
                      source_etype=st)
            return b.load(p, typ=st.elements[idx[0]] if len(idx) == 1 else I64)

        allocated, aligned = field(0), field(1)
        sizes = [ir.Constant(I64, d) if d is not None else field(3, k)
                 for k, d in enumerate(t.shape)]
        if not t.strided:
            return cls.contiguous(b, t, allocated, aligned, sizes)
        return cls(t, allocated, aligned, field(2), sizes,
                   [field(4, k) for k in range(t.rank)])

    def store(self, b: ir.IRBuilder, ptr: ir.Value) -> None:
        """Write this descriptor to memory at ``ptr``."""
        st = descriptor(self.type.rank)
        for idx, v in ([((0,), self.allocated), ((1,), self.aligned), ((2,), self.offset)]
                       + [((3, k), s) for k, s in enumerate(self.sizes)]
                       + [((4, k), s) for k, s in enumerate(self.strides)]):
            p = b.gep(ptr, [ir.Constant(ir.IntType(32), i) for i in (0, *idx)], inbounds=True,
                      source_etype=st)
            b.store(v, p)

    def flatten(self) -> list:
        """All fields as one list (for phis and selects)."""
        return [self.allocated, self.aligned, self.offset, *self.sizes, *self.strides]

    @classmethod
    def unflatten(cls, t: T.MemRefType, values: list) -> "MemRef":
        r = t.rank
        return cls(t, values[0], values[1], values[2], list(values[3:3 + r]),
                   list(values[3 + r:3 + 2 * r]))

    def address(self, b: ir.IRBuilder, indices: list) -> ir.Value:
        """Pointer to the element at ``indices`` (``i64`` values, assumed in bounds)."""
        linear = self.offset
        for i, s in zip(indices, self.strides, strict=True):
            linear = add_i64(b, linear, mul_i64(b, i, s))
        return b.gep(self.aligned, [linear], inbounds=True,
                     source_etype=storage(self.type.element))


def flatten(v) -> list:
    """A generated value as a list of LLVM values (a memref's fields, or ``[v]``)."""
    return v.flatten() if isinstance(v, MemRef) else [v]


def unflatten(types: list, values: list) -> list:
    """Inverse of concatenated ``flatten`` s for values of IR types ``types``."""
    out, pos = [], 0
    for t in types:
        if isinstance(t, T.MemRefType):
            n = 3 + 2 * t.rank
            out.append(MemRef.unflatten(t, values[pos:pos + n]))
            pos += n
        else:
            out.append(values[pos])
            pos += 1
    return out


def is_const(v, n) -> bool:
    """Whether the LLVM value ``v`` is the constant ``n``."""
    return isinstance(v, ir.Constant) and v.constant == n


def mul_i64(b: ir.IRBuilder, x, y):
    if is_const(x, 1):
        return y
    if is_const(y, 1):
        return x
    if isinstance(x, ir.Constant) and isinstance(y, ir.Constant):
        return ir.Constant(I64, x.constant * y.constant)
    return b.mul(x, y, flags=NSW)


def add_i64(b: ir.IRBuilder, x, y):
    if is_const(x, 0):
        return y
    if is_const(y, 0):
        return x
    return b.add(x, y, flags=NSW)
