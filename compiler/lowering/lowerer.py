"""Per-function lowering state: the value map, buffer ownership and the fusion policy.

Each tensor-level value maps to a loop-level scalar ``Value`` or a lazy ``Expr``. ``define``
decides where a lazy value is materialized: when it is used inside a loop nested below its
definition (computed once instead of once per iteration), or when it is costly
(``index_expr.COSTLY``) and read by several consumers or broadcast by one.

A costly value read by a reduction of its innermost axis is written in the reduction's loop
nest (``MATERIALIZERS``), and an elementwise result that the function returns may overwrite
an operand's fresh buffer whose reductions are done (``e / e.sum(-1, keepdims=True)``).

Ownership: every buffer this function allocates belongs to the region scope that allocated
it. A scope frees (``memref.dealloc``) its buffers when it ends, except those handed on
(``take``) to a terminator (results, yields) or to a loop as its initial carried value.
Arguments are never freed or handed on (updates may write into them: ``homes``); a value
that is not a fresh buffer of the current scope is copied when it must be handed on.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .. import types as T
from ..dialects import func, memref, scf
from ..dialects import np as npd
from ..errors import unsupported
from ..ir.core import BlockArgument, Operation, Value
from ..ir.opdef import Elementwise, Pure
from ..tables import registrar
from .context import Emitter
from .index_expr import COSTLY, Expr, materialize, of_buffer, of_scalar

RULES: dict = {}
# The terminators that ``lower_ops`` hands back to the region's lowering.
_TERMINATORS = (scf.YieldOp, scf.ConditionOp, func.ReturnOp)
# Functions ``fn(lowerer, result, expr) -> buffer | None`` that materialize ``expr`` (the value
# of ``result``) while computing one of its consumers in the same loop nest.
MATERIALIZERS: list = []


def materializer(fn):
    """Register a fused materialization (see ``MATERIALIZERS``)."""
    MATERIALIZERS.append(fn)
    return fn


# Decorator: ``@rule(OpClass, ...)`` registers a lowering rule
# ``fn(lowerer, op) -> [Value | Expr per result]``.
rule = registrar(RULES, "lowering rules")


@dataclass
class Scope:
    owned: list = field(default_factory=list)   # buffers allocated in this region
    fresh: dict = field(default_factory=dict)   # tensor value -> its own buffer here


class Lowerer:
    """Lowers the ops of one function into ``em``'s function."""

    def __init__(self, em: Emitter):
        self.em = em
        self.vals: dict = {}
        self.scopes: list[Scope] = []
        self.precomputed: dict = {}   # value -> Expr a fused materialization already made
        self.homes: dict = {}   # tensor value -> buffer updated in place (see in_place.py)
        self.write_backs: list = []   # (parameter Expr, value Expr), copied at the return

    # values ---------------------------------------------------------------------------------
    def get(self, v: Value):
        return self.vals[v]

    def expr(self, v: Value) -> Expr:
        """The lazy tensor of ``v`` (a scalar becomes a rank-0 ``Expr``)."""
        x = self.vals[v]
        return x if isinstance(x, Expr) else of_scalar(x, T.element_type(v.type))

    def scalar(self, v: Value) -> Value:
        """The loop-level scalar of ``v`` (a rank-0 tensor is loaded)."""
        x = self.vals[v]
        return x.load(()) if isinstance(x, Expr) else x

    def define(self, result: Value, out) -> None:
        if isinstance(out, Expr) and out.buffer is None:
            out = _located(self.em, result.op.loc, out)
            if self._materialize_here(result, out):
                out = self.own(result, self._materialize(result, out), out.element, out.shape)
            elif (target := self._in_place_target(result, out)) is not None:
                out = self._store_in_place(result, out, *target)
        self.vals[result] = out

    def _materialize(self, result: Value, e: Expr) -> Value:
        for fused in MATERIALIZERS:
            buf = fused(self, result, e)
            if buf is not None:
                return buf
        return materialize(self.em, e)

    def _in_place_target(self, result: Value, out: Expr):
        """``(operand, buffer)`` when the elementwise ``result``, returned by the function,
        may be written over a fresh buffer of an operand of the same shape and element type
        whose other uses (reductions, already lowered) are done: ``e / e.sum(-1, keepdims=True)``
        scales ``e`` in place. None otherwise."""
        op = result.op
        if not (op.has_trait(Elementwise) and result.uses
                and all(isinstance(u.owner, func.ReturnOp) for u in result.uses)):
            return None
        scope = self.scopes[-1]
        for v in op.operands:
            buf = scope.fresh.get(v)
            e = self.vals.get(v)
            if (buf is None or buf not in scope.owned or not isinstance(e, Expr)
                    or buf.type.element != T.lowered(out.element) or e.rank != out.rank
                    or not all(a is b or (isinstance(a, int) and a == b)
                               for a, b in zip(e.shape, out.shape, strict=True))):
                continue
            if all(u.owner is op or isinstance(u.owner, npd.DimOp)
                   or (isinstance(u.owner, npd.ReduceOp) and u.owner.attr("axes")
                       and u.owner.result in self.vals) for u in v.uses):
                return v, buf
        return None

    def _store_in_place(self, result: Value, out: Expr, operand: Value, buf: Value) -> Expr:
        self.em.nest(out.shape, lambda idx: self.em.store(out.load(idx), buf, idx),
                     parallel=True)
        scope = self.scopes[-1]
        del scope.fresh[operand]
        scope.fresh[result] = buf
        e = of_buffer(self.em, buf, out.element)
        e.shape = tuple(out.shape)
        return e

    def own(self, result: Value | None, buf: Value, element: T.Type, shape=None) -> Expr:
        """Record ``buf`` as allocated by the current scope (as ``result``'s fresh buffer)."""
        scope = self.scopes[-1]
        scope.owned.append(buf)
        if result is not None:
            scope.fresh[result] = buf
        e = of_buffer(self.em, buf, element)
        if shape is not None:
            e.shape = tuple(shape)
        return e

    def take(self, v: Value, mtype: T.MemRefType, single_use=False) -> Value:
        """A buffer of type ``mtype`` holding ``v`` that the caller now owns: ``v``'s own
        fresh buffer when the current scope may hand it on, else a copy. ``single_use``:
        hand on only if ``v`` has no other use (loop inits, whose other uses may follow)."""
        scope = self.scopes[-1]
        buf = scope.fresh.get(v)
        if (buf is not None and buf.type == mtype and buf in scope.owned
                and (not single_use or len(v.uses) == 1)):
            scope.owned.remove(buf)
            return buf
        return materialize(self.em, self.expr(v), mtype)

    def write_back(self) -> None:
        """Copy each deferred ``np.write_back`` value into its parameter's buffer, unless it
        is held there. A value that is lazy or reads an argument's buffer is first copied
        into a temporary, as an earlier copy may overwrite what it reads."""
        em = self.em
        copies = []
        for dst, src in self.write_backs:
            if src.buffer is not None and src.buffer is dst.buffer:
                continue
            if src.buffer is None or any(src.buffer is b for b in self.homes.values()):
                src = self.own(None, materialize(em, src), src.element, src.shape)
            copies.append((dst, src))
        for dst, src in copies:
            em.nest(dst.shape, lambda idx, d=dst, s=src: em.store(s.load(idx), d.buffer, idx),
                    parallel=True)

    # scopes ---------------------------------------------------------------------------------
    def push_scope(self, owned=()) -> None:
        self.scopes.append(Scope(list(owned)))

    def pop_scope(self) -> None:
        """Free the buffers of the current scope (emitted before the region's terminator)."""
        for buf in self.scopes.pop().owned:
            self.em.effect(memref.DeallocOp, buf)

    def lower_ops(self, block) -> Operation | None:
        """Lower every op of ``block`` but its terminator, which is returned."""
        for op in block.ops:
            if op is block.terminator and isinstance(op, _TERMINATORS):
                return op
            if op.has_trait(Pure) and op.results and not any(r.uses for r in op.results):
                continue  # non-strict: an unused value (and its run-time checks) is dropped
            lower = RULES.get(type(op))
            if lower is None:
                hint = "inline callees first" if isinstance(op, func.CallOp) else \
                    "tensor-level IR holds func, scf, np and grafo ops"
                raise unsupported(f"no lowering for '{op.name}'", op.loc, hint)
            with self.em.b.at_loc(op.loc):
                outs = lower(self, op)
                for r, out in zip(op.results, outs, strict=True):
                    self.define(r, out)
        return None

    # policy ---------------------------------------------------------------------------------
    def _materialize_here(self, result: Value, e: Expr) -> bool:
        # np.dim reads only the shape, never an element: it is no consumer of the values.
        uses = [u.owner for u in result.uses if not isinstance(u.owner, npd.DimOp)]
        if not uses:
            return False
        if e.cost > 1 and any(_inside_loop_below(u, result) for u in uses):
            return True
        if e.cost < COSTLY:
            return False
        return len(uses) > 1 or any(_broadcasts(u, e) for u in uses)


def _located(em: Emitter, loc, e: Expr) -> Expr:
    """``e`` whose loads carry the source location of the op that defined it."""
    load = e.load

    def at(idx):
        with em.b.at_loc(loc):
            return load(idx)
    return Expr(e.shape, e.element, at, e.cost, strides=e.strides)


def _defining_block(v: Value):
    return v.block if isinstance(v, BlockArgument) else v.op.parent


def _inside_loop_below(user: Operation, v: Value) -> bool:
    """Whether ``user`` sits in a loop nested inside the block that defines ``v``."""
    home, block = _defining_block(v), user.parent
    while block is not None and block is not home:
        op = block.parent_op()
        if op is None:
            return False
        if isinstance(op, (scf.ForOp, scf.WhileOp)):
            return True
        block = op.parent
    return False


def _broadcasts(user: Operation, e: Expr) -> bool:
    """Whether ``user`` reads each element of ``e`` for several of its own elements."""
    if not (user.has_trait(Elementwise) or isinstance(user, npd.BroadcastToOp)) or not user.results:
        return False
    out = T.shape_of(user.results[0].type)
    if len(out) > e.rank:
        return True
    return any(d == 1 and o != 1 for d, o in zip(e.shape, out[len(out) - e.rank:], strict=True))
