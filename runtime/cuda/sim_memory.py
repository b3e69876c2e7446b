"""Device memory of the simulated CUDA driver (``simulator.py``): allocations are host
buffers, a device pointer is the address of one.

Every access names a pointer and a byte count; it must lie inside one live allocation, as it
must on a GPU, else ``Fault`` (the driver turns it into the ``CUresult`` named by
``Fault.code``). New allocations are filled with 0xFF bytes (NaN floats, -1 integers), so
reading memory nothing wrote shows up in results instead of passing as zeros.
"""

from __future__ import annotations

import bisect
import ctypes

import numpy as np

ALIGN = 256      # cuMemAlloc's alignment
GARBAGE = 0xFF


class Fault(Exception):
    """A failed access: ``code`` is the ``CUresult`` name, the message says what and where."""

    def __init__(self, code: str, message: str):
        super().__init__(message)
        self.code = code


class DeviceMemory:
    """The allocations of one simulated device, at most ``capacity`` bytes in all."""

    def __init__(self, capacity: int):
        self.capacity = capacity
        self.used = 0
        self._bases: list = []      # sorted start addresses
        self._blocks: dict = {}     # start -> uint8 array of the allocation

    def allocate(self, nbytes: int) -> int:
        """A new allocation of ``nbytes`` (> 0) bytes; returns its address. Raises Fault
        (CUDA_ERROR_OUT_OF_MEMORY) beyond the capacity."""
        if self.used + nbytes > self.capacity:
            raise Fault("CUDA_ERROR_OUT_OF_MEMORY", f"{nbytes} bytes requested, "
                        f"{self.capacity - self.used} free")
        raw = np.full(nbytes + ALIGN, GARBAGE, np.uint8)
        start = -raw.ctypes.data % ALIGN
        block = raw[start:start + nbytes]
        base = block.ctypes.data
        bisect.insort(self._bases, base)
        self._blocks[base] = block
        self.used += nbytes
        return base

    def release(self, ptr: int) -> None:
        """Free the allocation starting at ``ptr``. Raises Fault (CUDA_ERROR_INVALID_VALUE)
        for any other address."""
        block = self._blocks.pop(ptr, None)
        if block is None:
            raise Fault("CUDA_ERROR_INVALID_VALUE", f"cuMemFree of 0x{ptr:x}, which is not the "
                        f"start of an allocation")
        self._bases.remove(ptr)
        self.used -= block.size

    def span(self, ptr: int, nbytes: int, code: str = "CUDA_ERROR_INVALID_VALUE") -> np.ndarray:
        """The ``nbytes`` bytes at ``ptr`` as a writable uint8 view. Raises Fault(``code``)
        unless they lie inside one live allocation."""
        i = bisect.bisect_right(self._bases, ptr) - 1
        if i >= 0:
            base = self._bases[i]
            block = self._blocks[base]
            if ptr + nbytes <= base + block.size:
                return block[ptr - base:ptr - base + nbytes]
        raise Fault(code, f"{nbytes} bytes at 0x{ptr:x} are not inside a live allocation")

    def view(self, ptr: int, dtype, shape, element_strides) -> np.ndarray:
        """The array of ``dtype`` at ``ptr`` with ``shape`` and strides in elements (any
        sign), as a kernel addresses it. Raises Fault(CUDA_ERROR_ILLEGAL_ADDRESS) when an
        element lies outside the allocation."""
        dtype = np.dtype(dtype)
        if 0 in shape:
            return np.empty(shape, dtype)
        low = sum(min(0, (n - 1) * s) for n, s in zip(shape, element_strides, strict=True))
        high = sum(max(0, (n - 1) * s) for n, s in zip(shape, element_strides, strict=True))
        raw = self.span(ptr + low * dtype.itemsize, (high - low + 1) * dtype.itemsize,
                        "CUDA_ERROR_ILLEGAL_ADDRESS")
        return np.ndarray(shape, dtype, raw, -low * dtype.itemsize,
                          tuple(s * dtype.itemsize for s in element_strides))


def host_bytes(address: int, nbytes: int) -> np.ndarray:
    """The ``nbytes`` bytes of host memory at ``address`` (not checkable: a host pointer)."""
    return np.ctypeslib.as_array((ctypes.c_uint8 * nbytes).from_address(address))
