"""Syntactic scans of a function body (never inside nested definitions): the names its
statements bind (imports too), read, write elements of or declare ``global``, and whether a
loop body holds a ``break``, ``continue`` or ``return`` that applies to that loop."""

from __future__ import annotations

import ast


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
        elif _list_method_call(n):  # lst.append(v) rebinds lst to the longer list
            out.add(n.func.value.id)
        elif isinstance(n, ast.alias):
            out.add(imported_name(n))
        stack.extend(ast.iter_child_nodes(n))
    return out


LIST_METHODS = ("append", "extend", "pop")


def _list_method_call(n) -> bool:
    return (isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute)
            and n.func.attr in LIST_METHODS and isinstance(n.func.value, ast.Name))


def grown_lists(nodes) -> set:
    """Names whose list a call of ``append``/``extend``/``pop`` changes in ``nodes``
    (not inside nested definitions)."""
    out, stack = set(), list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
            continue
        if _list_method_call(n):
            out.add(n.func.value.id)
        stack.extend(ast.iter_child_nodes(n))
    return out


def imported_name(alias: ast.alias) -> str:
    """The local name an ``import``/``from ... import`` item binds (``import a.b``: ``a``)."""
    return alias.asname or alias.name.partition(".")[0]


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


def stored_bases(nodes) -> set:
    """Names whose elements the statements ``nodes`` assign (``x[...] = v``, ``x[...] += v``),
    outside nested definitions."""
    out, stack = set(), list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for t in (n.targets if isinstance(n, ast.Assign) else [n.target]):
                while isinstance(t, (ast.Subscript, ast.Attribute)):
                    t = t.value
                    if isinstance(t, ast.Name):
                        out.add(t.id)
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return out


def free_reads(nodes) -> set:
    """Names read and never assigned in ``nodes`` (outside nested definitions)."""
    loads, stores, stack = set(), set(), list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
        elif isinstance(n, ast.alias):
            stores.add(imported_name(n))
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return loads - stores


def declared_globals(node) -> set:
    """Names a function body declares ``global`` (not inside nested definitions)."""
    out, stack = set(), list(node.body) if not isinstance(node, ast.Lambda) else []
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Global):
            out.update(n.names)
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return out
