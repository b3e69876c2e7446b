"""``GPUFunction``: the callable of a CUDA-compiled function.

Arguments exposing ``__cuda_array_interface__`` are used in place (they must be on the
device compiled for: ValueError otherwise); NumPy arrays are copied to the device and, when
the function writes into them, copied back (a read-only one raises NumPy's ValueError before
anything runs, as on the CPU). Results are NumPy arrays when every array argument was a
NumPy array, DeviceArrays otherwise; scalars are NumPy scalars; a function with no results
returns None. Raises RuntimeError ("no CUDA driver: ..." / "no CUDA device: ...") without a
GPU.

A failed run-time check (in a kernel, through the status block, or on the host) raises the
exception of the CPU path (``status_error``): the check's kind and message, then the file,
line and column of the user's code with the source line and a caret; like the CPU path, from
a traceback frame at that line (``raise_status_error``).
"""

from __future__ import annotations

import numpy as np

from ..abi import READ_ONLY, argument_error, check_error
from ..frames import raise_at
from . import driver
from .memory import device_of, wrap


def status_error(errors: list, code: int, params: list) -> Exception:
    """The exception of status ``code`` (1-based) with message ``params``; ``errors[code - 1]
    = (exception name, str.format message, (file, line, col, function))``, the CPU path's
    table."""
    if not 0 < code <= len(errors):
        return RuntimeError(f"a GPU kernel returned unknown status {code}")
    kind, message, loc = errors[code - 1]
    return check_error(kind, message, params, loc)


def raise_status_error(errors: list, code: int, params: list, function: str):
    """Raise ``status_error`` from a frame at the check's source line (``runtime.frames``);
    ``function`` names the frame where the table does not."""
    if not 0 < code <= len(errors):
        raise status_error(errors, code, params)
    file, line, _, name = errors[code - 1][2]
    raise_at(status_error(errors, code, params), file, line, name or function)


class GPUFunction:
    """Runs a compiled host program (``compiler.backend.ptx.host``) on a device.

    ``inputs``: per argument ``(dtype, shape)``, shape a tuple with None for dynamic dims, or
    None for a scalar; array arguments must match it exactly (TypeError otherwise, as on the
    CPU: a device array cannot be converted, and a converted NumPy copy would hide writes).
    ``written``: indices of the array arguments the function writes into, copied back when
    they are NumPy arrays."""

    def __init__(self, module, program, inputs, result_dtypes, result_arrays, written=()):
        self.module = module
        self.program = program
        self.inputs = inputs
        self.result_dtypes = result_dtypes
        self.result_arrays = result_arrays
        self.written = frozenset(written)

    def __call__(self, *args):
        if len(args) != len(self.inputs):
            raise TypeError(f"{self.program.func.sym_name}() takes {len(self.inputs)} "
                            f"arguments, got {len(args)}")
        for i, (a, (dt, shape)) in enumerate(zip(args, self.inputs, strict=True)):
            if shape is not None:
                self._check_array(i, a, dt, shape)
                if i in self.written and isinstance(a, np.ndarray) and not a.flags.writeable:
                    raise ValueError(READ_ONLY)
        rt = driver.get(self.module.target.device)
        self._check_devices(args, rt.index)
        functions = self.module.functions(rt)
        on_host = all(not hasattr(a, "__cuda_array_interface__") for a in args)
        values, copies = [], []
        for i, (a, (dt, shape)) in enumerate(zip(args, self.inputs, strict=True)):
            if shape is not None:
                d = wrap(rt, a)
                values.append(d)
                if isinstance(a, np.ndarray) and i in self.written:
                    copies.append((a, d))
            else:
                values.append(_scalar(a, dt))
        results = self.program.run(rt, functions, values)
        rt.synchronize()
        for host, dev in copies:
            if dev.nbytes:
                host[...] = dev.read()
        out = []
        for r, dt, is_array in zip(results, self.result_dtypes, self.result_arrays, strict=True):
            if is_array:
                out.append(r.read().view(dt) if on_host else r)
            else:
                out.append(dt.type(r))
        if not out:   # a function without a return statement returns None, as in Python
            return None
        return out[0] if len(out) == 1 else tuple(out)

    def _check_devices(self, args, index: int) -> None:
        """ValueError for a device array on another device than ``index``, the one compiled
        for (an object that does not say its device is taken to be there)."""
        for i, a in enumerate(args):
            d = device_of(a) if hasattr(a, "__cuda_array_interface__") else None
            if d is not None and d != index:
                func = self.program.func
                name = func.body.args[i].name_hint or f"arg{i}"
                raise ValueError(f"{func.sym_name}() argument {name!r} is on cuda:{d}, but "
                                 f"{func.sym_name} was compiled for cuda:{index}: move it with "
                                 f"compiler.device_put({name}, 'cuda:{index}')")

    def _check_array(self, i: int, a, dtype: np.dtype, shape: tuple) -> None:
        cai = getattr(a, "__cuda_array_interface__", None)
        if cai is not None:
            got_dtype, got_shape = np.dtype(cai["typestr"]), tuple(cai["shape"])
        elif isinstance(a, np.ndarray):
            got_dtype, got_shape = a.dtype, a.shape
        else:
            got_dtype = got_shape = None
        if got_dtype != dtype or got_shape is None or len(got_shape) != len(shape) or any(
                d is not None and g != d for g, d in zip(got_shape, shape, strict=True)):
            spec = ", ".join("?" if d is None else str(d) for d in shape)
            got = type(a).__name__ if got_shape is None else \
                f"{got_dtype}[{', '.join(map(str, got_shape))}]"
            func = self.program.func
            raise argument_error(func.sym_name, func.body.args[i].name_hint or f"arg{i}",
                                 f"{dtype}[{spec}]", got)


def _scalar(a, dt: np.dtype):
    """A scalar argument as the host program holds it: a NumPy float or complex (the host
    program passes a complex as its two float parts), or an int holding the signed value of
    the storage width."""
    if dt.kind in "fc":
        return dt.type(a)
    v = int(a)
    bits = 8 * dt.itemsize
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) and dt.kind != "b" else v
