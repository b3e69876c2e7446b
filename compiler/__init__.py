"""grafo's compiler: NumPy-style Python functions to native code.

Public API (see ``api.py``): ``function``, ``compile``, ``Function``, ``ConcreteFunction``,
``TensorSpec``, ``run_functions_eagerly``, ``save``, ``set_num_threads``, ``get_num_threads``,
``release_buffers``, ``clear_caches``, ``CompileError``, ``SignatureError``, ``GraphError``,
``device``, ``current_device``; ``print`` and ``Variable`` (``effects.py``).
"""

from .api import (
    ConcreteFunction,
    Function,
    clear_caches,
    compile,
    current_device,
    device,
    function,
    functions_run_eagerly,
    get_num_threads,
    release_buffers,
    run_functions_eagerly,
    save,
    set_num_threads,
)
from .effects import Variable, print  # noqa: A004
from .errors import CompileError
from .graph import GraphError
from .signature import SignatureError, TensorSpec

__version__ = "0.1.0"

__all__ = ["ConcreteFunction", "CompileError", "Function", "GraphError", "SignatureError",
           "TensorSpec", "Variable", "clear_caches", "compile",
           "current_device", "device", "function", "functions_run_eagerly", "get_num_threads",
           "print", "release_buffers", "run_functions_eagerly", "save", "set_num_threads"]
