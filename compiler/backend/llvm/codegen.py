"""Loop-level IR module -> verified LLVM module (``llvmlite.ir`` text parsed by LLVM).

``lower_module`` builds one internal function per ``func.func`` and one C entry per function
(``entry.py``), then parses the text with LLVM and runs LLVM's verifier, so malformed IR is an
error here and not a crash later. The C entry of ``func.func @name`` is the symbol ``name``,
or ``name.entry`` when the module itself needs a C library symbol of that name (a function
called ``tanh`` that calls ``tanh``).
"""

from __future__ import annotations

import llvmlite.binding as llvm

from ...dialects.builtin import ModuleOp
from .emitter import FunctionEmitter, ModuleEmitter
from .entry import emit_entry


def lower_module(module: ModuleOp, name: str = "grafo",
                 context: llvm.ContextRef | None = None) -> tuple[llvm.ModuleRef, dict]:
    """The verified, unoptimized LLVM module of ``module`` and ``{function name: C symbol}``,
    parsed in ``context`` (default: LLVM's global context).

    Raises ``errors.unsupported`` (a CompileError that is a NotImplementedError) for ops
    without a lowering rule (tensor-level ops); on verified loop-level IR nothing else (a
    RuntimeError when LLVM's verifier rejects the result is a compiler bug).
    """
    mod = ModuleEmitter(module, name)
    funcs = module.functions()
    for f in funcs:
        FunctionEmitter(mod, f).emit()
    symbols = {}
    for f in funcs:
        symbol = f.sym_name if f.sym_name not in mod.ll.globals else f"{f.sym_name}.entry"
        emit_entry(mod, f, symbol)
        symbols[f.sym_name] = symbol
    text = str(mod.ll)
    ref = None
    try:
        ref = llvm.parse_assembly(text, context)
        ref.verify()
    except RuntimeError as e:
        if ref is not None:   # before its context goes: disposing it later would crash
            ref.close()
        raise RuntimeError(f"LLVM rejected the generated IR: {e}\n{text}") from None
    return ref, symbols
