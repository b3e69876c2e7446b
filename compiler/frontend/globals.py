"""Module globals that the compiled function (or a function it calls) rebinds with a
``global`` statement: hidden scalar arguments and results, so that reads see the writes that
came before them in program order and the module holds eager mode's final value after every
call.

Each written global ``(namespace, name)`` is a *slot*: the compiled function takes the
global's value at call time as a hidden trailing argument (after the Variables), binds it to
the hidden name ``%global:k`` (tracked like an array parameter, so updates flow through
branches, loops and inlined calls) and returns its final value as a hidden trailing result;
the caller assigns that result to the global (``runtime.results.bind_globals``). Slots are
found while converting: the first ``global`` statement naming a new one restarts the
conversion with it (``NewGlobal``), so every function sees all slots from its entry on.
A slot must hold a Python or NumPy scalar, of the same type before and after the call.
``State.slots`` lists the slots of a conversion, ``State.global_args`` their hidden arguments.
"""

from __future__ import annotations

from ..errors import CompileError
from . import tracking
from .scope import EXIT, GLOBAL
from .values import Constant, const_type, describe, type_of


class NewGlobal(Exception):  # noqa: N818 - a restart signal, not an error
    """Conversion met a ``global`` statement for a slot it does not have yet."""

    def __init__(self, slot: tuple):
        super().__init__(slot[1])
        self.slot = slot


def namespace_of(frame) -> dict:
    """The module namespace (``__globals__``) of the function a frame converts."""
    while frame.fn is None:
        frame = frame.parent
    return frame.fn.__globals__


def slot_types(slots, loc) -> list:
    """The IR types of the hidden arguments of ``slots``: the types of the globals' current
    values. Raises CompileError for a global that does not hold a scalar."""
    types = []
    for namespace, name in slots:
        value = namespace.get(name)
        t = const_type(value)
        if t is None or hasattr(t, "shape"):
            raise CompileError(f"global '{name}' is rebound by the compiled code but holds "
                               f"{describe(Constant(value))}", loc,
                               "only globals holding Python or NumPy scalars can be "
                               "rebound; pass arrays as arguments or use a compiler.Variable")
        types.append(t)
    return types


def bind_globals(cx, args) -> None:
    """Bind the hidden arguments of the slots in the compiled function."""
    for k, arg in enumerate(args):
        cx.scope[f"{GLOBAL}{k}"] = arg
        tracking.track(cx, f"{GLOBAL}{k}", snapshot=True)


def global_slot(cx, name: str):
    """The hidden name of global ``name`` of this frame's module when the compiled code
    rebinds it, else None."""
    namespace = namespace_of(cx.frame)
    for k, (ns, n) in enumerate(cx.slots):
        if ns is namespace and n == name:
            return f"{GLOBAL}{k}"
    return None


def store_global(cx, name: str, value) -> bool:
    """Bind global ``name`` when this frame declares it ``global``; False otherwise."""
    if name not in cx.frame.declared:
        return False
    hidden = global_slot(cx, name)
    if hidden is None:
        raise NewGlobal((namespace_of(cx.frame), name))
    cx.scope[hidden] = value
    return True


def global_results(cx, loc) -> list:
    """The final values of the slots, checked to keep their types."""
    out = []
    for k, (arg, (_, name)) in enumerate(zip(cx.global_args, cx.slots, strict=True)):
        final = cx.scope.get(EXIT + f"{GLOBAL}{k}", arg)
        t = type_of(final)
        if t != arg.type:
            raise CompileError(f"global '{name}' holds {arg.type} when the call starts "
                               f"and {describe(final)} after it", loc,
                               "keep the global's type (e.g. assign float(v))")
        out.append(final)
    return out


def global_slots(fn, keys) -> list:
    """The ``(namespace, name)`` slots of the ``"module:name"`` keys of a function's
    ``grafo.globals`` attribute: the namespaces of ``fn`` and the functions it names, else the
    imported module's."""
    from runtime.results import namespace

    from .variables import reachable_functions
    found = {}
    for f in reachable_functions(fn):
        found.setdefault(f.__globals__.get("__name__"), f.__globals__)
    out = []
    for key in keys:
        module, name = key.rsplit(":", 1)
        out.append((found[module] if module in found else namespace(module), name))
    return out
