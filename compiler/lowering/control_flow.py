"""Lowering of ``scf.if`` / ``scf.for`` / ``scf.while`` with tensor results and carried
values, and of function signatures and ``func.return``.

Tensors crossing a region boundary are contiguous buffers (``memref<...>`` of the tensor's
shape) owned by whoever receives them: yields and returns hand on a value's own fresh buffer
when the region may (see ``Lowerer.take``), else a copy; a loop body frees the carried
buffers it does not pass on. Scalars cross as their lowered type.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import func, scf
from ..ir.attributes import TypeAttr
from .context import Emitter
from .index_expr import of_buffer
from .lowerer import Lowerer, rule


def buffer_type(t: T.Type) -> T.Type:
    """The loop-level type of a value crossing a region or function boundary."""
    if isinstance(t, T.TensorType):
        return T.MemRefType(t.shape, T.lowered(t.element))
    return T.lowered(t)


def _hand_on(lw: Lowerer, values, types) -> list:
    return [lw.take(v, bt) if isinstance(v.type, T.TensorType) else lw.scalar(v)
            for v, bt in zip(values, types, strict=True)]


def _enter(lw: Lowerer, src_args, dst_args) -> None:
    """Map a region's block arguments; carried buffers belong to the region's new scope."""
    owned = [d for s, d in zip(src_args, dst_args, strict=True) if isinstance(s.type, T.TensorType)]
    lw.push_scope(owned)
    for s, d in zip(src_args, dst_args, strict=True):
        if isinstance(s.type, T.TensorType):
            lw.vals[s] = of_buffer(lw.em, d, s.type.element)
            lw.scopes[-1].fresh[s] = d
        else:
            lw.vals[s] = d


def _region(lw: Lowerer, src, dst, terminator, types, args=(), dst_args=()) -> None:
    """Lower block ``src`` into ``dst``, ending it with ``terminator`` on the handed-on
    values of ``types`` (``scf.condition`` keeps its leading i1 condition)."""
    with lw.em.b.at_end(dst):
        _enter(lw, args, dst_args)
        term = lw.lower_ops(src)
        values = list(term.operands)
        head = []
        if terminator is scf.ConditionOp:
            head, values = [lw.scalar(values[0])], values[1:]
        outs = head + _hand_on(lw, values, types)
        lw.pop_scope()
        lw.em.b.create(terminator, outs)


def _results(lw: Lowerer, old, new) -> list:
    return [lw.own(o, n, o.type.element) if isinstance(o.type, T.TensorType) else n
            for o, n in zip(old.results, new.results, strict=True)]


@rule(scf.IfOp)
def lower_if(lw: Lowerer, op):
    types = [buffer_type(r.type) for r in op.results]
    new = scf.IfOp.create(lw.scalar(op.operands[0]), types)
    lw.em.b.insert(new)
    for src, dst in zip(op.regions, new.regions, strict=True):
        _region(lw, src.block, dst.block, scf.YieldOp, types)
    return _results(lw, op, new)


def _inits(lw: Lowerer, values) -> list:
    return [lw.take(v, buffer_type(v.type), single_use=True)
            if isinstance(v.type, T.TensorType) else lw.scalar(v) for v in values]


@rule(scf.ForOp)
def lower_for(lw: Lowerer, op):
    lb, ub, step = (lw.scalar(v) for v in op.operands[:3])
    new = scf.ForOp.create(lb, ub, step, _inits(lw, op.iter_inits))
    for k, a in op.attributes.items():
        new.attributes.setdefault(k, a)
    lw.em.b.insert(new)
    types = [buffer_type(r.type) for r in op.results]
    _region(lw, op.body, new.body, scf.YieldOp, types, op.body.args, new.body.args)
    return _results(lw, op, new)


@rule(scf.WhileOp)
def lower_while(lw: Lowerer, op):
    new = scf.WhileOp.create(_inits(lw, op.operands),
                             [buffer_type(r.type) for r in op.results])
    lw.em.b.insert(new)
    before_types = [a.type for a in new.before.args]
    after_types = [a.type for a in new.after.args]
    _region(lw, op.before, new.before, scf.ConditionOp, after_types, op.before.args,
            new.before.args)
    _region(lw, op.after, new.after, scf.YieldOp, before_types, op.after.args,
            new.after.args)
    return _results(lw, op, new)


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
