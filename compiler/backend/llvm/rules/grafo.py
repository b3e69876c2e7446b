"""Lowering of ``grafo.print`` (a call through the module's print hook, see ``printing.py``),
``grafo.check``: when the condition is false, the call stops with status code k
(the op's 1-based index in the module's walk order, see ``errors.py``) and the check's
parameters (sign-extended to i64) in ``status->params``; ``grafo.constant``; ``grafo.stride``,
a stride of the memref descriptor (row-major strides from the sizes when the type is not
strided, see ``descriptor.py``)."""

from __future__ import annotations

import numpy as np
from llvmlite import ir

from ....dialects import grafo
from ....ir.attributes import dense_bytes
from ..descriptor import MemRef
from ..printing import PRINT_HOOK, print_global
from ..types import I8, I32, I64, PTR, STATUS_PARAMS, descriptor, to_storage
from .memref import field_at
from .registry import rule


@rule(grafo.CheckOp)
def check(fe, op):
    b = fe.b
    ok, *params = fe.operands(op)
    if len(params) > STATUS_PARAMS:
        raise ValueError(f"grafo.check at {op.loc} has {len(params)} message parameters; "
                         f"the status block holds at most {STATUS_PARAMS}")
    wide = []
    for p in params:
        if not isinstance(p.type, ir.IntType):
            raise TypeError(f"grafo.check at {op.loc}: message parameters must be integers, "
                            f"got {p.type}")
        wide.append(p if p.type == I64 else
                    b.zext(p, I64) if p.type.width == 1 else b.sext(p, I64))
    fe.fail_if(b.not_(ok), fe.mod.check_ids[op], wide)


@rule(grafo.ConstantOp)
def constant(fe, op):
    """A private constant global of the elements' raw bytes, one blob (never per element)."""
    t = op.result.type
    raw = bytearray(dense_bytes(op.attributes["value"].value))
    ty = ir.ArrayType(I8, len(raw))
    g = ir.GlobalVariable(fe.mod.ll, ty, fe.mod.ll.get_unique_name(grafo.ConstantOp.name))
    g.linkage, g.global_constant, g.unnamed_addr, g.align = "private", True, True, 64
    g.initializer = _Blob(ty, raw)
    return [MemRef.contiguous(fe.b, t, g, g, [ir.Constant(I64, d) for d in t.shape])]


class _Blob(ir.Constant):
    """An ``[n x i8]`` constant of bytes whose ``c"\\XX..."`` text NumPy writes (llvmlite
    escapes byte by byte in Python: half a second for 8 MB)."""

    def _get_reference(self):
        text = np.empty((len(self.constant), 3), np.uint8)
        text[:, 0] = ord("\\")
        text[:, 1:] = np.frombuffer(self.constant.hex().encode(), np.uint8).reshape(-1, 2)
        return f'c"{text.tobytes().decode()}"'


@rule(grafo.StrideOp)
def stride(fe, op):
    m, k = fe.operands(op)
    return [field_at(fe.b, m.strides, k)]


@rule(grafo.LibmOp)
def libm(fe, op):
    """A call of the C math library's function (``expf`` for float32 operands)."""
    args = fe.operands(op)
    name = op.attr("callee") + ("f" if isinstance(args[0].type, ir.FloatType) else "")
    return [fe.b.call(fe.mod.external(name, args[0].type, [a.type for a in args]), args)]


@rule(grafo.PrintOp)
def print_(fe, op):
    """Pass pointers to the values to the module's print hook, if one is bound; poll the
    interrupt flag first, so that a Ctrl-C stops the call here rather than in Python code
    the hook runs, where ctypes would drop the KeyboardInterrupt."""
    b = fe.b
    if fe.polls:
        fe.poll()
    values = fe.operands(op)
    array_t = ir.ArrayType(PTR, max(len(values), 1))
    slots = fe.entry_alloca(array_t)
    for k, (v, t) in enumerate(zip(values, (x.type for x in op.operands), strict=True)):
        if isinstance(v, MemRef):
            slot = fe.entry_alloca(descriptor(t.rank))
            v.store(b, slot)
        else:
            v = to_storage(b, v)
            slot = fe.entry_alloca(v.type)
            b.store(v, slot)
        b.store(slot, b.gep(slots, [ir.Constant(I32, 0), ir.Constant(I32, k)], inbounds=True,
                            source_etype=array_t))
    hook = b.load(print_global(fe.mod.ll), typ=PRINT_HOOK.as_pointer())
    with b.if_then(b.icmp_unsigned("!=", hook, ir.Constant(hook.type, None))):
        b.call(hook, [ir.Constant(I64, fe.mod.print_ids[op]), slots])
