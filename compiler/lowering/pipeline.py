"""``lower_to_loops``: tensor-level IR (func + np + scf) to loop-level IR (func + scf + arith +
math + memref + grafo.check), the contract of docs/architecture.md.

The rule table (``lowerer.RULES``, keyed by op class) is filled by the modules imported
below; importing this module fails if an ``np`` op has no rule.
"""

from __future__ import annotations

from ..dialects import builtin, func
from ..dialects import linalg as la
from ..dialects import np as npd
from ..errors import unsupported
from ..ir.verifier import verify
from . import (  # noqa: F401
    bincount,
    control_flow,
    data,
    effects,
    elementwise,
    indexing,
    linalg,
    matmul,
    mutation,
    reduction,
    select,
    sort,
)
from .control_flow import lower_function
from .lowerer import RULES

_missing = sorted(cls.name for cls in (*npd.NUMPY_OPS.values(), *la.LINALG_OPS.values())
                  if cls not in RULES)
if _missing:
    raise ImportError("np ops without a lowering rule: " + ", ".join(_missing))


def lower_to_loops(module: builtin.ModuleOp) -> builtin.ModuleOp:
    """A new loop-level module with one lowered ``func.func`` per function of ``module``
    (which is left unchanged). Raises ``errors.unsupported`` (a CompileError that is a
    NotImplementedError) for ops without a lowering (``func.call``: inline callees first)
    and ``VerifyError`` if the result is malformed."""
    out = builtin.ModuleOp.empty()
    out.attributes.update(module.attributes)
    out.loc = module.loc
    for op in module.body.ops:
        if not isinstance(op, func.FuncOp):
            raise unsupported(f"cannot lower '{op.name}' at module level", op.loc,
                              "a module holds functions")
        out.body.append(lower_function(op))
    verify(out)
    return out
