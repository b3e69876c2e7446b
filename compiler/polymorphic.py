"""``Function``: a polymorphic compiled function, one concrete function per input signature.

Semantics follow ``tf.function``: a ``Function`` makes one *concrete function* (a
specialization, ``concrete.py``) per input signature — array dtype and shape, NumPy scalar
dtype, and the *value* of each Python scalar, tuple or function argument, which is a
compile-time constant (``keys.py``). A call looks up its specialization by a flat key, or
runs the generated native entry of the specialization that ran last, which checks the
arguments itself and falls back here (``_Miss``) when they differ.
"""

from __future__ import annotations

import inspect
import operator
import os
import threading
import warnings
from collections import OrderedDict

import numpy as np

from runtime import fastcall
from runtime.abi import ArraySpec, argument_error, raise_status, scalar_text, value_text

from . import cache as disk_cache
from . import types as T
from .aot.pickling import FunctionRef
from .backend import for_target
from .boundary import compile_at_source, raise_at_source
from .concrete import ConcreteFunction
from .eager import EAGER, track
from .errors import CompileError
from .interfaces import PolymorphicFunction
from .ir.core import Location
from .keys import PY_SCALARS, arg_spec, buffers_as_arrays, dispatch_key
from .placement import current_device
from .signature import TensorSpec, to_specs
from .targets import is_cuda, resolve

DEFAULT_MAX_SPECIALIZATIONS = 128
RETRACE_WARNING = 5  # consecutive compiling calls after which a Function warns (once)


def specialization_limit(value) -> int | None:
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


class Function(PolymorphicFunction):
    """A polymorphic compiled function (see ``compiler.function``).

    It keeps at most ``max_specializations`` concrete functions alive (default 128,
    ``GRAFO_MAX_SPECIALIZATIONS``): compiling one more drops the least recently used, whose
    native code is freed once nothing else holds it; a call with its signature compiles it
    again (or loads it from the disk cache). Recency costs the calls nothing: every
    compilation resets the fast dispatch paths, so the next call of each signature goes
    through the specialization cache, which marks it used (of signatures whose last calls
    fell between the same two compilations, the one first called there counts as the least
    recent).

    ``target``: "cuda" / "cuda:N" (or a ``compiler.device`` block when tracing) compiles
    for that GPU; any other value compiles for this CPU, as the Function's calls run here.
    """

    def __init__(self, python_function, input_signature=None, reduce_retracing=False,
                 pipeline=None, cache=False, target=None, max_specializations=None):
        self.python_function = python_function
        self._target = target
        self._sig = inspect.signature(python_function)
        self._params = list(self._sig.parameters)
        self._input_signature = None if input_signature is None else to_specs(input_signature)
        self._reduce_retracing = reduce_retracing
        self._pipeline = pipeline
        self._max = specialization_limit(max_specializations)
        self._cache: dict = {}   # specialization key -> ConcreteFunction
        self._lru: OrderedDict = OrderedDict()   # its ConcreteFunctions, least recent first
        # Cheap per-call key (see keys.dispatch_key) -> (native callable taking all the
        # arguments, the next _entry); with Python-scalar constants -> (callable, run-time
        # positions).
        self._dispatch: dict = {}
        self._positional: dict = {}
        self._entry = self._slow
        track(self)
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

    def _trace(self, args, names=(), key=()) -> ConcreteFunction:
        """A specialization for IR argument types ``args``; ``key`` (their specialization
        key parts, ``keys.arg_spec``) and the parameter ``names`` say which arguments are
        device arrays, whose device the code is placed on (``_placement``)."""
        target = self._placement(names, key)
        if is_cuda(target):
            return self._compile(args, for_target(resolve(target)))
        if self._disk_cache:
            return self._load_or_compile(args)
        return self._compile(args)

    def _placement(self, names, key):
        """The target of a new specialization: the Function's ``target``, else the device of
        its device-array arguments (computation follows data, as in JAX), else the current
        ``compiler.device``. Raises ValueError for device arrays on several devices,
        TypeError for a device array when the code is compiled for the CPU."""
        on_device = {name: k[3] for name, k in zip(names, key, strict=False) if k[0] == "d"}
        placed = sorted(set(on_device.values()))
        if len(placed) > 1:
            where = ", ".join(f"{n!r} on cuda:{d}" for n, d in on_device.items())
            raise ValueError(f"{self.__name__}() got device arrays on several devices "
                             f"({where}): move them to one with compiler.device_put(x, "
                             f"'cuda:N')")
        target = self._target or (f"cuda:{placed[0]}" if placed else current_device())
        if placed and not is_cuda(target):
            name, d = next(iter(on_device.items()))
            raise TypeError(f"{self.__name__}() argument {name!r} is a device array on "
                            f"cuda:{d}, but {self.__name__} is compiled for {target!r}: copy "
                            f"it to the host with compiler.device_put({name}, 'cpu'), or "
                            f"compile for 'cuda:{d}'")
        return target

    def _compile(self, args, backend=None) -> ConcreteFunction:
        """A new specialization for ``args``, compiled with ``backend`` (default: this CPU's
        JIT)."""
        self._tracing_count += 1
        compiled = compile_at_source(self.python_function, args, self._pipeline, backend)
        return ConcreteFunction(self.python_function, self._params, args, compiled)

    def _load_or_compile(self, args) -> ConcreteFunction:
        """The specialization for ``args`` from the disk cache (``cache.py``) when it holds
        one, else compiled and stored there."""
        entry = disk_cache.entry_for(self.python_function, self._params, args, self._pipeline)
        if entry is None:
            return self._compile(args)
        compiled = entry.load(self.python_function, args)
        if compiled is not None:
            return ConcreteFunction(self.python_function, self._params, args, compiled)
        cf = self._compile(args)
        entry.store(cf)
        return cf

    def __getstate__(self) -> dict:
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
        track(self)

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
                elif (ko[0] == kn[0] and ko[0] in ("a", "d") and ko[1] == kn[1] and ko[3:] == kn[3:]
                      and len(ko[2]) == len(kn[2])):
                    shape = tuple(d if d == e else None for d, e in zip(ko[2], kn[2], strict=False))
                    merged.append((kn[0], kn[1], shape, *kn[3:]))
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
                k, t = arg_spec(v, self.__name__, name, v is self._sig.parameters[name].default)
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
                        cf = self._trace(gtypes, self._params, gkey)
                        self._admit(cf)
                    self._cache[gkey] = cf
                else:
                    cf = self._trace(types, self._params, key)
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

    def drop_fast_entry(self) -> None:
        """Send the next call through the general dispatch path, which reads eager mode
        (``compiler.run_functions_eagerly``) and the specialization cache; the native fast
        entry comes back with the next compiled call."""
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
        if not kwargs and not EAGER.on:
            try:
                call, self._entry = self._dispatch[dispatch_key(args)]
            except (KeyError, TypeError, ValueError):  # a miss, an unhashable argument
                pass
            else:
                return call(*args)
        try:
            return self._call_general(args, kwargs)
        except CompileError as e:   # the user's call and source line, not grafo's frames
            raise_at_source(e, self.python_function)

    def _call_general(self, args, kwargs):
        if EAGER.on:
            return self.python_function(*args, **kwargs)
        args, kwargs = buffers_as_arrays(args, kwargs)
        if self._input_signature is not None:
            return self._call_pinned(self._bind(args, kwargs))
        key = None
        if not kwargs:
            try:
                key = dispatch_key(args)
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
        positions = cf.runtime_positions
        if key is not None and len(args) == len(values):
            if len(positions) == len(args):
                self._entry = self._dispatch_entry(cf) or self._slow
                self._dispatch[key] = (cf.entry, self._entry)
            else:
                self._positional[key] = (cf.entry, positions)
        return cf.entry(*[values[i] for i in positions])

    def _dispatch_entry(self, cf: ConcreteFunction):
        """``cf``'s generated entry calling ``_Miss`` for other arguments, when it takes all
        the arguments and they are arrays of static shapes; else None."""
        if (self._reduce_retracing or not all(isinstance(a, T.TensorType) and None not in a.shape
                                              for a in cf.args)):
            return None
        try:
            return fastcall.rebind(cf.entry, _Miss(self, cf.entry.__self__))
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
                s.shape is None and isinstance(v, (np.generic, *PY_SCALARS))
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
            return svg([cf.compiled.modules["optimized"] for cf in functions])
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
        return html_view(repr(self), [(cf.pretty_signature(), cf.compiled.modules["optimized"],
                                       cf.ir) for cf in functions])


class _Miss:
    """The ``self`` of a Function's dispatch entry: the entry calls it with the arguments it
    does not take (another signature, keywords, copies), and raises the errors of the
    specialization's ``NativeFunction`` through it (``_raise``, as
    ``runtime.abi.raise_status`` calls it)."""

    __slots__ = ("_function", "_reference", "_method_def")

    def __init__(self, function: Function, reference):
        self._function, self._reference = function, reference

    def __call__(self, *args, **kwargs):
        try:
            return self._function._call_general(args, kwargs)
        except CompileError as e:   # the user's call and source line, not grafo's frames
            raise_at_source(e, self._function.python_function)

    def _raise(self, code: int, params: list):
        raise_status(self._reference, code, *params)
