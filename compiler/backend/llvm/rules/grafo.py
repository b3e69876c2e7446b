"""Lowering of ``grafo.check``: when the condition is false, the call stops with status code k
(the op's 1-based index in the module's walk order, see ``errors.py``) and the check's
parameters (sign-extended to i64) in ``status->params``."""

from __future__ import annotations

from llvmlite import ir

from ..types import I64, STATUS_PARAMS
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
