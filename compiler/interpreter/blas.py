"""Rules of ``blas`` ops: the same CBLAS routine of NumPy's OpenBLAS, called through ctypes
on the interpreter's buffers, with the convention of ``backend/llvm/blas.py``."""

from __future__ import annotations

import ctypes

import numpy as np

from runtime import blas as cblas
from runtime.lapack import open_library

from ..dialects import blas
from .registry import rule


@rule(*blas.ROUTINE_OPS)
def _routine(interp, op, xs, env) -> list:
    values = dict(zip(op.operand_defs.names, xs, strict=True))
    double = getattr(op, op.arrays[0]).type.element.width == 64
    real = ctypes.c_double if double else ctypes.c_float
    args = [ctypes.c_int(cblas.ROW_MAJOR)]
    for name, x in values.items():
        if name.startswith("trans"):
            args.append(ctypes.c_int(cblas.TRANS if x else cblas.NO_TRANS))
        elif name in op.arrays:
            a = x.array
            # the element at the offset from element 0 of the view, as the compiled call
            address = a.ctypes.data + int(values[f"{name}_offset"]) * a.itemsize
            assert a.dtype == (np.float64 if double else np.float32)
            args.append(ctypes.c_void_p(address))
        elif name in ("alpha", "beta"):
            args.append(real(float(x)))
        elif not name.endswith("_offset"):
            args.append(ctypes.c_int64(int(x)))
    getattr(open_library(), cblas.symbol(op.routine, double))(*args)
    return []
