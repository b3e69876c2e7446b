"""``memref`` ops and ``grafo.stride``: buffers over NumPy arrays. A new buffer holds garbage
(0x5A bytes); a load or store outside the shape, any use of a freed buffer and freeing one
twice, or one the function did not allocate, raise ``UndefinedBehavior``."""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import grafo, memref
from .registry import rule
from .values import Buffer, UndefinedBehavior, scalar, storage_dtype


def live(op, buf: Buffer) -> Buffer:
    """``buf``, which ``op`` uses; raises if it was freed."""
    if not buf.live:
        raise UndefinedBehavior(f"{op.name} of a freed buffer at {op.loc}")
    return buf


def _index(op, buf: Buffer, idx) -> tuple:
    shape = buf.array.shape
    if len(idx) != len(shape) or any(not 0 <= i < n for i, n in zip(idx, shape, strict=True)):
        raise UndefinedBehavior(f"{op.name} at {list(idx)} outside shape {list(shape)} "
                                f"at {op.loc}")
    return tuple(idx)


@rule(memref.AllocOp)
def _alloc(interp, op, xs, env) -> list:
    t = op.memref.type
    sizes = iter(xs)
    shape = tuple(d if d is not None else next(sizes) for d in t.shape)
    dt = storage_dtype(t.element)
    garbage = np.full(int(np.prod(shape)) * dt.itemsize, 0x5A, dtype=np.uint8)
    interp.allocated += 1
    return [Buffer(garbage.view(dt).reshape(shape), owned=True)]


@rule(memref.DeallocOp)
def _dealloc(interp, op, xs, env) -> list:
    buf = live(op, xs[0])
    if not buf.owned:
        raise UndefinedBehavior(f"{op.name} of a buffer not allocated here at {op.loc}")
    buf.live = False
    interp.freed += 1
    return []


@rule(memref.DimOp)
def _dim(interp, op, xs, env) -> list:
    buf, k = xs
    return [live(op, buf).array.shape[k]]


@rule(grafo.StrideOp)
def _stride(interp, op, xs, env) -> list:
    buf, k = xs
    a = live(op, buf).array
    return [a.strides[k] // a.itemsize]


@rule(memref.LoadOp)
def _load(interp, op, xs, env) -> list:
    buf, *idx = xs
    v = live(op, buf).array[_index(op, buf, idx)]
    return [scalar(op.memref.type.element, v)]


@rule(memref.StoreOp)
def _store(interp, op, xs, env) -> list:
    value, buf, *idx = xs
    at = _index(op, live(op, buf), idx)
    buf.array[at] = bool(value) if op.memref.type.element == T.i1 else value
    return []
