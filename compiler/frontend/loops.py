"""Loops: ``while`` (``scf.while``) and ``for`` over ``range(...)``, an array's first axis and
``enumerate``/``zip`` of those (``scf.for``, never unrolled, see iteration.py), with
``break``, ``continue`` and loop ``else`` clauses.

The variables the body assigns that are bound before the loop are carried (iter args and
results), with types joined over the iterations: a body that changes a carried type is built
again with the joined one (merge.py ``joined_spec``). ``break`` and ``return`` set flags
that the loop carries and stops on (the rest of the body is guarded, branches.py);
``continue`` ends the iteration. Views and aliases made before the loop are made again from
their bases instead of being carried (links.py); the target's value after the loop is
loop_targets.py's.
"""

from __future__ import annotations

import ast
import operator

import numpy as np

from .. import types as T
from ..dialects import scf
from ..ir.core import Block
from . import branches, expressions, links, loop_targets, mutation, statements, tracking
from .ast_scan import assigned_names, contains, grown_lists
from .dispatch import statement_handler
from .holders import name_of, same_but
from .iteration import iteration
from .merge import (
    DONTCARE,
    discard,
    discard_op,
    flatten_as,
    initial_spec,
    joined_or_none,
    joined_spec,
    placeholder,
    unflatten,
)
from .ops import apply_ufunc, cast, coerce, logical_not, truth
from .scope import (
    BROKE,
    CONTINUED,
    FLAGS,
    IN,
    LIVE,
    MISSING,
    RETURNED,
    Alias,
    Scope,
    is_special,
    resolve,
)
from .values import Constant, ListValue, RangeValue, Undefined, is_array


@statement_handler(ast.While)
def _while(cx, node: ast.While) -> None:
    _loop(cx, node, None)


@statement_handler(ast.For)
def _for(cx, node: ast.For) -> None:
    it = mutation.array_operand(cx, expressions.expr(cx, node.iter))  # rows are views
    with cx.at(node.iter):
        if isinstance(it, RangeValue) and isinstance(node.target, ast.Name):
            _loop(cx, node, it)
            return
        if isinstance(it, ListValue) and isinstance(node.iter, ast.Name) \
                and node.iter.id in grown_lists(node.body):
            cx.fail(f"changing the length of list '{node.iter.id}' while a for loop iterates "
                    f"it is not supported", "iterate over range(len(...)) of a copy, or "
                    "build a second list")
        n, item = iteration(cx, it, set(cx.scope.names) - assigned_names(node.body))
    _loop(cx, node, RangeValue(Constant(0), n, Constant(1)), item)


def _loop(cx, node, rng, item=None) -> None:
    """A ``while`` loop (``rng`` None) or a ``for`` loop over ``rng``, whose target is
    bound to ``item(i)`` (default: the range value ``i``); then its ``else`` clause,
    which runs when no ``break`` ended the loop."""
    outer = cx.scope
    targets = assigned_names([node.target]) if rng is not None else set()
    assigned = assigned_names(node.body) | targets
    for n in assigned:  # whether a tracked buffer follows a name the loop rebinds is
        if isinstance(outer.get(IN + n), Alias):  # known at run time
            outer[IN + n] = outer[n]
            outer[LIVE + n] = Constant(True)
    kept, risky = links.loop_links(cx, outer, rebound_names(node.body, outer) | targets)
    made = []  # links the body makes for the next iteration (``iteration_links``)
    carried, inits = _carried(node.body, outer, assigned - targets)
    bounds = loop_targets.range_bounds(cx, rng) if rng is not None else None
    specs = {n: initial_spec(inits[n]) for n in carried}
    if targets:
        found = loop_targets.carried_targets(cx, node.target, rng, bounds[3], item, outer)
        for n, (init, spec) in found.items():
            carried.append(n)
            inits[n], specs[n] = init, spec
    for _ in range(16):
        attempt = _loop_attempt(cx, node, bounds, item, carried, inits, specs,
                                (kept, risky, made))
        if not isinstance(attempt, dict):
            break
        specs = attempt
        for n in specs:
            if n not in carried:
                carried.append(n)
                inits[n] = resolve(outer, outer[n]) if n in outer.names else DONTCARE
            elif n in targets and inits[n] is not DONTCARE \
                    and joined_or_none(cx, n, specs[n], inits[n]) != specs[n]:
                inits[n] = DONTCARE
    else:
        cx.fail("the types of the loop variables do not settle")
    prelude, op = attempt
    for o in list(prelude.ops):
        prelude.ops.remove(o)
        cx.builder.insert(o)
    cx.builder.insert(op)
    after = outer.copy()
    line = cx.builder.loc.line
    for n in sorted(assigned - targets):
        if n not in carried:
            after[n] = Undefined(n, f"is assigned only inside the loop at line {line} and "
                                    f"used after it", f"assign '{n}' before the loop")
    _bind_carried(after, carried, specs, op.results)
    links.remake_links(cx, after, kept)
    links.guard_iteration_links(cx, after, made, line)
    links.guard_links(cx, after, risky, line)  # its message wins for links made before
    broke = _exit_flags(node, rng, outer, after, carried)
    cx.scope = after
    for n in sorted(targets):
        if n not in carried or inits[n] is DONTCARE:
            loop_targets.target_after(cx, n, loop_targets.value_before(outer, n),
                                      n in carried, rng, line)
    if node.orelse and not after.terminated:
        _else_clause(cx, node, broke)


def _exit_flags(node, rng, outer: Scope, after: Scope, carried):
    """The loop's break flag once it ended; ``after`` (the scope after the loop) gets the
    enclosing loop's break and continue flags back, and ends when only a ``return`` leaves
    the loop."""
    broke = after.names.get(BROKE, Constant(False)) if BROKE in carried else Constant(False)
    for n in (BROKE, CONTINUED):
        after.names.pop(n, None)
        if n in outer.names:
            after[n] = outer[n]
    if rng is None and _always_true(node.test) and BROKE not in carried:
        after.terminated = True  # only a return leaves `while True:`
        after.returned = RETURNED in carried
    return broke


def _else_clause(cx, node, broke) -> None:
    """The loop's ``else`` clause, which runs unless a ``break`` ended the loop."""
    if isinstance(broke, Constant):
        if not broke.value:
            statements.block(cx, node.orelse)
    else:
        branches.branch(cx, logical_not(cx, broke), lambda: statements.block(cx, node.orelse),
                        lambda: None)


def _carried(body, outer: Scope, assigned: set) -> tuple:
    """(carried, inits): the names a loop carries apart from its target, with their values
    on entry: the ``assigned`` ones bound before the loop, and the flags its ``body`` may
    set (with a ``return``, the return value and the globals' exit values too)."""
    carried = [n for n in sorted(assigned) if n in outer.names
               and not isinstance(outer[n], Undefined)]
    inits = {n: outer[n] for n in carried}
    if contains(body, ast.Break):
        carried.append(BROKE)
        inits[BROKE] = Constant(False)
    if contains(body, ast.Return):
        carried.append(RETURNED)
        inits[RETURNED] = outer[RETURNED]
        for n in sorted(outer.names):
            if n not in FLAGS and is_special(n) and n not in carried:
                carried.append(n)
                inits[n] = outer[n]
    return carried, inits


def _loop_attempt(cx, node, bounds, item, carried, inits, specs, outside):
    """Build the loop with the carried types in ``specs``. Returns (prelude, op), or new
    specs when the body changes a carried type (everything built is discarded).
    ``outside``: the links made before the loop (``links.loop_links``) and those the body
    makes for the next iteration; the body makes the kept ones again from their bases
    instead of carrying them."""
    prelude = Block()
    with cx.builder.at_end(prelude):
        init_values = _carried_values(cx, inits, carried, specs)
    op, body, args = _loop_op(cx, node, bounds, prelude, init_values, carried, specs)
    scope = _bind_carried(Scope(cx.scope.names), carried, specs, args)
    kept, risky, made = outside
    line = cx.loc(node).line
    with cx.builder.at_end(body):
        links.remake_links(cx, scope, kept)
    links.guard_iteration_links(cx, scope, made, line)
    links.guard_links(cx, scope, risky, line)
    incoming = dict(scope.names)
    scope[CONTINUED] = Constant(False)
    if bounds is None:
        for f in (BROKE, RETURNED):
            if f in carried:
                scope[f] = Constant(False)  # the condition checked them

    def run_body():
        if bounds is not None:
            with cx.at(node.target):
                counter = cast(cx, op.induction_var, T.py_int)
                loop_targets.bind_target(cx, node.target, bounds[3](counter), item, carried)
        statements.block(cx, node.body)

    _, end = branches.run_in(cx, body, scope, run_body)
    changed = False
    if not end.returned:
        with cx.builder.at_end(body):
            links.check_links(cx, end, kept, line)
        seen = {(n, m) for n, _, m in made}  # each attempt makes its views again
        new = [k for k in links.iteration_links(cx, end, incoming, kept, rebound_names(
            node.body, scope)) if (k[0], k[2]) not in seen]
        made.extend(new)
        changed = bool(new)  # built again with the new links guarded
    observed = tracking.kept_on_return(cx, [end])  # the caller's buffers, also once returned
    ends, new_specs, joined = _end_values(cx, end, incoming, carried, specs, observed,
                                          _late(end, carried, incoming, kept, observed))
    if changed or joined:
        discard(prelude)
        discard_op(op)
        return new_specs
    with cx.builder.at_end(body):
        cx.emit_op(scf.YieldOp, _carried_values(cx, ends, carried, specs))
    return prelude, op


def _loop_op(cx, node, bounds, prelude: Block, init_values, carried, specs) -> tuple:
    """(op, body, args): the ``scf.for`` over ``bounds`` (``scf.while`` with its condition
    when None) that carries ``init_values``, its body block and the body's carried block
    arguments."""
    if bounds is None:
        op = scf.WhileOp.create(init_values)
        _while_condition(cx, node, op, carried, specs)
        return op, op.after, op.after.args
    lb, ub, step, _ = bounds
    with cx.builder.at_end(prelude):
        # Upstream scf.for bounds are signless integers: the counter runs as int64 and
        # the body sees it as a Python int again (both casts vanish when lowered).
        lb, ub, step = (cast(cx, v, T.i64) for v in (lb, ub, step))
    op = scf.ForOp.create(lb, ub, step, init_values)
    return op, op.body, op.body.args[1:]


def _end_values(cx, end: Scope, incoming: dict, carried, specs, observed: set, late) -> tuple:
    """(ends, specs, changed): the values of the carried and ``late`` names at the end of the
    body, the carried specs that hold them, and whether those differ from ``specs`` (on a
    path that returned, a name yields its incoming value unless the caller observes it)."""
    new_specs, ends, changed = dict(specs), {}, False
    for n in carried + late:
        dead = end.returned and not is_special(n) and n not in observed
        v = incoming[n] if dead else end.names.get(n, MISSING)
        if n in late and n in incoming:
            v = resolve(end, v)
        if isinstance(v, Undefined):
            v.fail(cx.builder.loc)
        ends[n] = v
        spec = joined_spec(cx, n, specs.get(n) if n not in late or n not in incoming
                           else initial_spec(resolve(cx.scope, incoming[n])), v)
        if spec != specs.get(n):
            new_specs[n], changed = spec, True
    return ends, new_specs, changed


def _late(end: Scope, carried, incoming: dict, kept, observed: set) -> list:
    """The names the body changed that the loop does not carry yet: the return value and
    the snapshot buffers' exit values once a ``return`` may run, and the names bound before
    the loop (not assigned in the body) that a mutation or callee changed, not only in the
    slots the body makes again from their base (``kept``); on a path that returned, only the
    ``observed`` ones."""
    linked = {}  # name -> the paths into its value of the slots the body makes again
    for n, _, _ in kept:
        linked.setdefault(name_of(n), set()).add(() if isinstance(n, str) else n[1])
    return [n for n in sorted(end.names) if n not in carried and (
        (is_special(n) and n not in FLAGS and RETURNED in carried)
        or ((not end.returned or n in observed) and not is_special(n) and n in incoming
            and not isinstance(incoming[n], Undefined)  # assigned in the body
            and not same_but(end.names[n], incoming[n], linked.get(n, ()))))]


def _carried_values(cx, values: dict, carried, specs) -> list:
    """The run-time leaves of the carried names' ``values`` as the loop carries them (cast
    to the types of their specs; a placeholder for DONTCARE)."""
    out = []
    for n in carried:
        struct, leaves = specs[n]
        given = flatten_as(values[n], struct) if values[n] is not DONTCARE \
            else [DONTCARE] * len(leaves)
        for x, spec in zip(given, leaves, strict=True):
            if isinstance(spec, T.Type):
                out.append(placeholder(cx, spec) if x is DONTCARE else coerce(cx, x, spec))
    return out


def _while_condition(cx, node, op, carried, specs) -> None:
    scope = _bind_carried(Scope(cx.scope.names), carried, specs, op.before.args)

    def test():
        value = expressions.expr(cx, node.test, optional=True)
        with cx.at(node.test):
            return truth(cx, value)

    def condition():
        flags = [cx.scope[f] for f in (BROKE, RETURNED) if f in carried]
        if not flags:
            c = test()
        else:
            stop = flags[0]
            for f in flags[1:]:
                stop = apply_ufunc(cx, np.logical_or, [stop, f], operator.or_)
            c = branches.select(cx, stop, lambda: Constant(False), test)
        cx.emit_op(scf.ConditionOp, [cast(cx, c, T.i1), *op.before.args])

    branches.run_in(cx, op.before, scope, condition)


def _bind_carried(scope: Scope, carried, specs, values) -> Scope:
    """Bind the carried names in ``scope`` to their values, rebuilt from their specs and the
    run-time ``values`` (block arguments or loop results)."""
    it = iter(values)
    for n in carried:
        struct, leaves = specs[n]
        scope[n] = unflatten(struct, iter([next(it) if isinstance(x, T.Type) else x
                                           for x in leaves]))
    return scope


def _always_true(test) -> bool:
    return isinstance(test, ast.Constant) and bool(test.value)


def rebound_names(nodes, scope) -> set:
    """``assigned_names`` less the names that only augmented assignments bind and that hold an
    array in ``scope``: ``u += x`` updates that array in place (``ndarray.__iadd__``) and ``u``
    goes on naming it, so a view ``u`` keeps its link to its base."""
    names = assigned_names(nodes)
    only_augmented = names - assigned_names(nodes, augmented=False)
    return names - {n for n in only_augmented if n in scope.names
                    and is_array(resolve(scope, scope.names[n]))}
