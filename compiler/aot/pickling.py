"""Pickling of ``ConcreteFunction`` and ``Function``: the native code travels as artifact bytes
(see ``builder.build``), the Python function as a reference (module + qualified name), never
as source. An unpickled object runs its compiled signatures without compiling; a Function
compiles new signatures only when its Python function can be imported where it is unpickled.
"""

from __future__ import annotations

import importlib

from ..interfaces import python_function_of


class _Unavailable:
    """Stands in for a Python function that cannot be imported where it was unpickled."""

    def __init__(self, module: str | None, qualname: str, name: str):
        self.__module__, self.__qualname__, self.__name__ = module, qualname, name
        self.__doc__ = None

    def __call__(self, *args, **kwargs):
        raise RuntimeError(f"the Python function {self.__module__}.{self.__qualname__} was "
                           f"not importable where this compiled function was unpickled: only "
                           f"its compiled signatures can run here")


class FunctionRef:
    """A picklable reference to a Python function by module and qualified name."""

    def __init__(self, fn):
        self.module = getattr(fn, "__module__", None)
        self.qualname = getattr(fn, "__qualname__", fn.__name__)
        self.name = fn.__name__

    def resolve(self):
        """The referenced function (a ``Function``'s Python function), or a stand-in that
        raises RuntimeError when called."""
        try:
            obj = importlib.import_module(self.module)
            for part in self.qualname.split("."):
                obj = getattr(obj, part)
        except (ImportError, AttributeError, TypeError, ValueError):
            return _Unavailable(self.module, self.qualname, self.name)
        return python_function_of(obj)


def concrete_state(cf) -> dict:
    """The pickled state of a ConcreteFunction: its artifact bytes (built once per object,
    ``ConcreteFunction.artifact_bytes``), parameter names, argument types/constants and a
    reference to its Python function."""
    return {"artifact": cf.artifact_bytes(), "params": cf.params, "args": cf.args,
            "python_function": FunctionRef(cf.python_function)}


def concrete_init_args(state: dict) -> tuple:
    """The ``ConcreteFunction(...)`` arguments of a pickled state (loads the native code).
    Raises runtime.ArtifactError when the code cannot run on this machine."""
    from .loaded import ArtifactCompiled
    fn = state["python_function"].resolve()
    return fn, state["params"], state["args"], ArtifactCompiled(state["artifact"], fn,
                                                                 state["args"])
