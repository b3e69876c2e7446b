"""``DeviceArray``: device memory with a shape, a dtype and element strides, exposing
``__cuda_array_interface__`` (version 3) so CuPy, PyTorch and Numba can use it without a
copy; ``to_device`` wraps any object exposing that interface the same way."""

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
        """A NumPy copy (C order)."""
        if not self.contiguous:
            raise ValueError("copy a strided DeviceArray to the host with a contiguous copy")
        host = np.empty(self.shape, self.dtype)
        if host.nbytes:
            self.rt.copy_out(host, self.ptr)
        return host

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
        return f"DeviceArray(shape={self.shape}, dtype={self.dtype}, ptr=0x{self.ptr:x})"


def to_device(rt, x) -> DeviceArray:
    """``x`` as a DeviceArray: an object with ``__cuda_array_interface__`` is wrapped without
    a copy; anything else is copied in as a contiguous NumPy array."""
    cai = getattr(x, "__cuda_array_interface__", None)
    if cai is not None:
        dtype = np.dtype(cai["typestr"])
        strides = cai.get("strides")
        if strides is not None:
            if any(s % dtype.itemsize for s in strides):
                raise ValueError("device array strides must be multiples of the item size")
            strides = [s // dtype.itemsize for s in strides]
        return DeviceArray(rt, cai["data"][0], cai["shape"], dtype, strides, base=x)
    host = np.ascontiguousarray(x)
    dev = DeviceArray.empty(rt, host.shape, host.dtype)
    if host.nbytes:
        rt.copy_in(dev.ptr, host)
    return dev
