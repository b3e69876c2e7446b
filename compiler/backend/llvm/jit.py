"""In-process compilation: LLVM module -> O3 -> MCJIT machine code -> entry addresses.

``CompiledModule`` owns its execution engine; the machine code lives as long as the object
(and every ``NativeFunction`` made from it keeps it alive), and is freed with it.
"""

from __future__ import annotations

import ctypes
import functools
import time

import llvmlite.binding as llvm

from runtime import fastcall, printing
from runtime import interrupt as interrupts
from runtime import parallel as threads

from ...dialects.builtin import ModuleOp
from . import pool
from .codegen import lower_module
from .errors import error_table
from .interrupt import INTERRUPT_GLOBAL, install_handler
from .parallel import THREADS_GLOBAL
from .pool import POOL_GLOBAL
from .printing import PRINT_GLOBAL, print_table
from .pyentry import emit_py_entry
from .signature import native_function, parameter_names
from .target import ScratchContext, host_target_machine, new_host_target_machine, optimize


class CompiledModule:
    """A loop-level module compiled for this CPU.

    Attributes: ``symbols`` ({function name: C symbol}), ``errors`` (the error table, see
    ``errors.py``), ``llvm_ir`` (optimized LLVM IR text, printed on demand), ``asm`` (host
    assembly, on demand), ``threads_global`` (address of the module's ``grafo.rt.threads``
    pointer, bound to the process's thread state by ``runtime.parallel.bind``; None without
    parallel loops; a module with interrupt polls has its ``grafo.rt.interrupt`` bound the
    same way and puts the SIGINT handler in place, ``runtime.interrupt.install``),
    ``timings`` (seconds per step: "llvm-ir" building and verifying the LLVM module,
    "llvm-opt" the O3 pipeline, "machine-code" instruction selection and JIT linking; the
    Python entries that ``entry`` adds later count under "machine-code" too).

    Memory: the LLVM modules live in a private context and are freed once the object code
    is made (the optimized module is kept as bitcode for ``llvm_ir``); the object code is
    made with the process's one host target machine and linked by an MCJIT engine of its
    own, so the engine never builds a code generator (an engine that compiles IR itself
    builds the host's subtarget tables, about 0.8 MB). The engine and its machine code are
    freed with this object; every callable made by ``entry`` keeps it alive.
    """

    def __init__(self, module: ModuleOp, name: str = "grafo"):
        t0 = time.perf_counter()
        with ScratchContext() as scratch:
            ref, self.symbols = lower_module(module, name, scratch.context)
            scratch.keep(ref)
            t1 = time.perf_counter()
            optimize(ref)
            t2 = time.perf_counter()
            names = {g.name for g in ref.global_variables}
            self._bitcode = ref.as_bitcode()
            code = host_target_machine().emit_object(ref)
        self.errors = error_table(module)
        self._types = {f.sym_name: f.function_type for f in module.functions()}
        self._arg_names = {f.sym_name: parameter_names(f) for f in module.functions()}
        self._engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""),
                                                  new_host_target_machine())
        self._link(code)
        if POOL_GLOBAL in names:
            pool.bind(self._engine.get_global_value_address(POOL_GLOBAL))
        self.threads_global = None
        if THREADS_GLOBAL in names:
            self.threads_global = self._engine.get_global_value_address(THREADS_GLOBAL)
            threads.bind(self.threads_global)
        if INTERRUPT_GLOBAL in names:
            interrupts.bind(self._engine.get_global_value_address(INTERRUPT_GLOBAL))
            install_handler()
        self._print_hook = None
        table = print_table(module)
        if table:
            self._print_hook = printing.make_hook(table)
            ctypes.c_void_p.from_address(self._engine.get_global_value_address(
                PRINT_GLOBAL)).value = ctypes.cast(self._print_hook, ctypes.c_void_p).value
        self.addresses = {name: self._engine.get_function_address(sym)
                          for name, sym in self.symbols.items()}
        self.timings = {"llvm-ir": t1 - t0, "llvm-opt": t2 - t1,
                        "machine-code": time.perf_counter() - t2}

    def _link(self, code: bytes) -> None:
        """Load object ``code`` into the engine and resolve its relocations."""
        self._engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        self._engine.finalize_object()

    @functools.cached_property
    def llvm_ir(self) -> str:
        """The optimized LLVM IR text."""
        with ScratchContext() as scratch:
            return str(scratch.parse_bitcode(self._bitcode))

    @functools.cached_property
    def asm(self) -> str:
        """The host assembly of the optimized module."""
        with ScratchContext() as scratch:
            return host_target_machine().emit_assembly(scratch.parse_bitcode(self._bitcode))

    def address(self, name: str) -> int:
        """The C entry address of ``func.func @name``. Raises KeyError if there is none."""
        try:
            return self.addresses[name]
        except KeyError:
            raise KeyError(f"no function @{name} in this module "
                           f"(has: {', '.join(self.addresses)})") from None

    def entry(self, name: str, input_types=None, result_types=None, written=(),
              fast: bool = True):
        """A Python callable for ``func.func @name``.

        ``input_types``/``result_types`` are the tensor-level types of the function (tensors,
        unsigned and weak scalars) that fix the NumPy dtypes and Python scalar kinds; by
        default the loop-level types are used (signless integers read as signed).
        ``written``: positions of the array parameters whose buffers the function writes
        (``np.write_back``): the callable raises NumPy's ValueError for a read-only array
        there, and copies an unaligned one back after the call. With
        ``fast`` (and ``runtime.fastcall.LAYOUT`` available) it is a builtin function running
        a generated CPython entry (``pyentry.py``) whose ``__self__`` is the reference
        ``runtime.abi.NativeFunction``; otherwise it is that ``NativeFunction``. Both take the
        same arguments, return the same results and raise the same errors, and both keep
        this module (its machine code) alive.
        """
        reference = native_function(self.address(name), self._types[name], input_types,
                                    result_types, self.errors, name=name, keepalive=self,
                                    arg_names=self._arg_names[name], written=written)
        if not fast or fastcall.LAYOUT is None:
            return reference
        module = emit_py_entry(self.symbols[name], reference.address, self._types[name],
                               list(reference.inputs), list(reference.results), fastcall.LAYOUT,
                               reference.written)
        t0 = time.perf_counter()
        with ScratchContext() as scratch:
            ref = scratch.parse(str(module))
            ref.verify()
            # No O3 here: each run of llvmlite's pass pipeline leaves about 90 KB behind, and
            # the code generator's own passes already give this straight-line code its speed.
            code = host_target_machine().emit_object(ref)
        self._link(code)
        address = self._engine.get_function_address(f"{self.symbols[name]}.py")
        self.timings["machine-code"] += time.perf_counter() - t0
        return fastcall.make_function(address, reference, name)


def compile_module(module: ModuleOp, name: str = "grafo") -> CompiledModule:
    """Compile a loop-level ``builtin.module`` for this CPU (see ``CompiledModule``)."""
    return CompiledModule(module, name)
