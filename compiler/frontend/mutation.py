"""Writes into arrays as values: ``x[idx] = v`` is a functional ``np.setitem`` (``setitem``),
and ``mutate`` makes every holder of the old value see the new one.

Mutating an array rebinds every slot of the current function (names, tuple items, nested
functions' defaults, holders.py) bound to the same value (its aliases) and, for a view made
by basic indexing, transposing or reshaping (``v = x[1:]``) or a complex array's ``.real`` /
``.imag``, the array it views. Views follow
their base both ways: writing into an array also updates the names bound to views of it
(``v = x[::2]; x[0] = 1`` changes ``v``). A view of a compile-time array bound to a local name
is taken of that name's run-time value, so that writes reach it; writes through a view of a
global or of an enclosing function's array are a CompileError, as are writes that need a link
the compiler cannot know (``guard``: a value that may or may not view another).

Owns ``State.views`` (the view a written array still is), ``State.guards``, ``State.foreign``
and ``State.frozen``; the caller's buffers are followed by tracking.py, links across loops
and branches by links.py.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.core import OpResult, Value
from . import tracking
from .holders import put, slots, text
from .indexing import assign_advanced, basic_index, check_sequence_rank, index_items
from .ops import cast, dim, materialize
from .stores import check_store
from .values import Constant, Undefined

_VIEWS = (npd.SubscriptOp, npd.TransposeOp, npd.ReshapeOp, npd.BroadcastToOp, npd.RealOp,
          npd.ImagOp)


def setitem(cx, x: Value, index, value) -> Value:
    """``x`` with ``x[index] = value`` applied: the value converted as NumPy converts it
    (``check_store``), then cast unsafely."""
    items = index_items(cx, x, index)
    arrays = [k for k, it in enumerate(items) if isinstance(it, Value)
              and isinstance(it.type, T.TensorType)]
    check_store(cx, value, x.type.element, basic=not arrays)
    if arrays:
        return assign_advanced(cx, x, items, arrays, value)
    spec, bounds, operands = basic_index(cx, x, index)
    check_sequence_rank(cx, value, x.type.rank - spec.count("i") + spec.count("n"))
    v = cast(cx, value, x.type.element)
    return cx.emit(npd.SetItemOp, [x, v, *operands], {"spec": spec, "bounds": bounds})


def mutate(cx, old, new) -> None:
    """Every name bound to ``old`` now holds ``new``; an array ``old`` views is updated
    (through ``np.subscript``, ``np.transpose`` and ``np.reshape`` views, also after
    earlier writes into the view), and so are the views of ``old`` bound to names."""
    _check_guards(cx, old)
    rebound = set()
    for slot, v in slots(cx.scope):
        if v is old:
            put(cx.scope, slot, new)
            rebound.add(slot)
    if not isinstance(old.type, T.TensorType):
        return
    tracking.follow_live(cx, {n for n in rebound if isinstance(n, str)}, new)
    _refresh_views(cx, old, new)
    found = view_source(cx, old)
    if found is None:
        return
    src, base = found
    if isinstance(src, npd.SubscriptOp):
        updated = cx.emit(npd.SetItemOp, [base, new, *src.indices],
                          {"spec": src.attr("spec"), "bounds": src.attr("bounds", ())})
    elif isinstance(src, npd.TransposeOp):
        perm = src.attr("perm")
        inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
        updated = cx.emit(npd.TransposeOp, [new], {"perm": inverse})
    elif isinstance(src, (npd.RealOp, npd.ImagOp)):   # the other part stays
        other = cx.emit(npd.ImagOp if isinstance(src, npd.RealOp) else npd.RealOp, [base])
        parts = [new, other] if isinstance(src, npd.RealOp) else [other, new]
        updated = cx.emit(npd.ComplexOp, parts)
    elif isinstance(src, npd.ReshapeOp):
        if not is_contiguous(_origin(cx, base)):
            cx.fail("writing into a reshaped view of an argument or of another view is "
                    "not supported: NumPy writes through to the original array only "
                    "when its memory layout allows a view",
                    "index the original array instead (x[i, j] = v), or copy the "
                    "reshaped array first (y = x.reshape(...).copy())")
        shape = [dim(cx, base, k) for k, d in enumerate(base.type.shape) if d is None]
        updated = cx.emit(npd.ReshapeOp, [new, *shape], types=[base.type])
    else:
        cx.fail("assignment destination is read-only",
                "np.broadcast_to returns a read-only view; copy it first "
                "(y = np.broadcast_to(x, shape).copy())")
    cx.views[new] = (src, updated)
    # a new value of the base, not a view: it keeps the base's memory layout
    cx.views.setdefault(updated, (None, _origin(cx, base)))
    mutate(cx, base, updated)


def _origin(cx, v):
    """The array whose memory ``v`` is a later value of (``v`` itself if none)."""
    src, origin = cx.views.get(v, (None, None))
    return origin if src is None and origin is not None else v


def view_source(cx, v):
    """``(op, base)`` when the array ``v`` is a view of ``base`` made by ``op`` (a view
    written into keeps its first op, ``views``), else None."""
    src, base = cx.views.get(v) or (v.op if isinstance(v, OpResult) else None, None)
    if not isinstance(src, _VIEWS) or not isinstance(v.type, T.TensorType):
        return None
    if isinstance(src, npd.ReshapeOp) and not isinstance(src.input.type, T.TensorType):
        return None   # a 0-d array made of a scalar (np.array(s)) is a new array
    return src, (src.operands[0] if base is None else base)


def reapply(cx, chain, base: Value) -> Value:
    """The view the ops ``chain`` (one op, or a tuple from the base down) made, taken
    again of ``base`` (a later value of its base); the new view keeps the ops as its
    source (``views``)."""
    for src in chain if isinstance(chain, tuple) else (chain,):
        if isinstance(src, npd.SubscriptOp):
            v = cx.emit(npd.SubscriptOp, [base, *src.indices],
                        {"spec": src.attr("spec"), "bounds": src.attr("bounds", ())})
            if not isinstance(v.type, T.TensorType):   # the 0-d view x[i, ...]
                v = cx.emit(npd.ReshapeOp, [v], types=[T.TensorType((), v.type)])
        elif isinstance(src, npd.TransposeOp):
            v = cx.emit(npd.TransposeOp, [base], {"perm": src.attr("perm")})
        elif isinstance(src, (npd.RealOp, npd.ImagOp)):
            v = cx.emit(type(src), [base])
        else:
            v = cx.emit(type(src), [base, *src.sizes], types=[src.result.type])
        cx.views[v] = (src, base)
        base = v
    return base


def linked(cx, v, chain, base) -> bool:
    """Whether ``v`` is still the view ``chain`` makes of ``base``."""
    for src in reversed(chain):
        found = view_source(cx, v)
        if found is None or found[0] is not src:
            return False
        v = found[1]
    return v is base


def _refresh_views(cx, old: Value, new: Value) -> None:
    """Names bound to views of ``old`` see its elements as ``new``. A reshaped view of
    an array of unknown layout may be a copy: reading it afterwards is a CompileError."""
    done = {}
    for slot, w in slots(cx.scope):
        if w in done:
            put(cx.scope, slot, done[w])
            continue
        found = view_source(cx, w) if isinstance(w, Value) else None
        if found is None or found[1] is not old:
            continue
        src = found[0]
        if isinstance(src, npd.ReshapeOp) and not is_contiguous(_origin(cx, old)):
            done[w] = Undefined(
                text(slot), f"is a reshaped array whose base changed at line "
                      f"{cx.builder.loc.line}; NumPy's reshape is a view or a copy "
                      f"depending on the memory layout",
                "copy the reshaped array (y = x.reshape(...).copy()) or reshape after "
                "the write")
        else:
            done[w] = reapply(cx, src, new)
        put(cx.scope, slot, done[w])
        if isinstance(done[w], Value):
            _refresh_views(cx, w, done[w])


def guard(cx, value, partner, message: str, hint: str) -> None:
    """``value`` may or may not be ``partner`` or a view of it (decided at run time):
    writing through ``value``, or into ``partner`` while ``value`` is still bound, is a
    CompileError with ``message``."""
    cx.guards[value] = (partner, message, hint)


def _check_guards(cx, old) -> None:
    if old in cx.guards:
        cx.fail(*cx.guards[old][1:])
    for _, v in slots(cx.scope):
        entry = cx.guards.get(v) if isinstance(v, Value) else None
        if entry is not None and entry[0] is old:
            cx.fail(*entry[1:])
    if old in cx.frozen:
        cx.fail(*cx.frozen[old])


def array_operand(cx, x):
    """``x`` as the operand of an op that makes a view of it: a compile-time array bound
    to a local name becomes that name's run-time value, so that writes into the view
    reach it; a view of a global or an enclosing function's array is marked read-only."""
    if not (isinstance(x, Constant) and isinstance(x.value, np.ndarray)):
        return x
    if any(v is x for _, v in slots(cx.scope)):
        return materialize_local(cx, cx.scope, x)
    if x in cx.foreign:
        v = materialize(cx, x)
        cx.frozen[v] = ("writing through a view of a global or of an enclosing "
                        "function's array is not supported",
                        "pass the array as an argument, or copy the view first "
                        "(y = x[...].copy())")
        return v
    return x


def shared_default(cx, value, holder: str):
    """A nested function's default value: a compile-time array becomes a run-time value,
    shared with the local names bound to it (rebound) or else with the hidden name
    ``holder``, so that writes through any of them reach all, as Python shares the one
    object; branches and loops make the default again from that name (links)."""
    if not (isinstance(value, Constant) and isinstance(value.value, np.ndarray)) \
            or value in cx.foreign:
        return value
    if any(v is value for _, v in slots(cx.scope)):
        return materialize_local(cx, cx.scope, value)
    cx.scope[holder] = materialize(cx, value)
    return cx.scope[holder]


def materialize_local(cx, scope, value):
    """A local array known at compile time (``np.zeros(3)``) as a run-time value that
    can be updated: every name of ``scope`` bound to it is rebound."""
    if not (isinstance(value, Constant) and isinstance(value.value, np.ndarray)):
        return value
    v = materialize(cx, value)
    for slot, w in slots(scope):
        if w is value:
            put(scope, slot, v)
    return v


def is_contiguous(v: Value) -> bool:
    """True when ``v`` is an array an ``np`` op computed, not a view (``np.subscript``,
    ``np.transpose``, ``np.broadcast_to``), an argument or a control-flow result that may
    have any strides."""
    src = v.op if isinstance(v, OpResult) else None
    return src is not None and src.name.startswith("np.") \
        and not isinstance(src, (npd.SubscriptOp, npd.TransposeOp, npd.BroadcastToOp,
                                 npd.RealOp, npd.ImagOp))
