"""grafo's compiler: NumPy-style Python functions to native code.

Public API: ``function``, ``compile``, ``save``, ``release_buffers``, ``clear_caches``
(``api.py``); ``Function`` (``polymorphic.py``); ``ConcreteFunction`` (``concrete.py``);
``run_functions_eagerly``, ``functions_run_eagerly`` (``eager.py``); ``device``,
``current_device``, ``device_put`` (``placement.py``); ``set_num_threads``,
``get_num_threads`` (``runtime.parallel``); ``TensorSpec``, ``SignatureError`` (``signature.py``);
``CompileError``, ``GraphError``; ``print`` and ``Variable`` (``effects.py``).
"""

from runtime.parallel import get_num_threads, set_num_threads

from .api import clear_caches, compile, function, release_buffers, save
from .concrete import ConcreteFunction
from .eager import functions_run_eagerly, run_functions_eagerly
from .effects import Variable, print  # noqa: A004
from .errors import CompileError
from .graph import GraphError
from .placement import current_device, device, device_put
from .polymorphic import Function
from .signature import SignatureError, TensorSpec
from .version import __version__  # noqa: F401 (re-exported)

__all__ = ["ConcreteFunction", "CompileError", "Function", "GraphError", "SignatureError",
           "TensorSpec", "Variable", "clear_caches", "compile",
           "current_device", "device", "device_put", "function", "functions_run_eagerly",
           "get_num_threads",
           "print", "release_buffers", "run_functions_eagerly", "save", "set_num_threads"]
