"""Optional values: a variable that is None on some paths and a value on others
(``OptionalValue``: a run-time "has value" flag and the value, see merge.py).

Python's semantics hold on the paths taken at run time: ``x is None`` and ``x is not None``
test the flag; ``x == v`` is False (``x != v`` True) where ``x`` is None; ``bool(x)`` is False
for None; any other use of ``x`` needs a value and raises TypeError at run time where ``x``
is None, as CPython does for ``None + 1`` (``unwrap``). The comparisons are operators.py's,
the truth value ops.py's ``truth``.
"""

from __future__ import annotations

from ..dialects.grafo import CheckOp
from ..ir.attributes import StringAttr
from .ops import materialize, truth
from .values import Constant, OptionalValue

NONE_USED = "'NoneType' object used where a value is needed"


def unwrap(cx, v):
    """The value of ``v`` (an ``OptionalValue``), checked to be present at run time."""
    if not isinstance(v, OptionalValue):
        return v
    if not (isinstance(v.has, Constant) and v.has.value):
        cx.emit_op(CheckOp, [materialize(cx, truth(cx, v.has))],
                   {"kind": StringAttr("TypeError"), "message": StringAttr(NONE_USED)})
    return v.value
