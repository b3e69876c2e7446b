"""Which tensor values may share one buffer: the in-place decisions of lowering.

An update (``np.setitem``, ``np.scatter``, ``np.mask_assign``) writes its target's buffer
when every other read of the target's old value is over (``reading``). A region op
(``scf.for``, ``scf.while``, ``scf.if``) keeps a tensor in one buffer, for its initial value,
block arguments, yielded values and result alike (``region_homes``), when the value it
yields is its initial value updated in place (``updates_in_place``: updates, and region results of
the same kind, only; a loop that rebinds the name to another array is not one) and nothing
reads the initial value after the op but through its result (MLIR's one-shot
bufferization). The buffer is an argument's (the caller sees each write when it happens, so
a run-time error mid-loop leaves the argument as eager Python leaves it) or, for
``scf.if``, a fresh buffer of the current scope. Only arguments the function writes back
(``np.write_back``) lend their buffers: canonicalization folds copies such as ``a * 1.0`` and
``np.copy(a)`` to ``a``'s value, and an update of that value is a new array's, which the
caller must not see.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import np as npd
from ..dialects import scf
from ..dialects.updates import UPDATES, carries_in_place, updates_in_place
from ..ir.core import BlockArgument, Operation, Value
from .index_expr import Expr, materialize
from .lowerer import Lowerer, _inside_loop_below


def reading(lw: Lowerer, target: Value, op: Operation, buf: Value,
            pinned: set | None = None) -> set | None:
    """The operands of ``op`` that read ``target``'s value (held in ``buf``) when every other
    read of it is over, else None. A use is over when it is ``np.dim`` (the shape only), the
    destination of ``np.write_back`` (the buffer, not its value), in the other branch of an
    ``scf.if`` around ``op`` (never run with it) or an op lowered before ``op`` whose
    results are scalars or written to other buffers; a lazy result's own uses are followed.
    Uses inside ``op``'s own regions count as ``op``'s when it is an ``scf.if`` (its
    branches decide for themselves), else they are not over.

    ``pinned``: a set that collects, instead of following, the lazy results of ops before
    ``op`` that are read after ``op`` starts (``pin`` computes them into buffers)."""
    reading, seen, stack = set(), {target}, [target]
    while stack:
        v = stack.pop()
        for u in v.uses:
            owner = u.owner
            if owner is op or (isinstance(op, scf.IfOp) and op.is_ancestor_of(owner)):
                if owner is not op or v is not target or u.index:
                    reading.add(u.index if owner is op else -1)
                continue
            if isinstance(owner, npd.DimOp) or (isinstance(owner, npd.WriteBackOp)
                                                 and u.index == 0) or _exclusive(owner, op):
                continue
            if not _before(owner, op):
                return None
            for r in owner.results:
                e = lw.vals.get(r)
                lazy = not isinstance(e, Expr) or e.buffer is None or e.buffer is buf
                if not (isinstance(r.type, T.TensorType) and lazy) or r in seen:
                    continue
                seen.add(r)
                if pinned is not None and isinstance(e, Expr) and e.buffer is None and any(
                        not (isinstance(w.owner, npd.DimOp) or _before(w.owner, op))
                        for w in r.uses):
                    pinned.add(r)
                else:
                    stack.append(r)
    return reading


def pin(lw: Lowerer, values) -> None:
    """Compute the lazy ``values`` into fresh buffers now: NumPy computed them from the
    elements an in-place loop is about to overwrite (``t = a * 2`` read after the loop)."""
    for r in values:
        e = lw.vals[r]
        lw.vals[r] = lw.own(r, materialize(lw.em, e), e.element, e.shape)


def _before(a: Operation, b: Operation) -> bool:
    """Whether op ``a`` is lowered before op ``b`` (an op around ``b`` is not)."""
    around = {}
    x = b
    while x is not None:
        around[x.parent] = x
        x = x.parent_op()
    while a.parent not in around:
        a = a.parent_op()
    ops = a.parent.ops
    mark = around[a.parent]
    return a is not mark and ops.index(a) < ops.index(mark)


def _exclusive(a: Operation, b: Operation) -> bool:
    """Whether ops ``a`` and ``b`` sit in different branches of one ``scf.if``."""
    blocks = {}
    x = b
    while (p := x.parent_op()) is not None:
        blocks[p] = x.parent
        x = p
    x = a
    while (p := x.parent_op()) is not None:
        if p in blocks:
            return isinstance(p, scf.IfOp) and blocks[p] is not x.parent
        x = p
    return False


def _root(op: scf.IfOp, k: int) -> Value | None:
    """The value from outside ``op`` that its ``k``-th result updates, if any."""
    y = op.then_block.terminator.operands[k]
    while not isinstance(y, BlockArgument) and op.is_ancestor_of(y.op):
        inner = y.op
        if isinstance(inner, UPDATES):
            y = inner.target
        elif isinstance(inner, scf.IfOp):
            y = inner.then_block.terminator.operands[y.index]
        elif isinstance(inner, scf.ForOp):
            y = inner.operands[y.index + 3]
        elif isinstance(inner, scf.WhileOp):
            y = inner.operands[y.index]
        else:
            return None
    if isinstance(y, BlockArgument) and op.is_ancestor_of(y.block.parent_op()):
        return None
    return y


def region_homes(lw: Lowerer, op: Operation) -> dict:
    """``{k: (value, buffer)}``: the tensor results of ``op`` (a loop's carried values) kept
    in the buffer of ``value``, the initial value they update. Loops take an argument's
    buffer only (a fresh initial buffer is handed on to the loop without a copy anyway)."""
    homes, used = {}, set()
    scope = lw.scopes[-1]
    for k, r in enumerate(op.results):
        if not isinstance(r.type, T.TensorType):
            continue
        if isinstance(op, scf.IfOp):
            v = _root(op, k)
            if v is None or not updates_in_place(op.results[k], v):
                continue
            buf = lw.homes.get(v)
            if buf is None and scope.fresh.get(v) in scope.owned:
                buf = scope.fresh[v]
            want = ({-1}, set())   # read in its branches only
        else:
            index = k + 3 if isinstance(op, scf.ForOp) else k
            v, buf = op.operands[index], lw.homes.get(op.operands[index])
            if not carries_in_place(op, k):
                continue
            want = ({index},)   # read once, as this initial value
        e = lw.vals.get(v)
        pinned = None if isinstance(op, scf.IfOp) else set()
        if (buf is None or id(buf) in used or r.type != v.type
                or not isinstance(e, Expr) or e.buffer is not buf
                or _inside_loop_below(op, v) or reading(lw, v, op, buf, pinned) not in want):
            continue
        pin(lw, pinned or ())
        used.add(id(buf))
        homes[k] = (v, buf)
    return homes
