"""Lowering of ``blas`` ops: a call of the routine in NumPy's CBLAS (``../blas.py``)."""

from __future__ import annotations

from ....dialects import blas
from .. import blas as library
from .registry import rule


@rule(*blas.ROUTINE_OPS)
def routine(fe, op):
    library.call(fe, op)
