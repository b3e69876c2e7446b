"""GPU runtime over NVIDIA's CUDA driver API (``cuda-python``: ``cuda.bindings.driver`` or
the older ``cuda.cuda``; the optional extra ``grafo[cuda]``).

The bindings are imported on first use, so ``import runtime`` works without them.
``available()`` says whether a GPU can be used and ``unavailable_reason()`` why not;
``get(device)`` returns the ``driver.Runtime`` of a device (context, stream, module loading,
memory, launches); ``DeviceArray`` is device memory exposing ``__cuda_array_interface__``.
``select("simulator")`` (or ``GRAFO_CUDA_SIMULATOR=1``) runs all of it on the simulated driver
(``simulator.py``), ``simulator()`` returns that driver (its ``events`` log).
"""

from .driver import Runtime, available, device_arch, get, select, simulator, unavailable_reason
from .memory import DeviceArray, to_device

__all__ = ["DeviceArray", "Runtime", "available", "device_arch", "get", "select", "simulator",
           "to_device", "unavailable_reason"]
