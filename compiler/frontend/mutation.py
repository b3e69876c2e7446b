"""In-place updates of arrays: ``x[idx] = v``, ``x[idx] op= v`` and ``x op= v`` on arrays, as
functional ``np.setitem`` ops, and the bookkeeping that makes the caller see them.

Mutating an array rebinds every name of the current function bound to the same value (its
aliases) and, for a view made by basic indexing (``v = x[1:]``), the array it views. Each
function tracks the buffers its caller can observe (array parameters, and for a nested
function the arrays of the enclosing one it writes into): the hidden name ``%in:p`` holds
``Alias(p)`` while ``p`` still names the caller's buffer, else that buffer's last value.
A path that returned keeps the names holding them (its other locals are dead), so their
values after the body are the ones the caller sees (``exit_value``); a global, which may be
rebound to a value of any type, instead has its value recorded in ``%exit:p`` at every
``return``. An inlined function's caller then sees the updates (copy-out), and the compiled
function writes them back with ``np.write_back``.
Where control flow decides at run time whether ``p`` still names the caller's buffer (``p``
rebound on one path of a branch, or inside a loop), the bool ``%live:p`` says whether it does
and ``%in:p`` is kept up to date on every write into ``p`` while it does.

Views follow their base both ways: writing into an array also updates the names bound to
views of it (``v = x[::2]; x[0] = 1`` changes ``v``). A view of a compile-time array bound to
a local name is taken of that name's run-time value, so that writes reach it; writes through
a view of a global or of an enclosing function's array are a CompileError, as are writes that
need a link the compiler cannot know (``guard``: a value that may or may not view another).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.core import OpResult, Value
from .holders import get, name_of, put, slots, sort_key, text
from .indexing import assign_advanced, basic_index, check_sequence_rank, index_items, subscript
from .ops import cast, dim, materialize
from .scope import Scope, is_special
from .stores import check_store
from .values import Constant, Undefined, describe

IN, EXIT, LIVE = "%in:", "%exit:", "%live:"


@dataclass(frozen=True, eq=False)
class Alias:
    """``%in:p`` while the name ``p`` still holds the caller's buffer."""

    name: str


def resolve(scope, v):
    """The value ``v`` stands for in ``scope`` (an ``Alias`` is its name's value)."""
    return scope.names.get(v.name) if isinstance(v, Alias) else v


def stored_bases(nodes) -> set:
    """Names whose elements the statements ``nodes`` assign (``x[...] = v``, ``x[...] += v``),
    outside nested definitions."""
    out, stack = set(), list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                while isinstance(t, (ast.Subscript, ast.Attribute)):
                    t = t.value
                    if isinstance(t, ast.Name):
                        out.add(t.id)
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return out


class MutationMixin:
    """Array updates for ``Converter``."""

    def track(self, name: str, snapshot: bool = False) -> None:
        """Make ``name`` (bound in the current scope) an observable buffer of this frame.
        With ``snapshot`` (a global, which assignments rebind to values of any type) each
        ``return`` records its value in ``%exit:name``; otherwise paths that returned keep
        the names holding the buffer (``kept_on_return``) and ``exit_value`` reads them."""
        self.frame.tracked[name] = self.scope[name]
        self.scope[IN + name] = Alias(name)
        if snapshot:
            self.frame.snapshots.add(name)

    def record_exit(self) -> None:
        """At a ``return``: the values of the snapshot buffers, as the caller will see them."""
        for name in self.frame.tracked:
            if name in self.frame.snapshots:
                self.scope[EXIT + name] = resolve(self.scope, self.scope[IN + name])

    def exit_value(self, name: str):
        """The value the caller sees in the tracked buffer ``name`` once the frame's body
        has run (every path returned); None for a snapshot no ``return`` recorded."""
        if name in self.frame.snapshots:
            return self.scope.get(EXIT + name)
        return resolve(self.scope, self.scope[IN + name])

    def kept_on_return(self, paths) -> set:
        """The names a path that returned keeps when the scopes ``paths`` merge (a branch's
        paths, or a loop body's end), where its other locals are dead: ``%in:p`` of each
        tracked buffer ``p`` without snapshot, and ``p`` itself where ``%in:p`` is
        ``Alias(p)`` on all of ``paths`` (``p`` holds the caller's buffer on each, so its
        type agrees). A loop or branch then carries the buffer once, not once more as its
        value at the ``return``, and lowering updates it in place."""
        out = set()
        for name in self.frame.tracked:
            if name in self.frame.snapshots:
                continue
            out.add(IN + name)
            if all(isinstance(s.names.get(IN + name), Alias) for s in paths):
                out.add(name)
        return out

    def before_rebind(self, name: str) -> None:
        """``name`` is about to be bound to a new value: a tracked buffer stops following it."""
        if isinstance(self.scope.get(IN + name), Alias):
            self.scope[IN + name] = self.scope[name]
        elif LIVE + name in self.scope:
            self.scope[LIVE + name] = Constant(False)

    def _follow_live(self, rebound: set, new) -> None:
        """After a write rebound the names ``rebound`` to ``new``: a tracked buffer whose name
        may still hold it (``%live:p`` true at run time) takes the new value."""
        for name in rebound:
            live = self.scope.get(LIVE + name)
            if live is None or (isinstance(live, Constant) and not live.value):
                continue
            old = self.scope[IN + name]
            if old is new or not isinstance(old, Value) or old.type.rank != new.type.rank \
                    or old.type.element != new.type.element:
                continue  # a different rank or dtype cannot be the caller's buffer
            self.scope[IN + name] = self.select(live, lambda: new, lambda old=old: old)

    def setitem(self, x: Value, index, value) -> Value:
        """``x`` with ``x[index] = value`` applied: the value converted as NumPy converts it
        (``check_store``), then cast unsafely."""
        items = index_items(self, x, index)
        arrays = [k for k, it in enumerate(items) if isinstance(it, Value)
                  and isinstance(it.type, T.TensorType)]
        check_store(self, value, x.type.element, basic=not arrays)
        if arrays:
            return assign_advanced(self, x, items, arrays, value)
        spec, bounds, operands = basic_index(self, x, index)
        check_sequence_rank(self, value, x.type.rank - spec.count("i") + spec.count("n"))
        v = cast(self, value, x.type.element)
        return self.emit(npd.SetItemOp, [x, v, *operands], {"spec": spec, "bounds": bounds})

    def mutate(self, old, new) -> None:
        """Every name bound to ``old`` now holds ``new``; an array ``old`` views is updated
        (through ``np.subscript``, ``np.transpose`` and ``np.reshape`` views, also after
        earlier writes into the view), and so are the views of ``old`` bound to names."""
        self._check_guards(old)
        rebound = set()
        for slot, v in slots(self.scope):
            if v is old:
                put(self.scope, slot, new)
                rebound.add(slot)
        if not isinstance(old.type, T.TensorType):
            return
        self._follow_live({n for n in rebound if isinstance(n, str)}, new)
        self._refresh_views(old, new)
        found = self.view_source(old)
        if found is None:
            return
        src, base = found
        if isinstance(src, npd.SubscriptOp):
            updated = self.emit(npd.SetItemOp, [base, new, *src.operands[1:]],
                                {"spec": src.attr("spec"), "bounds": src.attr("bounds", ())})
        elif isinstance(src, npd.TransposeOp):
            perm = src.attr("perm")
            inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
            updated = self.emit(npd.TransposeOp, [new], {"perm": inverse})
        elif isinstance(src, npd.ReshapeOp):
            if not _contiguous(self._origin(base)):
                self.fail("writing into a reshaped view of an argument or of another view is "
                          "not supported: NumPy writes through to the original array only "
                          "when its memory layout allows a view",
                          "index the original array instead (x[i, j] = v), or copy the "
                          "reshaped array first (y = x.reshape(...).copy())")
            shape = [dim(self, base, k) for k, d in enumerate(base.type.shape) if d is None]
            updated = self.emit(npd.ReshapeOp, [new, *shape], types=[base.type])
        else:
            self.fail("assignment destination is read-only",
                      "np.broadcast_to returns a read-only view; copy it first "
                      "(y = np.broadcast_to(x, shape).copy())")
        self.views[new] = (src, updated)
        # a new value of the base, not a view: it keeps the base's memory layout
        self.views.setdefault(updated, (None, self._origin(base)))
        self.mutate(base, updated)

    def _origin(self, v):
        """The array whose memory ``v`` is a later value of (``v`` itself if none)."""
        src, origin = self.views.get(v, (None, None))
        return origin if src is None and origin is not None else v

    def view_source(self, v):
        """``(op, base)`` when the array ``v`` is a view of ``base`` made by ``op`` (a view
        written into keeps its first op, ``views``), else None."""
        src, base = self.views.get(v) or (v.op if isinstance(v, OpResult) else None, None)
        if not isinstance(src, _VIEWS) or not isinstance(v.type, T.TensorType):
            return None
        return src, (src.operands[0] if base is None else base)

    def reapply(self, chain, base: Value) -> Value:
        """The view the ops ``chain`` (one op, or a tuple from the base down) made, taken
        again of ``base`` (a later value of its base); the new view keeps the ops as its
        source (``views``)."""
        for src in chain if isinstance(chain, tuple) else (chain,):
            if isinstance(src, npd.SubscriptOp):
                v = self.emit(npd.SubscriptOp, [base, *src.operands[1:]],
                              {"spec": src.attr("spec"), "bounds": src.attr("bounds", ())})
            elif isinstance(src, npd.TransposeOp):
                v = self.emit(npd.TransposeOp, [base], {"perm": src.attr("perm")})
            else:
                v = self.emit(type(src), [base, *src.operands[1:]], types=[src.result.type])
            self.views[v] = (src, base)
            base = v
        return base

    def linked(self, v, chain, base) -> bool:
        """Whether ``v`` is still the view ``chain`` makes of ``base``."""
        for src in reversed(chain):
            found = self.view_source(v)
            if found is None or found[0] is not src:
                return False
            v = found[1]
        return v is base

    def _refresh_views(self, old: Value, new: Value) -> None:
        """Names bound to views of ``old`` see its elements as ``new``. A reshaped view of
        an array of unknown layout may be a copy: reading it afterwards is a CompileError."""
        done = {}
        for slot, w in slots(self.scope):
            if w in done:
                put(self.scope, slot, done[w])
                continue
            found = self.view_source(w) if isinstance(w, Value) else None
            if found is None or found[1] is not old:
                continue
            src = found[0]
            if isinstance(src, npd.ReshapeOp) and not _contiguous(self._origin(old)):
                done[w] = Undefined(
                    text(slot), f"is a reshaped array whose base changed at line "
                          f"{self.builder.loc.line}; NumPy's reshape is a view or a copy "
                          f"depending on the memory layout",
                    "copy the reshaped array (y = x.reshape(...).copy()) or reshape after "
                    "the write")
            else:
                done[w] = self.reapply(src, new)
            put(self.scope, slot, done[w])
            if isinstance(done[w], Value):
                self._refresh_views(w, done[w])

    def guard(self, value, partner, message: str, hint: str) -> None:
        """``value`` may or may not be ``partner`` or a view of it (decided at run time):
        writing through ``value``, or into ``partner`` while ``value`` is still bound, is a
        CompileError with ``message``."""
        self.guards[value] = (partner, message, hint)

    def _check_guards(self, old) -> None:
        if old in self.guards:
            self.fail(*self.guards[old][1:])
        for _, v in slots(self.scope):
            entry = self.guards.get(v) if isinstance(v, Value) else None
            if entry is not None and entry[0] is old:
                self.fail(*entry[1:])
        if old in self.frozen:
            self.fail(*self.frozen[old])

    def array_operand(self, x):
        """``x`` as the operand of an op that makes a view of it: a compile-time array bound
        to a local name becomes that name's run-time value, so that writes into the view
        reach it; a view of a global or an enclosing function's array is marked read-only."""
        if not (isinstance(x, Constant) and isinstance(x.value, np.ndarray)):
            return x
        if any(v is x for _, v in slots(self.scope)):
            return self.materialize_local(self.scope, x)
        if x in self.foreign:
            v = materialize(self, x)
            self.frozen[v] = ("writing through a view of a global or of an enclosing "
                              "function's array is not supported",
                              "pass the array as an argument, or copy the view first "
                              "(y = x[...].copy())")
            return v
        return x

    def loop_links(self, scope, rebound: set, tracked: bool = False):
        """The arrays held in ``scope`` before a loop (by names and tuple items, ``holders``)
        that are another slot's array or a view of it, as ``(slot, op, base slot)`` (op None:
        the same array): ``links`` that the loop keeps (neither name is in ``rebound``),
        re-made from the base in the body and after the loop, and ``risky`` ones whose link
        the loop may break at run time. With ``tracked``, a caller's buffer ``%in:p`` is a
        slot too, linked to names other than ``p`` (``%live:p`` follows ``p``)."""
        held = sorted(((n, v) for n, v in slots(scope) if _linkable(scope, n, v, tracked)),
                      key=lambda e: sort_key(e[0]))
        by_value = {}
        for n, v in held:
            by_value.setdefault(v, []).append(n)

        def representative(v):  # with ``tracked``, a name before a caller's buffer
            group = sorted(by_value[v], key=lambda n: tracked and name_of(n).startswith(IN))
            return next((n for n in group if name_of(n) not in rebound), group[0])

        links, risky = [], []
        for n, v in held:
            chain = ()
            m = representative(v)
            while m == n or v not in by_value:  # up through views not bound to a name
                found = self.view_source(v)
                if found is None:
                    break
                chain, v = (found[0], *chain), found[1]
                m = representative(v) if v in by_value else n
            else:
                src = chain or None
                if tracked and src is None and _tracks(name_of(n), name_of(m)):
                    continue  # the link %live:p keeps
                (risky if {name_of(n), name_of(m)} & rebound else links).append((n, src, m))
        return _ordered(links), risky

    def remake_links(self, scope, links) -> None:
        """Bind each linked name of ``scope`` to its base's array or a view of it, made again
        from the base's current value."""
        for n, src, m in links:
            put(scope, n, get(scope, m) if src is None else self.reapply(src, get(scope, m)))

    def check_links(self, scope, links, line: int) -> None:
        """At the end of a loop body: every linked name still has its link."""
        for n, src, m in links:
            v, base = get(scope, n), get(scope, m)
            if v is base if src is None else self.linked(v, src, base):
                continue
            self.fail(f"'{text(n)}' is {_link_text(src, m)} before the loop at line {line}, and "
                      f"the loop changes that link", "create the view inside the loop")

    def guard_links(self, scope, risky, line: int) -> None:
        """Writes that depend on a link the loop at ``line`` may break are CompileErrors."""
        for n, src, m in risky:
            self.guard(get(scope, n), get(scope, m),
                       f"'{text(n)}' is {_link_text(src, m)} before the loop at line {line}, and "
                       f"the loop may rebind one of them: whether writing through one "
                       f"changes the other is decided at run time, which is not supported",
                       f"create the view inside the loop; if writes through '{text(n)}' "
                       f"should not reach '{text(m)}', copy it first ({_copy_text(n)})"
                       if src is not None else
                       f"make '{text(n)}' name the array inside the loop; if writes through "
                       f"'{text(n)}' should not reach '{text(m)}', copy it first "
                       f"({_copy_text(n)})")

    def iteration_links(self, end, incoming: dict, kept, rebound: set) -> list:
        """At the end of a loop body: the links between names the next iteration starts with
        (block arguments, invariants) that the body made by rebinding one of them (a name in
        ``rebound``); the next iteration sees them as separate arrays. ``(slot, op, base
        slot)``, op ``MAY`` for a value guarded in the body (linked on some paths only)."""
        changed = {n for n, v in incoming.items() if end.names.get(n) is not v} & rebound
        starts = {n for n, v in incoming.items() if not isinstance(v, Undefined)}
        # where ``%live:p`` may hold, ``p``'s value at the start is the caller's buffer too
        first = Scope({**end.names, **{
            IN + n[len(LIVE):]: incoming[n[len(LIVE):]] for n, v in incoming.items()
            if n.startswith(LIVE) and not (isinstance(v, Constant) and not v.value)}})
        out = [k for scope in (end, first) for k in self.loop_links(scope, changed, True)[1]
               if {name_of(k[0]), name_of(k[2])} <= starts]
        held = [(n, v) for n, v in slots(end) if name_of(n) in starts and _linkable(end, n, v)]
        for x, v in held:
            partner = self.guards[v][0] if v in self.guards else None
            for y, w in held:
                if w is partner and x != y and {name_of(x), name_of(y)} & changed:
                    out.append((x, MAY, y) if name_of(x) in changed else (y, MAY, x))
        known = {frozenset((n, m)) for n, _, m in kept}
        return list({(k[0], k[2]): k for k in out if frozenset((k[0], k[2])) not in known
                     }.values())

    def guard_iteration_links(self, scope, found, line: int) -> None:
        """Writes that depend on a link ``iteration_links`` found are CompileErrors."""
        for n, src, m in found:
            link = f"may be the same array as {_slot_text(m)} or a view of it" if src is MAY \
                else f"is {_link_text(src, m)}"
            self.guard(get(scope, n), get(scope, m),
                       f"{_slot_text(n)} {link} at the end of an iteration of the loop at line "
                       f"{line}: whether a write into one in the next iteration or after the "
                       f"loop changes the other is decided at run time, which is not supported",
                       f"copy the array when binding '{text(n)}' in the loop "
                       f"({_copy_text(n)})")

    def relink(self, merged, paths: list, line: int) -> None:
        """After a branch: a name that is the same view or alias of another name on every
        path in ``paths`` (the scopes the merge takes values from) is that again in
        ``merged``; one that is a view or alias on some paths only is guarded."""
        paths, view = [resolved(s) for s in paths], resolved(merged)
        changed = {n for n, v in view.names.items() if any(s.get(n) is not v for s in paths)}
        found = [{n: (src, m) for n, src, m in sum(self.loop_links(s, changed, True), [])}
                 for s in paths]
        some = _ordered([(n, *next(f[n] for f in found if n in f))
                         for n in sorted(set().union(*found), key=sort_key)])
        for n, src, m in some:
            link = found[0].get(n)
            v, base = get(view, n), get(view, m)
            if not isinstance(v, Value) or not isinstance(base, Value):
                continue
            if all(get(s, n) is v and get(s, m) is base for s in paths):
                continue  # neither is merged: the link is intact
            if link is not None and all(f.get(n) == link for f in found):
                put(merged, n, base if src is None else self.reapply(src, base))
                continue
            self.guard(v, base,
                       f"{_slot_text(n)} is {_link_text(src, m)} on some paths of the branch at "
                       f"line {line} only: {_which_text(src, n, m)} is decided at run time, "
                       f"which is not supported",
                       f"make the view after the branch, or copy it ({_copy_text(n)})")

    def shared_default(self, value, holder: str):
        """A nested function's default value: a compile-time array becomes a run-time value,
        shared with the local names bound to it (rebound) or else with the hidden name
        ``holder``, so that writes through any of them reach all, as Python shares the one
        object; branches and loops make the default again from that name (links)."""
        if not (isinstance(value, Constant) and isinstance(value.value, np.ndarray)) \
                or value in self.foreign:
            return value
        if any(v is value for _, v in slots(self.scope)):
            return self.materialize_local(self.scope, value)
        self.scope[holder] = materialize(self, value)
        return self.scope[holder]

    def materialize_local(self, scope, value):
        """A local array known at compile time (``np.zeros(3)``) as a run-time value that
        can be updated: every name of ``scope`` bound to it is rebound."""
        if not (isinstance(value, Constant) and isinstance(value.value, np.ndarray)):
            return value
        v = materialize(self, value)
        for slot, w in slots(scope):
            if w is value:
                put(scope, slot, v)
        return v

    def _target_array(self, node):
        """The array value a subscript assignment writes into."""
        x = self.expr(node)
        if isinstance(node, ast.Name) and node.id in self.scope.names:
            x = self.materialize_local(self.scope, x)
        if isinstance(x, Constant) and isinstance(x.value, np.ndarray):
            self.fail("assignment into a global or constant array is not supported",
                      "pass the array as an argument, or use a compiler.Variable")
        if not (isinstance(x, Value) and isinstance(x.type, T.TensorType)):
            self.fail(f"'{ast.unparse(node)}' ({describe(x)}) does not support item assignment",
                      "assign into arrays only")
        return x

    def assign_item(self, target: ast.Subscript, value) -> None:
        """``target.value[target.slice] = value``."""
        x = self._target_array(target.value)
        index = self.expr(target.slice)
        with self.at(target):
            self.mutate(x, self.setitem(x, index, value))

    def augassign_item(self, node: ast.AugAssign) -> None:
        """``x[idx] op= v``: NumPy's in-place ufunc on the region (same_kind casting)."""
        target = node.target
        x = self._target_array(target.value)
        index = self.expr(target.slice)
        rhs = self.expr(node.value)
        with self.at(node):
            region = subscript(self, x, index)
            new = self.binary(node.op, region, rhs)
            if isinstance(region.type, T.TensorType):
                self._check_same_kind(node.op, new, region.type.element)
            self.mutate(x, self.setitem(x, index, new))

    def augassign_array(self, node: ast.AugAssign, x: Value) -> None:
        """``x op= v`` for an array ``x``: in place, as NumPy's ``x.__iadd__``."""
        rhs = self.expr(node.value)
        with self.at(node):
            new = self.binary(node.op, x, rhs)
            self._check_same_kind(node.op, new, x.type.element)
            self.mutate(x, self.setitem(x, Constant(()), new))

    def _check_same_kind(self, op, new, el: T.Type) -> None:
        src = T.element_type(materialize(self, new).type) if not isinstance(new, Constant) \
            else None
        if src is None or T.is_weak(src) or T.is_weak(el):
            return
        a, b = T.to_dtype(src), T.to_dtype(el)
        if not np.can_cast(a, b, "same_kind"):
            self.fail(f"Cannot cast ufunc '{_ufunc_name(op, new)}' output from "
                      f"dtype('{a}') to dtype('{b}') with casting rule 'same_kind'",
                      f"write x = x {_SYMBOL.get(type(op), '?')} v to get a new array, or "
                      f"cast the value with .astype", TypeError)


def _ufunc_name(op, new) -> str:
    """The ufunc NumPy's casting error names: the one that computed ``new`` (``x **= 2``
    runs ``square``), else the operator's."""
    src = new.owner_op() if isinstance(new, Value) else None
    name = getattr(src, "numpy", "")
    return getattr(np, name).__name__ if name else type(op).__name__.lower()


MAY = "may"  # a link on some paths only (``iteration_links``)
_VIEWS = (npd.SubscriptOp, npd.TransposeOp, npd.ReshapeOp, npd.BroadcastToOp)


def _linkable(scope, slot, v, tracked: bool = False) -> bool:
    """Whether ``slot`` holds a plain local array ``v`` (not a flag, exit value or, unless
    ``tracked``, a tracked buffer that ``%live:`` follows)."""
    name = name_of(slot)
    if is_special(name) or name.startswith(LIVE) or not (
            isinstance(v, Value) and isinstance(v.type, T.TensorType)):
        return False
    return tracked or not (name.startswith(IN) and LIVE + name[len(IN):] in scope)


def resolved(scope):
    """``scope`` with each ``%in:p`` that is an ``Alias`` bound to ``p``'s value."""
    return Scope({n: resolve(scope, v) for n, v in scope.names.items()})


def _tracks(a: str, b: str) -> bool:
    """Whether the names are ``p`` and ``%in:p``."""
    return IN + a == b or IN + b == a


def _ordered(links: list) -> list:
    """``links`` with each base's own link first."""
    by_name = {n: (n, src, m) for n, src, m in links}
    out, seen = [], set()

    def visit(n):
        if n in seen or n not in by_name:
            return
        seen.add(n)
        visit(by_name[n][2])
        out.append(by_name[n])

    for n in by_name:
        visit(n)
    return out


def _slot_text(slot) -> str:
    if isinstance(slot, str) and slot.startswith(IN):
        return f"the array passed as '{slot[len(IN):]}'"
    return f"'{text(slot)}'"


def _link_text(src, base) -> str:
    return f"the same array as {_slot_text(base)}" if src is None else \
        f"a view of {_slot_text(base)} made"


def _which_text(src, n, m) -> str:
    if src is None:  # either name may be the one written
        return f"whether a write into {_slot_text(n)} or {_slot_text(m)} changes the other"
    return f"whether writing through {_slot_text(n)} changes {_slot_text(m)}"


def _copy_text(slot) -> str:
    if isinstance(slot, str):
        return f"{slot} = {slot}.copy()"
    return f"build the tuple from {text(slot)}.copy()"


def _contiguous(v: Value) -> bool:
    """True when ``v`` is an array an ``np`` op computed, not a view (``np.subscript``,
    ``np.transpose``, ``np.broadcast_to``), an argument or a control-flow result that may
    have any strides."""
    src = v.op if isinstance(v, OpResult) else None
    return src is not None and src.name.startswith("np.") \
        and not isinstance(src, (npd.SubscriptOp, npd.TransposeOp, npd.BroadcastToOp))


_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
