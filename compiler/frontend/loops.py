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
from .ast_scan import assigned_names, contains
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
from .values import Constant, RangeValue, Undefined, is_array


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
    carried = [n for n in sorted(assigned - targets) if n in outer.names
               and not isinstance(outer[n], Undefined)]
    inits = {n: outer[n] for n in carried}
    if contains(node.body, ast.Break):
        carried.append(BROKE)
        inits[BROKE] = Constant(False)
    if contains(node.body, ast.Return):
        carried.append(RETURNED)
        inits[RETURNED] = outer[RETURNED]
        for n in sorted(outer.names):
            if n not in FLAGS and is_special(n) and n not in carried:
                carried.append(n)
                inits[n] = outer[n]
    bounds = loop_targets.range_bounds(cx, rng) if rng is not None else None
    specs = {n: initial_spec(inits[n]) for n in carried}
    if targets:
        runs = loop_targets.runs_statically(rng)
        for n, spec in loop_targets.target_specs(cx, node.target, bounds[3], item).items():
            before = loop_targets.value_before(outer, n)
            fits = before is not None and joined_or_none(cx, n, spec, before) == spec
            # The target is bound at the top of every iteration: it is carried for its
            # value after the loop, never with a type joined from an older value. Rows
            # (views) are not carried without one.
            if fits or (runs is not False and (runs or before is not None) and not any(
                    isinstance(x, T.TensorType) for x in spec[1])):
                carried.append(n)
                inits[n], specs[n] = before if fits else DONTCARE, spec
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
    results = iter(op.results)
    after = outer.copy()
    line = cx.builder.loc.line
    for n in sorted(assigned - targets):
        if n not in carried:
            after[n] = Undefined(n, f"is assigned only inside the loop at line {line} and "
                                    f"used after it", f"assign '{n}' before the loop")
    for n in carried:
        struct, leaves = specs[n]
        after[n] = unflatten(struct, iter([next(results) if isinstance(x, T.Type) else x
                                           for x in leaves]))
    links.remake_links(cx, after, kept)
    links.guard_iteration_links(cx, after, made, line)
    links.guard_links(cx, after, risky, line)  # its message wins for links made before
    broke = after.names.get(BROKE, Constant(False)) if BROKE in carried else Constant(False)
    for n in (BROKE, CONTINUED):
        after.names.pop(n, None)
        if n in outer.names:
            after[n] = outer[n]
    if rng is None and _always_true(node.test) and BROKE not in carried:
        after.terminated = True  # only a return leaves `while True:`
        after.returned = RETURNED in carried
    cx.scope = after
    for n in sorted(targets):
        if n not in carried or inits[n] is DONTCARE:
            loop_targets.target_after(cx, n, loop_targets.value_before(outer, n),
                                      n in carried, rng, line)
    if node.orelse and not after.terminated:
        if isinstance(broke, Constant):
            if not broke.value:
                statements.block(cx, node.orelse)
        else:
            branches.branch(cx, logical_not(cx, broke), lambda: statements.block(cx, node.orelse),
                            lambda: None)


def _loop_attempt(cx, node, bounds, item, carried, inits, specs, outside):
    """Build the loop with the carried types in ``specs``. Returns (prelude, op), or new
    specs when the body changes a carried type (everything built is discarded).
    ``outside``: the links made before the loop (``links.loop_links``) and those the body
    makes for the next iteration; the body makes the kept ones again from their bases
    instead of carrying them."""
    prelude = Block()
    with cx.builder.at_end(prelude):
        init_values = []
        for n in carried:
            struct, leaves = specs[n]
            given = flatten_as(inits[n], struct) if inits[n] is not DONTCARE \
                else [DONTCARE] * len(leaves)
            for x, spec in zip(given, leaves, strict=True):
                if isinstance(spec, T.Type):
                    init_values.append(placeholder(cx, spec) if x is DONTCARE
                                       else coerce(cx, x, spec))
    if bounds is not None:
        lb, ub, step, value_of = bounds
        with cx.builder.at_end(prelude):
            # Upstream scf.for bounds are signless integers: the counter runs as int64 and
            # the body sees it as a Python int again (both casts vanish when lowered).
            lb, ub, step = (cast(cx, v, T.i64) for v in (lb, ub, step))
        op = scf.ForOp.create(lb, ub, step, init_values)
        body, args = op.body, op.body.args[1:]
    else:
        op = scf.WhileOp.create(init_values)
        body, args = op.after, op.after.args
        _while_condition(cx, node, op, carried, specs)
    scope = _bind_carried(cx, Scope(cx.scope.names), carried, specs, args)
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
                loop_targets.bind_target(cx, node.target, value_of(counter), item, carried)
        statements.block(cx, node.body)

    _, end = branches.run_in(cx, body, scope, run_body)
    new_specs, changed = dict(specs), False
    ends = {}
    if not end.returned:
        with cx.builder.at_end(body):
            links.check_links(cx, end, kept, line)
        seen = {(n, m) for n, _, m in made}  # each attempt makes its views again
        new = [k for k in links.iteration_links(cx, end, incoming, kept, rebound_names(
            node.body, scope)) if (k[0], k[2]) not in seen]
        made.extend(new)
        changed = bool(new)  # built again with the new links guarded
    linked = {}  # name -> the paths into its value of the slots the body makes again
    for n, _, _ in kept:
        linked.setdefault(name_of(n), set()).add(() if isinstance(n, str) else n[1])
    observed = tracking.kept_on_return(cx, [end])  # the caller's buffers, also once returned
    late = [n for n in sorted(end.names) if n not in carried and (
        (is_special(n) and n not in FLAGS and RETURNED in carried)
        or ((not end.returned or n in observed) and not is_special(n) and n in incoming
            and not isinstance(incoming[n], Undefined)  # assigned in the body
            and not same_but(end.names[n], incoming[n], linked.get(n, ()))))]
    # changed by a mutation or callee, not only in slots made again from their base
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
    if changed:
        discard(prelude)
        discard_op(op)
        return new_specs
    with cx.builder.at_end(body):
        yields = []
        for n in carried:
            for x, spec in zip(flatten_as(ends[n], specs[n][0]), specs[n][1],
                               strict=True):
                if isinstance(spec, T.Type):
                    yields.append(placeholder(cx, spec) if x is DONTCARE
                                  else coerce(cx, x, spec))
        cx.emit_op(scf.YieldOp, yields)
    return prelude, op


def _while_condition(cx, node, op, carried, specs) -> None:
    scope = _bind_carried(cx, Scope(cx.scope.names), carried, specs, op.before.args)

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


def _bind_carried(cx, scope: Scope, carried, specs, args) -> Scope:
    it = iter(args)
    for n in carried:
        struct, leaves = specs[n]
        scope[n] = unflatten(struct, iter([next(it) if isinstance(x, T.Type) else x
                                           for x in leaves]))
    scope.terminated = scope.returned = False
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
