"""How a compile error leaves the public API: at the user's source line, without grafo's
frames.

``raise_at_source(e, fn)`` raises a CompileError ``e`` with no traceback of the compiler
and no chained context, from a frame at the source line its message names
(``runtime.frames``), so that the traceback a user reads ends at their own code.
``compile_at_source`` is ``pipeline.compile_function`` behind that boundary.
"""

from __future__ import annotations

from runtime.frames import raise_at

from .errors import CompileError
from .pipeline import compile_function


def raise_at_source(e: CompileError, fn):
    """Raise ``e`` without the compiler's frames in its traceback and without its context:
    the user's call, this API boundary, then a frame at the source line its message names
    (in ``fn`` where the location does not say whose line it is)."""
    e.__cause__, e.__suppress_context__ = None, True
    loc = e.loc
    if loc is None:
        raise e.with_traceback(None)
    raise_at(e.with_traceback(None), loc.file, loc.line, loc.function or fn.__code__.co_name)


def compile_at_source(fn, args, pipeline, backend):
    """``compile_function(fn, args, pipeline, backend)``; a CompileError leaves here as
    ``raise_at_source`` raises it."""
    try:
        return compile_function(fn, args, pipeline, backend)
    except CompileError as e:
        raise_at_source(e, fn)
