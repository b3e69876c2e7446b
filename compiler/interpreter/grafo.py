"""``grafo`` ops: ``grafo.check`` raises its Python exception (``kind(message.format(*params))``),
``grafo.print`` writes to ``sys.stdout`` as the compiled code does, ``grafo.libm`` calls
NumPy's version of the C function, ``grafo.constant`` is a read-only buffer."""

from __future__ import annotations

import builtins

import numpy as np

from runtime.printing import from_kind, write

from ..dialects import grafo
from .math import UFUNCS
from .registry import rule
from .values import Buffer, float_type, storage_dtype

# ``grafo.libm``'s callees are the C functions of the math ops of the same names.
_LIBM = {cls.name.partition(".")[2]: fn for cls, fn in UFUNCS.items()}


@rule(grafo.CheckOp)
def _check(interp, op, xs, env) -> list:
    ok, *params = xs
    if not ok:
        raise getattr(builtins, op.kind)(op.message.format(*params))
    return []


@rule(grafo.PrintOp)
def _print(interp, op, xs, env) -> list:
    """Each operand as the NumPy/Python value of its kind, then the text."""
    values = []
    for x, kind in zip(xs, op.kinds, strict=True):
        if isinstance(x, Buffer):
            dt = np.dtype(from_kind(kind, x.array.ndim))
            values.append(x.array.view(dt) if x.array.dtype.itemsize == dt.itemsize
                          else x.array.astype(dt))
        else:
            t = from_kind(kind, None)
            if isinstance(t, np.dtype):
                values.append(t.type(int(x) % (1 << 8 * t.itemsize) if t.kind == "u" else x))
            else:
                values.append(t(x))
    write((op.pieces, op.conversions), values)
    return []


@rule(grafo.LibmOp)
def _libm(interp, op, xs, env) -> list:
    with np.errstate(all="ignore"):
        return [float_type(op.result.type)(_LIBM[op.callee](*xs))]


@rule(grafo.ConstantOp)
def _constant(interp, op, xs, env) -> list:
    a = op.attributes["value"].value.astype(storage_dtype(op.result.type.element))
    a.flags.writeable = False
    return [Buffer(a, owned=False)]
