"""``DeviceArray``: device memory with a shape, a dtype and element strides, exposing
``__cuda_array_interface__`` (version 3) so CuPy, PyTorch and Numba can use it without a
copy. ``to_device(x, device)`` puts data on a device (the public call, as Numba's
``cuda.to_device``); ``wrap(rt, x)`` is what the launcher uses: any object exposing the
interface wrapped without a copy, anything else copied in; ``device_of(x)`` is the device
index an array object says it is on."""

from __future__ import annotations

import numpy as np


class DeviceArray:
    """An array in GPU memory. ``ptr`` is the address of element 0; ``element_strides`` are
    in elements; ``owner`` (a Runtime) frees the memory when this array owns it."""

    descriptor_fields = True

    def __init__(self, rt, ptr: int, shape, dtype, element_strides=None, owned=False,
                 base=None):
        self.rt = rt
        self.ptr = int(ptr)
        self.shape = tuple(int(d) for d in shape)
        self.dtype = np.dtype(dtype)
        if element_strides is None:
            element_strides, step = [], 1
            for d in reversed(self.shape):
                element_strides.insert(0, step)
                step *= d
        self.element_strides = tuple(int(s) for s in element_strides)
        self._owned = owned
        self.base = base    # keeps a foreign array alive

    @classmethod
    def empty(cls, rt, shape, dtype) -> "DeviceArray":
        n = int(np.prod(shape, dtype=np.int64)) * np.dtype(dtype).itemsize
        return cls(rt, rt.malloc(n), shape, dtype, owned=True)

    @property
    def size(self) -> int:
        return int(np.prod(self.shape, dtype=np.int64))

    @property
    def nbytes(self) -> int:
        return self.size * self.dtype.itemsize

    @property
    def contiguous(self) -> bool:
        return self.element_strides == DeviceArray(None, 0, self.shape, self.dtype) \
            .element_strides or self.size <= 1

    @property
    def __cuda_array_interface__(self) -> dict:
        return {"shape": self.shape, "typestr": self.dtype.str, "version": 3,
                "data": (self.ptr, False),
                "strides": None if self.contiguous else
                tuple(s * self.dtype.itemsize for s in self.element_strides)}

    def read(self) -> np.ndarray:
        """A NumPy copy (C order); a strided array is read through a copy of the memory it
        spans (strides of any sign)."""
        host = np.empty(self.shape, self.dtype)
        if not host.nbytes:
            return host
        if self.contiguous:
            self.rt.copy_out(host, self.ptr)
            return host
        item = self.dtype.itemsize
        dims = list(zip(self.shape, self.element_strides, strict=True))
        low = sum(min(0, (n - 1) * s) for n, s in dims)
        high = sum(max(0, (n - 1) * s) for n, s in dims)
        span = np.empty((high - low + 1) * item, np.uint8)
        self.rt.copy_out(span, self.ptr + low * item)
        host[...] = np.ndarray(self.shape, self.dtype, span, -low * item,
                               tuple(s * item for s in self.element_strides))
        return host

    @property
    def device(self) -> str:
        """The device it lives on: "cuda:N"."""
        return f"cuda:{self.rt.index}"

    @property
    def ndim(self) -> int:
        return len(self.shape)

    def copy_to_host(self) -> np.ndarray:
        """As ``read`` (Numba's name)."""
        return self.read()

    def free(self) -> None:
        """Release the memory now (owned arrays only; no-op otherwise)."""
        if self._owned:
            self._owned = False
            self.rt.free(self.ptr)

    def __del__(self):
        if self._owned:     # the Runtime frees it at its next call (Runtime's docstring)
            self._owned = False
            self.rt.defer_free(self.ptr)

    def __repr__(self) -> str:
        return (f"DeviceArray(shape={self.shape}, dtype={self.dtype}, device={self.device!r}, "
                f"ptr=0x{self.ptr:x})")


def device_of(x) -> int | None:
    """The device index of an array object exposing ``__cuda_array_interface__``: a
    DeviceArray's, a CuPy array's (``.device.id``), a PyTorch tensor's (``.device.index``);
    None when the object does not say (the interface itself carries no device)."""
    if isinstance(x, DeviceArray):
        return x.rt.index
    dev = getattr(x, "device", None)
    for attr in ("id", "index"):
        i = getattr(dev, attr, None)
        if isinstance(i, int) and not isinstance(i, bool):
            return i
    return None


def wrap(rt, x) -> DeviceArray:
    """``x`` as a DeviceArray of Runtime ``rt``: an object with ``__cuda_array_interface__``
    is wrapped without a copy; anything else is copied in as a contiguous NumPy array."""
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        dtype = np.dtype(cai["typestr"])
        strides = cai.get("strides")
        if strides is not None:
            if any(s % dtype.itemsize for s in strides):
                raise ValueError("device array strides must be multiples of the item size")
            strides = [s // dtype.itemsize for s in strides]
        return DeviceArray(rt, cai["data"][0], cai["shape"], dtype, strides, base=x)
    host = np.asarray(x, order="C")   # ascontiguousarray would make a 0-d array 1-d
    dev = DeviceArray.empty(rt, host.shape, host.dtype)
    if host.nbytes:
        rt.copy_in(dev.ptr, host)
    return dev


def to_device(x, device=0) -> DeviceArray:
    """``x`` on CUDA ``device`` ("cuda", "cuda:N", an index or a ``Runtime``) as a
    DeviceArray, C-contiguous when copied. A DeviceArray already there is returned as it is;
    one on another device, or a host array (NumPy array, scalar, nested sequence), is copied
    (across devices through host memory); another object exposing
    ``__cuda_array_interface__`` is wrapped without a copy. Raises TypeError for data of a
    dtype a GPU array cannot hold (object, str, void, datetime: NumPy kinds O, U, S, V, M,
    m), ValueError for an unknown device name or an index the driver does not have,
    RuntimeError ("no CUDA driver: ...") without a GPU."""
    from . import driver
    from .devices import index
    rt = device if isinstance(device, driver.Runtime) else driver.get(index(device))
    if isinstance(x, DeviceArray):
        if x.rt is rt:
            return x
        x = x.read()
    if hasattr(x, "__cuda_array_interface__"):
        return wrap(rt, x)
    host = np.asarray(x)
    if host.dtype.kind in "OUSVMm":
        raise TypeError(f"a GPU array cannot hold dtype {host.dtype}: use a boolean, integer "
                        f"or floating-point dtype")
    return wrap(rt, host)
