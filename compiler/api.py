"""The public API: ``function``, ``compile``, ``Function``, ``ConcreteFunction``,
``run_functions_eagerly``, ``set_num_threads``/``get_num_threads``, ``release_buffers``,
``clear_caches``.

Semantics follow ``tf.function``: a ``Function`` is polymorphic and makes one *concrete
function* (a specialization) per input signature — array dtype and shape, NumPy scalar dtype,
and the *value* of each Python scalar, tuple or function argument, which is a compile-time
constant. A ``ConcreteFunction`` runs native code for exactly one signature.
"""

from __future__ import annotations

import inspect
import operator
import os
import sys
import threading
import warnings
import weakref
from collections import OrderedDict

import numpy as np

from runtime import fastcall
from runtime.abi import (
    ArraySpec,
    argument_error,
    read_only_argument,
    scalar_text,
    subclass_error,
    value_text,
    written_alias,
)
from runtime.frames import raise_at
from runtime.parallel import get_num_threads, set_num_threads  # noqa: F401 (re-exported)

from . import types as T
from .errors import CompileError
from .frontend import Constant
from .frontend.variables import find_variables
from .ir.core import Location
from .pipeline import compile_function
from .signature import TensorSpec, to_specs, type_text

_eager = False
_placement = threading.local()


class device:  # noqa: N801 - used as a context manager, like torch.device / tf.device
    """``with compiler.device("cuda:0"):`` compiles Functions and ``compile`` calls without an
    explicit target for that device ("cpu", "cuda" or "cuda:N"); thread-local, default CPU."""

    def __init__(self, name: str):
        if name != "cpu" and not name.startswith("cuda"):
            raise ValueError(f"unknown device {name!r}; use 'cpu', 'cuda' or 'cuda:N'")
        self.name = name

    def __enter__(self):
        self._outer = current_device()
        _placement.name = self.name
        return self

    def __exit__(self, *exc):
        _placement.name = self._outer


def current_device() -> str:
    """The device of the innermost ``compiler.device`` block of this thread ("cpu")."""
    return getattr(_placement, "name", "cpu")


def _cuda_backend(target: str):
    """The CUDA backend for "cuda" / "cuda:N", or None for other targets."""
    if not isinstance(target, str) or not target.startswith("cuda"):
        return None
    index = int(target.split(":")[1]) if ":" in target else 0
    from .backend.ptx import CudaBackend
    return CudaBackend(index)


def release_buffers() -> int:
    """Free the large buffers (1 MiB and up) that compiled code keeps between calls for reuse
    (the buffer pool, ``compiler/backend/llvm/pool.py``: at most ``GRAFO_BUFFER_POOL_BYTES``,
    default 512 MiB, 0 disables it). Returns the number of bytes freed. Arrays still alive
    are not affected. The counterpart of ``torch.cuda.empty_cache()``."""
    from .backend.llvm import pool
    return pool.release()


def run_functions_eagerly(run_eagerly: bool) -> None:
    """When True, every ``Function`` runs its Python function as written (CPython + NumPy)
    instead of compiled code; as ``tf.config.run_functions_eagerly``."""
    global _eager
    _eager = bool(run_eagerly)
    if _eager:
        for f in list(_functions):
            f._entry = f._slow


_functions: weakref.WeakSet = weakref.WeakSet()   # every Function, for run_functions_eagerly


def clear_caches() -> None:
    """Drop the concrete functions of every ``Function`` (``Function.clear_cache``) and the
    compiler's cached function sources, so that their native code and memory are freed;
    a ConcreteFunction still referenced elsewhere keeps its code and keeps working. Calls
    compile again (or load from the disk cache). The disk cache (``cache=True``) and the
    buffer pool (``release_buffers``) are left as they are."""
    from .frontend.source import clear_cache
    for f in list(_functions):
        f.clear_cache()
    clear_cache()


DEFAULT_MAX_SPECIALIZATIONS = 128


def _specialization_limit(value) -> int | None:
    """The bound on a Function's live concrete functions: ``value``, else the environment's
    ``GRAFO_MAX_SPECIALIZATIONS``, else ``DEFAULT_MAX_SPECIALIZATIONS``; 0 means no bound
    (None). Raises TypeError for a non-integer, ValueError for a negative one or a malformed
    environment value."""
    where = "max_specializations"
    if value is None:
        text = os.environ.get("GRAFO_MAX_SPECIALIZATIONS", "").strip()
        if not text:
            return DEFAULT_MAX_SPECIALIZATIONS
        where = "GRAFO_MAX_SPECIALIZATIONS"
        try:
            value = int(text)
        except ValueError:
            raise ValueError(f"GRAFO_MAX_SPECIALIZATIONS={text!r} is not an integer; set it "
                             f"to a number of specializations (0: no bound)") from None
    if isinstance(value, (bool, np.bool_)) or not hasattr(type(value), "__index__"):
        raise TypeError(f"max_specializations must be an int, got {type(value).__name__}")
    value = value.__index__()
    if value < 0:
        raise ValueError(f"{where} must be at least 0 (0: no bound), got {value}")
    return value or None


def functions_run_eagerly() -> bool:
    """Whether ``run_functions_eagerly(True)`` is in effect."""
    return _eager


_PY_SCALARS = (bool, int, float)
RETRACE_WARNING = 5  # consecutive compiling calls after which a Function warns (once)


def _scalar_key(v):
    """A compile-time constant as a key part: a float by its value's bits (``-0.0`` is not
    ``0.0``, though they compare equal, and every NaN is one key, though none equals
    itself), a tuple item by item with each item's type (``(1,)``, ``(True,)`` and ``(1.0,)``
    are equal tuples but different constants), a NumPy scalar by its bytes, anything else
    (a function: by identity) as it is."""
    if type(v) is float:
        return v.hex()
    if type(v) is tuple:
        return tuple((type(x), _scalar_key(x)) for x in v)
    if isinstance(v, np.generic):
        return v.tobytes()
    return v


def _is_constant(value) -> bool:
    """Whether an argument is a compile-time constant: a Python bool/int/float or None, a
    (nested) tuple of those and of NumPy scalars, or a function the compiled code calls
    (a Python function, a ``Function``, a NumPy ufunc)."""
    if isinstance(value, _PY_SCALARS) or value is None:
        return True
    if type(value) is tuple:
        return all(_is_constant(x) or (isinstance(x, np.generic) and _supported(x.dtype))
                   for x in value)
    return inspect.isfunction(value) or isinstance(value, (Function, np.ufunc))


def _supported(dtype) -> bool:
    try:
        T.from_dtype(dtype)
    except TypeError:
        return False
    return True


def _dtype_hint(dtype: np.dtype, name: str) -> str:
    if not dtype.isnative and _supported(dtype.newbyteorder("=")):
        return (f"compiled code reads native byte order: pass "
                f"{name}.astype({name}.dtype.newbyteorder('='))")
    if dtype.kind == "c":
        return (f"pass the real and imaginary parts as two float arrays ({name}.real, "
                f"{name}.imag) and compute with them")
    return f"cast the argument with {name}.astype(np.float32) or another supported dtype"


def _arg_spec(value, function: str, name: str, default: bool = False):
    """The specialization key part and the IR argument type/constant for one argument, the
    parameter ``name`` of ``function`` (``default``: the value is the parameter's default).
    Raises CompileError for an array or NumPy scalar of an unsupported dtype and TypeError
    for an unsupported type, both naming the parameter as ``runtime.abi.argument_error``
    does."""
    what = f"{function}() argument {name!r}" + (" (a default value)" if default else "")
    if isinstance(value, np.ndarray) and type(value) is not np.ndarray:
        raise TypeError(f"{what}: {subclass_error(value)}")
    if isinstance(value, (np.ndarray, np.generic)):
        if not _supported(value.dtype):
            raise CompileError(f"{what} has dtype {value.dtype}, which is not supported yet "
                               f"(supported dtypes: {T.SUPPORTED_DTYPES})",
                               hint=_dtype_hint(value.dtype, name))
        el = T.from_dtype(value.dtype)
        if isinstance(value, np.generic):
            return ("s", value.dtype), el
        return ("a", value.dtype, value.shape), T.TensorType(value.shape, el)
    if _is_constant(value):
        return ("c", type(value), _scalar_key(value)), Constant(value)
    bad = _non_constant(value)
    item = f" (it holds {bad!r} of type {type(bad).__name__})" if bad is not value else ""
    raise TypeError(f"{what} of type {type(value).__name__} is not supported{item}: pass NumPy "
                    f"arrays, NumPy scalars, Python bool/int/float/None, tuples of them, or "
                    f"functions")


def _non_constant(value):
    """The innermost item of a tuple that makes it not a compile-time constant (a list, an
    array, a complex number ...), or ``value`` itself when it is not a tuple."""
    if type(value) is not tuple:
        return value
    for x in value:
        if not (_is_constant(x) or (isinstance(x, np.generic) and _supported(x.dtype))):
            return _non_constant(x)
    return value


_NDARRAY, _GENERIC = np.ndarray, np.generic
_alias_warned: weakref.WeakSet = weakref.WeakSet()   # functions warned about shared memory
_read_only_warned: weakref.WeakSet = weakref.WeakSet()   # ... about read-only arguments


def _written_parameters(compiled, count: int) -> list:
    """Positions (among the ``count`` run-time arguments) of the array parameters whose
    elements the function writes (``np.write_back`` in its IR)."""
    return [k for k in compiled.written if k < count]


def _reject_variadic(fn, sig: inspect.Signature) -> None:
    """CompileError (at the ``def`` line) for a function with ``*args`` or ``**kwargs``."""
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            stars = "*" if p.kind is p.VAR_POSITIONAL else "**"
            code = fn.__code__
            loc = Location(code.co_filename, code.co_firstlineno, 1, code.co_name)
            raise CompileError(f"'{fn.__name__}' takes {stars}{p.name}: variadic parameters are "
                               f"not supported", loc,
                               "compile a function with a fixed list of parameters")


def _compiled(fn, args, pipeline, backend=None):
    """``compile_function``; a CompileError leaves here as ``_raise_at_source`` raises it."""
    try:
        return compile_function(fn, args, pipeline, backend)
    except CompileError as e:
        _raise_at_source(e, fn)


def _raise_at_source(e: CompileError, fn):
    """Raise ``e`` without the compiler's frames in its traceback and without its context:
    the user's call, this API boundary, then a frame at the source line its message names
    (``runtime.frames``; in ``fn`` where the location does not say whose line it is)."""
    e.__cause__, e.__suppress_context__ = None, True
    loc = e.loc
    if loc is None:
        raise e.with_traceback(None)
    raise_at(e.with_traceback(None), loc.file, loc.line, loc.function or fn.__code__.co_name)


def _caller_stacklevel() -> int:
    """The ``stacklevel`` of the first frame outside grafo, for a warning issued by the
    caller of this function."""
    frame, level = sys._getframe(1), 1
    while frame is not None and frame.f_globals.get("__name__", "").partition(".")[0] in (
            "compiler", "runtime"):
        frame, level = frame.f_back, level + 1
    return level


def _buffers_as_arrays(args, kwargs) -> tuple:
    """``args`` and ``kwargs`` with each ``memoryview`` replaced by ``np.asarray`` of it: an
    array sharing its buffer (read-only when it is), as NumPy code sees it."""
    if memoryview in map(type, args):
        args = tuple(np.asarray(a) if type(a) is memoryview else a for a in args)
    if memoryview in map(type, kwargs.values()):
        kwargs = {k: np.asarray(v) if type(v) is memoryview else v for k, v in kwargs.items()}
    return args, kwargs


def _dispatch_key(args) -> tuple:
    """A flat key that identifies the specialization of ``args`` without building IR types:
    two items per argument, dtype and shape of an array, type and None for a NumPy scalar
    (its value is run-time data), type and value of a Python scalar, tuple or function (a
    compile-time constant; see ``_scalar_key``). Raises TypeError (unhashable) when an
    argument is."""
    key = []
    for a in args:
        if type(a) is _NDARRAY:
            key += (a.dtype, a.shape)
        elif isinstance(a, _GENERIC):
            key += (type(a), None)
        else:
            key += (type(a), _scalar_key(a))
    return tuple(key)


class ConcreteFunction:
    """Native code for one input signature of a Python function.

    Call it with the run-time arguments (arrays and NumPy scalars, in parameter order; the
    Python-scalar constants of the specialization may be passed too and must equal the
    traced values). Attributes: ``signature`` (signature string), ``ir`` (optimized IR text),
    ``ir_stages`` (IR text after each stage: "frontend", "optimized", "loops"), ``llvm_ir``,
    ``asm``, ``python_function``, ``arg_names``, ``target``, ``variables`` (the
    ``compiler.Variable`` s it reads and updates: hidden trailing arguments of its native
    entry, passed from the Variables on every call). Raises TypeError naming the parameter
    for arguments of another dtype or shape (``runtime.abi.argument_error``), and the Python
    exception a run-time check names (IndexError ...) from a traceback frame at the user's
    source line; RuntimeError when compiled for another target (save it and load it there
    instead).
    Pickles as its artifact bytes (see ``save``), not its source.
    """

    def __init__(self, python_function, params: list, args: list, compiled):
        self.python_function = python_function
        self._params = params
        self._args = args
        self._compiled = compiled
        self._runtime_positions = [i for i, a in enumerate(args) if not isinstance(a, Constant)]
        self.variables = find_variables(python_function)
        self._call = compiled.callable
        if self.variables:
            native, variables = compiled.callable, self.variables
            self._call = lambda *a: native(*a, *[v._value for v in variables])
        written = _written_parameters(compiled, len(self._runtime_positions))
        if written:
            self._call = self._write_checked(self._call, written)

    def _write_checked(self, native, written: list):
        """``native`` behind the checks of the written array parameters. A call where one
        is a read-only array, or shares memory with another array argument (``f(a, a)``:
        compiled code may read that argument after the writes) runs the Python function:
        NumPy's semantics, its ValueError for a write into a read-only array included."""
        arrays = [k for k, i in enumerate(self._runtime_positions)
                  if isinstance(self._args[i], T.TensorType)]
        pairs = [(w, k) for w in written for k in arrays if k != w]

        def call(*args):
            hit = written_alias(args, pairs)
            if hit is not None:
                return self._run_aliased(args, *hit)
            try:   # the native entries test the WRITEABLE flags: nothing to pay here
                return native(*args)
            except ValueError:
                # Raised before the native code runs when a written argument is read-only.
                w = read_only_argument(args, written)
                if w is None:
                    raise
            return self._run_read_only(args, w)
        return call

    def _run_aliased(self, args, w: int, k: int):
        names = self.arg_names
        if self.python_function not in _alias_warned:
            _alias_warned.add(self.python_function)
            warnings.warn(f"{self.name}: arguments {names[w]!r} and {names[k]!r} share memory "
                          f"and {names[w]!r} is written: this call ran as Python (pass a copy "
                          f"to run compiled code)", RuntimeWarning, stacklevel=_caller_stacklevel())
        return self._run_python(args)

    def _run_read_only(self, args, w: int):
        """The Python function, which raises NumPy's ValueError where it writes the read-only
        argument ``w``; a call that returns (the write was not reached) warns once."""
        out = self._run_python(args)
        if self.python_function not in _read_only_warned:
            _read_only_warned.add(self.python_function)
            name = self.arg_names[w]
            warnings.warn(f"{self.name}: argument {name!r} is a read-only array and the "
                          f"function may write it: this call ran as Python (pass a writable "
                          f"array to run compiled code)", RuntimeWarning,
                          stacklevel=_caller_stacklevel())
        return out

    def _run_python(self, args):
        """The Python function on the run-time arguments ``args`` and the constants."""
        values = [a.value if isinstance(a, Constant) else None for a in self._args]
        for i, a in zip(self._runtime_positions, _buffers_as_arrays(args, {})[0], strict=True):
            values[i] = a
        return self.python_function(*values)

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
    def ptx(self) -> str:
        """The PTX of a function compiled with ``target="cuda"``. Raises AttributeError
        for other targets."""
        ptx = getattr(self._compiled.native, "ptx", None)
        if ptx is None:
            raise AttributeError(f"{self.name} was compiled for {self.target}, not CUDA")
        return ptx

    @property
    def timings(self) -> dict:
        """Seconds spent in each compilation stage: "frontend", "optimized" (passes),
        "loops" (lowering), "llvm-ir", "llvm-opt" (LLVM's O3 pipeline), "machine-code"
        (instruction selection and JIT linking); "llvm" for a cross-compilation target
        and "load" for one read from an artifact or the disk cache."""
        return dict(self._compiled.timings)

    def pretty_signature(self) -> str:
        parts = []
        for name, a in zip(self._params, self._args, strict=False):
            parts.append(f"{name}={a.value!r}" if isinstance(a, Constant)
                         else f"{name}: {type_text(a)}")
        res = ", ".join(type_text(t) for t in self._compiled.result_types)
        if self._compiled.result_tuple:
            res = f"({res})"
        return f"{self.name}({', '.join(parts)}) -> {res}"

    @property
    def target(self) -> str:
        """The target it was compiled for: "cpu" (this machine), an x86-64 level or a triple."""
        target = getattr(self._compiled.native, "target", None)
        return "cpu" if target is None else target.name

    def save(self, path) -> None:
        """Write an ahead-of-time artifact to ``path`` (one zip file: manifest, IR text,
        shared library, C header) that ``runtime.load(path)`` runs without the compiler;
        see ``compiler.save``. Raises RuntimeError when linking the library fails, OSError
        when ``path`` cannot be written."""
        from .aot.builder import save
        save(path, [self])

    def __getstate__(self) -> dict:
        from .aot.pickling import concrete_state
        return concrete_state(self)

    def __setstate__(self, state: dict) -> None:
        from .aot.pickling import concrete_init_args
        self.__init__(*concrete_init_args(state))

    def __call__(self, *args):
        if len(args) == len(self._args) and len(args) != len(self._runtime_positions):
            for name, a, spec in zip(self._params, args, self._args, strict=False):
                if isinstance(spec, Constant) and (type(a), _scalar_key(a)) != (
                        type(spec.value), _scalar_key(spec.value)):
                    raise TypeError(f"{self.name}() argument {name!r}: this concrete function "
                                    f"was traced with {spec.value!r}, received {a!r}")
            args = [args[i] for i in self._runtime_positions]
        return self._call(*args)

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self.pretty_signature()}>"

    def graph(self, stage: str = "optimized", format: str = "svg") -> str | bytes:  # noqa: A002
        """The dataflow graph of the IR after ``stage`` (see ``compiler/graph.py``): ops are
        nodes, values are edges labelled with their types, regions are clusters. ``stage``:
        "frontend", "optimized" or "loops" (a function loaded from an artifact, the disk
        cache or a pickle has the last two). ``format``: "svg" (text) or "png"/"pdf"
        (bytes), drawn by Graphviz's ``dot`` program, or "dot" (DOT text, needs no ``dot``).
        Raises ValueError for a stage it lacks; GraphError for an unknown format or a
        failing ``dot``, and saying what to install when the ``graphviz`` Python package
        (``pip install 'grafo[graph]'``) or ``dot`` (``apt-get install graphviz``) is
        missing."""
        from .graph import render
        modules = self._compiled.modules
        if stage not in modules:
            raise ValueError(f"{self.name} has no IR of stage {stage!r}; stages: "
                             f"{', '.join(modules)}")
        data = render(modules[stage], format)
        return data if format in ("png", "pdf") else data.decode("utf-8")

    def _repr_svg_(self) -> str | None:
        """Jupyter's rich display: the optimized IR's dataflow graph as SVG, or None (the
        display protocol's "not available") when Graphviz is missing; ``_repr_html_`` then
        says what to install."""
        from .graph import GraphError
        try:
            return self.graph()
        except GraphError:
            return None

    def _repr_html_(self) -> str:
        """Jupyter's rich display (preferred to SVG by notebook front ends): the signature
        and the optimized IR's dataflow graph, or, when Graphviz is missing, what to install
        and the IR text."""
        from .graph import html_view
        return html_view(repr(self), [("", self._compiled.modules["optimized"], self.ir)])


class Function:
    """A polymorphic compiled function (see ``function``).

    It keeps at most ``max_specializations`` concrete functions alive (default 128,
    ``GRAFO_MAX_SPECIALIZATIONS``): compiling one more drops the least recently used, whose
    native code is freed once nothing else holds it; a call with its signature compiles it
    again (or loads it from the disk cache). Recency costs the calls nothing: every
    compilation resets the fast dispatch paths, so the next call of each signature goes
    through the specialization cache, which marks it used (of signatures whose last calls
    fell between the same two compilations, the one first called there counts as the least
    recent)."""

    def __init__(self, python_function, input_signature=None, reduce_retracing=False,
                 pipeline=None, cache=False, target=None, max_specializations=None):
        self.python_function = python_function
        self._target = target
        self._sig = inspect.signature(python_function)
        self._params = list(self._sig.parameters)
        self._input_signature = None if input_signature is None else to_specs(input_signature)
        self._reduce_retracing = reduce_retracing
        self._pipeline = pipeline
        self._max = _specialization_limit(max_specializations)
        self._cache: dict = {}   # specialization key -> ConcreteFunction
        self._lru: OrderedDict = OrderedDict()   # its ConcreteFunctions, least recent first
        # Cheap per-call key (see _dispatch_key) -> (native callable taking all the arguments,
        # the next _entry); with Python-scalar constants -> (callable, run-time positions).
        self._dispatch: dict = {}
        self._positional: dict = {}
        self._entry = self._slow
        _functions.add(self)
        self._lock = threading.Lock()
        self._tracing_count = 0
        self._streak, self._last_key, self._changes, self._warned = 0, None, {}, False
        self._pinned = None
        self._disk_cache = cache
        self.__name__ = python_function.__name__
        self.__doc__ = python_function.__doc__
        self.__wrapped__ = python_function

    def _bind(self, args, kwargs) -> list:
        if not kwargs and len(args) == len(self._params):
            return list(args)
        _reject_variadic(self.python_function, self._sig)
        bound = self._sig.bind(*args, **kwargs)
        bound.apply_defaults()
        return list(bound.arguments.values())

    def _pinned_function(self) -> ConcreteFunction:
        if self._pinned is None:
            self._pinned = self._trace([s.to_type() for s in self._input_signature])
        return self._pinned

    def _trace(self, args) -> ConcreteFunction:
        backend = _cuda_backend(self._target or current_device())
        if backend is not None:
            self._tracing_count += 1
            compiled = _compiled(self.python_function, args, self._pipeline, backend)
            return ConcreteFunction(self.python_function, self._params, args, compiled)
        if self._disk_cache:
            from .cache import load_or_compile
            return load_or_compile(self, args)
        return self._compile(args)

    def _compile(self, args) -> ConcreteFunction:
        self._tracing_count += 1
        compiled = _compiled(self.python_function, args, self._pipeline)
        return ConcreteFunction(self.python_function, self._params, args, compiled)

    def __getstate__(self) -> dict:
        from .aot.pickling import FunctionRef
        state = dict(self.__dict__)
        del state["_lock"], state["_lru"]
        state["_dispatch"] = {}  # native entry points: rebuilt on first calls after loading
        state["_positional"] = {}
        del state["_entry"]
        state["python_function"] = state["__wrapped__"] = FunctionRef(self.python_function)
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self.python_function = self.__wrapped__ = state["python_function"].resolve()
        self._lock = threading.Lock()
        self._lru = OrderedDict.fromkeys(self._cache.values())
        self._tracing_count = 0   # compilations in this process
        self._entry = self._slow
        _functions.add(self)

    def _generalized(self, key, args):
        """With ``reduce_retracing``: a cached specialization whose dims differ only in size
        becomes one with dynamic dims there."""
        for old_key in list(self._cache):
            if len(old_key) != len(key):
                continue
            merged, new_args, ok = [], [], True
            for ko, kn, a in zip(old_key, key, args, strict=False):
                if ko == kn:
                    merged.append(kn)
                    new_args.append(a)
                elif ko[0] == kn[0] == "a" and ko[1] == kn[1] and len(ko[2]) == len(kn[2]):
                    shape = tuple(d if d == e else None for d, e in zip(ko[2], kn[2], strict=False))
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

    def _concrete_for(self, values: list, stacklevel: int = 4) -> ConcreteFunction:
        key, types = [], []
        for name, v in zip(self._params, values, strict=False):
            if isinstance(v, TensorSpec):
                key.append(("a", v.dtype, v.shape) if v.shape is not None else ("s", v.dtype))
                types.append(v.to_type())
            else:
                k, t = _arg_spec(v, self.__name__, name, v is self._sig.parameters[name].default)
                key.append(k)
                types.append(t)
        key = tuple(key)
        cf = self._cache.get(key)
        if cf is not None:
            if self._streak:
                self._streak = 0
            with self._lock:
                if cf in self._lru:
                    self._lru.move_to_end(cf)
            return cf
        with self._lock:
            cf = self._cache.get(key)
            if cf is None:
                count = self._tracing_count
                if self._reduce_retracing and self._cache:
                    gkey, gtypes = self._generalized(key, types)
                    cf = self._cache.get(gkey)
                    if cf is None:
                        cf = self._trace(gtypes)
                        self._admit(cf)
                    self._cache[gkey] = cf
                else:
                    cf = self._trace(types)
                    self._admit(cf)
                self._cache[key] = cf
                if self._tracing_count > count:
                    self._note_retrace(key, stacklevel)
        return cf

    def _admit(self, cf: ConcreteFunction) -> None:
        """Count ``cf`` as the most recently used; with a bound, drop the least recently used
        beyond it and reset the fast dispatch paths (see the class docstring). Under the
        lock."""
        self._lru[cf] = None
        if self._max is None:
            return
        while len(self._lru) > self._max:
            old, _ = self._lru.popitem(last=False)
            self._cache = {k: v for k, v in self._cache.items() if v is not old}
        self._reset_dispatch()

    def _reset_dispatch(self) -> None:
        self._dispatch, self._positional = {}, {}
        self._entry = self._slow

    def clear_cache(self) -> None:
        """Drop every concrete function of this Function: their native code is freed once
        nothing else holds them (a ConcreteFunction the caller keeps goes on working), and
        calls compile again (or load from the disk cache). ``tracing_count`` goes on
        counting."""
        with self._lock:
            self._cache, self._lru, self._pinned = {}, OrderedDict(), None
            self._reset_dispatch()

    def _note_retrace(self, key, stacklevel: int) -> None:
        """Count consecutive calls that each compiled; warn once after ``RETRACE_WARNING`` of
        them, naming the argument that changed most often."""
        last, self._last_key = self._last_key, key
        if last is None or len(last) != len(key):
            return
        self._streak += 1
        if self._streak == 1:
            self._changes = {}
        for i, (a, b) in enumerate(zip(last, key, strict=True)):
            if a != b:
                self._changes[i] = self._changes.get(i, 0) + 1
        if self._streak < RETRACE_WARNING or self._warned or not self._changes:
            return
        self._warned = True
        i = max(self._changes, key=self._changes.get)
        a, b = last[i], key[i]
        what = ("value" if b[0] == "c" else "shape" if a[0] == b[0] == "a" and a[1] == b[1]
                else "dtype/shape")
        advice = ("pass it as a NumPy array" if b[0] == "c" and b[1] is tuple else
                  "pass it as a NumPy scalar (e.g. np.int64(n))" if b[0] == "c" else
                  "use reduce_retracing=True or an input_signature with '?' dims")
        warnings.warn(f"{self.__name__}: argument '{self._params[i]}' changed {what} in "
                      f"{self._streak} consecutive calls, each compiling a new "
                      f"specialization; {advice}", stacklevel=stacklevel)

    # A call runs ``_entry``: the generated entry of the specialization that last ran (checking
    # the arguments' types, dtypes and shapes in native code and calling ``_Miss`` when they
    # differ), or ``_slow``.
    __call__ = property(operator.attrgetter("_entry"))

    def _slow(self, *args, **kwargs):
        if not kwargs and not _eager:
            try:
                call, self._entry = self._dispatch[_dispatch_key(args)]
            except (KeyError, TypeError, ValueError):  # a miss, an unhashable argument
                pass
            else:
                return call(*args)
        try:
            return self._call_general(args, kwargs)
        except CompileError as e:   # the user's call and source line, not grafo's frames
            _raise_at_source(e, self.python_function)

    def _call_general(self, args, kwargs):
        if _eager:
            return self.python_function(*args, **kwargs)
        args, kwargs = _buffers_as_arrays(args, kwargs)
        if self._input_signature is not None:
            return self._call_pinned(self._bind(args, kwargs))
        key = None
        if not kwargs:
            try:
                key = _dispatch_key(args)
                hit = self._positional.get(key)
            except TypeError:  # an unhashable Python argument: take the general path
                hit = key = None
            if hit is not None:
                call, positions = hit
                return call(*[args[i] for i in positions])
            hit = self._dispatch.get(key)
            if hit is not None:
                call, self._entry = hit
                return call(*args)
        values = self._bind(args, kwargs)
        cf = self._concrete_for(values, 5)   # warnings name the caller of __call__
        positions = cf._runtime_positions
        if key is not None and len(args) == len(values):
            if len(positions) == len(args):
                self._entry = self._dispatch_entry(cf) or self._slow
                self._dispatch[key] = (cf._call, self._entry)
            else:
                self._positional[key] = (cf._call, positions)
        return cf._call(*[values[i] for i in positions])

    def _dispatch_entry(self, cf: ConcreteFunction):
        """``cf``'s generated entry calling ``_Miss`` for other arguments, when it takes all
        the arguments and they are arrays of static shapes; else None."""
        if (self._reduce_retracing or not all(isinstance(a, T.TensorType) and None not in a.shape
                                              for a in cf._args)):
            return None
        try:
            return fastcall.rebind(cf._call, _Miss(self, cf._call.__self__))
        except AttributeError:   # not a generated entry (ctypes path, Variables, 1-tuples)
            return None

    def _call_pinned(self, values):
        specs = self._input_signature
        if len(values) != len(specs):
            raise TypeError(f"{self.__name__} takes {len(specs)} arguments per its "
                            f"input_signature, received {len(values)}")
        for name, v, s in zip(self._params, values, specs, strict=False):
            ok = (isinstance(v, np.ndarray) and s.shape is not None and v.dtype == s.dtype
                  and v.ndim == len(s.shape)
                  and all(d is None or d == e for d, e in zip(s.shape, v.shape, strict=False))) or (
                s.shape is None and isinstance(v, (np.generic, *_PY_SCALARS))
                and not isinstance(v, np.ndarray))
            if not ok:
                expected = (scalar_text(s.dtype) if s.shape is None
                            else str(ArraySpec(s.dtype, s.shape)))
                raise argument_error(self.__name__, name, f"{expected} (its input_signature)",
                                     value_text(v))
        return self._pinned_function()(*values)

    @property
    def tracing_count(self) -> int:
        """How many times a concrete function was compiled (traced) in this process: a
        signature compiled again after it was dropped (``max_specializations``,
        ``clear_cache``) counts again; one loaded from the disk cache does not count.
        ``len(concrete_functions())`` is how many are alive."""
        return self._tracing_count

    def experimental_get_tracing_count(self) -> int:
        """As ``tf.function``'s method of the same name."""
        return self._tracing_count

    def concrete_functions(self) -> list:
        """The concrete functions it holds now, in the order they were compiled (or loaded)."""
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

    def _repr_svg_(self) -> str | None:
        """Jupyter's rich display: the optimized IR of every concrete function in one
        dataflow graph as SVG; None when it has none yet or Graphviz is missing
        (``_repr_html_`` then says so)."""
        from .graph import GraphError, svg
        functions = self.concrete_functions()
        if not functions:
            return None
        try:
            return svg([cf._compiled.modules["optimized"] for cf in functions])
        except GraphError:
            return None

    def _repr_html_(self) -> str:
        """Jupyter's rich display: each concrete function's signature and graph (see
        ``ConcreteFunction._repr_html_``), or a note that none is compiled yet."""
        import html

        from .graph import html_view
        functions = self.concrete_functions()
        if not functions:
            return (f"<p><b>{html.escape(repr(self), quote=False)}</b></p><p>No concrete "
                    f"functions yet: call it, or compile one with get_concrete_function(...), "
                    f"to see its graph.</p>")
        return html_view(repr(self), [(cf.pretty_signature(), cf._compiled.modules["optimized"],
                                       cf.ir) for cf in functions])


class _Miss:
    """The ``self`` of a Function's dispatch entry: the entry calls it with the arguments it
    does not take (another signature, keywords, copies), and raises the errors of the
    specialization's ``NativeFunction`` through it (``_raise``)."""

    __slots__ = ("_function", "_reference", "_method_def")

    def __init__(self, function: Function, reference):
        self._function, self._reference = function, reference

    def __call__(self, *args, **kwargs):
        try:
            return self._function._call_general(args, kwargs)
        except CompileError as e:   # the user's call and source line, not grafo's frames
            _raise_at_source(e, self._function.python_function)

    def _raise(self, code: int, params: list):
        self._reference._raise(code, params)


def function(fn=None, *, input_signature=None, reduce_retracing=False, pipeline=None,
             cache=False, target=None, max_specializations=None):
    """Decorator: compile ``fn`` lazily, once per input signature (see ``Function``).

    ``input_signature`` (a signature string or TensorSpecs) pins one signature and rejects
    other inputs with a TypeError; ``reduce_retracing`` turns a changing dimension into a
    dynamic one instead of compiling again; ``pipeline`` overrides the pass pipeline;
    ``cache=True`` keeps compiled code on disk (``GRAFO_CACHE_DIR``, default
    ``~/.cache/grafo``) so that other processes skip compilation (see ``compiler/cache.py``).
    The Function pickles with the artifacts of its compiled signatures, not its source.
    ``target="cuda"`` (or a ``compiler.device("cuda")`` block when tracing) compiles for the
    GPU (``compiler/backend/ptx``). ``max_specializations`` bounds the concrete functions kept
    alive, dropping the least recently used (default ``GRAFO_MAX_SPECIALIZATIONS`` or 128; 0:
    no bound); raises TypeError for a non-integer, ValueError for a negative bound."""
    def wrap(f):
        return Function(f, input_signature, reduce_retracing, pipeline, cache, target,
                        max_specializations)
    return wrap if fn is None else wrap(fn)


def compile(fn, signature, pipeline=None, target=None,  # noqa: A001
            timing: bool = False) -> ConcreteFunction:
    """Compile ``fn`` (a Python function or ``Function``) for one signature now.

    ``signature``: a string such as ``"f32[?,4], i64"`` or a list of TensorSpec; parameters
    after those it types take their defaults (compile-time constants). ``target``:
    "cpu" (this machine, callable), an x86-64 level ("x86-64-v2" .. "x86-64-v4") or a Linux
    triple ("aarch64-linux-gnu"): code for those can be saved (``.save``) but not called
    here; a ``compiler.aot.targets.cpu_model("znver4")`` Target: code to read (``.asm``),
    neither called nor saved; "cuda" or "cuda:N" (PTX kernels, ``.ptx``; calling needs a
    GPU); default: the current ``compiler.device`` ("cpu"). ``timing``: print the
    milliseconds of each stage (``ConcreteFunction.timings``: frontend, optimized = passes,
    loops = lowering, llvm-ir, llvm-opt, machine-code) to stderr. Raises SignatureError for
    a malformed string, TypeError for a signature that leaves out a parameter without a
    constant default, CompileError for unsupported code, ValueError for an unknown target."""
    from .aot.targets import resolve
    target = target or current_device()
    cuda = _cuda_backend(target)
    target = None if cuda else resolve(target)
    if isinstance(fn, Function):
        fn = fn.python_function
    specs = to_specs(signature)
    params = list(inspect.signature(fn).parameters)
    args = [s.to_type() for s in specs] + _signature_defaults(fn, len(specs))
    backend = cuda
    if cuda is None and not target.is_host:
        from .aot.cross import cross_compile
        backend = cross_compile(target)
    cf = ConcreteFunction(fn, params, args, _compiled(fn, args, pipeline, backend))
    if timing:
        import sys

        from .pipeline import timing_report
        sys.stderr.write(f"{fn.__name__}({cf.signature}):\n{timing_report(cf.timings)}")
    return cf


def _signature_defaults(fn, given: int) -> list:
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
        if not _is_constant(p.default):
            raise TypeError(f"argument {p.name!r} (a default value) of type "
                            f"{type(p.default).__name__} is not a compile-time constant: give "
                            f"its type in the signature")
        constants.append(Constant(p.default))
    return constants


def save(path, functions) -> None:
    """Write one ahead-of-time artifact holding several ConcreteFunctions to ``path``.

    ``functions``: a ConcreteFunction, a list of them (entries named after the Python
    functions, ``f``, ``f_2``, ... when repeated) or a dict {entry name: ConcreteFunction}
    (names must be C identifiers); all compiled for one target. The C symbol of entry ``n``
    is ``grafo_n``. ``runtime.load(path)`` returns the callable, or a mapping by entry name
    when there are several. Raises ValueError for mixed targets or bad names, RuntimeError
    when linking fails, OSError when ``path`` cannot be written."""
    from .aot.builder import save as save_artifact
    save_artifact(path, functions)
