"""Function bodies and calls of user functions. ``run_body`` converts the body of the current
frame; ``inline`` converts a called Python function or nested ``def``/``lambda`` in a new
frame with its arguments bound, so its ops land where the call is. The buffers the callee
can write into (array arguments, the enclosing function's arrays it names, Variables and
rebound globals) are tracked (tracking.py) and the caller sees their final values."""

from __future__ import annotations

import ast
import inspect

from ..ir.core import Value
from . import mutation, statements, tracking
from .ast_scan import declared_globals, free_reads, stored_bases
from .holders import slots, text
from .scope import BROKE, CONTINUED, GLOBAL, RETURNED, RETVAL, VAR, Frame, Scope
from .values import (
    BoundMethod,
    Constant,
    LocalFunction,
    RangeValue,
    SliceValue,
    TupleValue,
    Undefined,
    is_array,
)

MAX_RECURSION = 32  # inlining depth of one function in itself


def run_body(cx, node):
    """Convert a function body in the current frame; returns its return value."""
    if isinstance(node, ast.Lambda):
        body = [ast.copy_location(ast.Return(node.body), node.body)]
    else:
        last = node.body[-1]
        implicit = ast.Return(None, lineno=last.end_lineno or last.lineno,
                              col_offset=last.col_offset)
        body = node.body + [implicit]
    cx.frame.declared = declared_globals(node)
    for flag in (RETURNED, BROKE, CONTINUED):
        cx.scope[flag] = Constant(False)
    statements.block(cx, body)
    value = cx.scope[RETVAL]
    if isinstance(value, Undefined):
        value.fail(cx.builder.loc)
    return value


def inline(cx, fn, args, kwargs, local: LocalFunction | None = None):
    """Call a user function (or the nested function ``local``) by converting its body
    here with the arguments bound. Direct or mutual recursion is inlined too, up to
    ``MAX_RECURSION`` levels: it ends when its base case is decided at compile time (on
    static shapes or compile-time constants)."""
    key = local.node if local is not None else fn
    name = local.name if local is not None else fn.__name__
    if sum(1 for f in cx.frames if f.key is key) >= MAX_RECURSION:
        cx.fail(f"recursion of '{name}' deeper than {MAX_RECURSION} levels, the most grafo "
                f"inlines: its base case is not decided at compile time, or comes later",
                f"recurse on static shapes or Python constants, at most {MAX_RECURSION} "
                f"calls deep (the first call included), or rewrite the recursion as a "
                f"loop")
    if fn is not None and (inspect.isgeneratorfunction(fn)
                           or inspect.iscoroutinefunction(fn)):
        cx.fail(f"'{name}' is a generator or coroutine function, which is not "
                f"supported", "return the values instead")
    frame, bound = _frame(cx, fn, args, kwargs, local, name)
    frame.key = key
    captured = stored_bases(_body(frame.node)) - bound
    # arrays of the enclosing function it reads: writes through views of them reach it
    read = free_reads(_body(frame.node)) - captured - bound if local is not None else set()
    for n, v in cx.scope.names.items():
        if n.startswith((VAR, GLOBAL)):
            frame.scope[n] = v
    cx.frames.append(frame)
    try:
        _track_buffers(cx, local, captured, read)
        value = run_body(cx, frame.node)
        exits = [(n, v, tracking.exit_value(cx, n)) for n, v in frame.tracked.items()]
    finally:
        cx.frames.pop()
    for name, old, new in exits:
        if name.startswith(GLOBAL):
            cx.scope[name] = old if new is None else new
            continue
        if new is not None and new is not old:
            mutation.mutate(cx, old, new)
    return value


def _frame(cx, fn, args, kwargs, local, name: str) -> tuple:
    """(frame, parameter names): a new frame for calling ``fn`` (or the nested function
    ``local``) with its parameters bound to the arguments."""
    signature = local.signature if local is not None else inspect.signature(fn)
    try:
        bound = signature.bind(*args, **kwargs)
    except TypeError as e:
        cx.fail(f"{name}(): {e}")
    bound.apply_defaults()
    frame = Frame(fn, Scope()) if local is None else Frame(
        None, Scope(), local.node, local.frame)
    for pname, value in bound.arguments.items():
        kind = bound.signature.parameters[pname].kind
        if kind is inspect.Parameter.VAR_KEYWORD:
            cx.fail(f"'{name}' takes **{pname}, which is not supported")
        if kind is inspect.Parameter.VAR_POSITIONAL:
            value = TupleValue(tuple(value))
        elif not _is_frontend_value(value):
            value = Constant(value)
        frame.scope[pname] = value
    return frame, set(bound.arguments)


def _track_buffers(cx, local, captured: set, read: set) -> None:
    """In the callee's new frame: bind the enclosing function's arrays that a nested
    function writes into (``captured``) or reads (``read``), then track every buffer the
    caller can observe."""
    for n in sorted(captured | read):
        owner = local.frame if local is not None else None
        while owner is not None and n not in owner.scope.names:
            owner = owner.parent
        if owner is None:
            continue
        value = owner.scope[n]
        if n in captured:
            value = mutation.materialize_local(cx, owner.scope, value)
        if is_array(value) or isinstance(value, TupleValue):
            cx.scope[n] = value
    # an array the caller holds in a tuple (or a nested function's default) is
    # observable through a hidden name ("t[0]") that follows writes like an alias
    for slot, v in slots(cx.scope):
        if not isinstance(slot, str) and is_array(v):
            cx.scope[text(slot)] = v
    for n in list(cx.scope.names):
        if is_array(cx.scope[n]) or n.startswith(GLOBAL):
            tracking.track(cx, n, snapshot=n.startswith(GLOBAL))


def _is_frontend_value(v) -> bool:
    return isinstance(v, (Value, Constant, TupleValue, BoundMethod, RangeValue, SliceValue,
                          LocalFunction))


def _body(node) -> list:
    return [node.body] if isinstance(node, ast.Lambda) else node.body
