"""GPU runtime over NVIDIA's CUDA driver API (``cuda-python``: ``cuda.bindings.driver`` or
the older ``cuda.cuda``; the optional extra ``grafo[cuda]``).

The bindings are imported on first use, so ``import runtime`` works without them.
``available()`` says whether a GPU can be used and ``unavailable_reason()`` why not;
``device_count()`` how many the driver reports; ``get(device)`` returns the
``driver.Runtime`` of a device index (context, stream, module loading, memory, launches);
``to_device(x, "cuda:N")`` puts data on a device as a ``DeviceArray``, device memory
exposing ``__cuda_array_interface__``; ``ModuleLoadError`` is the driver's JIT rejecting PTX.
``select("simulator")`` (or ``GRAFO_CUDA_SIMULATOR=1``) runs all of it on the simulated driver
(``simulator.py``), ``simulator()`` returns that driver (its ``events`` log).
"""

from .devices import count as device_count
from .driver import (
    ModuleLoadError,
    Runtime,
    available,
    device_arch,
    get,
    select,
    simulator,
    unavailable_reason,
)
from .memory import DeviceArray, device_of, to_device

__all__ = ["DeviceArray", "ModuleLoadError", "Runtime", "available", "device_arch",
           "device_count", "device_of", "get", "select", "simulator", "to_device",
           "unavailable_reason"]
