"""Device names: ``"cuda"`` / ``"cuda:N"`` to a device index, checked against the driver.

The names follow PyTorch's and JAX's: ``"cuda:N"`` is the GPU of CUDA device index N, bare
``"cuda"`` is device 0. ``index(spec)`` reads a name, an int or a ``Runtime``; it checks the
index against the devices the driver reports when a driver is present (ValueError naming
them), and not without one, so code can be compiled for a device on a machine that lacks
it. ``name(i)`` is the canonical name of index i.
"""

from __future__ import annotations

from . import driver


def name(i: int) -> str:
    """``"cuda:i"``."""
    return f"cuda:{i}"


def parse(spec) -> int:
    """The device index of ``spec`` ("cuda", "cuda:N" or an int >= 0), unchecked against the
    driver. Raises ValueError for another name or a negative int, TypeError for another
    type."""
    if isinstance(spec, bool) or not isinstance(spec, (int, str)):
        raise TypeError(f"a CUDA device is a name such as 'cuda:0' or an index, got "
                        f"{type(spec).__name__}")
    if isinstance(spec, int):
        if spec < 0:
            raise ValueError(f"CUDA device index {spec} is negative; indices are 0, 1, ...")
        return spec
    if spec == "cuda":
        return 0
    head, _, digits = spec.partition(":")
    if head != "cuda" or not digits.isdigit() or not digits.isascii():
        raise ValueError(f"unknown device {spec!r}: use 'cpu', 'cuda' or 'cuda:N' with N a "
                         f"device index (0, 1, ...)")
    return int(digits)


def count() -> int:
    """How many CUDA devices the driver reports (0 without a driver)."""
    if not driver.available():
        return 0
    return int(driver._call("cuDeviceGetCount"))


def check(i: int) -> int:
    """``i`` when a driver is absent or reports device ``i``. Raises ValueError naming the
    devices present otherwise."""
    if driver.available():
        n = count()
        if i >= n:
            present = ", ".join(name(k) for k in range(n))
            raise ValueError(f"CUDA device {name(i)!r} does not exist: this machine has "
                             f"{n} ({present})")
    return i


def index(spec) -> int:
    """The checked device index of ``spec``: a Runtime's own, else ``check(parse(spec))``."""
    if isinstance(spec, driver.Runtime):
        return spec.index
    return check(parse(spec))
