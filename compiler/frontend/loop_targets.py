"""A ``for`` loop's counter and target: the ``scf.for`` bounds of a ``range(...)``, the
target bound from the counter in each iteration, and the target's value after the loop,
which may have run zero times."""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..ir.core import Block
from . import arrays as A
from . import branches, statements
from .ast_scan import assigned_names
from .merge import DONTCARE, discard, initial_spec, joined_or_none, placeholder
from .ops import apply_ufunc, cast, check
from .scope import BROKE, RETURNED, Scope, resolve
from .values import Constant, RangeValue, Undefined, describe


def range_bounds(cx, rng: RangeValue):
    """(lower, upper, step, iv -> i): scf.for bounds as !py.int; a step that is not a
    positive constant iterates 0..len(range) and maps the counter to the range value."""
    start, stop, step = rng.start, rng.stop, rng.step
    if isinstance(step, Constant) and step.value == 0:
        cx.fail("range() arg 3 must not be zero")
    if isinstance(step, Constant) and step.value > 0:
        stop = cast(cx, stop, T.py_int)
        last = (1 << 63) - step.value   # the counter's last step must not pass 2**63 - 1
        if step.value > 1 and not (isinstance(stop, Constant) and stop.value <= last):
            check(cx, apply_ufunc(cx, np.less_equal, [stop, Constant(last)],
                                  operator.le),
                  "OverflowError", f"range() with step {step.value} runs past 2**63 - 1, "
                  "the largest Python int grafo's loop counter holds")
        return (cast(cx, start, T.py_int), stop, cast(cx, step, T.py_int),
                lambda iv: iv)
    if all(isinstance(v, Constant) for v in (start, stop, step)):
        n = cast(cx, Constant(len(range(start.value, stop.value, step.value))), T.py_int)
    else:
        n = A.range_length(cx, start, stop, step, False)

    def value(iv):
        scaled = apply_ufunc(cx, np.multiply, [iv, cast(cx, step, T.py_int)],
                             operator.mul)
        return apply_ufunc(cx, np.add, [cast(cx, start, T.py_int), scaled], operator.add)

    return (cast(cx, Constant(0), T.py_int), n, cast(cx, Constant(1), T.py_int), value)


def carried_targets(cx, target, rng, value_of, item, outer: Scope) -> dict:
    """``{name: (init, spec)}`` of the names the ``for`` target binds that the loop carries.
    The target is bound at the top of every iteration: it is carried for its value after the
    loop, never with a type joined from an older value (``init`` DONTCARE where its value
    before the loop does not fit). Rows (views) are not carried without one."""
    runs = runs_statically(rng)
    out = {}
    for n, spec in target_specs(cx, target, value_of, item).items():
        before = value_before(outer, n)
        fits = before is not None and joined_or_none(cx, n, spec, before) == spec
        if fits or (runs is not False and (runs or before is not None) and not any(
                isinstance(x, T.TensorType) for x in spec[1])):
            out[n] = (before if fits else DONTCARE, spec)
    return out


def target_specs(cx, target, value_of, item) -> dict:
    """The carried specs of the names a ``for`` target binds, from a trial binding that
    is thrown away (so the loop is built once when their types are known)."""
    block = Block()

    def bind():
        with cx.at(target):
            i = value_of(placeholder(cx, T.py_int))
            statements.assign(cx, target, item(i) if item is not None else i)

    _, scope = branches.run_in(cx, block, cx.scope.copy(), bind)
    discard(block)
    return {n: initial_spec(scope[n]) for n in sorted(assigned_names([target]))
            if n in scope.names}


def bind_target(cx, target, i, item, carried) -> None:
    """Bind the loop target to the item of counter ``i``. A target carried out of the
    loop keeps its value once a ``break``/``return`` ran (iterations go on, guarded)."""
    old = {n: cx.scope[n] for n in assigned_names([target]) if n in carried}
    statements.assign(cx, target, item(i) if item is not None else i)
    stops = [cx.scope[f] for f in (BROKE, RETURNED) if f in carried]
    if not old or not stops:
        return
    stop = stops[0]
    for f in stops[1:]:
        stop = apply_ufunc(cx, np.logical_or, [stop, f], operator.or_)
    for n, v in old.items():
        new = cx.scope[n]
        cx.scope[n] = branches.select(cx, stop, lambda v=v: v, lambda new=new: new)


def target_after(cx, name, before, carried, rng, line) -> None:
    """Bind the ``for`` target ``name`` after its loop where its carried value (the last
    item) is not the answer: the loop may run zero times, leaving its value ``before``
    the loop (None: unbound), or it is not carried."""
    runs = runs_statically(rng)
    if carried and runs:
        return
    if runs is False and before is not None:
        cx.scope[name] = before
        return
    if carried and joined_or_none(cx, name, initial_spec(cx.scope[name]),
                                  before) is not None:
        def zero_trips():
            cx.scope[name] = before

        branches.branch(cx, _runs(cx, rng), lambda: None, zero_trips)
        return
    why = f"is the loop variable of the loop at line {line} and is not available after it"
    hint = f"assign '{name}' before the loop"
    if carried:
        why += f" (it is {describe(before)} if the loop runs zero times)"
        hint = "use another name for the loop variable"
    elif runs is None and before is None:
        why += " (it is unbound if the loop runs zero times)"
    cx.scope[name] = Undefined(name, why, hint)


def _runs(cx, rng):
    """Whether the loop over ``rng`` runs at least once, as a run-time bool."""
    n = A.range_length(cx, rng.start, rng.stop, rng.step, False)
    return apply_ufunc(cx, np.greater, [n, Constant(0)], operator.gt)


def runs_statically(rng: RangeValue):
    """Whether a loop over ``rng`` runs at least once; None when only known at run time."""
    if all(isinstance(v, Constant) for v in (rng.start, rng.stop, rng.step)):
        return len(range(rng.start.value, rng.stop.value, rng.step.value)) > 0
    return None


def value_before(scope: Scope, name: str):
    """The value of ``name`` in ``scope``; None when it is unbound."""
    v = scope.names.get(name)
    return None if v is None or isinstance(v, Undefined) else resolve(scope, v)
