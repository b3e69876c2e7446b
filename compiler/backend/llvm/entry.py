"""The C entry point of a loop-level function (docs/architecture.md, "Calling convention").

``int32_t name(inputs..., results..., grafo_status *status)``: a memref input is a pointer to
its descriptor, a scalar input is passed by value (bool as ``int8_t``), each result is a pointer
the callee fills (a descriptor, or the scalar). The entry keeps the call's buffer list on its
stack, calls the internal function, then frees every buffer allocated during the call except
the returned ones (all of them when it fails) and returns 0 or the failing status code.
"""

from __future__ import annotations

from llvmlite import ir

from ... import types as T
from .alloc import emit_release
from .emitter import ModuleEmitter
from .types import I32, PTR, abi_param


def emit_entry(mod: ModuleEmitter, func, symbol: str) -> ir.Function:
    """Define the external function ``symbol`` implementing ``func``'s C ABI."""
    ft = func.function_type
    params = [abi_param(t) for t in ft.inputs] + [PTR] * len(ft.results) + [PTR]
    fn = ir.Function(mod.ll, ir.FunctionType(I32, params), symbol)
    # The runtime passes distinct descriptor and status structs, never shared with the data.
    for arg in fn.args:
        if arg.type == PTR:
            arg.add_attribute("noalias")
            arg.add_attribute("nonnull")
    b = ir.IRBuilder(fn.append_basic_block("entry"))
    arena = b.alloca(PTR)
    b.store(ir.Constant(PTR, None), arena)
    rc = b.call(mod.impl(func.sym_name), [*fn.args, arena])
    with b.if_else(b.icmp_unsigned("==", rc, ir.Constant(I32, 0))) as (ok, failed):
        with ok:
            results = fn.args[len(ft.inputs):len(ft.inputs) + len(ft.results)]
            keep = [b.load(p, typ=PTR) for p, t in zip(results, ft.results, strict=True)
                    if isinstance(t, T.MemRefType)]
            emit_release(b, arena, keep)
        with failed:
            emit_release(b, arena, [])
    b.ret(rc)
    return fn

