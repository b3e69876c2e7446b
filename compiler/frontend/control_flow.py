"""Control flow: ``if``/``elif``/``else`` (picked at compile time for constant conditions,
else ``scf.if``), conditional expressions and ``and``/``or`` (short-circuit ``scf.if``),
``for`` over ``range(...)``, an array's first axis and ``enumerate``/``zip`` of those
(``scf.for``, never unrolled, see iteration.py), ``while`` (``scf.while``) and loop ``else``
clauses.

Branch merges: a variable changed on a path becomes a result of the ``scf.if`` (types joined,
see merge.py); a variable bound on one path only is ``Undefined`` afterwards. On a path that
returned the locals are dead (it yields a placeholder, or the array the other paths update in
place) but the names holding the caller's buffers keep their values (mutation.py). ``break``,
``continue`` and ``return`` set flag variables (scope.py); statements after one that may have
set a flag run under ``if not flag``; loops carry the flags and stop on them.
"""

from __future__ import annotations

import ast
import operator

import numpy as np

from .. import types as T
from ..dialects import scf
from ..dialects.updates import updates_in_place
from ..errors import CompileError
from ..ir.core import Block
from . import arrays as A
from .holders import name_of, same_but
from .iteration import iteration
from .merge import (
    DONTCARE,
    OPTIONAL,
    as_optional,
    check_structures,
    discard,
    discard_op,
    flatten,
    flatten_as,
    join_types,
    leaf_type,
    lift_optionals,
    optional_spec,
    placeholder,
    unflatten,
)
from .mutation import IN, LIVE, Alias, resolve
from .ops import apply_ufunc, cast, check, coerce, logical_not, truth
from .scope import (
    BROKE,
    CONTINUED,
    FLAGS,
    MISSING,
    RETURNED,
    Scope,
    display_name,
    is_special,
)
from .values import (
    Constant,
    LocalFunction,
    RangeValue,
    Undefined,
    describe,
    is_array,
    same_constant,
    type_of,
)


class ControlFlowMixin:
    """Control-flow conversion for ``Converter``."""

    # branches --------------------------------------------------------------------------------

    def run_in(self, block: Block, scope: Scope, thunk):
        """Run ``thunk`` with ops going to the end of ``block``, starting from ``scope``.
        Returns the thunk's value and the scope it ends with."""
        saved = self.scope
        self.scope = scope
        try:
            with self.builder.at_end(block):
                value = thunk()
            return value, self.scope
        finally:
            self.scope = saved

    def branch(self, cond, then_thunk, else_thunk, with_value: bool = False):
        """An ``scf.if`` on the run-time bool ``cond``. Statement thunks update the scope;
        with ``with_value`` the thunks return the value of the whole expression."""
        before, line = self.scope, self.builder.loc.line
        paths = []
        for thunk in (then_thunk, else_thunk):
            block = Block()
            value, scope = self.run_in(block, before.copy(), thunk)
            paths.append((block, scope, value))
        _flag_live(before, [s for _, s, _ in paths])
        live = [s for _, s, _ in paths if not s.returned]
        held = self._held_links(live)
        kept = self.kept_on_return([s for _, s, _ in paths])
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
        plans = [(name, self._plan(name, contribs, before, types, yields))
                 for name, contribs in items]
        # Upstream scf.if takes an i1 condition: weak Python bools are cast (a no-op after
        # lowering).
        op = self.emit_op(scf.IfOp, [cast(self, cond, T.i1)], types=types)
        for (block, _, _), ys, region in zip(paths, yields, op.regions, strict=True):
            with self.builder.at_end(block):
                self.emit_op(scf.YieldOp, [placeholder(self, t) if v is DONTCARE
                                           else coerce(self, v, t) for v, t in ys])
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
            self.relink(merged, live, line)
        self.scope = merged
        return result

    def _held_links(self, paths) -> dict:
        """``{name: paths into its value}`` of the tuple items and function defaults that
        hold the same array as another slot, or the same view of it, on every one of
        ``paths``: ``relink`` makes them again from their base after the branch."""
        found = [{n: (src, m) for n, src, m in self.loop_links(s, set())[0]} for s in paths]
        out = {}
        for n, link in (found[0] if found else {}).items():
            if not isinstance(n, str) and all(f.get(n) == link for f in found[1:]):
                out.setdefault(n[0], set()).add(n[1])
        return out

    def _plan(self, name, contribs, before, types, yields):
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
                          f"{self.builder.loc.line} and used afterwards",
                    f"assign '{name}' before the branch or on every path"))
        contribs = lift_optionals(contribs)
        live = [c for c in contribs if c is not DONTCARE]
        flat = [flatten(c) if c is not DONTCARE else None for c in contribs]
        check_structures(self, what, live, [f[0] for f in flat if f])
        struct, first = next(f for f in flat if f)
        old = _leaves_before(before, name, struct, len(first))
        specs = []
        for i in range(len(first)):
            leaves = [f[1][i] if f else DONTCARE for f in flat]
            lv = [x for x in leaves if x is not DONTCARE]
            if all(isinstance(x, Constant) for x in lv) and all(
                    same_constant(lv[0].value, x.value) for x in lv[1:]):
                specs.append(lv[0])
                continue
            if all(x is lv[0] for x in lv) and (len(lv) == len(leaves) or lv[0] is old[i]):
                specs.append(lv[0])  # defined before the branch: dominates the merge point
                continue
            t = leaf_type(self, what, lv[0])
            for x in lv[1:]:
                t = join_types(self, what, t, leaf_type(self, what, x))
            specs.append(len(types))
            types.append(t)
            # A dead path hands on the array the live ones update in place, rather than a
            # placeholder: lowering then keeps the result in that array's buffer.
            spare = old[i] if type_of(old[i]) == t and all(
                updates_in_place(x, old[i]) for x in lv) else DONTCARE
            for k, x in enumerate(leaves):
                yields[k].append((spare if x is DONTCARE else x, t))
        return ("struct", struct, specs)

    def select(self, cond, then_thunk, else_thunk):
        """The value of ``then_thunk()`` if ``cond`` else ``else_thunk()``, evaluating only
        the chosen one (at compile time for a constant ``cond``)."""
        if isinstance(cond, Constant):
            return (then_thunk if cond.value else else_thunk)()
        return self.branch(cond, then_thunk, else_thunk, with_value=True)

    def short_circuit(self, value, rest, kind: str):
        """Python's ``value and rest()`` / ``value or rest()``: the deciding operand."""
        t = truth(self, value)
        if kind == "and":
            return self.select(t, rest, lambda: value)
        return self.select(t, lambda: value, rest)

    def _stmt_If(self, node: ast.If) -> None:
        test = self.expr(node.test, optional=True)
        with self.at(node.test):
            cond = truth(self, test)
        if isinstance(cond, Constant):
            self.statements(node.body if cond.value else node.orelse)
        else:
            self.branch(cond, lambda: self.statements(node.body),
                        lambda: self.statements(node.orelse))

    def guarded(self, thunk) -> None:
        """Run ``thunk`` (the rest of a block) only if no pending flag is set."""
        flags = self.scope.pending_flags()
        if any(isinstance(self.scope[f], Constant) for f in flags):
            self.scope.terminated = True
            return
        stop = self.scope[flags[0]]
        for f in flags[1:]:
            stop = apply_ufunc(self, np.logical_or, [stop, self.scope[f]], operator.or_)

        def then():
            for f in flags:
                self.scope[f] = Constant(False)
            thunk()

        def otherwise():
            self.scope.terminated = True
            self.scope.returned = flags == [RETURNED]

        self.branch(logical_not(self, stop), then, otherwise)

    # loops -----------------------------------------------------------------------------------

    def _stmt_While(self, node: ast.While) -> None:
        self._loop(node, None)

    def _stmt_For(self, node: ast.For) -> None:
        it = self.array_operand(self.expr(node.iter))  # rows are views
        with self.at(node.iter):
            if isinstance(it, RangeValue) and isinstance(node.target, ast.Name):
                self._loop(node, it)
                return
            n, item = iteration(self, it, set(self.scope.names) - assigned_names(node.body))
        self._loop(node, RangeValue(Constant(0), n, Constant(1)), item)

    def _loop(self, node, rng, item=None) -> None:
        """A ``while`` loop (``rng`` None) or a ``for`` loop over ``rng``, whose target is
        bound to ``item(i)`` (default: the range value ``i``); then its ``else`` clause,
        which runs when no ``break`` ended the loop."""
        outer = self.scope
        targets = assigned_names([node.target]) if rng is not None else set()
        assigned = assigned_names(node.body) | targets
        for n in assigned:  # whether a tracked buffer follows a name the loop rebinds is
            if isinstance(outer.get(IN + n), Alias):  # known at run time
                outer[IN + n] = outer[n]
                outer[LIVE + n] = Constant(True)
        links, risky = self.loop_links(outer, rebound_names(node.body, outer) | targets)
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
        bounds = self._range_bounds(rng) if rng is not None else None
        specs = {n: _initial_spec(inits[n]) for n in carried}
        if targets:
            runs = _runs_statically(rng)
            for n, spec in self._target_specs(node.target, bounds[3], item).items():
                before = _before(outer, n)
                fits = before is not None and self._joined_or_none(n, spec, before) == spec
                # The target is bound at the top of every iteration: it is carried for its
                # value after the loop, never with a type joined from an older value. Rows
                # (views) are not carried without one.
                if fits or (runs is not False and (runs or before is not None) and not any(
                        isinstance(x, T.TensorType) for x in spec[1])):
                    carried.append(n)
                    inits[n], specs[n] = before if fits else DONTCARE, spec
        for _ in range(16):
            attempt = self._loop_attempt(node, bounds, item, carried, inits, specs,
                                         (links, risky, made))
            if not isinstance(attempt, dict):
                break
            specs = attempt
            for n in specs:
                if n not in carried:
                    carried.append(n)
                    inits[n] = resolve(outer, outer[n]) if n in outer.names else DONTCARE
                elif n in targets and inits[n] is not DONTCARE \
                        and self._joined_or_none(n, specs[n], inits[n]) != specs[n]:
                    inits[n] = DONTCARE
        else:
            self.fail("the types of the loop variables do not settle")
        prelude, op = attempt
        for o in list(prelude.ops):
            prelude.ops.remove(o)
            self.builder.insert(o)
        self.builder.insert(op)
        results = iter(op.results)
        after = outer.copy()
        line = self.builder.loc.line
        for n in sorted(assigned - targets):
            if n not in carried:
                after[n] = Undefined(n, f"is assigned only inside the loop at line {line} and "
                                        f"used after it", f"assign '{n}' before the loop")
        for n in carried:
            struct, leaves = specs[n]
            after[n] = unflatten(struct, iter([next(results) if isinstance(x, T.Type) else x
                                               for x in leaves]))
        self.remake_links(after, links)
        self.guard_iteration_links(after, made, line)
        self.guard_links(after, risky, line)  # its message wins for links made before
        broke = after.names.get(BROKE, Constant(False)) if BROKE in carried else Constant(False)
        for n in (BROKE, CONTINUED):
            after.names.pop(n, None)
            if n in outer.names:
                after[n] = outer[n]
        if rng is None and _always_true(node.test) and BROKE not in carried:
            after.terminated = True  # only a return leaves `while True:`
            after.returned = RETURNED in carried
        self.scope = after
        for n in sorted(targets):
            if n not in carried or inits[n] is DONTCARE:
                self._target_after(n, _before(outer, n), n in carried, rng, line)
        if node.orelse and not after.terminated:
            if isinstance(broke, Constant):
                if not broke.value:
                    self.statements(node.orelse)
            else:
                self.branch(logical_not(self, broke), lambda: self.statements(node.orelse),
                            lambda: None)

    def _target_specs(self, target, value_of, item) -> dict:
        """The carried specs of the names a ``for`` target binds, from a trial binding that
        is thrown away (so the loop is built once when their types are known)."""
        block = Block()

        def bind():
            with self.at(target):
                i = value_of(placeholder(self, T.py_int))
                self.assign(target, item(i) if item is not None else i)

        _, scope = self.run_in(block, self.scope.copy(), bind)
        discard(block)
        return {n: _initial_spec(scope[n]) for n in sorted(assigned_names([target]))
                if n in scope.names}

    def _joined_or_none(self, name, spec, value):
        """``_joined_spec``, or None when ``value`` cannot share a variable with ``spec``."""
        try:
            return self._joined_spec(name, spec, value)
        except CompileError:
            return None

    def _target_after(self, name, before, carried, rng, line) -> None:
        """Bind the ``for`` target ``name`` after its loop where its carried value (the last
        item) is not the answer: the loop may run zero times, leaving its value ``before``
        the loop (None: unbound), or it is not carried."""
        runs = _runs_statically(rng)
        if carried and runs:
            return
        if runs is False and before is not None:
            self.scope[name] = before
            return
        if carried and self._joined_or_none(name, _initial_spec(self.scope[name]),
                                            before) is not None:
            def zero_trips():
                self.scope[name] = before

            self.branch(self._runs(rng), lambda: None, zero_trips)
            return
        why = f"is the loop variable of the loop at line {line} and is not available after it"
        hint = f"assign '{name}' before the loop"
        if carried:
            why += f" (it is {describe(before)} if the loop runs zero times)"
            hint = "use another name for the loop variable"
        elif runs is None and before is None:
            why += " (it is unbound if the loop runs zero times)"
        self.scope[name] = Undefined(name, why, hint)

    def _runs(self, rng):
        """Whether the loop over ``rng`` runs at least once, as a run-time bool."""
        n = A.range_length(self, rng.start, rng.stop, rng.step, False)
        return apply_ufunc(self, np.greater, [n, Constant(0)], operator.gt)

    def _range_bounds(self, rng: RangeValue):
        """(lower, upper, step, iv -> i): scf.for bounds as !py.int; a step that is not a
        positive constant iterates 0..len(range) and maps the counter to the range value."""
        start, stop, step = rng.start, rng.stop, rng.step
        if isinstance(step, Constant) and step.value == 0:
            self.fail("range() arg 3 must not be zero")
        if isinstance(step, Constant) and step.value > 0:
            stop = cast(self, stop, T.py_int)
            last = (1 << 63) - step.value   # the counter's last step must not pass 2**63 - 1
            if step.value > 1 and not (isinstance(stop, Constant) and stop.value <= last):
                check(self, apply_ufunc(self, np.less_equal, [stop, Constant(last)],
                                        operator.le),
                      "OverflowError", f"range() with step {step.value} runs past 2**63 - 1, "
                      "the largest Python int grafo's loop counter holds")
            return (cast(self, start, T.py_int), stop, cast(self, step, T.py_int),
                    lambda iv: iv)
        if all(isinstance(v, Constant) for v in (start, stop, step)):
            n = cast(self, Constant(len(range(start.value, stop.value, step.value))), T.py_int)
        else:
            n = A.range_length(self, start, stop, step, False)

        def value(iv):
            scaled = apply_ufunc(self, np.multiply, [iv, cast(self, step, T.py_int)],
                                 operator.mul)
            return apply_ufunc(self, np.add, [cast(self, start, T.py_int), scaled], operator.add)

        return (cast(self, Constant(0), T.py_int), n, cast(self, Constant(1), T.py_int), value)

    def _loop_attempt(self, node, bounds, item, carried, inits, specs, links):
        """Build the loop with the carried types in ``specs``. Returns (prelude, op), or new
        specs when the body changes a carried type (everything built is discarded).
        ``links``: the views and aliases made before the loop (``loop_links``); the body
        makes the kept ones again from their bases instead of carrying them."""
        prelude = Block()
        with self.builder.at_end(prelude):
            init_values = []
            for n in carried:
                struct, leaves = specs[n]
                given = flatten_as(inits[n], struct) if inits[n] is not DONTCARE \
                    else [DONTCARE] * len(leaves)
                for x, spec in zip(given, leaves, strict=True):
                    if isinstance(spec, T.Type):
                        init_values.append(placeholder(self, spec) if x is DONTCARE
                                           else coerce(self, x, spec))
        if bounds is not None:
            lb, ub, step, value_of = bounds
            with self.builder.at_end(prelude):
                # Upstream scf.for bounds are signless integers: the counter runs as int64 and
                # the body sees it as a Python int again (both casts vanish when lowered).
                lb, ub, step = (cast(self, v, T.i64) for v in (lb, ub, step))
            op = scf.ForOp.create(lb, ub, step, init_values)
            body, args = op.body, op.body.args[1:]
        else:
            op = scf.WhileOp.create(init_values)
            body, args = op.after, op.after.args
            self._while_condition(node, op, carried, specs)
        scope = self._bind_carried(Scope(self.scope.names), carried, specs, args)
        kept, risky, made = links
        line = self.loc(node).line
        with self.builder.at_end(body):
            self.remake_links(scope, kept)
        self.guard_iteration_links(scope, made, line)
        self.guard_links(scope, risky, line)
        incoming = dict(scope.names)
        scope[CONTINUED] = Constant(False)
        if bounds is None:
            for f in (BROKE, RETURNED):
                if f in carried:
                    scope[f] = Constant(False)  # the condition checked them

        def run_body():
            if bounds is not None:
                with self.at(node.target):
                    counter = cast(self, op.induction_var, T.py_int)
                    self._bind_target(node.target, value_of(counter), item, carried)
            self.statements(node.body)

        _, end = self.run_in(body, scope, run_body)
        new_specs, changed = dict(specs), False
        ends = {}
        if not end.returned:
            with self.builder.at_end(body):
                self.check_links(end, kept, line)
            seen = {(n, m) for n, _, m in made}  # each attempt makes its views again
            new = [k for k in self.iteration_links(end, incoming, kept, rebound_names(
                node.body, scope)) if (k[0], k[2]) not in seen]
            made.extend(new)
            changed = bool(new)  # built again with the new links guarded
        linked = {}  # name -> the paths into its value of the slots the body makes again
        for n, _, _ in kept:
            linked.setdefault(name_of(n), set()).add(() if isinstance(n, str) else n[1])
        observed = self.kept_on_return([end])  # the caller's buffers, also once returned
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
                v.fail(self.builder.loc)
            ends[n] = v
            spec = self._joined_spec(n, specs.get(n) if n not in late or n not in incoming
                                     else _initial_spec(resolve(self.scope, incoming[n])), v)
            if spec != specs.get(n):
                new_specs[n], changed = spec, True
        if changed:
            discard(prelude)
            discard_op(op)
            return new_specs
        with self.builder.at_end(body):
            yields = []
            for n in carried:
                for x, spec in zip(flatten_as(ends[n], specs[n][0]), specs[n][1],
                                   strict=True):
                    if isinstance(spec, T.Type):
                        yields.append(placeholder(self, spec) if x is DONTCARE
                                      else coerce(self, x, spec))
            self.emit_op(scf.YieldOp, yields)
        return prelude, op

    def _bind_target(self, target, i, item, carried) -> None:
        """Bind the loop target to the item of counter ``i``. A target carried out of the
        loop keeps its value once a ``break``/``return`` ran (iterations go on, guarded)."""
        old = {n: self.scope[n] for n in assigned_names([target]) if n in carried}
        self.assign(target, item(i) if item is not None else i)
        stops = [self.scope[f] for f in (BROKE, RETURNED) if f in carried]
        if not old or not stops:
            return
        stop = stops[0]
        for f in stops[1:]:
            stop = apply_ufunc(self, np.logical_or, [stop, f], operator.or_)
        for n, v in old.items():
            new = self.scope[n]
            self.scope[n] = self.select(stop, lambda v=v: v, lambda new=new: new)

    def _while_condition(self, node, op, carried, specs) -> None:
        scope = self._bind_carried(Scope(self.scope.names), carried, specs, op.before.args)

        def test():
            value = self.expr(node.test, optional=True)
            with self.at(node.test):
                return truth(self, value)

        def condition():
            flags = [self.scope[f] for f in (BROKE, RETURNED) if f in carried]
            if not flags:
                c = test()
            else:
                stop = flags[0]
                for f in flags[1:]:
                    stop = apply_ufunc(self, np.logical_or, [stop, f], operator.or_)
                c = self.select(stop, lambda: Constant(False), test)
            self.emit_op(scf.ConditionOp, [cast(self, c, T.i1), *op.before.args])

        self.run_in(op.before, scope, condition)

    def _bind_carried(self, scope: Scope, carried, specs, args) -> Scope:
        it = iter(args)
        for n in carried:
            struct, leaves = specs[n]
            scope[n] = unflatten(struct, iter([next(it) if isinstance(x, T.Type) else x
                                               for x in leaves]))
        scope.terminated = scope.returned = False
        return scope

    def _joined_spec(self, name, spec, end):
        """The carried spec of ``name`` that also holds ``end`` (the value at the end of the
        body)."""
        what = display_name(name)
        if spec is None:
            return _initial_spec(end)
        spec = optional_spec(self, what, spec, end)
        struct, leaves = flatten(as_optional(end) if spec[0] == OPTIONAL else end)
        if struct != spec[0]:
            self.fail(f"{what} changes from one kind of value to {describe(end)} inside the "
                      f"loop", "give the variable the same kind of value in every iteration")
        out = []
        for x, s in zip(leaves, spec[1], strict=True):
            if x is DONTCARE:
                out.append(s)
            elif isinstance(s, T.Type):
                out.append(join_types(self, what, s, leaf_type(self, what, x)))
            elif (isinstance(x, Constant) and isinstance(s, Constant)
                  and same_constant(x.value, s.value)) or x is s:
                out.append(s)
            elif isinstance(x, LocalFunction) and isinstance(s, LocalFunction):
                self.fail(f"{what} is bound to a new nested function '{x.name}' (or one with "
                          f"other default values) in each iteration of the loop",
                          "define the function before the loop and pass the values that "
                          "change as arguments")
            else:
                self.fail(f"{what} changes from {describe(s)} to {describe(x)} inside the loop",
                          "give the variable the same kind of value in every iteration")
        return (struct, out)


def _before(scope: Scope, name: str):
    """The value of ``name`` in ``scope``; None when it is unbound."""
    v = scope.names.get(name)
    return None if v is None or isinstance(v, Undefined) else resolve(scope, v)


def _runs_statically(rng: RangeValue):
    """Whether a loop over ``rng`` runs at least once; None when only known at run time."""
    if all(isinstance(v, Constant) for v in (rng.start, rng.stop, rng.step)):
        return len(range(rng.start.value, rng.stop.value, rng.step.value)) > 0
    return None


def _flag_live(before: Scope, paths: list) -> None:
    """Paths that disagree on whether a name still holds the caller's buffer (``%in:p`` an
    ``Alias`` on some) get the run-time flag ``%live:p`` (mutation.py)."""
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


def _always_true(test) -> bool:
    return isinstance(test, ast.Constant) and bool(test.value)


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


def _initial_spec(value):
    """(structure, leaves): a leaf is its IR type when it can be carried at run time, else
    the frozen compile-time value itself."""
    struct, leaves = flatten(value)
    return (struct, [type_of(x) or x for x in leaves])


def assigned_names(nodes, augmented: bool = True) -> set:
    """Names bound by assignments anywhere in ``nodes`` (not inside nested definitions);
    without ``augmented``, not the targets of augmented assignments (``x += 1``)."""
    out, stack = set(), list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if not augmented and isinstance(n, ast.AugAssign):
            stack.append(n.value)
            continue
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            out.add(n.id)
        stack.extend(ast.iter_child_nodes(n))
    return out


def rebound_names(nodes, scope) -> set:
    """``assigned_names`` less the names that only augmented assignments bind and that hold an
    array in ``scope``: ``u += x`` updates that array in place (``ndarray.__iadd__``) and ``u``
    goes on naming it, so a view ``u`` keeps its link to its base."""
    names = assigned_names(nodes)
    only_augmented = names - assigned_names(nodes, augmented=False)
    return names - {n for n in only_augmented if n in scope.names
                    and is_array(resolve(scope, scope.names[n]))}


def contains(nodes, kind) -> bool:
    """Whether a ``kind`` statement in ``nodes`` applies to this loop (``break``/``continue``
    of nested loops do not; ``return`` anywhere does)."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, kind):
            return True
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if kind is not ast.Return and isinstance(n, (ast.For, ast.While)):
            stack.extend(n.orelse)
            continue
        stack.extend(ast.iter_child_nodes(n))
    return False
