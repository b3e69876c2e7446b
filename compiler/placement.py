"""Device placement: ``compiler.device`` blocks and ``current_device``.

``with compiler.device("cuda:0"):`` makes the code compiled in it (``compiler.compile``
calls and ``Function`` specializations without an explicit target) target that device, as
``tf.device`` and ``torch.device`` do. The placement is thread-local; the default is the CPU.
``compiler.targets.resolve`` reads the device name.
"""

from __future__ import annotations

import threading

_placement = threading.local()


class device:  # noqa: N801 - used as a context manager, like torch.device / tf.device
    """``with compiler.device("cuda:0"):`` compiles Functions and ``compile`` calls without an
    explicit target for that device ("cpu", "cuda" or "cuda:N"); thread-local, default CPU.
    Raises ValueError for another name."""

    def __init__(self, name: str):
        if name != "cpu" and not name.startswith("cuda"):
            raise ValueError(f"unknown device {name!r}; use 'cpu', 'cuda' or 'cuda:N'")
        self.name = name

    def __enter__(self):
        self._outer = current_device()
        _placement.name = self.name
        return self

    def __exit__(self, *exc):
        _placement.name = self._outer


def current_device() -> str:
    """The device of the innermost ``compiler.device`` block of this thread ("cpu")."""
    return getattr(_placement, "name", "cpu")
