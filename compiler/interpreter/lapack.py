"""Rules of ``lapack`` ops: the same routine of NumPy's LAPACK, called through ctypes on the
interpreter's buffers (contiguous NumPy arrays), with the convention of
``backend/llvm/lapack.py``."""

from __future__ import annotations

import ctypes

import numpy as np

from runtime.lapack import open_library, symbol

from ..dialects import lapack
from .registry import rule


@rule(*lapack.ROUTINE_OPS)
def _routine(interp, op, xs, env) -> list:
    chars = lapack.CHARACTERS.get(op.routine, ())
    args = [ctypes.byref(ctypes.c_char(op.attr(c).encode())) for c in chars]
    keep = []
    for p, x in zip(lapack.PARAMETERS[op.routine], xs, strict=True):
        kind = lapack.kind_of(p)
        if kind in ("A", "I"):
            a = x.array
            assert a.flags.c_contiguous and a.dtype == (np.float64 if kind == "A" else np.int64)
            args.append(ctypes.c_void_p(a.ctypes.data))
        else:
            v = ctypes.c_double(float(x)) if kind == "d" else ctypes.c_int64(int(x))
            keep.append(v)
            args.append(ctypes.byref(v))
    info = ctypes.c_int64(0)
    args.append(ctypes.byref(info))
    args += [ctypes.c_size_t(1)] * len(chars)
    getattr(open_library(), symbol(op.routine))(*args)
    return [info.value]
