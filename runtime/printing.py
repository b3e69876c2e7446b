"""The print hook: native code of ``print(...)`` calls back into Python to write the text.

``make_hook(table)`` returns a ctypes callback ``void hook(int64_t k, void **values)`` for a
module whose k-th print op is ``table[k] = (pieces, conversions, kinds, ranks)`` (see
``compiler/backend/llvm/printing.py``). It rebuilds each value as the object eager code holds
(a NumPy array of dtype ``kind``, a NumPy scalar, or a Python int/float/complex/bool for the
kinds "int"/"float"/"complex"/"bool"), formats it with ``str`` or ``repr`` and writes
``pieces[0] + text[0] + pieces[1] + ...`` to the current ``sys.stdout``, as Python's
``print`` does. ctypes takes the GIL for the callback, so native code may call it without the
GIL. Needs only NumPy and ctypes.
"""

from __future__ import annotations

import ctypes
import sys

import numpy as np

from . import interrupt
from .abi import descriptor_type

PRINT_HOOK = ctypes.CFUNCTYPE(None, ctypes.c_int64, ctypes.POINTER(ctypes.c_void_p))
_PYTHON = {"int": (int, ctypes.c_int64, np.int64), "float": (float, ctypes.c_double, np.float64),
           "complex": (complex, ctypes.c_double * 2, np.complex128),
           "bool": (bool, ctypes.c_int8, np.bool_)}


def make_hook(table: list) -> PRINT_HOOK:
    """The callback for ``table``; keep it alive as long as native code may call it.
    Python may run its SIGINT handler in the callback; ctypes would print and drop the
    KeyboardInterrupt, so the callback raises the interrupt flag instead: the call stops at
    its next poll and raises KeyboardInterrupt (``interrupt.py``)."""
    def hook(k, values):
        _, _, kinds, ranks = table[k]
        try:
            write(table[k], [read_value(values[i], kind, rank)
                             for i, (kind, rank) in enumerate(zip(kinds, ranks, strict=True))])
        except KeyboardInterrupt:
            interrupt.flag.value = 1
    return PRINT_HOOK(hook)


def write(entry: tuple, values: list) -> None:
    """Write the text of one print (``entry`` = a table row, ``values`` its rebuilt
    operands) to ``sys.stdout``."""
    pieces, conversions = entry[0], entry[1]
    out = [pieces[0]]
    for i, (conv, v) in enumerate(zip(conversions, values, strict=True)):
        out.append(str(v) if conv == "s" else repr(v))
        out.append(pieces[i + 1])
    sys.stdout.write("".join(out))


def from_kind(kind: str, rank: int | None):
    """The NumPy dtype (arrays, NumPy scalars) or Python type of a value of ``kind``."""
    if kind in _PYTHON:
        return _PYTHON[kind][2] if rank is not None else _PYTHON[kind][0]
    return np.dtype(kind)


def read_value(address: int, kind: str, rank: int | None):
    """The value at ``address``: a scalar of ``kind``, or (``rank`` given) a copy of the
    array a memref descriptor at ``address`` describes."""
    if rank is None:
        if kind in _PYTHON:
            py, ctype, _ = _PYTHON[kind]
            raw = ctype.from_address(address)
            return py(*raw) if py is complex else py(raw.value)
        dtype = np.dtype(kind)   # by its bytes: a float16 is stored as its bits
        return np.frombuffer((ctypes.c_char * dtype.itemsize).from_address(address), dtype)[0]
    dtype = np.dtype(_PYTHON[kind][2] if kind in _PYTHON else kind)
    words = list(descriptor_type(rank).from_address(address))
    aligned, offset = words[1], words[2]
    sizes, strides = words[3:3 + rank], words[3 + rank:]
    if 0 in sizes:
        return np.empty(sizes, dtype)
    lo = offset + sum(min(0, (n - 1) * s) for n, s in zip(sizes, strides, strict=True))
    hi = offset + sum(max(0, (n - 1) * s) for n, s in zip(sizes, strides, strict=True))
    raw = (ctypes.c_char * ((hi - lo + 1) * dtype.itemsize)).from_address(
        aligned + lo * dtype.itemsize)
    base = np.frombuffer(raw, dtype)[offset - lo:]
    return np.lib.stride_tricks.as_strided(
        base, sizes, [s * dtype.itemsize for s in strides]).copy()
