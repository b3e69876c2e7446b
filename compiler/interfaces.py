"""Types the lower modules test for without importing the modules that implement them.

``PolymorphicFunction`` is the type of ``compiler.Function``. A ``Function``
(``polymorphic.py``) is a Python function compiled once per input signature, as
``tf.types.experimental.PolymorphicFunction`` is TensorFlow's type of ``tf.function``. The
modules below it, the specialization keys (``keys.py``: a Function argument is a
compile-time constant), the disk cache's key (``cache.py``) and pickling
(``aot/pickling.py``), recognise one by this base class and read its ``python_function``,
so none of them imports the module that defines Function: the dependencies run one way,
``polymorphic -> cache -> aot -> interfaces``.
"""

from __future__ import annotations


class PolymorphicFunction:
    """The base of ``compiler.Function``: ``python_function`` is the function it compiles."""

    __slots__ = ()

    python_function: object


def python_function_of(value):
    """The Python function a ``Function`` compiles, or ``value`` itself when it is not one."""
    return value.python_function if isinstance(value, PolymorphicFunction) else value
