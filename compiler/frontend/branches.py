"""Branches: ``if``/``elif``/``else`` (picked at compile time for a constant condition, else
``scf.if``), conditional expressions and the short-circuit ``and``/``or`` (``select``), and
the statements after an early ``return``, ``break`` or ``continue`` (``guarded``).

Merges: a variable changed on a path becomes a result of the ``scf.if`` (types joined, see
merge.py); a variable bound on one path only is ``Undefined`` afterwards. On a path that
returned the locals are dead (it yields a placeholder, or the array the other paths update in
place) but the names holding the caller's buffers keep their values (tracking.py).
``break``, ``continue`` and ``return`` set flag variables (scope.py); statements after one
that may have set a flag run under ``if not flag``. Views and aliases that hold on every path
are made again after the merge (links.py).
"""

from __future__ import annotations

import ast
import operator

import numpy as np

from .. import types as T
from ..dialects import scf
from ..dialects.updates import updates_in_place
from ..ir.core import Block
from . import expressions, links, statements, tracking
from .dispatch import expression_handler, statement_handler
from .holders import same_but
from .merge import (
    DONTCARE,
    check_structures,
    flatten,
    join_types,
    leaf_type,
    lift_optionals,
    placeholder,
    unflatten,
)
from .ops import apply_ufunc, cast, coerce, logical_not, truth
from .scope import (
    IN,
    LIVE,
    MISSING,
    RETURNED,
    VALUE,
    Alias,
    Scope,
    display_name,
    is_special,
    resolve,
)
from .values import Constant, Undefined, same_constant, type_of


@statement_handler(ast.If)
def _if(cx, node: ast.If) -> None:
    test = expressions.expr(cx, node.test, optional=True)
    with cx.at(node.test):
        cond = truth(cx, test)
    if isinstance(cond, Constant):
        statements.block(cx, node.body if cond.value else node.orelse)
    else:
        branch(cx, cond, lambda: statements.block(cx, node.body),
               lambda: statements.block(cx, node.orelse))


@expression_handler(ast.IfExp)
def _ifexp(cx, node: ast.IfExp):
    test = expressions.expr(cx, node.test, optional=True)
    with cx.at(node.test):
        cond = truth(cx, test)
    return select(cx, cond, lambda: expressions.expr(cx, node.body, optional=True),
                  lambda: expressions.expr(cx, node.orelse, optional=True))


def select(cx, cond, then_thunk, else_thunk):
    """The value of ``then_thunk()`` if ``cond`` else ``else_thunk()``, evaluating only
    the chosen one (at compile time for a constant ``cond``)."""
    if isinstance(cond, Constant):
        return (then_thunk if cond.value else else_thunk)()
    return branch(cx, cond, then_thunk, else_thunk, with_value=True)


def short_circuit(cx, value, rest, kind: str):
    """Python's ``value and rest()`` / ``value or rest()``: the deciding operand."""
    t = truth(cx, value)
    if kind == "and":
        return select(cx, t, rest, lambda: value)
    return select(cx, t, lambda: value, rest)


def branch(cx, cond, then_thunk, else_thunk, with_value: bool = False):
    """An ``scf.if`` on the run-time bool ``cond``. Statement thunks update the scope;
    with ``with_value`` the thunks return the value of the whole expression."""
    before, line = cx.scope, cx.builder.loc.line
    paths = []
    for thunk in (then_thunk, else_thunk):
        block = Block()
        value, scope = run_in(cx, block, before.copy(), thunk)
        paths.append((block, scope, value))
    _flag_live(before, [s for _, s, _ in paths])
    live = [s for _, s, _ in paths if not s.returned]
    held = _held_links(cx, live)
    kept = tracking.kept_on_return(cx, [s for _, s, _ in paths])
    items = []
    for name in sorted(set().union(*(s.names for _, s, _ in paths))):
        old = before.names.get(name, MISSING)
        values = [s.names.get(name, MISSING) for _, s, _ in paths]
        if all(v is old for v in values) or name in held and all(
                same_but(s.names.get(name), old, held[name]) for s in live):
            continue  # changed only in the slots ``relink`` makes again
        items.append((name, [_contribution(name, v, s, name in kept) for v, (_, s, _) in
                             zip(values, paths, strict=True)]))
    if with_value:
        items.append((None, [v for _, _, v in paths]))
    types, yields = [], [[] for _ in paths]
    plans = [(name, _plan(cx, name, contribs, before, types, yields))
             for name, contribs in items]
    # Upstream scf.if takes an i1 condition: weak Python bools are cast (a no-op after
    # lowering).
    op = cx.emit_op(scf.IfOp, [cast(cx, cond, T.i1)], types=types)
    for (block, _, _), ys, region in zip(paths, yields, op.regions, strict=True):
        with cx.builder.at_end(block):
            cx.emit_op(scf.YieldOp, [placeholder(cx, t) if v is DONTCARE
                                     else coerce(cx, v, t) for v, t in ys])
        region.add_block(block)
    merged = Scope(before.names, all(s.terminated for _, s, _ in paths),
                   all(s.returned for _, s, _ in paths))
    result = None
    for name, plan in plans:
        value = _realize(plan, op.results)
        if name is None:
            result = value
        elif value is MISSING:
            merged.names.pop(name, None)
        else:
            merged.names[name] = value
    if live:
        if with_value:  # the expression's value may be another slot's array on some paths
            for (_, s, v) in paths:
                s.names[VALUE] = v
            merged.names[VALUE] = result
        links.relink(cx, merged, live, line)
        result = merged.names.pop(VALUE, result)
    cx.scope = merged
    return result


def run_in(cx, block: Block, scope: Scope, thunk):
    """Run ``thunk`` with ops going to the end of ``block``, starting from ``scope``.
    Returns the thunk's value and the scope it ends with."""
    saved = cx.scope
    cx.scope = scope
    try:
        with cx.builder.at_end(block):
            value = thunk()
        return value, cx.scope
    finally:
        cx.scope = saved


def _held_links(cx, paths) -> dict:
    """``{name: paths into its value}`` of the tuple items and function defaults that
    hold the same array as another slot, or the same view of it, on every one of
    ``paths``: ``relink`` makes them again from their base after the branch."""
    found = [{n: (src, m) for n, src, m in links.loop_links(cx, s, set())[0]} for s in paths]
    out = {}
    for n, link in (found[0] if found else {}).items():
        if not isinstance(n, str) and all(f.get(n) == link for f in found[1:]):
            out.setdefault(n[0], set()).add(n[1])
    return out


def _plan(cx, name, contribs, before, types, yields):
    """How the merged value of ``name`` is formed: ("value", v) or ("struct", s, leaves)
    where a leaf is a Constant or the index of an ``scf.if`` result."""
    what = display_name(name) if name is not None else "the value of the expression"
    live = [c for c in contribs if c is not DONTCARE]
    if not live:
        return ("value", before.names.get(name, MISSING))
    for c in live:
        if c is MISSING or isinstance(c, Undefined):
            return ("value", c if isinstance(c, Undefined) else Undefined(
                name, f"is assigned on only one path of the branch at line "
                      f"{cx.builder.loc.line} and used afterwards",
                f"assign '{name}' before the branch or on every path"))
    contribs = lift_optionals(contribs)
    live = [c for c in contribs if c is not DONTCARE]
    flat = [flatten(c) if c is not DONTCARE else None for c in contribs]
    struct = check_structures(cx, what, live, [f[0] for f in flat if f])
    first = next(f for f in flat if f)[1]
    old = _leaves_before(before, name, struct, len(first))
    specs = []
    for i in range(len(first)):
        leaves = [f[1][i] if f else DONTCARE for f in flat]
        lv = [x for x in leaves if x is not DONTCARE]
        if not lv:  # a list's buffer, empty on every path
            specs.append(DONTCARE)
            continue
        if all(isinstance(x, Constant) for x in lv) and all(
                same_constant(lv[0].value, x.value) for x in lv[1:]):
            specs.append(lv[0])
            continue
        if all(x is lv[0] for x in lv) and (len(lv) == len(leaves) or lv[0] is old[i]):
            specs.append(lv[0])  # defined before the branch: dominates the merge point
            continue
        t = leaf_type(cx, what, lv[0])
        for x in lv[1:]:
            t = join_types(cx, what, t, leaf_type(cx, what, x))
        specs.append(len(types))
        types.append(t)
        # A dead path hands on the array the live ones update in place, rather than a
        # placeholder: lowering then keeps the result in that array's buffer.
        spare = old[i] if type_of(old[i]) == t and all(
            updates_in_place(x, old[i]) for x in lv) else DONTCARE
        for k, x in enumerate(leaves):
            yields[k].append((spare if x is DONTCARE else x, t))
    return ("struct", struct, specs)


def guarded(cx, thunk) -> None:
    """Run ``thunk`` (the rest of a block) only if no pending flag is set."""
    flags = cx.scope.pending_flags()
    if any(isinstance(cx.scope[f], Constant) for f in flags):
        cx.scope.terminated = True
        return
    stop = cx.scope[flags[0]]
    for f in flags[1:]:
        stop = apply_ufunc(cx, np.logical_or, [stop, cx.scope[f]], operator.or_)

    def then():
        for f in flags:
            cx.scope[f] = Constant(False)
        thunk()

    def otherwise():
        cx.scope.terminated = True
        cx.scope.returned = flags == [RETURNED]

    branch(cx, logical_not(cx, stop), then, otherwise)


def _flag_live(before: Scope, paths: list) -> None:
    """Paths that disagree on whether a name still holds the caller's buffer (``%in:p`` an
    ``Alias`` on some) get the run-time flag ``%live:p`` (tracking.py)."""
    for name in [n for n in before.names if n.startswith(IN)]:
        ins = [s.names.get(name) for s in paths]
        p = name[len(IN):]
        # a nested branch may have flagged some paths already
        if all(v is before.names[name] for v in ins) or not any(
                isinstance(v, Alias) or LIVE + p in s.names
                for v, s in zip(ins, paths, strict=True)):
            continue
        for s, v in zip(paths, ins, strict=True):
            s.names[LIVE + p] = Constant(True) if isinstance(v, Alias) \
                else s.names.get(LIVE + p, Constant(False))


def _contribution(name, value, scope: Scope, kept: bool = False):
    """What the path ``scope`` gives the merge of ``name``: DONTCARE where it is dead (a local
    on a path that returned, unless ``kept``, see ``kept_on_return``)."""
    if scope.returned and not (is_special(name) or kept):
        return DONTCARE
    if value is MISSING and (scope.terminated or is_special(name)):
        return DONTCARE
    return resolve(scope, value)


def _leaves_before(before: Scope, name, struct, n: int) -> list:
    """The ``n`` leaves of ``name``'s value in ``before`` laid out as ``struct``; all
    ``DONTCARE`` where it has none or another structure."""
    v = before.names.get(name, MISSING) if name is not None else MISSING
    if v is not MISSING and not isinstance(v, Undefined):
        s, leaves = flatten(resolve(before, v))
        if s == struct:
            return leaves
    return [DONTCARE] * n


def _realize(plan, results):
    if plan[0] == "value":
        return plan[1]
    _, struct, specs = plan
    return unflatten(struct, iter([results[x] if isinstance(x, int) else x for x in specs]))
