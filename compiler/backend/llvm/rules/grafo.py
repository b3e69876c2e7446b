"""Lowering of ``grafo.print`` (a call through the module's print hook, see ``printing.py``)
and ``grafo.check``: when the condition is false, the call stops with status code k
(the op's 1-based index in the module's walk order, see ``errors.py``) and the check's
parameters (sign-extended to i64) in ``status->params``."""

from __future__ import annotations

from llvmlite import ir

from ..descriptor import MemRef
from ..printing import PRINT_HOOK, print_global
from ..types import I1, I8, I32, I64, PTR, STATUS_PARAMS, descriptor
from .registry import rule


@rule("grafo.check")
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


@rule("grafo.libm")
def libm(fe, op):
    """A call of the C math library's function (``expf`` for float32 operands)."""
    args = fe.operands(op)
    name = op.attr("callee") + ("f" if isinstance(args[0].type, ir.FloatType) else "")
    return [fe.b.call(fe.mod.external(name, args[0].type, [a.type for a in args]), args)]


@rule("grafo.print")
def print_(fe, op):
    """Pass pointers to the values to the module's print hook, if one is bound."""
    b = fe.b
    values = fe.operands(op)
    array_t = ir.ArrayType(PTR, max(len(values), 1))
    slots = fe.entry_alloca(array_t)
    for k, (v, t) in enumerate(zip(values, (x.type for x in op.operands), strict=True)):
        if isinstance(v, MemRef):
            slot = fe.entry_alloca(descriptor(t.rank))
            v.store(b, slot)
        else:
            v = b.zext(v, I8) if v.type == I1 else v
            slot = fe.entry_alloca(v.type)
            b.store(v, slot)
        b.store(slot, b.gep(slots, [ir.Constant(I32, 0), ir.Constant(I32, k)], inbounds=True,
                            source_etype=array_t))
    hook = b.load(print_global(fe.mod.ll), typ=PRINT_HOOK.as_pointer())
    with b.if_then(b.icmp_unsigned("!=", hook, ir.Constant(hook.type, None))):
        b.call(hook, [ir.Constant(I64, fe.mod.print_ids[op]), slots])
