"""In-place updates of arrays: ``x[idx] = v``, ``x[idx] op= v`` and ``x op= v`` on arrays, as
functional ``np.setitem`` ops, and the bookkeeping that makes the caller see them.

Mutating an array rebinds every name of the current function bound to the same value (its
aliases) and, for a view made by basic indexing (``v = x[1:]``), the array it views. Each
function tracks the buffers its caller can observe (array parameters, and for a nested
function the arrays of the enclosing one it writes into): the hidden name ``%in:p`` holds
``Alias(p)`` while ``p`` still names the caller's buffer, else that buffer's last value.
Every ``return`` records their values in ``%exit:p``; an inlined function's caller then sees
the updates (copy-out), and the compiled function writes them back with ``np.write_back``.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..ir.core import OpResult, Value
from .indexing import assign_advanced, basic_index, index_items, subscript
from .ops import cast, dim, materialize, raise_at_runtime
from .values import Constant, describe

IN, EXIT = "%in:", "%exit:"


@dataclass(frozen=True, eq=False)
class Alias:
    """``%in:p`` while the name ``p`` still holds the caller's buffer."""

    name: str


def resolve(scope, v):
    """The value ``v`` stands for in ``scope`` (an ``Alias`` is its name's value)."""
    return scope.names.get(v.name) if isinstance(v, Alias) else v


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


class MutationMixin:
    """Array updates for ``Converter``."""

    def track(self, name: str) -> None:
        """Make ``name`` (bound in the current scope) an observable buffer of this frame."""
        self.frame.tracked[name] = self.scope[name]
        self.scope[IN + name] = Alias(name)

    def record_exit(self) -> None:
        """At a ``return``: the values of the tracked buffers, as the caller will see them."""
        for name in self.frame.tracked:
            self.scope[EXIT + name] = resolve(self.scope, self.scope[IN + name])

    def before_rebind(self, name: str) -> None:
        """``name`` is about to be bound to a new value: a tracked buffer stops following it."""
        if isinstance(self.scope.get(IN + name), Alias):
            self.scope[IN + name] = self.scope[name]

    def setitem(self, x: Value, index, value) -> Value:
        """``x`` with ``x[index] = value`` applied (NumPy casts the value unsafely)."""
        self._check_float_store(value, x.type.element)
        items = index_items(self, x, index)
        arrays = [k for k, it in enumerate(items) if isinstance(it, Value)
                  and isinstance(it.type, T.TensorType)]
        if arrays:
            return assign_advanced(self, x, items, arrays, value)
        spec, bounds, operands = basic_index(self, x, index)
        v = cast(self, value, x.type.element)
        return self.emit(npd.SetItemOp, [x, v, *operands], {"spec": spec, "bounds": bounds})

    def _check_float_store(self, value, el: T.Type) -> None:
        """A Python float stored into an integer array converts as ``int(value)`` does in
        NumPy: NaN, infinities and results out of the dtype's range raise at run time."""
        if not (isinstance(value, Constant) and type(value.value) is float
                and T.is_integer(el) and not T.is_bool(el)):
            return
        try:
            np.zeros(1, T.to_dtype(el))[0] = value.value
        except (ValueError, OverflowError) as e:
            raise_at_runtime(self, e)

    def mutate(self, old, new) -> None:
        """Every name bound to ``old`` now holds ``new``; an array ``old`` views is updated
        (through ``np.subscript``, ``np.transpose`` and ``np.reshape`` views, also after
        earlier writes into the view)."""
        for name, v in list(self.scope.names.items()):
            if v is old:
                self.scope[name] = new
        if not isinstance(old.type, T.TensorType):
            return
        src, base = self.views.get(old) or (old.op if isinstance(old, OpResult) else None, None)
        if not isinstance(src, _VIEWS):
            return
        base = src.operands[0] if base is None else base
        if isinstance(src, npd.SubscriptOp):
            updated = self.emit(npd.SetItemOp, [base, new, *src.operands[1:]],
                                {"spec": src.attr("spec"), "bounds": src.attr("bounds", ())})
        elif isinstance(src, npd.TransposeOp):
            perm = src.attr("perm")
            inverse = tuple(sorted(range(len(perm)), key=perm.__getitem__))
            updated = self.emit(npd.TransposeOp, [new], {"perm": inverse})
        elif isinstance(src, npd.ReshapeOp):
            if old not in self.views and not _contiguous(base):
                self.fail("writing into a reshaped view of an argument or of another view is "
                          "not supported: NumPy writes through to the original array only "
                          "when its memory layout allows a view",
                          "index the original array instead (x[i, j] = v), or copy the "
                          "reshaped array first (y = x.reshape(...).copy())")
            shape = [dim(self, base, k) for k, d in enumerate(base.type.shape) if d is None]
            updated = self.emit(npd.ReshapeOp, [new, *shape], types=[base.type])
        else:
            self.fail("assignment destination is read-only",
                      "np.broadcast_to returns a read-only view; copy it first "
                      "(y = np.broadcast_to(x, shape).copy())")
        self.views[new] = (src, updated)
        self.mutate(base, updated)
        self.views.setdefault(updated, (None, None))  # a new base value, not a view

    def materialize_local(self, scope, value):
        """A local array known at compile time (``np.zeros(3)``) as a run-time value that
        can be updated: every name of ``scope`` bound to it is rebound."""
        if not (isinstance(value, Constant) and isinstance(value.value, np.ndarray)):
            return value
        v = materialize(self, value)
        for name, w in list(scope.names.items()):
            if w is value:
                scope[name] = v
        return v

    def _target_array(self, node):
        """The array value a subscript assignment writes into."""
        x = self.expr(node)
        if isinstance(node, ast.Name) and node.id in self.scope.names:
            x = self.materialize_local(self.scope, x)
        if isinstance(x, Constant) and isinstance(x.value, np.ndarray):
            self.fail("assignment into a global or constant array is not supported",
                      "pass the array as an argument, or use a compiler.Variable")
        if not (isinstance(x, Value) and isinstance(x.type, T.TensorType)):
            self.fail(f"'{ast.unparse(node)}' ({describe(x)}) does not support item assignment",
                      "assign into arrays only")
        return x

    def assign_item(self, target: ast.Subscript, value) -> None:
        """``target.value[target.slice] = value``."""
        x = self._target_array(target.value)
        index = self.expr(target.slice)
        with self.at(target):
            self.mutate(x, self.setitem(x, index, value))

    def augassign_item(self, node: ast.AugAssign) -> None:
        """``x[idx] op= v``: NumPy's in-place ufunc on the region (same_kind casting)."""
        target = node.target
        x = self._target_array(target.value)
        index = self.expr(target.slice)
        rhs = self.expr(node.value)
        with self.at(node):
            region = subscript(self, x, index)
            new = self.binary(node.op, region, rhs)
            if isinstance(region.type, T.TensorType):
                self._check_same_kind(node.op, new, region.type.element)
            self.mutate(x, self.setitem(x, index, new))

    def augassign_array(self, node: ast.AugAssign, x: Value) -> None:
        """``x op= v`` for an array ``x``: in place, as NumPy's ``x.__iadd__``."""
        rhs = self.expr(node.value)
        with self.at(node):
            new = self.binary(node.op, x, rhs)
            self._check_same_kind(node.op, new, x.type.element)
            self.mutate(x, self.setitem(x, Constant(()), new))

    def _check_same_kind(self, op, new, el: T.Type) -> None:
        src = T.element_type(materialize(self, new).type) if not isinstance(new, Constant) \
            else None
        if src is None or T.is_weak(src) or T.is_weak(el):
            return
        a, b = T.to_dtype(src), T.to_dtype(el)
        if not np.can_cast(a, b, "same_kind"):
            self.fail(f"Cannot cast ufunc '{type(op).__name__.lower()}' output from "
                      f"dtype('{a}') to dtype('{b}') with casting rule 'same_kind'",
                      f"write x = x {_SYMBOL.get(type(op), '?')} v to get a new array, or "
                      f"cast the value with .astype", TypeError)


_VIEWS = (npd.SubscriptOp, npd.TransposeOp, npd.ReshapeOp, npd.BroadcastToOp)


def _contiguous(v: Value) -> bool:
    """True when ``v`` is an array an ``np`` op computed, not a view (``np.subscript``,
    ``np.transpose``, ``np.broadcast_to``), an argument or a control-flow result that may
    have any strides."""
    src = v.op if isinstance(v, OpResult) else None
    return src is not None and src.name.startswith("np.") \
        and not isinstance(src, (npd.SubscriptOp, npd.TransposeOp, npd.BroadcastToOp))


_SYMBOL = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//",
           ast.Mod: "%", ast.Pow: "**", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
           ast.LShift: "<<", ast.RShift: ">>"}
