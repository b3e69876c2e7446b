"""Lazy tensors: a tensor value as a function from an index tuple to a scalar.

An ``Expr`` is the loop-level form of a tensor during lowering (XLA loop fusion / Halide
style): its ``shape`` (dims: Python ints or ``index`` values) and a ``load`` that emits the
scalar ops computing the element at an index tuple, at the emitter's insertion point.
Elementwise ops, casts, broadcasts, transposes, slices and fills compose loads without
writing memory; ``materialize`` writes an ``Expr`` into a fresh contiguous buffer where a value
must exist in memory (results, matmul operands, loop-carried values, costly shared values).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .. import types as T
from ..dialects import grafo
from ..ir.core import Value
from .context import Dim, Emitter

# Costs (scalar ops per element) at or above which a shared value is computed once.
COSTLY = 8


@dataclass
class Expr:
    """A lazy tensor of tensor-level ``element`` type (``types.lowered`` gives its scalars).

    ``load(idx)`` emits the element at ``idx`` (a tuple of dims, one per dim of ``shape``);
    ``cost`` estimates the scalar ops per element; ``buffer`` is the memref when ``load`` is a
    plain read of it (row-major indices, no arithmetic). ``strides`` (one dim per axis, in
    elements), when known, says that ``load(idx)`` reads the element at offset
    ``sum(idx[k] * strides[k])`` of one buffer: the memory order of a view, which decides the
    order in which NumPy adds a reduction (``reduction.py``); None for computed values."""

    shape: tuple
    element: T.Type
    load: Callable[[tuple], Value]
    cost: int = 1
    buffer: Value | None = None
    strides: tuple | None = None

    @property
    def rank(self) -> int:
        return len(self.shape)


def of_buffer(em: Emitter, buf: Value, element: T.Type) -> Expr:
    """The ``Expr`` reading memref ``buf``; dynamic sizes come from ``memref.dim``, the
    strides of a strided memref from ``grafo.stride`` (row-major ones otherwise)."""
    shape = tuple(em.dim_of(buf, k) for k in range(buf.type.rank))
    if buf.type.strided:
        strides = tuple(em.op(grafo.StrideOp, buf, em.index(k)) for k in range(buf.type.rank))
    else:
        strides = _row_major_strides(em, shape)
    return Expr(shape, element, lambda idx: em.load(buf, idx), 1, buf, strides)


def _row_major_strides(em: Emitter, shape) -> tuple:
    """The element strides of a contiguous C-order buffer of ``shape`` (dims)."""
    strides = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        strides[k] = em.mul(strides[k + 1], shape[k + 1])
    return tuple(strides)


def column_major_strides(em: Emitter, shape) -> tuple:
    """The element strides of a Fortran-order buffer of ``shape`` (dims)."""
    strides = [1] * len(shape)
    for k in range(1, len(shape)):
        strides[k] = em.mul(strides[k - 1], shape[k - 1])
    return tuple(strides)


def of_scalar(v: Value, element: T.Type) -> Expr:
    """A rank-0 ``Expr`` holding the scalar ``v``."""
    return Expr((), element, lambda idx: v, 0)


def splat(shape, element: T.Type, v: Value) -> Expr:
    """Every element equal to ``v`` (a scalar computed once, outside the loops)."""
    return Expr(tuple(shape), element, lambda idx: v, 0)


_OPERANDS = ("ValueError", "operands could not be broadcast together with shapes ")


def broadcast_shape(em: Emitter, shapes, static=None, error=_OPERANDS) -> tuple:
    """NumPy broadcasting of ``shapes`` (tuples of dims) with run-time checks.

    ``static`` is the result's static shape (None for unknown dims) from the op's type.
    Incompatible dynamic dims raise ``error``, a kind and the text before the shapes
    (default: ValueError("operands could not be broadcast together with shapes ..."), the
    message of NumPy's ufuncs), at run time."""
    rank = max((len(s) for s in shapes), default=0)
    out, ok = [], True
    for k in range(rank):
        dims = [s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0]
        known = static[k] if static is not None else None
        cur: Dim = 1
        for d in dims:
            ok = em.both(ok, em.either(em.either(em.cmp("eq", cur, d), em.cmp("eq", cur, 1)),
                                       em.cmp("eq", d, 1)))
            if not (isinstance(d, int) and d == 1):  # a 1 keeps the dim as it is
                cur = em.pick(em.cmp("eq", cur, 1), d, cur)
        out.append(known if known is not None else cur)
    if ok is not True:
        params, texts = [], []
        for s in shapes:
            items = []
            for d in s:
                if isinstance(d, int):
                    items.append(str(d))
                else:
                    items.append("{%d}" % len(params))
                    params.append(d)
            texts.append("(" + ",".join(items) + ("," if len(s) == 1 else "") + ")")
        em.check(ok, error[0], error[1] + " ".join(texts) + " ", params)
    return tuple(out)


def broadcast(em: Emitter, e: Expr, shape: tuple) -> Expr:
    """``e`` read at the indices of the broadcast ``shape``: size-1 dims read index 0; a
    dynamic dim that may be 1 at run time selects 0 when it is (``Emitter.broadcast_index``:
    a nest emitted with ``version`` also has a copy without these selects, run when no such
    dim is 1)."""
    if tuple(e.shape) == tuple(shape) and all(a is b for a, b in zip(e.shape, shape, strict=True)):
        return e
    off = len(shape) - e.rank
    maps = []
    for k, d in enumerate(e.shape):
        o = shape[off + k]
        if d is o or (isinstance(d, int) and isinstance(o, int) and d == o):
            maps.append(None)
        elif isinstance(d, int) and d == 1:
            maps.append(0)
        else:
            one = em.cmp("eq", d, 1)  # i1 value: read index 0 when this dim is 1 at run time
            maps.append(0 if one is True else (None if one is False else one))

    def load(idx):
        src = []
        for k, m in enumerate(maps):
            i = idx[off + k]
            if m is None:
                src.append(i)
            elif isinstance(m, int):
                src.append(0)
            else:
                src.append(em.broadcast_index(m, i))
        return e.load(tuple(src))

    extra = sum(1 for m in maps if isinstance(m, Value))
    return Expr(tuple(shape), e.element, load, e.cost + extra)


def materialize(em: Emitter, e: Expr, mtype: T.MemRefType | None = None) -> Value:
    """Write ``e`` into a fresh contiguous buffer (``memref.alloc``) and return it, by a
    parallel loop nest versioned on run-time broadcasting (``Emitter.nest``).

    ``mtype`` fixes the buffer's type (static dims where the consumer's type has them)."""
    shape = e.shape
    if mtype is not None:
        shape = tuple(s if s is not None else d for s, d in zip(mtype.shape, e.shape, strict=True))
    buf = em.alloc(shape, T.lowered(e.element), mtype)
    em.nest(shape, lambda idx: em.store(e.load(idx), buf, idx), parallel=True, version=True)
    return buf
