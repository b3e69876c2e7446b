"""A simulated CUDA driver: the subset of ``cuda.bindings.driver`` that ``runtime.cuda`` calls,
with cuda-python's signatures and return conventions (a tuple ``(CUresult, values...)``;
handles are objects ``int()`` converts), running on the CPU.

Selected by ``runtime.cuda.driver.select("simulator")`` or the environment variable
``GRAFO_CUDA_SIMULATOR=1``. What it models:

- ``cuInit`` first, then a device with ``MULTIPROCESSOR_COUNT`` = ``sms`` and compute
  capability ``cc``; its primary context must be current in the calling thread
  (``cuCtxSetCurrent``; current contexts are per thread, as in CUDA) for every call that
  touches memory, modules, streams or launches, else CUDA_ERROR_INVALID_CONTEXT.
- Memory (``sim_memory.py``): host buffers; copies and memsets must stay inside one live
  allocation (CUDA_ERROR_INVALID_VALUE otherwise).
- Modules: ``cuModuleLoadData`` / ``cuModuleLoadDataEx`` accept only images registered
  with ``register_image(image, kernels)``; ``kernels`` maps each kernel name to its
  semantics, an object with ``param_types`` (the ctypes type of each kernel parameter, in
  order) and ``run(grid, block, args, memory)``, which computes on ``memory`` what the
  kernel computes for that launch shape (``compiler.backend.ptx.simulate``). The simulated
  machine has no JIT compiler:
  ``jit``, when set, stands in for it, a callable taking the PTX text and returning an error
  log (``cuModuleLoadDataEx`` then fails with CUDA_ERROR_INVALID_PTX and writes the log into
  the CU_JIT_ERROR_LOG_BUFFER option's buffer) or None (the image loads).
- ``cuLaunchKernel`` checks the handle, the stream, CUDA's limits on grid and block sizes
  (CUDA_ERROR_INVALID_VALUE), reads each parameter through the ``void *[]`` array the caller
  packed, and runs the kernel at once (a stream is therefore trivially in order). A fault in
  the kernel (``sim_memory.Fault``: an access outside an allocation) is returned, as on a GPU,
  by the next call in the context and every call after it (a sticky error); ``cuGetErrorString``
  adds the fault's description.

``events`` records every allocation, free, copy, memset and launch, so tests can check what
ran (e.g. that an array already on the device was not copied in).
"""

from __future__ import annotations

import ctypes
import enum
import threading

from .sim_memory import DeviceMemory, Fault, host_bytes


class CUresult(enum.IntEnum):
    CUDA_SUCCESS = 0
    CUDA_ERROR_INVALID_VALUE = 1
    CUDA_ERROR_OUT_OF_MEMORY = 2
    CUDA_ERROR_NOT_INITIALIZED = 3
    CUDA_ERROR_INVALID_DEVICE = 101
    CUDA_ERROR_INVALID_IMAGE = 200
    CUDA_ERROR_INVALID_PTX = 218
    CUDA_ERROR_INVALID_CONTEXT = 201
    CUDA_ERROR_INVALID_HANDLE = 400
    CUDA_ERROR_NOT_FOUND = 500
    CUDA_ERROR_ILLEGAL_ADDRESS = 700
    CUDA_ERROR_LAUNCH_FAILED = 719


_TEXT = {
    CUresult.CUDA_SUCCESS: "no error",
    CUresult.CUDA_ERROR_INVALID_VALUE: "invalid argument",
    CUresult.CUDA_ERROR_OUT_OF_MEMORY: "out of memory",
    CUresult.CUDA_ERROR_NOT_INITIALIZED: "initialization error",
    CUresult.CUDA_ERROR_INVALID_DEVICE: "invalid device ordinal",
    CUresult.CUDA_ERROR_INVALID_IMAGE: "device kernel image is invalid",
    CUresult.CUDA_ERROR_INVALID_PTX: "a PTX JIT compilation failed",
    CUresult.CUDA_ERROR_INVALID_CONTEXT: "invalid device context",
    CUresult.CUDA_ERROR_INVALID_HANDLE: "invalid resource handle",
    CUresult.CUDA_ERROR_NOT_FOUND: "named symbol not found",
    CUresult.CUDA_ERROR_ILLEGAL_ADDRESS: "an illegal memory access was encountered",
    CUresult.CUDA_ERROR_LAUNCH_FAILED: "unspecified launch failure",
}


class CUdevice_attribute(enum.IntEnum):  # noqa: N801 - cuda-python's name
    CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK = 1
    CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT = 16
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR = 75
    CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR = 76


class CUjit_option(enum.IntEnum):  # noqa: N801 - cuda-python's name
    CU_JIT_INFO_LOG_BUFFER = 3
    CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES = 4
    CU_JIT_ERROR_LOG_BUFFER = 5
    CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6


MAX_BLOCK = (1024, 1024, 64)
MAX_GRID = ((1 << 31) - 1, 65535, 65535)
MAX_THREADS_PER_BLOCK = 1024


class _Handle:
    """A driver handle; ``int()`` gives its value, as cuda-python's handle classes do."""

    def __init__(self, value: int):
        self._value = value

    def __int__(self) -> int:
        return self._value

    def __repr__(self) -> str:
        return f"<{type(self).__name__} 0x{self._value:x}>"


class CUdevice(_Handle):
    pass


class CUcontext(_Handle):
    pass


class CUstream(_Handle):
    pass


class CUmodule(_Handle):
    pass


class CUfunction(_Handle):
    pass


class CUdeviceptr(_Handle):
    pass


class _Context:
    def __init__(self, device: int, memory: DeviceMemory):
        self.handle = CUcontext(0x1000 + device)
        self.memory = memory
        self.streams: set = set()
        self.fault = None           # (CUresult, description): sticky after a kernel fault


class Driver:
    """One simulated machine with ``devices`` identical GPUs (see the module docstring)."""

    CUresult = CUresult
    CUdevice_attribute = CUdevice_attribute
    CUjit_option = CUjit_option

    def __init__(self, devices: int = 1, sms: int = 2, cc: tuple = (8, 0),
                 memory_bytes: int = 1 << 32):
        self.devices = devices
        self.attributes = {
            CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK: MAX_THREADS_PER_BLOCK,
            CUdevice_attribute.CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: sms,
            CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: cc[0],
            CUdevice_attribute.CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: cc[1]}
        self._memory_bytes = memory_bytes
        self._initialized = False
        self._contexts: dict = {}       # device ordinal -> _Context
        self._current = threading.local()
        self._images: dict = {}         # image bytes -> {kernel name: semantics}
        self._modules: dict = {}        # CUmodule value -> (context, {name: semantics})
        self._functions: dict = {}      # CUfunction value -> (context, name, semantics)
        self._next = 0x10000
        self.events: list = []
        self.jit = None                 # PTX text -> error log or None (module docstring)

    # -- registration ------------------------------------------------------------------------
    def register_image(self, image: bytes, kernels: dict) -> None:
        """Make ``image`` loadable, its kernels running ``kernels[name]``."""
        self._images[bytes(image)] = dict(kernels)

    # -- helpers -----------------------------------------------------------------------------
    def _handle(self, cls):
        self._next += 0x10
        return cls(self._next)

    def _context(self):
        """The calling thread's current context, or the error to return."""
        if not self._initialized:
            return None, CUresult.CUDA_ERROR_NOT_INITIALIZED
        ctx = getattr(self._current, "ctx", None)
        if ctx is None:
            return None, CUresult.CUDA_ERROR_INVALID_CONTEXT
        if ctx.fault is not None:
            return None, ctx.fault[0]
        return ctx, CUresult.CUDA_SUCCESS

    def _stream_ok(self, ctx, stream) -> bool:
        return stream is None or (isinstance(stream, int) and stream == 0) or \
            (isinstance(stream, CUstream) and int(stream) in ctx.streams)

    # -- initialization, devices, contexts ----------------------------------------------------
    def cuInit(self, flags):  # noqa: N802
        if flags != 0:
            return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        self._initialized = True
        return (CUresult.CUDA_SUCCESS,)

    def cuGetErrorString(self, error):  # noqa: N802
        try:
            error = CUresult(int(error))
        except ValueError:
            return CUresult.CUDA_ERROR_INVALID_VALUE, None
        text = _TEXT[error]
        ctx = getattr(self._current, "ctx", None)
        if ctx is not None and ctx.fault is not None and ctx.fault[0] == error:
            text += f" (simulated kernel: {ctx.fault[1]})"
        return CUresult.CUDA_SUCCESS, text.encode()

    def cuDeviceGetCount(self):  # noqa: N802
        if not self._initialized:
            return CUresult.CUDA_ERROR_NOT_INITIALIZED, 0
        return CUresult.CUDA_SUCCESS, self.devices

    def cuDeviceGet(self, ordinal):  # noqa: N802
        if not self._initialized:
            return CUresult.CUDA_ERROR_NOT_INITIALIZED, None
        if not 0 <= int(ordinal) < self.devices:
            return CUresult.CUDA_ERROR_INVALID_DEVICE, None
        return CUresult.CUDA_SUCCESS, CUdevice(int(ordinal))

    def cuDeviceGetAttribute(self, attrib, dev):  # noqa: N802
        if not isinstance(dev, CUdevice):
            return CUresult.CUDA_ERROR_INVALID_DEVICE, 0
        value = self.attributes.get(attrib)
        if value is None:
            return CUresult.CUDA_ERROR_INVALID_VALUE, 0
        return CUresult.CUDA_SUCCESS, value

    def cuDevicePrimaryCtxRetain(self, dev):  # noqa: N802
        if not self._initialized:
            return CUresult.CUDA_ERROR_NOT_INITIALIZED, None
        if not isinstance(dev, CUdevice) or not 0 <= int(dev) < self.devices:
            return CUresult.CUDA_ERROR_INVALID_DEVICE, None
        if int(dev) not in self._contexts:
            self._contexts[int(dev)] = _Context(int(dev), DeviceMemory(self._memory_bytes))
        return CUresult.CUDA_SUCCESS, self._contexts[int(dev)].handle

    def cuCtxSetCurrent(self, ctx):  # noqa: N802
        found = [c for c in self._contexts.values() if c.handle is ctx]
        if ctx is not None and not found:
            return (CUresult.CUDA_ERROR_INVALID_CONTEXT,)
        self._current.ctx = found[0] if found else None
        return (CUresult.CUDA_SUCCESS,)

    # -- streams -----------------------------------------------------------------------------
    def cuStreamCreate(self, flags):  # noqa: N802
        ctx, err = self._context()
        if ctx is None:
            return err, None
        stream = self._handle(CUstream)
        ctx.streams.add(int(stream))
        return CUresult.CUDA_SUCCESS, stream

    def cuStreamSynchronize(self, stream):  # noqa: N802
        ctx, err = self._context()
        if ctx is None:
            return (err,)
        if not self._stream_ok(ctx, stream):
            return (CUresult.CUDA_ERROR_INVALID_HANDLE,)
        return (CUresult.CUDA_SUCCESS,)

    # -- memory ------------------------------------------------------------------------------
    def _memory_call(self, event, stream, run):
        ctx, err = self._context()
        if ctx is None:
            return err
        if stream is not False and not self._stream_ok(ctx, stream):
            return CUresult.CUDA_ERROR_INVALID_HANDLE
        try:
            run(ctx.memory)
        except Fault as f:
            return CUresult[f.code]
        self.events.append(event)
        return CUresult.CUDA_SUCCESS

    def cuMemAlloc(self, bytesize):  # noqa: N802
        if int(bytesize) <= 0:
            return CUresult.CUDA_ERROR_INVALID_VALUE, None
        ctx, err = self._context()
        if ctx is None:
            return err, None
        try:
            ptr = ctx.memory.allocate(int(bytesize))
        except Fault as f:
            return CUresult[f.code], None
        self.events.append(("alloc", ptr, int(bytesize)))
        return CUresult.CUDA_SUCCESS, CUdeviceptr(ptr)

    def cuMemFree(self, dptr):  # noqa: N802
        ptr = _pointer(dptr)
        return (self._memory_call(("free", ptr), False, lambda m: m.release(ptr)),)

    def cuMemsetD8Async(self, dstDevice, uc, N, hStream):  # noqa: N802, N803
        ptr = _pointer(dstDevice)

        def run(m):
            m.span(ptr, int(N))[:] = int(uc) & 0xFF
        return (self._memory_call(("memset", ptr, int(N)), hStream, run),)

    def cuMemcpyHtoDAsync(self, dstDevice, srcHost, ByteCount, hStream):  # noqa: N802, N803
        ptr, n = _pointer(dstDevice), int(ByteCount)

        def run(m):
            m.span(ptr, n)[:] = host_bytes(int(srcHost), n)
        return (self._memory_call(("HtoD", ptr, n), hStream, run),)

    def cuMemcpyDtoDAsync(self, dstDevice, srcDevice, ByteCount, hStream):  # noqa: N802, N803
        dst, src, n = _pointer(dstDevice), _pointer(srcDevice), int(ByteCount)

        def run(m):
            m.span(dst, n)[:] = m.span(src, n)
        return (self._memory_call(("DtoD", dst, n), hStream, run),)

    def cuMemcpyDtoHAsync(self, dstHost, srcDevice, ByteCount, hStream):  # noqa: N802, N803
        ptr, n = _pointer(srcDevice), int(ByteCount)

        def run(m):
            host_bytes(int(dstHost), n)[:] = m.span(ptr, n)
        return (self._memory_call(("DtoH", ptr, n), hStream, run),)

    # -- modules and launches ----------------------------------------------------------------
    def cuModuleLoadData(self, image):  # noqa: N802
        ctx, err = self._context()
        if ctx is None:
            return err, None
        kernels = self._images.get(bytes(image))
        if kernels is None:
            return CUresult.CUDA_ERROR_INVALID_IMAGE, None
        module = self._handle(CUmodule)
        self._modules[int(module)] = (ctx, kernels)
        return CUresult.CUDA_SUCCESS, module

    def cuModuleLoadDataEx(self, image, numOptions, options, optionValues):  # noqa: N802, N803
        if int(numOptions) != len(options) or len(options) != len(optionValues):
            return CUresult.CUDA_ERROR_INVALID_VALUE, None
        values = dict(zip(options, optionValues, strict=True))
        log = self.jit(bytes(image).rstrip(b"\0").decode()) if self.jit else None
        if log is not None:
            buffer = values.get(CUjit_option.CU_JIT_ERROR_LOG_BUFFER)
            size = int(values.get(CUjit_option.CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, 0))
            if buffer is not None and size > 0:
                text = log.encode()[:size - 1] + b"\0"
                buffer[:len(text)] = text
            return CUresult.CUDA_ERROR_INVALID_PTX, None
        return self.cuModuleLoadData(image)

    def cuModuleGetFunction(self, hmod, name):  # noqa: N802
        entry = self._modules.get(int(hmod)) if isinstance(hmod, CUmodule) else None
        if entry is None:
            return CUresult.CUDA_ERROR_INVALID_HANDLE, None
        ctx, kernels = entry
        name = name.decode() if isinstance(name, bytes) else name
        if name not in kernels:
            return CUresult.CUDA_ERROR_NOT_FOUND, None
        fn = self._handle(CUfunction)
        self._functions[int(fn)] = (ctx, name, kernels[name])
        return CUresult.CUDA_SUCCESS, fn

    def cuLaunchKernel(self, f, gridDimX, gridDimY, gridDimZ, blockDimX,  # noqa: N802, N803
                       blockDimY, blockDimZ, sharedMemBytes, hStream, kernelParams, extra):
        ctx, err = self._context()
        if ctx is None:
            return (err,)
        entry = self._functions.get(int(f)) if isinstance(f, CUfunction) else None
        if entry is None or entry[0] is not ctx or not self._stream_ok(ctx, hStream):
            return (CUresult.CUDA_ERROR_INVALID_HANDLE,)
        _, name, kernel = entry
        grid = (int(gridDimX), int(gridDimY), int(gridDimZ))
        block = (int(blockDimX), int(blockDimY), int(blockDimZ))
        if not (all(1 <= g <= m for g, m in zip(grid, MAX_GRID, strict=True))
                and all(1 <= b <= m for b, m in zip(block, MAX_BLOCK, strict=True))
                and block[0] * block[1] * block[2] <= MAX_THREADS_PER_BLOCK
                and int(sharedMemBytes) == 0 and not extra and kernelParams):
            return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        n = len(kernel.param_types)
        slots = (ctypes.c_void_p * n).from_address(int(kernelParams))
        if any(s is None for s in slots):
            return (CUresult.CUDA_ERROR_INVALID_VALUE,)
        args = [t.from_address(s).value for t, s in zip(kernel.param_types, slots, strict=True)]
        self.events.append(("launch", name, grid, block, args))
        try:
            kernel.run(grid, block, args, ctx.memory)
        except Fault as fault:
            ctx.fault = (CUresult[fault.code], f"{name}: {fault}")
        return (CUresult.CUDA_SUCCESS,)

    # -- inspection --------------------------------------------------------------------------
    def launches(self, name_prefix: str = "") -> list:
        """The recorded launches ``(name, grid, block, args)`` of kernels named
        ``name_prefix...``."""
        return [e[1:] for e in self.events if e[0] == "launch" and e[1].startswith(name_prefix)]

    def copies(self, kind: str) -> list:
        """The recorded copies ``(device pointer, bytes)`` of ``kind`` "HtoD" or "DtoH"."""
        return [e[1:] for e in self.events if e[0] == kind]


def _pointer(p) -> int:
    if isinstance(p, (int, CUdeviceptr)):
        return int(p)
    raise TypeError(f"expected a CUdeviceptr or int, got {type(p).__name__}")
