"""``ConcreteFunction``: native code for one input signature of a Python function."""

from __future__ import annotations

from . import types as T
from .aliasing import guard_writes
from .effects import buffers
from .frontend import Constant
from .keys import buffers_as_arrays, scalar_key
from .signature import type_text
from .targets import CudaTarget


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

    What the compiler and the artifact writer read: ``params`` (every parameter's name),
    ``args`` (per parameter, its IR type or the ``frontend.Constant`` it was traced with),
    ``compiled`` (the ``pipeline.Compiled`` it runs), ``runtime_positions`` (the parameters
    passed at run time), ``written`` (those whose elements it writes, as positions among
    the run-time arguments), ``entry`` (the callable taking the run-time arguments) and
    ``artifact_bytes()``.
    """

    def __init__(self, python_function, params: list, args: list, compiled):
        self.python_function = python_function
        self.params = params
        self.args = args
        self.compiled = compiled
        self.runtime_positions = [i for i, a in enumerate(args) if not isinstance(a, Constant)]
        self.variables = compiled.variables
        entry = compiled.callable
        if self.variables:
            native, variables = compiled.callable, self.variables
            entry = lambda *a: native(*a, *buffers(variables))  # noqa: E731
        written = self.written
        if written:
            arrays = [k for k, i in enumerate(self.runtime_positions)
                      if isinstance(args[i], T.TensorType)]
            entry = guard_writes(entry, written, arrays, self.arg_names, python_function,
                                 self._run_python)
        self.entry = entry

    def _run_python(self, args):
        """The Python function on the run-time arguments ``args`` and the constants."""
        values = [a.value if isinstance(a, Constant) else None for a in self.args]
        for i, a in zip(self.runtime_positions, buffers_as_arrays(args, {})[0], strict=True):
            values[i] = a
        return self.python_function(*values)

    @property
    def written(self) -> list:
        """Positions (among the run-time arguments) of the array parameters whose elements
        the function writes (``np.write_back`` in its IR)."""
        count = len(self.runtime_positions)
        return [k for k in self.compiled.written if k < count]

    @property
    def name(self) -> str:
        return self.python_function.__name__

    @property
    def arg_names(self) -> list:
        return [self.params[i] for i in self.runtime_positions]

    @property
    def signature(self) -> str:
        return ", ".join(type_text(self.args[i]) for i in self.runtime_positions)

    @property
    def ir(self) -> str:
        return self.compiled.stages["optimized"]

    @property
    def ir_stages(self) -> dict:
        return dict(self.compiled.stages)

    @property
    def llvm_ir(self) -> str:
        return self.compiled.llvm_ir

    @property
    def asm(self) -> str:
        return self.compiled.asm

    @property
    def ptx(self) -> str:
        """The PTX of a function compiled with ``target="cuda"``. Raises AttributeError
        for other targets."""
        if not isinstance(self.compiled.target, CudaTarget):
            raise AttributeError(f"{self.name} was compiled for {self.target}, not CUDA")
        return self.compiled.native.ptx

    @property
    def timings(self) -> dict:
        """Seconds spent in each compilation stage: "frontend", "optimized" (passes),
        "loops" (lowering), "llvm-ir", "llvm-opt" (LLVM's O3 pipeline), "machine-code"
        (instruction selection and JIT linking); "llvm" for a cross-compilation target
        and "load" for one read from an artifact or the disk cache."""
        return dict(self.compiled.timings)

    def pretty_signature(self) -> str:
        parts = []
        for name, a in zip(self.params, self.args, strict=False):
            parts.append(f"{name}={a.value!r}" if isinstance(a, Constant)
                         else f"{name}: {type_text(a)}")
        res = ", ".join(type_text(t) for t in self.compiled.result_types)
        if self.compiled.result_tuple:
            res = f"({res})"
        return f"{self.name}({', '.join(parts)}) -> {res}"

    @property
    def target(self) -> str:
        """The target it was compiled for, as named to ``compile``: "cpu" (this machine), an
        x86-64 level, a triple, a CPU model, "cuda" or "cuda:N"."""
        return self.compiled.target.name

    def artifact_bytes(self, cache_key: str | None = None) -> bytes:
        """The one-entry artifact of this function (``compiler.aot.builder.build``; the disk
        cache's ``cache_key`` recorded in its manifest), built on first use and kept: the
        bytes a disk cache entry holds and a pickle carries. Raises as ``build`` does."""
        if self.compiled.artifact_bytes is None:
            from .aot.builder import build
            self.compiled.artifact_bytes = build(self, cache_key)
        return self.compiled.artifact_bytes

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
        if len(args) == len(self.args) and len(args) != len(self.runtime_positions):
            for name, a, spec in zip(self.params, args, self.args, strict=False):
                if isinstance(spec, Constant) and (type(a), scalar_key(a)) != (
                        type(spec.value), scalar_key(spec.value)):
                    raise TypeError(f"{self.name}() argument {name!r}: this concrete function "
                                    f"was traced with {spec.value!r}, received {a!r}")
            args = [args[i] for i in self.runtime_positions]
        return self.entry(*args)

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
        modules = self.compiled.modules
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
        return html_view(repr(self), [("", self.compiled.modules["optimized"], self.ir)])
