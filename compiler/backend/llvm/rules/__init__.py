"""Lowering rules of the loop-level dialects, one module per dialect.

Importing this package registers every rule and fails (ImportError) if an op of a loop-level
dialect (arith, complex, math, memref, scf, func, grafo, lapack, blas) has no rule, so a new op cannot
reach code
generation unnoticed. Terminators that their parent op's rule consumes are listed in
``HANDLED_BY_PARENT``.
"""

from ....dialects.func import FuncOp
from ....dialects.scf import ConditionOp, YieldOp
from ....ir.opdef import OPS
from . import arith, blas, complex, func, grafo, lapack, math, memref, scf  # noqa: F401
from .registry import RULES

LOOP_DIALECTS = ("arith", "complex", "math", "memref", "scf", "func", "grafo", "lapack",
                 "blas")
HANDLED_BY_PARENT = frozenset({FuncOp, YieldOp, ConditionOp})


def _check_coverage() -> None:
    from .... import dialects  # noqa: F401  (every dialect registered)
    missing = sorted(cls.name for cls in OPS.values()
                     if cls.name.split(".")[0] in LOOP_DIALECTS
                     and cls not in RULES and cls not in HANDLED_BY_PARENT)
    if missing:
        raise ImportError(f"the LLVM backend has no lowering rule for {', '.join(missing)}")


_check_coverage()

__all__ = ["RULES", "HANDLED_BY_PARENT"]
