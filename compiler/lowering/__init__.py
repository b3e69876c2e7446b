"""Lowering of tensor-level IR to loop-level IR with loop fusion (see ``pipeline.py``)."""

from .pipeline import lower_to_loops

__all__ = ["lower_to_loops"]
