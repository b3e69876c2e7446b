"""The public API: ``function``, ``compile``, ``Function``, ``ConcreteFunction``,
``run_functions_eagerly``.

Semantics follow ``tf.function``: a ``Function`` is polymorphic and makes one *concrete
function* (a specialization) per input signature — array dtype and shape, NumPy scalar dtype,
and the *value* of each Python scalar argument, which is a compile-time constant. A
``ConcreteFunction`` runs native code for exactly one signature.
"""

from __future__ import annotations

import inspect
import threading
import warnings

import numpy as np

from . import types as T
from .frontend import Constant
from .pipeline import compile_function
from .signature import TensorSpec, to_specs, type_text

_eager = False


def run_functions_eagerly(run_eagerly: bool) -> None:
    """When True, every ``Function`` runs its Python function as written (CPython + NumPy)
    instead of compiled code; as ``tf.config.run_functions_eagerly``."""
    global _eager
    _eager = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether ``run_functions_eagerly(True)`` is in effect."""
    return _eager


_PY_SCALARS = (bool, int, float)


def _arg_spec(value):
    """The specialization key part and the IR argument type/constant for one argument."""
    if isinstance(value, np.ndarray):
        el = T.from_dtype(value.dtype)
        return ("a", value.dtype, value.shape), T.TensorType(value.shape, el)
    if isinstance(value, np.generic):
        return ("s", value.dtype), T.from_dtype(value.dtype)
    if isinstance(value, _PY_SCALARS) or value is None:
        return ("c", type(value), value), Constant(value)
    raise TypeError(f"unsupported argument of type {type(value).__name__}: pass NumPy arrays, "
                    f"NumPy scalars or Python bool/int/float")


class ConcreteFunction:
    """Native code for one input signature of a Python function.

    Call it with the run-time arguments (arrays and NumPy scalars, in parameter order; the
    Python-scalar constants of the specialization may be passed too and must equal the
    traced values). Attributes: ``signature`` (signature string), ``ir`` (optimized IR text),
    ``ir_stages`` (IR text after each stage: "frontend", "optimized", "loops"), ``llvm_ir``,
    ``asm``, ``python_function``, ``arg_names``. Raises TypeError for arguments of another
    dtype or shape, and the Python exception a run-time check names (IndexError ...).
    """

    def __init__(self, python_function, params: list, args: list, compiled):
        self.python_function = python_function
        self._params = params
        self._args = args
        self._compiled = compiled
        self._runtime_positions = [i for i, a in enumerate(args) if not isinstance(a, Constant)]
        self._call = compiled.callable

    @property
    def name(self) -> str:
        return self.python_function.__name__

    @property
    def arg_names(self) -> list:
        return [self._params[i] for i in self._runtime_positions]

    @property
    def signature(self) -> str:
        return ", ".join(type_text(self._args[i]) for i in self._runtime_positions)

    @property
    def ir(self) -> str:
        return self._compiled.stages["optimized"]

    @property
    def ir_stages(self) -> dict:
        return dict(self._compiled.stages)

    @property
    def llvm_ir(self) -> str:
        return self._compiled.llvm_ir

    @property
    def asm(self) -> str:
        return self._compiled.asm

    @property
    def timings(self) -> dict:
        """Seconds spent in each compilation stage."""
        return dict(self._compiled.timings)

    def pretty_signature(self) -> str:
        parts = []
        for name, a in zip(self._params, self._args):
            parts.append(f"{name}={a.value!r}" if isinstance(a, Constant)
                         else f"{name}: {type_text(a)}")
        res = ", ".join(type_text(t) for t in self._compiled.result_types)
        if self._compiled.result_tuple:
            res = f"({res})"
        return f"{self.name}({', '.join(parts)}) -> {res}"

    def __call__(self, *args):
        if len(args) == len(self._args) and len(args) != len(self._runtime_positions):
            for a, spec in zip(args, self._args):
                if isinstance(spec, Constant) and a != spec.value:
                    raise TypeError(f"{self.name}: this concrete function was traced with "
                                    f"{spec.value!r}, received {a!r}")
            args = [args[i] for i in self._runtime_positions]
        return self._call(*args)

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self.pretty_signature()}>"


class Function:
    """A polymorphic compiled function (see ``function``)."""

    def __init__(self, python_function, input_signature=None, reduce_retracing=False,
                 pipeline=None):
        self.python_function = python_function
        self._sig = inspect.signature(python_function)
        self._params = list(self._sig.parameters)
        self._input_signature = None if input_signature is None else to_specs(input_signature)
        self._reduce_retracing = reduce_retracing
        self._pipeline = pipeline
        self._cache: dict = {}
        self._lock = threading.Lock()
        self._tracing_count = 0
        self._pinned = None
        self.__name__ = python_function.__name__
        self.__doc__ = python_function.__doc__
        self.__wrapped__ = python_function

    def _bind(self, args, kwargs) -> list:
        if not kwargs and len(args) == len(self._params):
            return list(args)
        bound = self._sig.bind(*args, **kwargs)
        bound.apply_defaults()
        return list(bound.arguments.values())

    def _pinned_function(self) -> ConcreteFunction:
        if self._pinned is None:
            self._pinned = self._trace([s.to_type() for s in self._input_signature])
        return self._pinned

    def _trace(self, args) -> ConcreteFunction:
        self._tracing_count += 1
        compiled = compile_function(self.python_function, args, self._pipeline)
        return ConcreteFunction(self.python_function, self._params, args, compiled)

    def _generalized(self, key, args):
        """With ``reduce_retracing``: a cached specialization whose dims differ only in size
        becomes one with dynamic dims there."""
        for old_key in list(self._cache):
            if len(old_key) != len(key):
                continue
            merged, new_args, ok = [], [], True
            for ko, kn, a in zip(old_key, key, args):
                if ko == kn:
                    merged.append(kn)
                    new_args.append(a)
                elif ko[0] == kn[0] == "a" and ko[1] == kn[1] and len(ko[2]) == len(kn[2]):
                    shape = tuple(d if d == e else None for d, e in zip(ko[2], kn[2]))
                    merged.append(("a", kn[1], shape))
                    new_args.append(T.TensorType(shape, a.element))
                else:
                    ok = False
                    break
            if ok:
                return tuple(merged), new_args
        return key, args

    def get_concrete_function(self, *args, **kwargs) -> ConcreteFunction:
        """The ConcreteFunction for these arguments (values or TensorSpecs), compiling it
        on first use."""
        if self._input_signature is not None and not args and not kwargs:
            return self._pinned_function()
        return self._concrete_for(self._bind(args, kwargs))

    def _concrete_for(self, values: list) -> ConcreteFunction:
        key, types = [], []
        for v in values:
            if isinstance(v, TensorSpec):
                key.append(("a", v.dtype, v.shape) if v.shape is not None else ("s", v.dtype))
                types.append(v.to_type())
            else:
                k, t = _arg_spec(v)
                key.append(k)
                types.append(t)
        key = tuple(key)
        cf = self._cache.get(key)
        if cf is not None:
            return cf
        with self._lock:
            cf = self._cache.get(key)
            if cf is None:
                if self._reduce_retracing and self._cache:
                    gkey, gtypes = self._generalized(key, types)
                    cf = self._cache.get(gkey) or self._trace(gtypes)
                    self._cache[gkey] = cf
                else:
                    cf = self._trace(types)
                self._cache[key] = cf
                self._warn_if_retracing()
        return cf

    def _warn_if_retracing(self) -> None:
        if self._tracing_count == 6:
            warnings.warn(f"{self.__name__} was compiled for 6 different signatures; each new "
                          f"argument shape, dtype or Python scalar value compiles again. Pass "
                          f"changing Python scalars as NumPy scalars or use "
                          f"reduce_retracing=True / input_signature=[...].", stacklevel=4)

    def __call__(self, *args, **kwargs):
        if _eager:
            return self.python_function(*args, **kwargs)
        if self._input_signature is not None:
            return self._call_pinned(self._bind(args, kwargs))
        values = self._bind(args, kwargs)
        cf = self._concrete_for(values)
        return cf._call(*[values[i] for i in cf._runtime_positions])

    def _call_pinned(self, values):
        specs = self._input_signature
        if len(values) != len(specs):
            raise TypeError(f"{self.__name__} takes {len(specs)} arguments per its "
                            f"input_signature, received {len(values)}")
        for i, (v, s) in enumerate(zip(values, specs)):
            ok = (isinstance(v, np.ndarray) and s.shape is not None and v.dtype == s.dtype
                  and v.ndim == len(s.shape)
                  and all(d is None or d == e for d, e in zip(s.shape, v.shape))) or (
                s.shape is None and isinstance(v, (np.generic, *_PY_SCALARS))
                and not isinstance(v, np.ndarray))
            if not ok:
                got = (type_text(_arg_spec(v)[1]) if isinstance(v, (np.ndarray, np.generic))
                       else repr(v))
                raise TypeError(f"{self.__name__}: argument {self._params[i]!r} does not match "
                                f"the input_signature.\n  expected: {s}\n  received: {got}")
        return self._pinned_function()(*values)

    @property
    def tracing_count(self) -> int:
        """How many concrete functions have been compiled."""
        return self._tracing_count

    def experimental_get_tracing_count(self) -> int:
        """As ``tf.function``'s method of the same name."""
        return self._tracing_count

    def concrete_functions(self) -> list:
        seen = []
        for cf in self._cache.values():
            if cf not in seen:
                seen.append(cf)
        if self._pinned is not None and self._pinned not in seen:
            seen.append(self._pinned)
        return seen

    def pretty_printed_concrete_signatures(self) -> str:
        """One line per specialization: argument names, dtypes and shapes, result types."""
        return "\n".join(cf.pretty_signature() for cf in self.concrete_functions())

    def __repr__(self) -> str:
        return f"<compiler.Function {self.__name__}>"


def function(fn=None, *, input_signature=None, reduce_retracing=False, pipeline=None):
    """Decorator: compile ``fn`` lazily, once per input signature (see ``Function``).

    ``input_signature`` (a signature string or TensorSpecs) pins one signature and rejects
    other inputs with a TypeError; ``reduce_retracing`` turns a changing dimension into a
    dynamic one instead of compiling again; ``pipeline`` overrides the pass pipeline."""
    def wrap(f):
        return Function(f, input_signature, reduce_retracing, pipeline)
    return wrap if fn is None else wrap(fn)


def compile(fn, signature, pipeline=None) -> ConcreteFunction:  # noqa: A001 - public name
    """Compile ``fn`` (a Python function or ``Function``) for one signature now.

    ``signature``: a string such as ``"f32[?,4], i64"`` or a list of TensorSpec. Raises
    SignatureError for a malformed string and CompileError for unsupported code."""
    if isinstance(fn, Function):
        fn = fn.python_function
    specs = to_specs(signature)
    params = list(inspect.signature(fn).parameters)
    if len(specs) != len(params):
        raise TypeError(f"{fn.__name__} takes {len(params)} arguments, the signature gives "
                        f"{len(specs)}")
    args = [s.to_type() for s in specs]
    return ConcreteFunction(fn, params, args, compile_function(fn, args, pipeline))
