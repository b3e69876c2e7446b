"""PTX checked when it is made: by ``ptxas`` for the target ``sm`` where it is on PATH
(``target.ptxas_path``), else by the CUDA driver's JIT compiler when the module is loaded
(``runtime.cuda.ModuleLoadError`` with its error log). Either way a rejection is a
CompileError naming the kernel the assembler's first error points into and quoting the
assembler's messages, never a bare CUDA error code.

ptxas and the driver's JIT (which is ptxas inside the driver) report errors as
``<file>, line N; error : ...``; N is a line of the PTX text, which lies in one ``.entry``.
"""

from __future__ import annotations

import hashlib
import re

from ...errors import CompileError
from .target import assemble, ptxas_path

_ENTRY = re.compile(r"^\s*(?:\.visible\s+|\.weak\s+)?\.entry\s+([\w$]+)")
_LINE = re.compile(r"line (\d+);")
_checked: set = set()   # digests of PTX that ptxas accepted, per sm


def kernel_at(ptx: str, line: int) -> str | None:
    """The name of the ``.entry`` whose text holds 1-based ``line`` of ``ptx``: the last one
    starting at or before it (None before the first)."""
    name = None
    for text in ptx.splitlines()[:line]:
        m = _ENTRY.match(text)
        if m:
            name = m.group(1)
    return name


def ptx_error(ptx: str, log: str, checker: str) -> CompileError:
    """The CompileError for ``ptx`` that ``checker`` ("ptxas", "the CUDA driver's JIT
    compiler") rejected with messages ``log``."""
    lines = [int(n) for n in _LINE.findall(log)]
    names = list(dict.fromkeys(filter(None, (kernel_at(ptx, n) for n in lines))))
    if names:
        what = "kernel " + ", ".join(repr(n) for n in names)
    else:
        entries = [m.group(1) for m in map(_ENTRY.match, ptx.splitlines()) if m]
        what = "the module of kernel " + ", ".join(repr(n) for n in entries)
    return CompileError(f"{checker} rejected the PTX of {what}:\n{log.strip()}", None,
                        "this is a fault of grafo's CUDA back end: please report it with the "
                        "function; compile for the CPU meanwhile")


def check(ptx: str, sm: str) -> None:
    """Assemble ``ptx`` for ``sm`` with ptxas when it is present (each distinct text once).
    Raises CompileError (``ptx_error``) when ptxas rejects it; without ptxas, does nothing
    (the driver checks at load time, ``load``)."""
    if ptxas_path() is None:
        return
    digest = (hashlib.sha256(ptx.encode()).digest(), sm)
    if digest in _checked:
        return
    try:
        assemble(ptx, sm)
    except RuntimeError as e:
        raise ptx_error(ptx, str(e).partition("\n")[2] or str(e), "ptxas") from None
    _checked.add(digest)


def load(rt, ptx: str, names: list, semantics=None) -> dict:
    """``rt.load(ptx, names, semantics)``, a rejection by the driver's JIT compiler raised as
    CompileError (``ptx_error``)."""
    from runtime.cuda import ModuleLoadError
    try:
        return rt.load(ptx, names, semantics)
    except ModuleLoadError as e:
        raise ptx_error(ptx, e.log, "the CUDA driver's JIT compiler") from None
