"""Pointer globals that a loader binds to process-wide state.

Compiled modules reach the thread state (``parallel.py``), the buffer pool (``pool.py``) and
the print hook (``printing.py``) through a ``ptr`` global each, null in the module and set
when the module is loaded in a process that has that state (left null, the code does
without: serial loops, plain ``aligned_alloc``/``free``, no printing).
"""

from __future__ import annotations

from llvmlite import ir

from .types import PTR


def pointer_global(m: ir.Module, name: str) -> ir.GlobalVariable:
    """The module's ``ptr @<name>``, initialized to null (created on first use)."""
    g = m.globals.get(name)
    if g is None:
        g = ir.GlobalVariable(m, PTR, name)
        g.initializer = ir.Constant(PTR, None)
        g.align = 8
    return g
