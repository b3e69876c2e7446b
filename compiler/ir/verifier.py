"""The IR verifier: structural checks plus each op's own ``verify``.

Errors name the op, its source location and what is wrong; an op without a location is
placed by its enclosing function (``in func @f``).
"""

from __future__ import annotations

from .. import types as T
from .attributes import IntegerAttr, integer_bounds
from .core import Operation
from .opdef import FunctionLike, IsolatedFromAbove, Terminator, lookup


class VerifyError(Exception):
    """An IR invariant does not hold. ``op`` is the offending operation."""

    def __init__(self, op: Operation, message: str):
        self.op = op
        self.message = message
        where = f"{op.loc.file}:{op.loc.line}:{op.loc.col}: " if op.loc.line > 0 else ""
        super().__init__(f"{where}error: '{op.name}' op {message}{_enclosing_function(op)}")


def _enclosing_function(op: Operation) -> str:
    """`` (in func @f)`` for an op without a location inside function ``f``, else ""."""
    if op.loc.line > 0:
        return ""
    parent = op.parent_op()
    while parent is not None and not parent.has_trait(FunctionLike):
        parent = parent.parent_op()
    name = parent.attributes.get("sym_name") if parent is not None else None
    return f" (in func @{name.value})" if name is not None else ""


def verify_integer_value(op: Operation, signless: bool) -> None:
    """Reject an integer ``value`` attribute of ``op`` that does not fit its type (see
    ``integer_bounds``)."""
    attr = op.attributes.get("value")
    if not (isinstance(attr, IntegerAttr)
            and isinstance(attr.type, (T.IntegerType, T.IndexType))):
        return
    lo, hi = integer_bounds(attr.type, signless)
    if not lo <= attr.value <= hi:
        raise VerifyError(op, f"integer value {attr.value} does not fit its type {attr.type} "
                              f"(range {lo}..{hi})")


def verify(root: Operation) -> None:
    """Verify ``root`` and everything nested in it; raise ``VerifyError`` on the first fault:
    an op that no dialect defines (or whose name is not that of its kind), an op that breaks
    its kind's definition (``opdef.Op.verify``), a use its definition does not dominate, a
    terminator that is not last in its block, an inconsistent use list."""
    _verify_op(root, set())


def _verify_op(op: Operation, visible: set) -> None:
    kind = lookup(op.name)
    if kind is None:
        raise VerifyError(op, "is not defined by any dialect")
    if type(op) is not kind:
        raise VerifyError(op, f"is named '{op.name}' but was built as "
                              f"'{type(op).name}'")
    for i, v in enumerate(op.operands):
        if v not in visible:
            raise VerifyError(op, f"operand #{i} does not dominate this use "
                                  f"(defined later or in another region)")
    op.verify()
    for region in op.regions:
        for block in region.blocks:
            # one set for all blocks of a nest, each removing its own values on exit: the
            # check costs the same at any nesting depth
            inner = set() if op.has_trait(IsolatedFromAbove) else visible
            defined = list(block.args)
            inner.update(block.args)
            for j, nested in enumerate(block.ops):
                if nested.has_trait(Terminator) and j != len(block.ops) - 1:
                    raise VerifyError(nested, "is a terminator but is not last in its block")
                _verify_op(nested, inner)
                inner.update(nested.results)
                defined.extend(nested.results)
            inner.difference_update(defined)
    for r in op.results:
        for u in r.uses:
            if u.owner.operands[u.index] is not r:
                raise VerifyError(op, "use list is inconsistent")
