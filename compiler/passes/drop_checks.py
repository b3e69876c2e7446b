"""``drop-bounds-checks``: remove the IndexError checks of integer indexing (unsafe).

What ``boundscheck=False`` (``compiler.function`` / ``compiler.compile``, or the environment
variable ``GRAFO_BOUNDSCHECK=0``) adds to the pass pipeline, like Numba's
``boundscheck=False``: the ``grafo.check`` ops that ``lowering/indexing.py`` emits for
``a[i]`` ("index {0} is out of bounds for axis ...") are erased, so an index out of range
reads or writes outside the array (undefined behaviour, possibly a crash) instead of raising
IndexError. Negative indices still count from the end. Other checks (slices, asserts,
overflow, shapes) stay.
"""

from __future__ import annotations

from ..dialects import grafo
from ..ir.core import Operation
from .manager import Pass

BOUNDS_MESSAGE = "index {0} is out of bounds for axis "


class DropBoundsChecks(Pass):
    name = "drop-bounds-checks"

    def run(self, module: Operation) -> None:
        for op in list(module.walk()):
            if isinstance(op, grafo.CheckOp) and op.attr("kind") == "IndexError" \
                    and op.attr("message").startswith(BOUNDS_MESSAGE):
                op.erase()
