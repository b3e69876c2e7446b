"""The CUDA driver: one ``Runtime`` per device (primary context, one stream, loaded modules,
allocation, copies, launches). Errors raise RuntimeError naming the driver call and code.

The driver is NVIDIA's (cuda-python) unless ``select("simulator")`` or the environment
variable ``GRAFO_CUDA_SIMULATOR=1`` selects the simulated one (``simulator.py``), which runs
kernels on the CPU from the semantics ``Runtime.load`` is given.
"""

from __future__ import annotations

import ctypes
import functools
import os
import threading

import numpy as np

_lock = threading.Lock()
_runtimes: dict = {}
_selected: list = [None]   # the driver object once chosen


def select(kind: str | None) -> None:
    """Use NVIDIA's driver (``"cuda"``), a fresh simulated machine (``"simulator"``) or the
    environment's choice (None). Forgets the Runtimes of the previous driver. Raises
    ValueError for another ``kind``."""
    if kind not in (None, "cuda", "simulator"):
        raise ValueError(f"unknown CUDA driver {kind!r}; use 'cuda' or 'simulator'")
    with _lock:
        _runtimes.clear()
        unavailable_reason.cache_clear()
        _selected[0] = None if kind is None else _load(kind)


def simulator():
    """The simulated driver in use (``simulator.Driver``: its ``events`` record copies and
    launches), or None when NVIDIA's is selected."""
    from .simulator import Driver
    drv = _bindings()
    return drv if isinstance(drv, Driver) else None


def _bindings():
    """The driver in use, or the ImportError's text when cuda-python is missing."""
    if _selected[0] is None:
        _selected[0] = _load("simulator" if os.environ.get("GRAFO_CUDA_SIMULATOR", "") not in
                             ("", "0") else "cuda")
    return _selected[0]


def _load(kind: str):
    if kind == "simulator":
        from .simulator import Driver
        return Driver()
    try:
        from cuda.bindings import driver
        return driver
    except ImportError:
        pass
    try:
        from cuda import cuda as driver
        return driver
    except ImportError as e:
        return f"cuda-python is not installed ({e}); pip install 'grafo[cuda]'"


def _call(name: str, *args, drv=None):
    """``drv.name(*args)`` (default: the selected driver), its error code checked."""
    drv = _bindings() if drv is None else drv
    result = getattr(drv, name)(*args)
    err, rest = result[0], result[1:]
    if int(err) != 0:
        _, text = drv.cuGetErrorString(err)
        raise RuntimeError(f"CUDA driver: {name} failed: {err!r} "
                           f"({text.decode() if isinstance(text, bytes) else text})")
    return rest[0] if len(rest) == 1 else rest


NO_DEVICE = "the CUDA driver reports no device"
JIT_LOG_BYTES = 1 << 16


@functools.cache
def unavailable_reason() -> str | None:
    """Why no GPU can be used (missing bindings, no driver, no device), or None."""
    drv = _bindings()
    if isinstance(drv, str):
        return drv
    try:
        _call("cuInit", 0)
        count = _call("cuDeviceGetCount")
    except Exception as e:  # noqa: BLE001 - the driver library itself may be missing
        return f"cuInit failed: {e}"
    return None if count > 0 else NO_DEVICE


def available() -> bool:
    """Whether a CUDA device can be used."""
    return unavailable_reason() is None


def device_arch(device: int = 0) -> str | None:
    """``sm_XY`` of ``device``, or None without a GPU."""
    if not available():
        return None
    rt = get(device)
    return f"sm_{rt.attribute('COMPUTE_CAPABILITY_MAJOR')}" \
           f"{rt.attribute('COMPUTE_CAPABILITY_MINOR')}"


def no_gpu_error() -> RuntimeError | None:
    """The error of using a GPU where none can be: "no CUDA driver: ..." when the bindings or
    the driver library are missing, "no CUDA device: ..." when the driver reports none; None
    when a GPU can be used."""
    reason = unavailable_reason()
    if reason is None:
        return None
    what = "device" if reason == NO_DEVICE else "driver"
    return RuntimeError(f"no CUDA {what}: {reason}")


def get(device: int = 0) -> "Runtime":
    """The ``Runtime`` of device index ``device``. Raises RuntimeError ("no CUDA driver: ..."
    or "no CUDA device: ...", ``no_gpu_error``) without a GPU, ValueError naming the devices
    present for an index out of range."""
    error = no_gpu_error()
    if error is not None:
        raise error
    from .devices import check
    check(device)
    with _lock:
        if device not in _runtimes:
            _runtimes[device] = Runtime(device)
        return _runtimes[device]


class ModuleLoadError(RuntimeError):
    """The driver rejected a PTX image (``cuModuleLoadDataEx``): ``log`` is its JIT compiler's
    error log (ptxas's messages, ``line N; error : ...``), ``call`` the failed call and code."""

    def __init__(self, call: str, log: str):
        super().__init__(f"the CUDA driver's JIT compiler rejected the PTX ({call}):\n{log}")
        self.call = call
        self.log = log


class Runtime:
    """A device's primary context and stream. Every method makes the context current in the
    calling thread first: contexts are current per thread, and a Runtime is shared by all
    threads (``get``). A Runtime calls the driver it was made with, even after ``select``
    chose another.

    Memory a garbage-collected ``DeviceArray`` owned is freed at the Runtime's next call
    (``defer_free``), not from ``__del__``: the collector may run inside a driver call (the
    bindings load the driver library lazily, under their own lock), where calling the driver
    again deadlocks. Numba's CUDA target defers deallocations for the same reason."""

    def __init__(self, device: int):
        self.drv = _bindings()
        self._pending: list[int] = []
        self.index = device
        self.device = self._call("cuDeviceGet", device)
        self.context = self._call("cuDevicePrimaryCtxRetain", self.device)
        self.activate()
        self.stream = self._call("cuStreamCreate", 0)
        self._sms = self.attribute("MULTIPROCESSOR_COUNT")

    def _call(self, name: str, *args):
        return _call(name, *args, drv=self.drv)

    def activate(self) -> None:
        """Make this device's context current in the calling thread, then free the memory
        ``defer_free`` queued."""
        self._call("cuCtxSetCurrent", self.context)
        while True:
            try:
                ptr = self._pending.pop()
            except IndexError:      # another thread took the last one
                return
            self._call("cuMemFree", ptr)

    def defer_free(self, ptr: int) -> None:
        """Free ``ptr`` at this Runtime's next call; safe from ``__del__`` (only appends)."""
        self._pending.append(ptr)

    def attribute(self, name: str) -> int:
        """A ``CU_DEVICE_ATTRIBUTE_<name>`` of the device."""
        attr = getattr(self.drv.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}")
        return int(self._call("cuDeviceGetAttribute", attr, self.device))

    def max_blocks(self) -> int:
        """Blocks of a grid-stride launch: 32 per multiprocessor."""
        return 32 * self._sms

    def load(self, ptx: str, names: list, semantics=None) -> dict:
        """Load PTX (``cuModuleLoadDataEx``, the driver's JIT compiler assembling it for this
        device); returns ``{kernel name: CUfunction}``. Raises ModuleLoadError with the JIT's
        error log when it rejects the PTX. ``semantics()`` returns ``{kernel name:
        semantics}``, what the simulated driver runs in place of the PTX (see
        ``simulator.py``); NVIDIA's driver never calls it."""
        self.activate()
        image = ptx.encode() + b"\0"
        if semantics is not None and hasattr(self.drv, "register_image"):
            self.drv.register_image(image, semantics())
        log = bytearray(JIT_LOG_BYTES)
        jit = self.drv.CUjit_option
        options = [jit.CU_JIT_ERROR_LOG_BUFFER, jit.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES]
        err, module = self.drv.cuModuleLoadDataEx(image, len(options), options,
                                                  [log, JIT_LOG_BYTES])
        if int(err) != 0:
            text = bytes(log).split(b"\0", 1)[0].decode(errors="replace").strip()
            raise ModuleLoadError(f"cuModuleLoadDataEx failed: {err!r}",
                                  text or "(the driver wrote no log)")
        return {n: self._call("cuModuleGetFunction", module, n.encode()) for n in names}

    def copy_device(self, dst: int, src: int, nbytes: int) -> None:
        """Copy ``nbytes`` from device pointer ``src`` to ``dst`` on the stream (no
        synchronization: kernels queued after it see the copy)."""
        self.activate()
        self._call("cuMemcpyDtoDAsync", dst, src, nbytes, self.stream)

    def malloc(self, nbytes: int) -> int:
        self.activate()
        return int(self._call("cuMemAlloc", max(nbytes, 1)))

    def free(self, ptr: int) -> None:
        self.activate()
        self._call("cuMemFree", ptr)

    def empty(self, shape, dtype):
        """An uninitialized C-contiguous ``DeviceArray``."""
        from .memory import DeviceArray
        return DeviceArray.empty(self, shape, dtype)

    def zeros(self, nbytes: int):
        """A zeroed byte ``DeviceArray``."""
        from .memory import DeviceArray
        a = DeviceArray.empty(self, (nbytes,), np.uint8)
        self.activate()
        self._call("cuMemsetD8Async", a.ptr, 0, max(nbytes, 1), self.stream)
        return a

    def copy_in(self, ptr: int, host: np.ndarray) -> None:
        self.activate()
        self._call("cuMemcpyHtoDAsync", ptr, host.ctypes.data, host.nbytes, self.stream)
        self.synchronize()   # the host array may be released by the caller

    def copy_out(self, host: np.ndarray, ptr: int) -> None:
        self.activate()
        self._call("cuMemcpyDtoHAsync", host.ctypes.data, ptr, host.nbytes, self.stream)
        self.synchronize()

    def synchronize(self) -> None:
        self.activate()
        self._call("cuStreamSynchronize", self.stream)

    def launch(self, fn, blocks, threads, params: list, status, out=None) -> None:
        """Queue ``fn`` on the stream with ``params`` (DeviceArrays expand to their
        descriptor fields, NumPy scalars pass by value), then ``status`` and ``out``.
        ``blocks`` and ``threads``: an int (x only) or an ``(x, y, z)`` tuple."""
        cvals = []
        for p in params:
            if hasattr(p, "descriptor_fields"):
                cvals += [ctypes.c_uint64(p.ptr), ctypes.c_int64(0)]
                cvals += [ctypes.c_int64(s) for s in (*p.shape, *p.element_strides)]
            else:
                cvals.append(_ctype(p))
        cvals.append(ctypes.c_uint64(status.ptr))
        if out is not None:
            cvals.append(ctypes.c_uint64(out.ptr))
        argv = (ctypes.c_void_p * len(cvals))(*[ctypes.addressof(c) for c in cvals])
        self.activate()
        grid = (blocks, 1, 1) if isinstance(blocks, int) else tuple(blocks)
        block = (threads, 1, 1) if isinstance(threads, int) else tuple(threads)
        self._call("cuLaunchKernel", fn, *grid, *block, 0, self.stream, ctypes.addressof(argv),
                   0)


_CTYPES = {"f4": ctypes.c_float, "f8": ctypes.c_double, "i1": ctypes.c_int8,
           "i2": ctypes.c_int16, "i4": ctypes.c_int32, "i8": ctypes.c_int64,
           "u1": ctypes.c_uint8, "u2": ctypes.c_uint16, "u4": ctypes.c_uint32,
           "u8": ctypes.c_uint64, "b1": ctypes.c_int8}


def _ctype(x):
    x = np.asarray(x)
    return _CTYPES[x.dtype.str[1:]](x.item())
