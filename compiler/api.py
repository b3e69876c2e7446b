"""The public entry points: ``function``, ``compile``, ``save``, ``release_buffers`` and
``clear_caches``.

The concepts behind them live in their own modules: ``polymorphic.py`` (``Function``, the
polymorphic function), ``concrete.py`` (``ConcreteFunction``), ``keys.py`` (specialization
keys), ``aliasing.py`` (the checks of written arguments), ``placement.py``
(``compiler.device``), ``eager.py`` (``run_functions_eagerly``), ``targets.py``
(``resolve``), ``pipeline/`` (the stages) and ``backend/`` (code generation).
"""

from __future__ import annotations

import inspect
import os
import sys

from .backend import for_target
from .boundary import compile_at_source
from .concrete import ConcreteFunction
from .eager import tracked
from .keys import signature_defaults
from .placement import current_device
from .polymorphic import Function
from .signature import to_specs
from .targets import resolve


def function(fn=None, *, input_signature=None, reduce_retracing=False, pipeline=None,
             cache=False, target=None, max_specializations=None, boundscheck=None):
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
    no bound); raises TypeError for a non-integer, ValueError for a negative bound.
    ``boundscheck=False`` (default: ``GRAFO_BOUNDSCHECK=0`` in the environment, else True)
    compiles integer indexing without its IndexError checks, as Numba's option does: UNSAFE,
    an index out of range then reads or writes outside the array (see ``boundscheck``)."""
    pipeline = with_boundscheck(pipeline, boundscheck)

    def wrap(f):
        return Function(f, input_signature, reduce_retracing, pipeline, cache, target,
                        max_specializations)
    return wrap if fn is None else wrap(fn)


def compile(fn, signature, pipeline=None, target=None,  # noqa: A001
            timing: bool = False, boundscheck: bool | None = None) -> ConcreteFunction:
    """Compile ``fn`` (a Python function or ``Function``) for one signature now.

    ``signature``: a string such as ``"f32[?,4], i64"`` or a list of TensorSpec; parameters
    after those it types take their defaults (compile-time constants). ``target``:
    "cpu" (this machine, callable), an x86-64 level ("x86-64-v2" .. "x86-64-v4") or a Linux
    triple ("aarch64-linux-gnu"): code for those can be saved (``.save``) but not called
    here; a ``compiler.targets.cpu_model("znver4")`` Target: code to read (``.asm``),
    neither called nor saved; "cuda" or "cuda:N" (PTX kernels, ``.ptx``; calling needs a
    GPU; ``.target`` says which device); default: the current ``compiler.device`` ("cpu").
    ``timing``: print the milliseconds of each stage (``ConcreteFunction.timings``:
    frontend, optimized = passes, loops = lowering, llvm-ir, llvm-opt, machine-code) to
    stderr. ``boundscheck``: as for ``function`` (False is unsafe). Raises SignatureError for
    a malformed string, TypeError for a signature that leaves out a parameter without a
    constant default, CompileError for unsupported code, ValueError for an unknown target."""
    pipeline = with_boundscheck(pipeline, boundscheck)
    backend = for_target(resolve(target or current_device()))
    if isinstance(fn, Function):
        fn = fn.python_function
    specs = to_specs(signature)
    params = list(inspect.signature(fn).parameters)
    args = [s.to_type() for s in specs] + signature_defaults(fn, len(specs))
    cf = ConcreteFunction(fn, params, args, compile_at_source(fn, args, pipeline, backend))
    if timing:
        from .pipeline import timing_report
        sys.stderr.write(f"{fn.__name__}({cf.signature}):\n{timing_report(cf.timings)}")
    return cf


def with_boundscheck(pipeline: str | None, boundscheck: bool | None) -> str | None:
    """``pipeline`` (None: the default one) with ``drop-bounds-checks`` appended when
    ``boundscheck`` is False, or None and the environment has ``GRAFO_BOUNDSCHECK=0``
    (``passes/drop_checks.py``). Unsafe: an index out of range is then not detected, and
    reads or writes outside its array; use it only for code whose indices are known good.
    The pipeline is part of a specialization's cache key, so checked and unchecked code
    never share a disk cache entry. Raises TypeError for a non-bool ``boundscheck``."""
    if boundscheck is None:
        boundscheck = os.environ.get("GRAFO_BOUNDSCHECK", "1").strip() != "0"
    elif not isinstance(boundscheck, bool):
        raise TypeError(f"boundscheck must be True or False, got {type(boundscheck).__name__}")
    if boundscheck:
        return pipeline
    from .passes import DEFAULT_PIPELINE
    return f"{pipeline or DEFAULT_PIPELINE},drop-bounds-checks"


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


def release_buffers() -> int:
    """Free the large buffers (1 MiB and up) that compiled code keeps between calls for reuse
    (the buffer pool, ``compiler/backend/llvm/pool.py``: at most ``GRAFO_BUFFER_POOL_BYTES``,
    default 512 MiB, 0 disables it). Returns the number of bytes freed. Arrays still alive
    are not affected. The counterpart of ``torch.cuda.empty_cache()``."""
    from .backend.llvm import pool
    return pool.release()


def clear_caches() -> None:
    """Drop the concrete functions of every ``Function`` (``Function.clear_cache``) and the
    compiler's cached function sources, so that their native code and memory are freed;
    a ConcreteFunction still referenced elsewhere keeps its code and keeps working. Calls
    compile again (or load from the disk cache). The disk cache (``cache=True``) and the
    buffer pool (``release_buffers``) are left as they are."""
    from .frontend.source import clear_cache
    for f in tracked():
        f.clear_cache()
    clear_cache()
