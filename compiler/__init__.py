"""grafo's compiler: NumPy-style Python functions to native code.

Public API (see ``api.py``): ``function``, ``compile``, ``Function``, ``ConcreteFunction``,
``TensorSpec``, ``run_functions_eagerly``, ``CompileError``, ``SignatureError``.
"""

from .api import (
    ConcreteFunction,
    Function,
    compile,
    function,
    functions_run_eagerly,
    run_functions_eagerly,
)
from .errors import CompileError
from .signature import SignatureError, TensorSpec

__version__ = "0.1.0"

__all__ = ["ConcreteFunction", "CompileError", "Function", "SignatureError", "TensorSpec",
           "compile", "function", "functions_run_eagerly", "run_functions_eagerly"]
