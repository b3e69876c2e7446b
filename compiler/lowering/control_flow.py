"""Lowering of ``scf.if`` / ``scf.for`` / ``scf.while`` with tensor results and carried
values, and of function signatures and ``func.return``.

Tensors crossing a region boundary are contiguous buffers (``memref<...>`` of the tensor's
shape) owned by whoever receives them: yields and returns hand on a value's own fresh buffer
when the region may (see ``Lowerer.take``), else a copy; a loop body frees the carried
buffers it does not pass on. A fresh buffer that an ``scf.if`` branch yields and nothing
after the ``if`` reads is lent to both branches (``_lend``): one hands it on, the other frees
it, so passing a value on unchanged costs no copy. Scalars cross as their lowered type.

A tensor that a region op updates in place (``in_place.region_homes``: an argument written
by a loop, ``a[i] = ...`` under ``if``) does not cross at all: its initial value, block
arguments and result read one buffer, and a yielded value held elsewhere (an update that had
to copy) is copied into it at the end of the region.
"""

from __future__ import annotations

from dataclasses import replace

from .. import types as T
from ..dialects import func, scf
from ..dialects import np as npd
from ..ir.attributes import TypeAttr
from ..ir.core import Value
from .context import Emitter
from .in_place import region_homes
from .index_expr import Expr, materialize, of_buffer
from .lowerer import Lowerer, rule


def buffer_type(t: T.Type) -> T.Type:
    """The loop-level type of a value crossing a region or function boundary."""
    if isinstance(t, T.TensorType):
        return T.MemRefType(t.shape, T.lowered(t.element))
    return T.lowered(t)


def _hand_on(lw: Lowerer, values, types, homes=None) -> list:
    """The handed-on buffers and scalars of ``values`` but those at the positions of
    ``homes`` (``{k: (value, buffer)}``), which are stored into their buffer last: an
    earlier value may read the buffer's old elements."""
    homes = homes or {}
    rest = [v for k, v in enumerate(values) if k not in homes]
    outs = [lw.take(v, bt) if isinstance(v.type, T.TensorType) else lw.scalar(v)
            for v, bt in zip(rest, types, strict=True)]
    for k, (_, buf) in homes.items():
        src = lw.expr(values[k])
        if src.buffer is buf:
            continue
        if src.buffer is None:
            src = lw.own(None, materialize(lw.em, src), src.element, src.shape)
        lw.em.nest(src.shape, lambda idx, s=src, b=buf: lw.em.store(s.load(idx), b, idx),
                   parallel=True)
    return outs


def _held(lw: Lowerer, value, buf) -> Expr:
    """The ``Expr`` of a value kept in ``buf``, the buffer of ``value`` (its shape too)."""
    return replace(lw.expr(value), buffer=buf)


def _enter(lw: Lowerer, src_args, dst_args, homes=None) -> None:
    """Map a region's block arguments; carried buffers belong to the region's new scope,
    arguments at the positions of ``homes`` read their value's buffer."""
    homes = homes or {}
    lw.push_scope()
    dst = iter(dst_args)
    for k, s in enumerate(src_args):
        if k in homes:
            value, buf = homes[k]
            lw.vals[s] = _held(lw, value, buf)
            lw.homes[s] = buf
            continue
        d = next(dst)
        if isinstance(s.type, T.TensorType):
            lw.vals[s] = of_buffer(lw.em, d, s.type.element)
            lw.scopes[-1].owned.append(d)
            lw.scopes[-1].fresh[s] = d
        else:
            lw.vals[s] = d


def _region(lw: Lowerer, src, dst, terminator, types, args=(), dst_args=(), homes=None,
            arg_homes=None, lent=None) -> None:
    """Lower block ``src`` into ``dst``, ending it with ``terminator`` on the handed-on
    values of ``types`` (``scf.condition`` keeps its leading i1 condition); ``homes`` and
    ``arg_homes``: the in-place positions of the handed-on values and of ``args``;
    ``lent``: ``{value: buffer}`` the region owns as the values' fresh buffers."""
    with lw.em.b.at_end(dst):
        _enter(lw, args, dst_args, arg_homes)
        for value, buf in (lent or {}).items():
            lw.scopes[-1].owned.append(buf)
            lw.scopes[-1].fresh[value] = buf
        term = lw.lower_ops(src)
        values = list(term.operands)
        head = []
        if terminator is scf.ConditionOp:
            head, values = [lw.scalar(values[0])], values[1:]
        outs = head + _hand_on(lw, values, types, homes)
        lw.pop_scope()
        lw.em.b.create(terminator, outs)


def _results(lw: Lowerer, old, new, homes=None) -> list:
    """The results of ``old`` from those of ``new``; those kept in place read their buffer
    (an argument's, or a fresh one the current scope keeps owning)."""
    homes = homes or {}
    fresh = iter(new.results)
    outs = []
    for k, o in enumerate(old.results):
        if k in homes:
            value, buf = homes[k]
            outs.append(_held(lw, value, buf))
            if buf in lw.scopes[-1].owned:
                lw.scopes[-1].fresh[o] = buf
            else:
                lw.homes[o] = buf
            continue
        n = next(fresh)
        outs.append(lw.own(o, n, o.type.element) if isinstance(o.type, T.TensorType) else n)
    return outs


def _kept(types, homes) -> list:
    return [t for k, t in enumerate(types) if k not in homes]


@rule(scf.IfOp)
def lower_if(lw: Lowerer, op):
    """Branches update a value kept in place through ``Lowerer.homes``; a fresh buffer's
    entries are dropped afterwards (it stays the current scope's)."""
    homes = region_homes(lw, op)
    lent = []
    for value, buf in homes.values():
        if value not in lw.homes:
            lw.homes[value] = buf
            lent.append(buf)
    types = _kept([buffer_type(r.type) for r in op.results], homes)
    new = scf.IfOp.create(lw.scalar(op.condition), types)
    lw.em.b.insert(new)
    lent = _lend(lw, op, homes)
    for src, dst in zip(op.regions, new.regions, strict=True):
        _region(lw, src.block, dst.block, scf.YieldOp, types, homes=homes, lent=lent)
    for v in [v for v, b in lw.homes.items() if any(b is x for x in lent)]:
        del lw.homes[v]
    return _results(lw, op, new, homes)


def _lend(lw: Lowerer, op, homes) -> dict:
    """``{value: buffer}``: the fresh buffers of the current scope that a branch of ``op``
    yields and that nothing after ``op`` reads. Each branch then owns the buffer: one that
    yields the value hands it on, the other frees it, so a value passed on unchanged (a
    loop's carried array on the path that already returned) is not copied."""
    scope = lw.scopes[-1]
    held = {v for v, _ in homes.values()}
    order = {o: k for k, o in enumerate(op.parent.ops)}
    lent = {}
    for block in (op.then_block, op.else_block):
        for v in block.terminator.operands:
            buf = scope.fresh.get(v)
            if (buf is not None and buf in scope.owned and v not in held and v not in lent
                    and all(b is not buf for b in lw.homes.values())
                    and not any(_after(op, u.owner, order) for u in v.uses)):
                lent[v] = buf
    for v, buf in lent.items():
        scope.owned.remove(buf)
        del scope.fresh[v]
    return lent


def _after(op, user, order: dict) -> bool:
    """Whether ``user`` runs after ``op`` in ``op``'s block (``order``: that block's op
    positions): it is, or is nested in, a later op there. A user outside the block is in a
    branch that excludes it (the current scope owns only buffers made in this block or lent
    to it by an enclosing ``scf.if`` whose later users were checked the same way)."""
    while user is not None and user not in order:
        user = user.parent_op()
    return user is not None and order[user] > order[op]


def _inits(lw: Lowerer, values, homes) -> list:
    return [lw.take(v, buffer_type(v.type), single_use=True)
            if isinstance(v.type, T.TensorType) else lw.scalar(v)
            for k, v in enumerate(values) if k not in homes]


@rule(scf.ForOp)
def lower_for(lw: Lowerer, op):
    lb, ub, step = (lw.scalar(v) for v in op.operands[:3])
    homes = region_homes(lw, op)
    new = scf.ForOp.create(lb, ub, step, _inits(lw, op.iter_inits, homes))
    for k, a in op.attributes.items():
        new.attributes.setdefault(k, a)
    lw.em.b.insert(new)
    types = _kept([buffer_type(r.type) for r in op.results], homes)
    _region(lw, op.body, new.body, scf.YieldOp, types, op.body.args, new.body.args, homes,
            {k + 1: h for k, h in homes.items()})
    return _results(lw, op, new, homes)


@rule(scf.WhileOp)
def lower_while(lw: Lowerer, op):
    homes = region_homes(lw, op)
    new = scf.WhileOp.create(_inits(lw, op.operands, homes),
                             _kept([buffer_type(r.type) for r in op.results], homes))
    lw.em.b.insert(new)
    before_types = [a.type for a in new.before.args]
    after_types = [a.type for a in new.after.args]
    _region(lw, op.before, new.before, scf.ConditionOp, after_types, op.before.args,
            new.before.args, homes, homes)
    _region(lw, op.after, new.after, scf.YieldOp, before_types, op.after.args,
            new.after.args, homes, homes)
    return _results(lw, op, new, homes)


def _written_back(param: Value) -> bool:
    """Whether the function copies a value into ``param``'s buffer when it returns
    (``np.write_back``): only then may updates of its value write that buffer in place."""
    return any(isinstance(u.owner, npd.WriteBackOp) and u.index == 0 for u in param.uses)


def lower_function(src: func.FuncOp) -> func.FuncOp:
    """The loop-level version of ``src``: tensor arguments become strided memrefs, tensor
    results buffers this function allocates (never an argument's buffer)."""
    ft = src.function_type
    ins = [T.MemRefType(t.shape, T.lowered(t.element), strided=True)
           if isinstance(t, T.TensorType) else T.lowered(t) for t in ft.inputs]
    outs = [buffer_type(t) for t in ft.results]
    dst = func.FuncOp.create(src.sym_name, T.FunctionType(tuple(ins), tuple(outs)),
                             [a.name_hint for a in src.body.args], loc=src.loc)
    for k, a in src.attributes.items():
        if k != "function_type":
            dst.attributes[k] = a
    dst.attributes["function_type"] = TypeAttr(T.FunctionType(tuple(ins), tuple(outs)))
    lw = Lowerer(Emitter(dst))
    lw.push_scope()
    for s, d in zip(src.body.args, dst.body.args, strict=True):
        if isinstance(s.type, T.TensorType):
            lw.vals[s] = of_buffer(lw.em, d, s.type.element)
            if _written_back(s):   # else the caller keeps the old values (b = a * 1.0 folds to a)
                lw.homes[s] = d
        else:
            lw.vals[s] = d
    term = lw.lower_ops(src.body)
    with lw.em.b.at_loc(term.loc):
        results = _hand_on(lw, term.operands, outs)
        lw.write_back()
        lw.pop_scope()
        lw.em.b.create(func.ReturnOp, results)
    return dst
