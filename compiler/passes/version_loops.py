"""Loop versioning for bounds checks on loop-level IR: ``version-bounds-checks``.

An explicit loop (``for i in range(lb, ub)``: an ``scf.for`` with an ``i64`` induction
variable, a positive constant step and no iteration values) whose bounds checks are all of
the form lowering emits for ``a[i + c]`` (``lowering/indexing.py``'s ``checked_index``: wrap
a negative index by the axis size ``n``, then check ``0 <= index < n``), with ``c`` a
constant and ``n`` defined before the loop, becomes

    scf.if (lb >= -c and ub - 1 < n - c for every such check) {
      the loop without those checks (the index is ``i + c`` itself)
    } else {
      the loop as it was
    }

Every iteration ``lb <= i <= ub - 1`` of the first version indexes in range, so no check can
fail there, and without checks ``parallelize-loops`` can run it on the threads and LLVM
vectorize it. Otherwise (an index out of range, a negative index that wraps, or no iteration
at all) the checked loop runs as before and raises the same IndexError at the same iteration
with the same message. The comparisons are written so that none can overflow: ``|c|`` is
below ``2**62`` and sizes are non-negative. This is the loop versioning of LLVM's
LoopVersioning / Numba's "boundscheck hoisting"; a loop with any other check (an overflow
check, an assert) keeps one version.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith, grafo, memref, scf
from ..ir.attributes import IntegerAttr
from ..ir.core import BlockArgument, Operation, Value
from ..ir.opdef import Pure
from ..ir.ranges import int_constant, uncast
from .manager import Pass

_MAX_OFFSET = 1 << 62


class VersionBoundsChecks(Pass):
    name = "version-bounds-checks"

    def run(self, module: Operation) -> None:
        for op in list(module.walk()):
            if isinstance(op, scf.ForOp) and op.parent is not None and _candidate(op):
                sites = _sites(op)
                if sites is not None and (sites[0] or sites[1]):
                    _version(op, *sites)


def _sites(loop: scf.ForOp):
    """``(checks, wraps)`` of ``loop``: ``(check, wrap)`` for each bounds check and
    ``(select, index, n, c)`` for each negative-index wrap of ``iv + c``; None when a check
    is of another kind."""
    wraps = {}
    for op in loop.walk():
        if isinstance(op, arith.SelectOp):
            w = _wrap(loop, op)
            if w is not None:
                wraps[op.result] = w
    checks = []
    for op in loop.walk():
        if isinstance(op, grafo.CheckOp):
            w = _checked(op, wraps)
            if w is None:
                return None
            checks.append((op, w))
    return checks, list(wraps.values())
def _candidate(loop: scf.ForOp) -> bool:
    step = int_constant(loop.step)
    return (not loop.results and scf.PARALLEL not in loop.attributes and step is not None
            and step > 0 and loop.induction_var.type == T.i64)


def _outside(loop: Operation, v: Value) -> bool:
    """Whether ``v`` is defined before ``loop`` (not inside it)."""
    if isinstance(v, BlockArgument):
        owner = v.block.parent_op()
        return owner is not None and not loop.is_ancestor_of(owner)
    return not loop.is_ancestor_of(v.owner_op())


def _cmp(v: Value, pred: str):
    """``(lhs, rhs)`` when ``v`` is ``arith.cmpi pred``, else None."""
    op = v.owner_op()
    if isinstance(op, arith.CmpIOp) and op.attr("predicate") == arith.CMPI[pred]:
        return op.operands[0], op.operands[1]
    return None


def _offset(loop: scf.ForOp, i: Value) -> int | None:
    """``c`` when ``i`` is ``iv + c`` (or ``iv - c``, ``iv``) for a constant ``c``."""
    v = uncast(i)
    if v is loop.induction_var:
        return 0
    op = v.owner_op()
    if isinstance(op, (arith.AddIOp, arith.SubIOp)):
        a, b = (uncast(x) for x in op.operands)
        if isinstance(op, arith.AddIOp) and b is loop.induction_var:
            a, b = b, a
        c = int_constant(b)
        if a is loop.induction_var and c is not None and abs(c) < _MAX_OFFSET:
            return c if isinstance(op, arith.AddIOp) else -c
    return None


def _invariant(loop: scf.ForOp, n: Value) -> bool:
    """Whether ``n`` is a size known before ``loop``: defined outside it, or a
    ``memref.dim`` of a buffer and axis defined outside it (hoisted by ``_version``)."""
    op = n.owner_op()
    return _outside(loop, n) or (isinstance(op, memref.DimOp)
                                 and all(_outside(loop, v) for v in op.operands))


def _wrap(loop: scf.ForOp, sel: arith.SelectOp):
    """``(select, i, n, c)`` when ``sel`` is ``i < 0 ? i + n : i`` with ``i = iv + c``."""
    neg, wrapped, i = sel.operands
    lt, add = _cmp(neg, "slt"), wrapped.owner_op()
    if lt is None or lt[0] is not i or int_constant(lt[1]) != 0 \
            or not isinstance(add, arith.AddIOp) or add.operands[0] is not i:
        return None
    n, c = add.operands[1], _offset(loop, i)
    return (sel, i, n, c) if c is not None and _invariant(loop, n) else None


def _checked(check: grafo.CheckOp, wraps: dict):
    """The wrap of ``wraps`` whose ``0 <= index < n`` is ``check``'s condition, or None."""
    cond = check.condition.owner_op()
    if check.attr("kind") != "IndexError" or not isinstance(cond, arith.AndIOp):
        return None
    ge, lt = _cmp(cond.operands[0], "sge"), _cmp(cond.operands[1], "slt")
    if ge is None or lt is None or ge[0] is not lt[0] or int_constant(ge[1]) != 0:
        return None
    w = wraps.get(ge[0])
    return w if w is not None and lt[1] is w[2] else None


class _At:
    """Creates ops before ``anchor``."""

    def __init__(self, anchor: Operation):
        self.anchor = anchor

    def op(self, cls, *operands, type=None, **attrs) -> Value:
        op = cls.build(list(operands), attrs or None, None if type is None else [type],
                       loc=self.anchor.loc)
        self.anchor.parent.insert_before(self.anchor, op)
        return op.result

    def const(self, value: int, t) -> Value:
        return self.op(arith.ConstantOp, type=t, value=IntegerAttr(value, t))

    def cmp(self, pred: str, a: Value, b: Value) -> Value:
        return self.op(arith.CmpIOp, a, b, predicate=IntegerAttr(arith.CMPI[pred]))


def _version(loop: scf.ForOp, checks: list, wraps: list) -> None:
    at = _At(loop)
    for _, _, n, _ in wraps:   # sizes read in the loop: read them once before it
        if not _outside(loop, n):
            op = n.owner_op()
            op.detach()
            loop.parent.insert_before(loop, op)
    index = wraps[0][2].type   # the type of the sizes: ``index``
    lb, last = (at.op(arith.IndexCastOp, v, type=index) for v in (loop.lower, loop.upper))
    last = at.op(arith.SubIOp, last, at.const(1, index))
    conds = [at.cmp("sge", lb, at.const(-c, index)) for c in dict.fromkeys(w[3] for w in wraps)]
    for n, c in dict.fromkeys((w[2], w[3]) for _, w in checks):
        limit = at.op(arith.SubIOp, n, at.const(c, index)) if c else n
        conds.append(at.cmp("slt", last, limit))
    fast = conds[0]
    for c in conds[1:]:
        fast = at.op(arith.AndIOp, fast, c)
    versions = scf.IfOp.create(fast, [], loc=loop.loc)
    loop.parent.insert_before(loop, versions)
    loop.detach()
    unchecked = loop.clone({})
    for block, body in ((versions.then_block, unchecked), (versions.else_block, loop)):
        block.append(body)
        block.append(scf.YieldOp.build([], {}, [], loc=loop.loc))
    checks, wraps = _sites(unchecked)
    for check, _ in checks:
        check.erase()
    for sel, i, _, _ in wraps:   # every index is iv + c >= 0 here: no wrap
        sel.result.replace_all_uses_with(i)
    for op in reversed(list(unchecked.walk())):   # the compares and selects left unused
        if op is not unchecked and op.has_trait(Pure) and op.results \
                and not any(r.uses for r in op.results):
            op.erase()
