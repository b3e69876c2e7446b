"""A reference interpreter of loop-level IR (func, scf, arith, complex, math, memref, grafo).

The oracle for lowering tests: it runs what ``lowering.lower_to_loops`` produces without the
LLVM backend; the CUDA target's host program and its simulated device run their loop-level
IR through it too. Values are held as ``values.py`` says; each op runs by the rule of its
class, one module of rules per dialect (``arith.py``, ``complex.py``, ``math.py``, ``memref.py``,
``grafo.py``, ``scf.py``).

Behaviour that is undefined or poison in LLVM raises ``UndefinedBehavior``: a division by zero
or INT_MIN / -1 (``divsi``, ``remsi``...), a shift by at least the bit width, a load or store
out of bounds or into a freed buffer, freeing a buffer twice or one the function did not
allocate.
"""

from . import arith, blas, complex, grafo, lapack, math, memref, scf  # noqa: F401  (their rules)
from .machine import Interpreter, run
from .registry import RULES
from .values import Buffer, UndefinedBehavior, signed, storage_dtype

__all__ = ["RULES", "Buffer", "Interpreter", "UndefinedBehavior", "run", "signed",
           "storage_dtype"]
