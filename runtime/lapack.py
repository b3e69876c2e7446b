"""NumPy's LAPACK: where the library is, and the symbols of its routines.

NumPy's wheel carries OpenBLAS with LAPACK in ``numpy.libs/`` (``libscipy_openblas64_-*.so``),
built for 64-bit integers (ILP64) with the symbol suffix ``64_``: ``dgesv`` is
``scipy_dgesv_64_``. Compiled code that calls LAPACK (``np.linalg``) links these symbols by
name; ``open_library`` makes them visible to it, for the JIT and for artifacts alike.
"""

from __future__ import annotations

import ctypes
import functools
import glob
import os

import numpy

LIBRARY_PATTERN = "libscipy_openblas64_*.so"


def symbol(routine: str) -> str:
    """The library's symbol of double precision ``routine`` ("gesv" -> "scipy_dgesv_64_")."""
    return f"scipy_d{routine}_64_"


@functools.cache
def library_path() -> str | None:
    """The OpenBLAS library of the installed NumPy wheel, or None where there is none."""
    root = os.path.dirname(os.path.dirname(os.path.abspath(numpy.__file__)))
    found = sorted(glob.glob(os.path.join(root, "numpy.libs", LIBRARY_PATTERN)))
    return found[0] if found else None


@functools.cache
def open_library() -> ctypes.CDLL | None:
    """The library opened with ``RTLD_GLOBAL`` (so that libraries loaded later resolve its
    symbols), or None where NumPy has none."""
    path = library_path()
    return None if path is None else ctypes.CDLL(path, mode=ctypes.RTLD_GLOBAL)


def missing_symbols(symbols) -> list[str]:
    """Those of ``symbols`` that NumPy's LAPACK does not define (all of them without it)."""
    lib = open_library()
    return [s for s in symbols if lib is None or not hasattr(lib, s)]
