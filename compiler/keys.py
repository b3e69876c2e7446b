"""Specialization keys: which part of each argument selects a concrete function.

As in ``tf.function``, an array selects by dtype and shape, a NumPy scalar by dtype (its
value is run-time data), and a Python bool/int/float/complex/None, a tuple of those and of NumPy
scalars, or a function (a Python function, a ``compiler.Function``, a NumPy ufunc) by its
*value*: it is a compile-time constant. ``arg_spec`` gives an argument's key part and its IR
type (or ``frontend.Constant``), checking that it is supported; ``dispatch_key`` is the
cheaper flat key a Function's call looks up first; ``signature_defaults`` gives the
constants of the parameters a signature string leaves out.
"""

from __future__ import annotations

import inspect

import numpy as np

from runtime.abi import subclass_error

from . import types as T
from .errors import CompileError
from .frontend import Constant
from .interfaces import PolymorphicFunction

PY_SCALARS = (bool, int, float, complex)
_NDARRAY, _GENERIC = np.ndarray, np.generic


def scalar_key(v):
    """A compile-time constant as a key part: a float by its value's bits (``-0.0`` is not
    ``0.0``, though they compare equal, and every NaN is one key, though none equals
    itself), a tuple item by item with each item's type (``(1,)``, ``(True,)`` and ``(1.0,)``
    are equal tuples but different constants), a NumPy scalar by its bytes, anything else
    (a function: by identity) as it is."""
    if type(v) is float:
        return v.hex()
    if type(v) is complex:
        return v.real.hex(), v.imag.hex()
    if type(v) is tuple:
        return tuple((type(x), scalar_key(x)) for x in v)
    if isinstance(v, np.generic):
        return v.tobytes()
    return v


def is_constant(value) -> bool:
    """Whether an argument is a compile-time constant: a Python bool/int/float/complex or None, a
    (nested) tuple of those and of NumPy scalars, or a function the compiled code calls
    (a Python function, a ``Function``, a NumPy ufunc)."""
    if isinstance(value, PY_SCALARS) or value is None:
        return True
    if type(value) is tuple:
        return all(is_constant(x) or (isinstance(x, np.generic) and supported(x.dtype))
                   for x in value)
    return inspect.isfunction(value) or isinstance(value, (PolymorphicFunction, np.ufunc))


def supported(dtype) -> bool:
    """Whether compiled code takes arrays and scalars of ``dtype``."""
    try:
        T.from_dtype(dtype)
    except TypeError:
        return False
    return True


def _dtype_hint(dtype: np.dtype, name: str) -> str:
    if not dtype.isnative and supported(dtype.newbyteorder("=")):
        return (f"compiled code reads native byte order: pass "
                f"{name}.astype({name}.dtype.newbyteorder('='))")
    if dtype.kind == "c":
        return f"cast the argument with {name}.astype(np.complex128)"
    return f"cast the argument with {name}.astype(np.float32) or another supported dtype"


def arg_spec(value, function: str, name: str, default: bool = False):
    """The specialization key part and the IR argument type/constant for one argument, the
    parameter ``name`` of ``function`` (``default``: the value is the parameter's default).
    Raises CompileError for an array or NumPy scalar of an unsupported dtype and TypeError
    for an unsupported type, both naming the parameter as ``runtime.abi.argument_error``
    does."""
    what = f"{function}() argument {name!r}" + (" (a default value)" if default else "")
    if isinstance(value, np.ndarray) and type(value) is not np.ndarray:
        raise TypeError(f"{what}: {subclass_error(value)}")
    if isinstance(value, (np.ndarray, np.generic)):
        if not supported(value.dtype):
            raise CompileError(f"{what} has dtype {value.dtype}, which is not supported yet "
                               f"(supported dtypes: {T.SUPPORTED_DTYPES})",
                               hint=_dtype_hint(value.dtype, name))
        el = T.from_dtype(value.dtype)
        if isinstance(value, np.generic):
            return ("s", value.dtype), el
        return ("a", value.dtype, value.shape), T.TensorType(value.shape, el)
    if hasattr(value, "__cuda_array_interface__"):
        dtype, shape, device = device_array_key(value)
        if not supported(dtype):
            raise CompileError(f"{what} has dtype {dtype}, which is not supported yet "
                               f"(supported dtypes: {T.SUPPORTED_DTYPES})")
        return ("d", dtype, shape, device), T.TensorType(shape, T.from_dtype(dtype))
    if is_constant(value):
        return ("c", type(value), scalar_key(value)), Constant(value)
    bad = _non_constant(value)
    item = f" (it holds {bad!r} of type {type(bad).__name__})" if bad is not value else ""
    raise TypeError(f"{what} of type {type(value).__name__} is not supported{item}: pass NumPy "
                    f"arrays, NumPy scalars, Python bool/int/float/complex/None, tuples of "
                    f"them, or functions")


def _non_constant(value):
    """The innermost item of a tuple that makes it not a compile-time constant (a list, an
    array, a complex number ...), or ``value`` itself when it is not a tuple."""
    if type(value) is not tuple:
        return value
    for x in value:
        if not (is_constant(x) or (isinstance(x, np.generic) and supported(x.dtype))):
            return _non_constant(x)
    return value


def device_array_key(value) -> tuple:
    """``(dtype, shape, device index)`` of an object exposing ``__cuda_array_interface__``;
    the device is the one it says it is on (``runtime.cuda.device_of``), else 0."""
    from runtime.cuda.memory import device_of
    cai = value.__cuda_array_interface__
    device = device_of(value)
    return np.dtype(cai["typestr"]), tuple(cai["shape"]), 0 if device is None else device


def dispatch_key(args) -> tuple:
    """A flat key that identifies the specialization of ``args`` without building IR types:
    two items per argument, dtype and shape of an array, type and None for a NumPy scalar
    (its value is run-time data), type and value of a Python scalar, tuple or function (a
    compile-time constant; see ``scalar_key``), type and ``device_array_key`` of a device
    array. Raises TypeError (unhashable) when an argument is."""
    key = []
    for a in args:
        if type(a) is _NDARRAY:
            key += (a.dtype, a.shape)
        elif isinstance(a, _GENERIC):
            key += (type(a), None)
        elif hasattr(a, "__cuda_array_interface__"):
            key += (type(a), device_array_key(a))
        else:
            key += (type(a), scalar_key(a))
    return tuple(key)


def buffers_as_arrays(args, kwargs) -> tuple:
    """``args`` and ``kwargs`` with each ``memoryview`` replaced by ``np.asarray`` of it: an
    array sharing its buffer (read-only when it is), as NumPy code sees it."""
    if memoryview in map(type, args):
        args = tuple(np.asarray(a) if type(a) is memoryview else a for a in args)
    if memoryview in map(type, kwargs.values()):
        kwargs = {k: np.asarray(v) if type(v) is memoryview else v for k, v in kwargs.items()}
    return args, kwargs


def signature_defaults(fn, given: int) -> list:
    """The Constants of the parameters of ``fn`` after the ``given`` ones a signature types:
    their defaults. Raises TypeError when one has no default, or a default that is not a
    compile-time constant (an array: give its type in the signature)."""
    params = list(inspect.signature(fn).parameters.values())
    rest = params[given:]
    if given > len(params) or any(p.default is p.empty for p in rest):
        required = sum(p.default is p.empty for p in params)
        takes = f"{required} to {len(params)}" if required < len(params) else len(params)
        raise TypeError(f"{fn.__name__} takes {takes} arguments, the signature gives {given}")
    constants = []
    for p in rest:
        if not is_constant(p.default):
            raise TypeError(f"argument {p.name!r} (a default value) of type "
                            f"{type(p.default).__name__} is not a compile-time constant: give "
                            f"its type in the signature")
        constants.append(Constant(p.default))
    return constants
