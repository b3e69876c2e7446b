"""Runtime helper functions that generated code defines once per module.

``grafo.rt.alloc``/``free``/``dealloc`` (``alloc.py``) and ``grafo.rt.record_failure``
(``parallel.py``) are emitted into each module that uses them, with internal linkage, so that
an ahead-of-time library needs nothing from the compiler at run time.
"""

from __future__ import annotations

from llvmlite import ir


def internal_function(m: ir.Module, name: str, ftype: ir.FunctionType):
    """``(function, True)`` for a new internal ``name`` of type ``ftype`` whose body the
    caller emits, or ``(function, False)`` when ``m`` already defines it."""
    if name in m.globals:
        return m.globals[name], False
    fn = ir.Function(m, ftype, name)
    fn.linkage = "internal"
    return fn, True
