"""Native code of an artifact: optimized LLVM modules -> one object file -> a shared library.

Each entry's module (the backend's lowering, optimized for the target) is parsed, its entry
function renamed to the entry's C symbol and every other definition made internal, so that
modules of several entries (all of which may define ``f``) link into one. The modules'
thread-state pointers (``grafo.rt.threads``, see ``runtime/parallel.py``) become one weak
global ``grafo_threads`` that the loader binds; left null, parallel loops run serially.
Two constants describe the library to its loader (``runtime.manifest``): ``grafo_abi_version``
(``int32_t``, the calling convention's version) and ``grafo_interface_sha256`` (the manifest's
``interface_digest`` as 64 hex digits and a NUL). LLVM's target machine emits one
position-independent object file; the system C compiler links it into a shared
library against the C and math libraries (``cc -shared -o libgrafo.so grafo.o -lm``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile

import llvmlite.binding as llvm
from llvmlite import ir

from runtime.manifest import ABI_SYMBOL, ABI_VERSION, INTERFACE_SYMBOL, THREADS_SYMBOL

from ..backend.llvm.parallel import THREADS_GLOBAL
from .cross import target_machine
from .targets import Target


def object_code(modules: list, target: Target, interface: str) -> tuple[bytes, bool]:
    """One ELF relocatable object of ``modules``: (LLVM IR text, name of the entry function
    in it, C symbol to export) triples, and of the constants ``ABI_SYMBOL`` and
    ``INTERFACE_SYMBOL`` (holding ``interface``, a hex SHA-256); only those, the entry
    symbols and ``THREADS_SYMBOL`` are global. Also says whether the object has
    ``THREADS_SYMBOL`` (parallel loops)."""
    combined, threads = None, False
    for text, function, symbol in modules:
        ref = llvm.parse_assembly(text)
        for value in (*ref.functions, *ref.global_variables):
            if value.is_declaration:
                continue
            if value.name == function:
                value.name = symbol
            elif value.name == THREADS_GLOBAL:
                value.name = THREADS_SYMBOL
                value.linkage = llvm.Linkage.weak_any
                threads = True
            else:
                value.linkage = llvm.Linkage.internal
        if combined is None:
            combined = ref
        else:
            combined.link_in(ref)
    combined.link_in(llvm.parse_assembly(str(_abi_module(combined, interface))))
    combined.verify()
    return target_machine(target).emit_object(combined), threads


def _abi_module(combined, interface: str) -> ir.Module:
    """The constants ``ABI_SYMBOL`` and ``INTERFACE_SYMBOL`` for the target of ``combined``."""
    m = ir.Module("grafo.abi")
    m.triple = combined.triple
    m.data_layout = str(combined.data_layout)
    text = bytearray(interface.encode() + b"\0")
    for name, value in ((ABI_SYMBOL, ir.Constant(ir.IntType(32), ABI_VERSION)),
                        (INTERFACE_SYMBOL, ir.Constant(ir.ArrayType(ir.IntType(8), len(text)),
                                                       text))):
        g = ir.GlobalVariable(m, value.type, name)
        g.initializer, g.global_constant = value, True
    return m


def _linker(target: Target) -> list | None:
    """The command prefix that links a shared library for ``target``, or None."""
    if target.arch == os.uname().machine:
        candidates = [os.environ.get("CC"), "cc", "gcc", "ld"]
    else:
        candidates = [f"{target.arch}-linux-gnu-gcc", f"{target.arch}-linux-gnu-ld"]
    for c in candidates:
        if c and shutil.which(c):
            return [c]
    return None


def link_command(target: Target) -> str:
    """How to link the object file of ``target`` by hand (for messages)."""
    cc = "cc" if target.arch == os.uname().machine else f"{target.arch}-linux-gnu-gcc"
    return f"{cc} -shared -o libgrafo.so grafo.o -lm"


def shared_library(obj: bytes, target: Target) -> bytes | None:
    """Link ``obj`` into a shared library for ``target`` with the system linker; None when
    no linker for that architecture is installed. Raises RuntimeError when linking fails."""
    linker = _linker(target)
    if linker is None:
        return None
    with tempfile.TemporaryDirectory(prefix="grafo-link-") as d:
        src, out = os.path.join(d, "grafo.o"), os.path.join(d, "libgrafo.so")
        with open(src, "wb") as f:
            f.write(obj)
        cmd = [*linker, "-shared", "-o", out, src, "-lm"]
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"linking the shared library failed: {' '.join(cmd)}\n"
                               f"{proc.stderr.strip()}")
        with open(out, "rb") as f:
            return f.read()
