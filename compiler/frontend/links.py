"""Links between arrays across control flow. A *link* is a slot (holders.py) that holds
another slot's array or a view of it, as ``(slot, op, base slot)`` (op None: the same array,
else the view ops from the base down).

A loop does not carry a linked slot: the body and the code after the loop make it again from
its base (``loop_links``, ``remake_links``), and the body must keep it (``check_links``). A
link the loop may break at run time, or one the body makes for the next iteration
(``iteration_links``), is guarded (``mutation.guard``): a write that depends on it is a
CompileError. After a branch, a link that holds on every path is made again from the merged
base; one that holds on some paths only is guarded (``relink``).
"""

from __future__ import annotations

from .. import types as T
from ..ir.core import Value
from . import mutation
from .holders import get, name_of, put, slots, sort_key, text
from .scope import IN, LIVE, VALUE, Scope, is_special, resolved
from .values import Constant, Undefined

MAY = "may"  # a link on some paths only (``iteration_links``)


def loop_links(cx, scope, rebound: set, tracked: bool = False):
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
            found = mutation.view_source(cx, v)
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


def remake_links(cx, scope, links) -> None:
    """Bind each linked name of ``scope`` to its base's array or a view of it, made again
    from the base's current value."""
    for n, src, m in links:
        put(scope, n, get(scope, m) if src is None else mutation.reapply(cx, src, get(scope, m)))


def check_links(cx, scope, links, line: int) -> None:
    """At the end of a loop body: every linked name still has its link."""
    for n, src, m in links:
        v, base = get(scope, n), get(scope, m)
        if v is base if src is None else mutation.linked(cx, v, src, base):
            continue
        cx.fail(f"'{text(n)}' is {_link_text(src, m)} before the loop at line {line}, and "
                f"the loop changes that link", "create the view inside the loop")


def guard_links(cx, scope, risky, line: int) -> None:
    """Writes that depend on a link the loop at ``line`` may break are CompileErrors."""
    for n, src, m in risky:
        mutation.guard(cx, get(scope, n), get(scope, m),
                       f"'{text(n)}' is {_link_text(src, m)} before the loop at line {line}, and "
                       f"the loop may rebind one of them: whether writing through one "
                       f"changes the other is decided at run time, which is not supported",
                       f"create the view inside the loop; if writes through '{text(n)}' "
                       f"should not reach '{text(m)}', copy it first ({_copy_text(n)})"
                       if src is not None else
                       f"make '{text(n)}' name the array inside the loop; if writes through "
                       f"'{text(n)}' should not reach '{text(m)}', copy it first "
                       f"({_copy_text(n)})")


def iteration_links(cx, end, incoming: dict, kept, rebound: set) -> list:
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
    out = [k for scope in (end, first) for k in loop_links(cx, scope, changed, True)[1]
           if {name_of(k[0]), name_of(k[2])} <= starts]
    held = [(n, v) for n, v in slots(end) if name_of(n) in starts and _linkable(end, n, v)]
    for x, v in held:
        partner = cx.guards[v][0] if v in cx.guards else None
        for y, w in held:
            if w is partner and x != y and {name_of(x), name_of(y)} & changed:
                out.append((x, MAY, y) if name_of(x) in changed else (y, MAY, x))
    known = {frozenset((n, m)) for n, _, m in kept}
    return list({(k[0], k[2]): k for k in out if frozenset((k[0], k[2])) not in known
                 }.values())


def guard_iteration_links(cx, scope, found, line: int) -> None:
    """Writes that depend on a link ``iteration_links`` found are CompileErrors."""
    for n, src, m in found:
        link = f"may be the same array as {_slot_text(m)} or a view of it" if src is MAY \
            else f"is {_link_text(src, m)}"
        mutation.guard(cx, get(scope, n), get(scope, m),
                       f"{_slot_text(n)} {link} at the end of an iteration of the loop at line "
                       f"{line}: whether a write into one in the next iteration or after the "
                       f"loop changes the other is decided at run time, which is not supported",
                       f"copy the array when binding '{text(n)}' in the loop "
                       f"({_copy_text(n)})")


def relink(cx, merged, paths: list, line: int) -> None:
    """After a branch: a name that is the same view or alias of another name on every
    path in ``paths`` (the scopes the merge takes values from) is that again in
    ``merged``; one that is a view or alias on some paths only is guarded."""
    paths, view = [resolved(s) for s in paths], resolved(merged)
    changed = {n for n, v in view.names.items() if any(s.get(n) is not v for s in paths)}
    found = [{n: (src, m) for n, src, m in sum(loop_links(cx, s, changed, True), [])}
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
            put(merged, n, base if src is None else mutation.reapply(cx, src, base))
            continue
        mutation.guard(cx, v, base,
                       f"{_slot_text(n)} is {_link_text(src, m)} on some paths of the branch at "
                       f"line {line} only: {_which_text(src, n, m)} is decided at run time, "
                       f"which is not supported",
                       f"make the view after the branch, or copy it ({_copy_text(n)})")


def _linkable(scope, slot, v, tracked: bool = False) -> bool:
    """Whether ``slot`` holds a plain local array ``v`` (not a flag, exit value or, unless
    ``tracked``, a tracked buffer that ``%live:`` follows)."""
    name = name_of(slot)
    if is_special(name) or name.startswith(LIVE) or not (
            isinstance(v, Value) and isinstance(v.type, T.TensorType)):
        return False
    return tracked or not (name.startswith(IN) and LIVE + name[len(IN):] in scope)


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
    if name_of(slot) == VALUE:
        item = "" if isinstance(slot, str) else f"item {text(slot)[len(VALUE):]} of "
        return f"{item}the conditional expression's value"
    return f"'{text(slot)}'"


def _link_text(src, base) -> str:
    return f"the same array as {_slot_text(base)}" if src is None else \
        f"a view of {_slot_text(base)} made"


def _which_text(src, n, m) -> str:
    if src is None:  # either name may be the one written
        return f"whether a write into {_slot_text(n)} or {_slot_text(m)} changes the other"
    return f"whether writing through {_slot_text(n)} changes {_slot_text(m)}"


def _copy_text(slot) -> str:
    if name_of(slot) == VALUE:
        return "copy the array in the branch that gives it, e.g. x.copy() if c else y"
    if isinstance(slot, str):
        return f"{slot} = {slot}.copy()"
    return f"build the tuple from {text(slot)}.copy()"
