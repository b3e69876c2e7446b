"""Lowering of ``func.return`` and ``func.call`` inside a function body.

Every loop-level function becomes an internal LLVM function with the C ABI's parameters plus
the call's buffer list (see ``emitter.py``): results are written through the result pointers,
and the return value is 0 or a failing ``grafo.check``'s status code, which ``func.call``
passes on to its own caller at once.
"""

from __future__ import annotations

from llvmlite import ir

from .... import types as T
from ....dialects import func
from ..descriptor import MemRef
from ..types import I32, PTR, abi_param, descriptor, from_storage, storage, to_storage
from .registry import rule


@rule(func.ReturnOp)
def return_(fe, op):
    b = fe.b
    for v, ptr in zip(fe.operands(op), fe.result_ptrs, strict=True):
        if isinstance(v, MemRef):
            v.store(b, ptr)
        else:
            b.store(to_storage(b, v), ptr)
    b.ret(ir.Constant(I32, 0))


@rule(func.CallOp)
def call(fe, op):
    b = fe.b
    callee = fe.mod.lookup(op.callee)
    ftype = callee.function_type
    args = []
    for v, t in zip(fe.operands(op), ftype.inputs, strict=True):
        if isinstance(v, MemRef):
            slot = fe.entry_alloca(descriptor(t.rank))
            v.store(b, slot)
            args.append(slot)
        elif abi_param(t) == PTR:  # a complex scalar, passed by pointer
            slot = fe.entry_alloca(v.type)
            b.store(v, slot)
            args.append(slot)
        else:
            args.append(to_storage(b, v))
    outs = [fe.entry_alloca(descriptor(t.rank) if isinstance(t, T.MemRefType) else storage(t))
            for t in ftype.results]
    rc = b.call(fe.mod.impl(op.callee), [*args, *outs, fe.status, fe.arena])
    fe.return_if(b.icmp_unsigned("!=", rc, ir.Constant(I32, 0)), rc)
    results = []
    for t, slot in zip(ftype.results, outs, strict=True):
        if isinstance(t, T.MemRefType):
            results.append(MemRef.load(b, t, slot))
        else:
            results.append(from_storage(b, b.load(slot, typ=storage(t)), t))
    return results
