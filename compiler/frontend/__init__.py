"""The frontend: Python AST -> tensor-level IR (``func`` + ``np`` + ``scf``), see
``convert``."""

from .converter import convert
from .values import Constant

__all__ = ["Constant", "convert"]
