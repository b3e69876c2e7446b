"""Lowering of ``lapack`` ops: a call of the routine in NumPy's LAPACK (``../lapack.py``)."""

from __future__ import annotations

from ....dialects import lapack
from .. import lapack as library
from .registry import rule


@rule(*lapack.ROUTINE_OPS)
def routine(fe, op):
    return [library.call(fe, op)]
