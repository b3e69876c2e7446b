"""Rebuilding a compiled function's Python return value from its flat native results.

A *result structure* string describes the value (``grafo.result_structure`` on the function,
``result_structure`` in an artifact's manifest):

- ``_``: the next result;
- ``None``: None (no result);
- ``?``: a value that may be None: the next two results are a "has value" flag and the value
  (None when the flag is false);
- ``(s1,s2,...)``: a tuple of those (``(s,)`` a 1-tuple, ``()`` the empty tuple);
- ``[s1,s2,...]``: a list of those (a list display the function returns).

For example ``(_,_,(_,_))`` is ``return a, b, (c, d)``.

Module globals the function rebinds (``global`` statements) are hidden trailing arguments
and results of the native entry: ``bind_globals`` passes their current values and assigns
their final values after each call, as eager Python leaves them.
"""

from __future__ import annotations

import importlib


class ListTree(list):
    """The subtrees of a ``[...]`` structure: rebuilt as a list, not a tuple."""


def parse(structure: str):
    """The tree of ``structure``: "_", None, "?", a list of trees (a tuple) or a ``ListTree``
    (a list). Raises ValueError for a malformed string."""
    tree, end = _parse(structure, 0)
    if end != len(structure):
        raise ValueError(f"malformed result structure {structure!r}")
    return tree


def _parse(s: str, i: int):
    if s.startswith("None", i):
        return None, i + 4
    if i < len(s) and s[i] in "_?":
        return s[i], i + 1
    if i >= len(s) or s[i] not in "([":
        raise ValueError(f"malformed result structure {s!r} at {i}")
    close = ")" if s[i] == "(" else "]"
    items, i = ([] if close == ")" else ListTree()), i + 1
    while i < len(s) and s[i] != close:
        item, i = _parse(s, i)
        items.append(item)
        if i < len(s) and s[i] == ",":
            i += 1
    if i >= len(s):
        raise ValueError(f"malformed result structure {s!r}: unclosed {'([' [close == ']']!r}")
    return items, i + 1


def count(tree) -> int:
    """How many flat results ``tree`` takes."""
    if isinstance(tree, list):
        return sum(count(t) for t in tree)
    return {"_": 1, "?": 2, None: 0}[tree]


def packer(structure: str):
    """A function from a native entry's output (one result as itself, several as a tuple,
    none as None) to the Python value ``structure`` describes."""
    tree = parse(structure)
    n = count(tree)

    def build(t, flat):
        if t == "_":
            return next(flat)
        if t is None:
            return None
        if t == "?":
            has, value = next(flat), next(flat)
            return value if has else None
        items = (build(x, flat) for x in t)
        return list(items) if isinstance(t, ListTree) else tuple(items)

    def pack(out):
        return build(tree, iter((out,) if n == 1 else () if n == 0 else out))

    return pack


def namespace(module: str) -> dict:
    """The globals of the module named ``module`` (imported if needed). Raises ImportError."""
    return importlib.import_module(module).__dict__


def bind_globals(call, slots: list, n_results: int):
    """Wrap the native entry ``call`` of a function that rebinds module globals.

    ``slots``: ``(namespace dict, name)`` per global, in hidden-argument order; ``n_results``:
    the number of the function's own results. The wrapper appends the globals' current values
    to the arguments, assigns their final values from the trailing results and returns the
    function's own results as the native entry returns them (one as itself, none as None,
    several as a tuple)."""
    total = n_results + len(slots)

    def run(*args):
        out = call(*args, *[ns[name] for ns, name in slots])
        flat = (out,) if total == 1 else tuple(out)
        for (ns, name), value in zip(slots, flat[n_results:], strict=True):
            ns[name] = value
        own = flat[:n_results]
        return own[0] if n_results == 1 else own if n_results else None

    return run
