"""Device placement of code and data: ``compiler.device`` blocks, ``current_device`` and
``device_put``.

``with compiler.device("cuda:1"):`` makes the code compiled in it (``compiler.compile``
calls and ``Function`` specializations without an explicit target) target that device, as
``tf.device`` does; the placement is thread-local and the default is the CPU.
``compiler.device_put(x, "cuda:0")`` puts data on a device, as ``jax.device_put`` does:
a ``runtime.cuda.DeviceArray`` there, or a NumPy array for "cpu". Device names are "cpu",
"cuda" (device 0) and "cuda:N" (``runtime.cuda.devices``); ``compiler.targets.resolve``
reads them as targets.
"""

from __future__ import annotations

import threading

import numpy as np

_placement = threading.local()


def canonical(name) -> str:
    """``name`` as a device name: "cpu", or "cuda:N" for "cuda" / "cuda:N" / a
    ``compiler.device``. Raises ValueError for another name, and, where a CUDA driver is
    present, for a device index it does not have, naming the devices it has; TypeError for
    a value that is not a name."""
    if isinstance(name, device):
        return name.name
    if name == "cpu":
        return name
    if not isinstance(name, str):
        raise TypeError(f"a device is a name such as 'cpu' or 'cuda:0', got "
                        f"{type(name).__name__}")
    from runtime.cuda import devices
    return devices.name(devices.index(name))


class device:  # noqa: N801 - used as a context manager, like tf.device
    """``with compiler.device("cuda:1"):`` compiles Functions and ``compile`` calls without an
    explicit target for that device ("cpu", "cuda" = "cuda:0", or "cuda:N"); thread-local,
    default CPU. ``name`` is the canonical name ("cuda:N"). Raises ValueError for another
    name, or, where a CUDA driver is present, for a device index it does not have (the
    message names the devices present); compiling for a GPU needs no driver."""

    def __init__(self, name: str):
        self.name = canonical(name)

    def __enter__(self):
        self._outer = current_device()
        _placement.name = self.name
        return self

    def __exit__(self, *exc):
        _placement.name = self._outer

    def __repr__(self) -> str:
        return f"device({self.name!r})"


def current_device() -> str:
    """The device of the innermost ``compiler.device`` block of this thread ("cpu")."""
    return getattr(_placement, "name", "cpu")


def device_put(x, where=None):
    """``x`` placed on device ``where`` ("cpu", "cuda", "cuda:N" or a ``compiler.device``;
    default: ``current_device()``), the semantics of ``jax.device_put``.

    For "cpu": a NumPy array — a device array (a ``runtime.cuda.DeviceArray`` or any object
    exposing ``__cuda_array_interface__``) copied to the host, a NumPy array as it is,
    anything else through ``np.asarray``. For a GPU: a ``runtime.cuda.DeviceArray`` on that
    device (``runtime.cuda.to_device``): a DeviceArray already there as it is, other data
    copied in (C-contiguous, same dtype and shape). Raises ValueError for an unknown device
    or a device index the driver does not have (naming the devices present), TypeError for
    a dtype a GPU array cannot hold, RuntimeError ("no CUDA driver: ...") for a GPU where
    none can be used."""
    name = canonical(current_device() if where is None else where)
    if name == "cpu":
        if hasattr(x, "__cuda_array_interface__"):
            from runtime.cuda import memory
            if isinstance(x, memory.DeviceArray):
                return x.read()
            from runtime.cuda import devices, driver
            i = memory.device_of(x)
            return memory.wrap(driver.get(devices.index(0 if i is None else i)), x).read()
        return np.asarray(x)
    from runtime.cuda import to_device
    return to_device(x, name)
