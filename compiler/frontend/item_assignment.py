"""Writes into arrays by assignment: ``x[idx] = v``, ``x[idx] op= v`` and ``x op= v`` for an
array ``x`` (in place, as NumPy's ``x.__iadd__``), and ``z.real = v`` / ``z.imag op= v`` (the
part's view written whole), each an ``np.setitem`` that ``mutate`` makes every holder of ``x``
see (mutation.py). In-place operators cast with NumPy's
``same_kind`` rule."""

from __future__ import annotations

import ast

import numpy as np

from .. import types as T
from ..ir.core import Value
from . import expressions, mutation, operators
from .indexing import subscript
from .ops import materialize
from .scope import LIVE
from .values import Constant, describe


def assign_item(cx, target: ast.Subscript, value) -> None:
    """``target.value[target.slice] = value``."""
    x = _target_array(cx, target.value)
    index = expressions.expr(cx, target.slice, optional=True)
    with cx.at(target):
        mutation.mutate(cx, x, mutation.setitem(cx, x, index, value))


def augassign_item(cx, node: ast.AugAssign) -> None:
    """``x[idx] op= v``: NumPy's in-place ufunc on the region (same_kind casting)."""
    target = node.target
    x = _target_array(cx, target.value)
    index = expressions.expr(cx, target.slice, optional=True)
    rhs = expressions.expr(cx, node.value)
    with cx.at(node):
        region = subscript(cx, x, index)
        new = operators.binary(cx, node.op, region, rhs)
        if isinstance(region.type, T.TensorType):
            _check_same_kind(cx, node.op, new, region.type.element)
        mutation.mutate(cx, x, mutation.setitem(cx, x, index, new))


def augassign_array(cx, node: ast.AugAssign, x: Value) -> None:
    """``x op= v`` for an array ``x``: in place, as NumPy's ``x.__iadd__``."""
    rhs = expressions.expr(cx, node.value)
    with cx.at(node):
        new = operators.binary(cx, node.op, x, rhs)
        _check_same_kind(cx, node.op, new, x.type.element)
        mutation.mutate(cx, x, mutation.setitem(cx, x, Constant(()), new))


def is_part(target) -> bool:
    """Whether an assignment target is ``<expr>.real`` or ``<expr>.imag``."""
    return isinstance(target, ast.Attribute) and target.attr in ("real", "imag")


def part_view(cx, target: ast.Attribute) -> Value:
    """The view ``z.real`` / ``z.imag`` of the complex array ``z`` that ``target`` writes."""
    z = _target_array(cx, target.value)
    with cx.at(target):
        return expressions.attribute(cx, z, target.attr)


def assign_part(cx, target: ast.Attribute, value) -> None:
    """``z.real = value`` / ``z.imag = value``: every element of that part."""
    view = part_view(cx, target)
    with cx.at(target):
        mutation.mutate(cx, view, mutation.setitem(cx, view, Constant(()), value))


def check_scalar_update(cx, node: ast.AugAssign, current: Value) -> None:
    """Before ``name op= v`` rebinds the scalar ``current``: where ``name`` held a 0-d array
    on some paths (joined into a scalar, merge.py ``join_types``), Python updates that array
    in place there. That is a CompileError when another slot or the caller can see the
    array (a guarded value, or a parameter that may still hold the caller's buffer)."""
    if current in cx.guards:
        cx.fail(*cx.guards[current][1:])
    name, op = node.target.id, _SYMBOL.get(type(node.op), "?")
    live = cx.scope.names.get(LIVE + name)
    if live is not None and not (isinstance(live, Constant) and not live.value):
        cx.fail(f"'{name}' is the array passed as '{name}' on some paths and a scalar on "
                f"others: '{name} {op}= v' would write into the caller's array on those "
                f"paths only", f"write {name} = {name} {op} v, or copy the argument first")


def _target_array(cx, node):
    """The array value a subscript assignment writes into."""
    x = expressions.expr(cx, node)
    if isinstance(node, ast.Name) and node.id in cx.scope.names:
        x = mutation.materialize_local(cx, cx.scope, x)
    if isinstance(x, Constant) and isinstance(x.value, np.ndarray):
        cx.fail("assignment into a global or constant array is not supported",
                "pass the array as an argument, or use a compiler.Variable")
    if not (isinstance(x, Value) and isinstance(x.type, T.TensorType)):
        cx.fail(f"'{ast.unparse(node)}' ({describe(x)}) does not support item assignment",
                "assign into arrays only")
    return x


def _check_same_kind(cx, op, new, el: T.Type) -> None:
    src = T.element_type(materialize(cx, new).type) if not isinstance(new, Constant) \
        else None
    if src is None or T.is_weak(src) or T.is_weak(el):
        return
    a, b = T.to_dtype(src), T.to_dtype(el)
    if not np.can_cast(a, b, "same_kind"):
        cx.fail(f"Cannot cast ufunc '{_ufunc_name(op, new)}' output from "
                f"dtype('{a}') to dtype('{b}') with casting rule 'same_kind'",
                f"write x = x {_SYMBOL.get(type(op), '?')} v to get a new array, or "
                f"cast the value with .astype", TypeError)


def _ufunc_name(op, new) -> str:
    """The ufunc NumPy's casting error names: the one that computed ``new`` (``x **= 2``
    runs ``square``), else the operator's."""
    src = new.owner_op() if isinstance(new, Value) else None
    name = getattr(src, "numpy", "")
    return getattr(np, name).__name__ if name else type(op).__name__.lower()


_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
