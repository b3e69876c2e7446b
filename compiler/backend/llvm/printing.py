"""The print hook of a compiled module: how ``grafo.print`` reaches Python's ``sys.stdout``.

Each module with ``grafo.print`` ops defines ``ptr @grafo.rt.print`` (null until bound). The
k-th print op of the module (``Operation.walk`` order) calls, when the pointer is not null,
``void hook(int64_t k, void **values)`` where ``values[i]`` points to operand i: a memref
descriptor for an array, the scalar for a scalar (bool as one byte). The JIT binds the
pointer to ``runtime.printing.make_hook(print_table(module))``. Artifacts keep it internal
and null: their prints write nothing.
"""

from __future__ import annotations

from llvmlite import ir

from ... import types as T
from ...dialects.builtin import ModuleOp
from ...dialects.grafo import PrintOp
from ...ir.core import Operation
from .bound import pointer_global
from .types import I64, PTR

PRINT_GLOBAL = "grafo.rt.print"
PRINT_HOOK = ir.FunctionType(ir.VoidType(), [I64, PTR])


def print_ops(module: ModuleOp) -> list[Operation]:
    """The ``grafo.print`` ops of ``module`` in walk order (hook id k = index)."""
    return [op for op in module.walk() if isinstance(op, PrintOp)]


def print_table(module: ModuleOp) -> list[tuple]:
    """``(pieces, conversions, kinds, ranks)`` of each print op (``runtime.printing``);
    ``ranks[i]`` is the rank of an array operand, None for a scalar."""
    return [(op.attr("pieces"), op.attr("conversions"), op.attr("kinds"),
             tuple(v.type.rank if isinstance(v.type, T.MemRefType) else None
                   for v in op.operands)) for op in print_ops(module)]


def print_global(m: ir.Module) -> ir.GlobalVariable:
    """The module's ``ptr @grafo.rt.print`` (null until the JIT binds it)."""
    return pointer_global(m, PRINT_GLOBAL)
