"""NumPy's CBLAS: the symbols of the matrix products that compiled code calls.

The OpenBLAS of NumPy's wheel (``runtime/lapack.py`` finds and opens it) exports the C
interface of BLAS built for 64-bit integers with the suffix ``64_``: ``cblas_dgemm`` is
``scipy_cblas_dgemm64_``. Arguments follow ``cblas.h``: the layout and transpose flags are
C ``int`` enums, sizes, leading dimensions and increments ``int64``, scalars by value, arrays
as pointers to their first element.
"""

from __future__ import annotations

ROW_MAJOR = 101   # CblasRowMajor
NO_TRANS = 111    # CblasNoTrans
TRANS = 112       # CblasTrans


def symbol(routine: str, double: bool) -> str:
    """The library's symbol of ``routine`` ("gemm", "gemv") for float64 (``double``) or
    float32: ("gemm", True) -> "scipy_cblas_dgemm64_"."""
    return f"scipy_cblas_{'d' if double else 's'}{routine}64_"
