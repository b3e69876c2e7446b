"""The error table of a compiled module: what each non-zero status code means.

Status code k > 0 returned by an entry point means that the k-th ``grafo.check`` of the module,
in ``Operation.walk`` order over the whole module, failed. Code -1 (``OUT_OF_MEMORY``) means a
``memref.alloc`` could not get memory; its ``params[0]`` is the byte count. Code -2
(``ARRAY_TOO_BIG``) means a ``memref.alloc``'s byte count does not fit an ``int64`` (NumPy's
``ValueError``). Code -3 (``INTERRUPTED``) means a loop's interrupt poll found the interrupt
flag set (Ctrl-C, ``interrupt.py``; KeyboardInterrupt).
"""

from __future__ import annotations

from ...dialects.builtin import ModuleOp
from ...dialects.grafo import CheckOp
from ...ir.core import Location, Operation

OUT_OF_MEMORY = -1
ARRAY_TOO_BIG = -2
INTERRUPTED = -3
MAX_NBYTES = (1 << 63) - 1


def check_ops(module: ModuleOp) -> list[Operation]:
    """The ``grafo.check`` ops of ``module`` in walk order (status code k = index + 1)."""
    return [op for op in module.walk() if isinstance(op, CheckOp)]


def error_table(module: ModuleOp) -> list[tuple[str, str, Location]]:
    """``(kind, message, location)`` of each ``grafo.check`` of ``module`` in walk order.

    ``kind`` is a Python exception class name ("IndexError"); ``message`` is a
    ``str.format`` template for the check's integer parameters.
    """
    return [(op.attr("kind", "RuntimeError"), op.attr("message", "run-time check failed"),
             op.loc) for op in check_ops(module)]
