"""BLAS in compiled code: calls of NumPy's CBLAS matrix products (``runtime/blas.py``).

The routines live in the same library as LAPACK; ``lapack.resolve`` loads it into the process
once and checks the symbols when a module is compiled, so the JIT links the calls by name, and
an artifact records them in its manifest (``compiler/aot``). Calls follow ``cblas.h`` with
ILP64 integers: ``CblasRowMajor`` and the transpose flags as ``i32`` enums, sizes, leading
dimensions and increments ``i64``, alpha and beta by value, arrays as element pointers.
"""

from __future__ import annotations

from llvmlite import ir

from runtime import blas as cblas

from ... import types as T
from ...dialects import blas
from .lapack import resolve
from .types import storage

I32 = ir.IntType(32)


def symbol_of(op: blas._RoutineOp) -> str:
    """The CBLAS symbol ``op`` calls."""
    return cblas.symbol(op.routine, getattr(op, op.arrays[0]).type.element == T.f64)


def call(fe, op: blas._RoutineOp) -> None:
    """Emit the call of ``op``'s routine."""
    name = symbol_of(op)
    resolve((), op.loc, (name,))
    b = fe.b
    args = [ir.Constant(I32, cblas.ROW_MAJOR)]
    values = dict(zip(op.operand_defs.names, fe.operands(op), strict=True))
    for name_, v in values.items():
        if name_.startswith("trans"):
            args.append(b.select(v, ir.Constant(I32, cblas.TRANS),
                                 ir.Constant(I32, cblas.NO_TRANS)))
        elif name_ in op.arrays:
            offset = values[f"{name_}_offset"]
            args.append(b.gep(v.aligned, [b.add(v.offset, offset)], inbounds=True,
                              source_etype=storage(v.type.element)))
        elif not name_.endswith("_offset"):
            args.append(v)
    fn = fe.mod.external(name, ir.VoidType(), [a.type for a in args])
    b.call(fn, args)


def symbols_of(module) -> list[str]:
    """The CBLAS symbols the loop-level ``module`` calls, in order of first call."""
    out: list[str] = []
    for op in module.walk():
        if isinstance(op, blas.ROUTINE_OPS) and symbol_of(op) not in out:
            out.append(symbol_of(op))
    return out
