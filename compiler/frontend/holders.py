"""Where the arrays of a scope are held, as *slots*: a local name, or ``(name, path)`` for
what is reached from the value bound to ``name`` by ``path``: an int steps to an item of a
tuple or list display, a str to the default value of that parameter of a nested function
(evaluated once, at the ``def``, and shared by every call, as in Python).

Writes into an array update every slot that holds it or a view of it (``mutation.py``), so
an array held in a tuple follows its base and aliases as a named view does."""

from __future__ import annotations

import inspect

from .values import LocalFunction, TupleValue


def slots(scope) -> list:
    """``(slot, value)`` for every name of ``scope`` and everything its value holds, at any
    depth."""
    out = []
    for name, v in scope.names.items():
        out.append((name, v))
        _parts(name, (), v, out)
    return out


def _parts(name, path, v, out) -> None:
    for k, x in _children(v):
        out.append(((name, (*path, k)), x))
        _parts(name, (*path, k), x, out)


def _children(v) -> list:
    if isinstance(v, TupleValue):
        return list(enumerate(v.items))
    if isinstance(v, LocalFunction):
        return [(p.name, p.default) for p in v.signature.parameters.values()
                if p.default is not inspect.Parameter.empty]
    return []


def name_of(slot) -> str:
    """The local name a slot belongs to."""
    return slot if isinstance(slot, str) else slot[0]


def text(slot) -> str:
    """A slot as Python source: ``t`` or ``t[0][1]``."""
    if isinstance(slot, str):
        return slot
    return slot[0] + "".join(f"[{k}]" if isinstance(k, int) else f"(default of {k})"
                             for k in slot[1])


def get(scope, slot, default=None):
    """The value held in ``slot`` of ``scope``, ``default`` where it holds none."""
    v = scope.names.get(name_of(slot), default)
    for k in () if isinstance(slot, str) else slot[1]:
        v = dict(_children(v)).get(k, default)
    return v


def put(scope, slot, value) -> None:
    """Bind ``slot`` of ``scope`` to ``value``; a tuple item rebinds its name to a new tuple
    (tuples are immutable values)."""
    if isinstance(slot, str):
        scope[slot] = value
    else:
        scope[slot[0]] = _replace(scope[slot[0]], slot[1], value)


def _replace(v, path: tuple, value):
    k = path[0]
    new = value if len(path) == 1 else _replace(dict(_children(v))[k], path[1:], value)
    if isinstance(v, TupleValue):
        return TupleValue(tuple(new if j == k else x for j, x in enumerate(v.items)), v.is_list)
    params = [p.replace(default=new) if p.name == k else p
              for p in v.signature.parameters.values()]
    return LocalFunction(v.node, v.frame, v.signature.replace(parameters=params))


def same_but(a, b, paths) -> bool:
    """Whether ``a`` and ``b`` hold the same values everywhere but at ``paths`` (paths into
    them, as in slots): the same tuple or function, but for what those slots hold."""
    if a is b or () in paths:
        return True
    if type(a) is not type(b) or not isinstance(a, (TupleValue, LocalFunction)) or (
            (a.node, a.frame) != (b.node, b.frame) if isinstance(a, LocalFunction)
            else a.is_list != b.is_list):
        return False
    ca, cb = _children(a), _children(b)
    return [k for k, _ in ca] == [k for k, _ in cb] and all(
        same_but(x, y, {p[1:] for p in paths if p[0] == k})
        for (k, x), (_, y) in zip(ca, cb, strict=True))


def sort_key(slot) -> tuple:
    """Names first, then what they hold, each in a fixed order."""
    return (0, slot, "") if isinstance(slot, str) else (1, slot[0], repr(slot[1]))
