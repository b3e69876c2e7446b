"""Native code of an artifact: optimized LLVM modules -> one object file -> a shared library.

Each entry's module (the backend's lowering, optimized for the target) is parsed, its entry
function renamed to the entry's C symbol and every other definition made internal, so that
modules of several entries (all of which may define ``f``) link into one. The modules'
thread-state pointers (``grafo.rt.threads``, see ``runtime/parallel.py``) become one weak
global ``grafo_threads`` that the loader binds; left null, parallel loops run serially. Their
interrupt-state pointers (``grafo.rt.interrupt``, see ``runtime/interrupt.py``) become the
weak global ``grafo_interrupt``, next to the weak SIGINT handler ``grafo_interrupt_handler``
that sets the flag it points at; left null, loops never stop early. Two constants describe
the library to its loader (``runtime.manifest``): ``grafo_abi_version`` (``int32_t``, the
calling convention's version) and ``grafo_interface_sha256`` (the manifest's
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

from runtime.manifest import (
    ABI_SYMBOL,
    ABI_VERSION,
    INTERFACE_SYMBOL,
    INTERRUPT_HANDLER,
    INTERRUPT_SYMBOL,
    THREADS_SYMBOL,
)

from ..backend.llvm.interrupt import INTERRUPT_GLOBAL, define_handler
from ..backend.llvm.parallel import THREADS_GLOBAL
from ..backend.llvm.target import cpu_target_machine
from ..targets import Target

EXPORTED = {THREADS_GLOBAL: THREADS_SYMBOL, INTERRUPT_GLOBAL: INTERRUPT_SYMBOL}


def object_code(modules: list, target: Target, interface: str) -> tuple[bytes, dict]:
    """One ELF relocatable object of ``modules``: (LLVM IR text, name of the entry function
    in it, C symbol to export) triples, and of the constants ``ABI_SYMBOL`` and
    ``INTERFACE_SYMBOL`` (holding ``interface``, a hex SHA-256); only those, the entry
    symbols, ``THREADS_SYMBOL``, ``INTERRUPT_SYMBOL`` and ``INTERRUPT_HANDLER`` are global.
    Also returns the manifest's record of those the object has: ``threads_symbol``
    (parallel loops), ``interrupt_symbol`` and ``interrupt_handler`` (interrupt polls), each
    a symbol or None."""
    combined, found = None, set()
    for text, function, symbol in modules:
        ref = llvm.parse_assembly(text)
        for value in (*ref.functions, *ref.global_variables):
            if value.is_declaration:
                continue
            if value.name == function:
                value.name = symbol
            elif value.name in EXPORTED:
                found.add(value.name)
                value.name = EXPORTED[value.name]
                value.linkage = llvm.Linkage.weak_any
            else:
                value.linkage = llvm.Linkage.internal
        if combined is None:
            combined = ref
        else:
            combined.link_in(ref)
    polls = INTERRUPT_GLOBAL in found
    if polls:
        combined.link_in(llvm.parse_assembly(str(_handler_module(combined))))
    combined.link_in(llvm.parse_assembly(str(_abi_module(combined, interface))))
    combined.verify()
    return cpu_target_machine(target).emit_object(combined), {
        "threads_symbol": THREADS_SYMBOL if THREADS_GLOBAL in found else None,
        "interrupt_symbol": INTERRUPT_SYMBOL if polls else None,
        "interrupt_handler": INTERRUPT_HANDLER if polls else None}


def _handler_module(combined) -> ir.Module:
    """The weak ``INTERRUPT_HANDLER`` setting the flag of the state ``INTERRUPT_SYMBOL``
    points at, for the target of ``combined``."""
    m = ir.Module("grafo.interrupt")
    m.triple = combined.triple
    m.data_layout = str(combined.data_layout)
    pointer = ir.GlobalVariable(m, ir.PointerType(), INTERRUPT_SYMBOL)
    define_handler(m, INTERRUPT_HANDLER, pointer).linkage = "weak"
    return m


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
