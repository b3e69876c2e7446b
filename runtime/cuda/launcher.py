"""``GPUFunction``: the callable of a CUDA-compiled function.

Arguments exposing ``__cuda_array_interface__`` are used in place; NumPy arrays are copied to
the device and, when the function writes into them, copied back. Results are NumPy arrays
when every array argument was a NumPy array, DeviceArrays otherwise; scalars are NumPy
scalars. Raises RuntimeError("no CUDA device: ...") without a GPU.

A failed run-time check (in a kernel, through the status block, or on the host) raises the
exception of the CPU path (``status_error``): the check's kind and message, then the file,
line and column of the user's code with the source line and a caret.
"""

from __future__ import annotations

import builtins

import numpy as np

from ..abi import _where
from . import driver
from .memory import to_device


def status_error(errors: list, code: int, params: list) -> Exception:
    """The exception of status ``code`` (1-based) with message ``params``; ``errors[code - 1]
    = (exception name, str.format message, (file, line, col))``, the CPU path's table."""
    if not 0 < code <= len(errors):
        return RuntimeError(f"a GPU kernel returned unknown status {code}")
    kind, message, loc = errors[code - 1]
    cls = getattr(builtins, kind, None)
    if not (isinstance(cls, type) and issubclass(cls, Exception)):
        cls = RuntimeError
    return cls(message.format(*params) + _where(loc))


class GPUFunction:
    """Runs a compiled host program (``compiler.backend.ptx.host``) on a device."""

    def __init__(self, module, program, input_dtypes, result_dtypes, result_arrays):
        self.module = module
        self.program = program
        self.input_dtypes = input_dtypes
        self.result_dtypes = result_dtypes
        self.result_arrays = result_arrays

    def __call__(self, *args):
        rt = driver.get(self.module.target.device)
        functions = self.module.functions(rt)
        on_host = all(not hasattr(a, "__cuda_array_interface__") for a in args)
        values, copies = [], []
        for a, dt in zip(args, self.input_dtypes, strict=True):
            if isinstance(a, np.ndarray) or hasattr(a, "__cuda_array_interface__"):
                d = to_device(rt, np.asarray(a, dt) if isinstance(a, np.ndarray) else a)
                values.append(d)
                if isinstance(a, np.ndarray):
                    copies.append((a, d))
            else:
                values.append(int(a) if dt.kind in "iub" else dt.type(a))
        results = self.program.run(rt, functions, values)
        rt.synchronize()
        for host, dev in copies:
            if host.flags.writeable and dev.nbytes:
                host[...] = dev.read()
        out = []
        for r, dt, is_array in zip(results, self.result_dtypes, self.result_arrays, strict=True):
            if is_array:
                out.append(r.read().view(dt) if on_host else r)
            else:
                out.append(dt.type(r))
        return out[0] if len(out) == 1 else tuple(out)
