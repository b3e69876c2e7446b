"""In-process compilation: LLVM module -> O3 -> MCJIT machine code -> entry addresses.

``CompiledModule`` owns its execution engine; the machine code lives as long as the object
(and every ``NativeFunction`` made from it keeps it alive).
"""

from __future__ import annotations

import functools

import llvmlite.binding as llvm

from ...dialects.builtin import ModuleOp
from .codegen import lower_module
from .errors import error_table
from .signature import native_function
from .target import host_target_machine, new_host_target_machine, optimize


class CompiledModule:
    """A loop-level module compiled for this CPU.

    Attributes: ``symbols`` ({function name: C symbol}), ``errors`` (the error table, see
    ``errors.py``), ``llvm_ir`` (optimized LLVM IR text), ``asm`` (host assembly, on demand).
    """

    def __init__(self, module: ModuleOp, name: str = "grafo"):
        ref, self.symbols = lower_module(module, name)
        optimize(ref)
        self.llvm_ir = str(ref)
        self.errors = error_table(module)
        self._types = {f.sym_name: f.function_type for f in module.functions()}
        self._engine = llvm.create_mcjit_compiler(ref, new_host_target_machine())
        self._engine.finalize_object()
        self.addresses = {name: self._engine.get_function_address(sym)
                          for name, sym in self.symbols.items()}

    @functools.cached_property
    def asm(self) -> str:
        """The host assembly of the optimized module."""
        return host_target_machine().emit_assembly(llvm.parse_assembly(self.llvm_ir))

    def address(self, name: str) -> int:
        """The C entry address of ``func.func @name``. Raises KeyError if there is none."""
        try:
            return self.addresses[name]
        except KeyError:
            raise KeyError(f"no function @{name} in this module "
                           f"(has: {', '.join(self.addresses)})") from None

    def entry(self, name: str, input_types=None, result_types=None):
        """A Python callable for ``func.func @name`` (a ``runtime.abi.NativeFunction``).

        ``input_types``/``result_types`` are the tensor-level types of the function (tensors,
        unsigned and weak scalars) that fix the NumPy dtypes and Python scalar kinds; by
        default the loop-level types are used (signless integers read as signed).
        """
        return native_function(self.address(name), self._types[name], input_types,
                               result_types, self.errors, name=name, keepalive=self)


def compile_module(module: ModuleOp, name: str = "grafo") -> CompiledModule:
    """Compile a loop-level ``builtin.module`` for this CPU (see ``CompiledModule``)."""
    return CompiledModule(module, name)
