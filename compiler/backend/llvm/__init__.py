"""The CPU backend: loop-level IR -> LLVM IR (llvmlite) -> O3 for the host -> in-process JIT.

``compile_module(module)`` returns a ``CompiledModule`` with ``.entry(name)`` (a callable
taking NumPy arrays: a generated CPython entry over ``runtime.abi.NativeFunction``),
``.address(name)`` (the C entry, see docs/architecture.md),
``.llvm_ir``, ``.asm`` and ``.errors`` (the status-code table of ``errors.error_table``).
"""

from .codegen import lower_module
from .errors import error_table
from .jit import CompiledModule, compile_module

__all__ = ["CompiledModule", "compile_module", "error_table", "lower_module"]
