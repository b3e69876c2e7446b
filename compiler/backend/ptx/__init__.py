"""The CUDA back end: loop-level IR -> PTX kernels + a host program (``target="cuda"``).

``compile_module(module, arch=None)`` partitions each function into kernels and host work
(``partition.py``), emits the kernels with llvmlite's NVPTX target (``kernels.py``,
``reduce.py``, ``rows.py``, ``matmul.py``), links libdevice when math functions need it,
optimizes at O3, checks the PTX (``check.py``: ptxas, else the driver's JIT at load time)
and returns a ``PTXModule``: ``.ptx`` (the PTX text), ``.llvm_ir``, ``.asm``
(= ``.ptx``), ``.arch``, ``.kernels`` and ``.entry(name, ...)``, a callable that runs the host
program (``host.py``) on the GPU through ``runtime.cuda``. Compiling needs no GPU; calling
without one raises RuntimeError("no CUDA device: ...").

``CudaBackend(target)`` is the backend (``backend/base.py``) the compilation pipeline uses for
``target="cuda"`` / ``"cuda:N"`` (a ``compiler.targets.CudaTarget``): its ``prepare`` rewrites
the tensor-level module before lowering (``matmul.prepare``, ``gpu_reduce.prepare``).
"""

from __future__ import annotations

import weakref
from dataclasses import replace

import llvmlite.binding as llvm
import numpy as np

from ... import types as T
from ...errors import unsupported
from ...targets import CudaTarget
from ..base import Backend
from ..llvm.errors import error_table
from . import check
from . import gpu_reduce as GR
from . import kernels as K
from . import matmul as MM
from . import rows as RW
from . import simulate as SIM
from .host import HostProgram
from .partition import Partition
from .target import arch as resolve_arch
from .target import libdevice_path, optimize, target_machine

DEFAULT_TARGET = CudaTarget()   # "cuda:0"


class PTXModule:
    """A compiled GPU module (see the package docstring); ``target``: the CudaTarget with
    its ``arch``."""

    timings: dict = {}   # one "llvm" time: the pipeline measures it

    def __init__(self, module, sm: str, target: CudaTarget = DEFAULT_TARGET):
        self.arch = sm
        self.target = replace(target, arch=sm)
        self.errors = [(kind, message, (loc.file, loc.line, loc.col, loc.function))
                       for kind, message, loc in error_table(module)]
        mod = K.PTXModuleEmitter(module, sm)
        self.partitions = {}
        self.kernels = []
        self._plans = []
        for f in module.functions():
            part = Partition(f)
            self.partitions[f.sym_name] = part
            for k, consts, extra in part.plans:
                if k.kind == "parallel":
                    K.emit_parallel(mod, k, extra, consts)
                elif k.kind == "matmul":
                    MM.emit_matmul(mod, k)
                elif k.kind == "reduce":
                    K.emit_reduce(mod, k, extra, consts)
                elif k.kind == "rows":
                    RW.emit_rows(mod, k, *extra, consts)
                else:
                    K.emit_serial(mod, k, consts)
                self.kernels.append(k)
            self._plans += part.plans
        self.llvm_ir = str(mod.ll)
        try:
            ref = llvm.parse_assembly(self.llvm_ir)
            ref.verify()
        except RuntimeError as e:
            raise RuntimeError(f"LLVM rejected the generated kernels: {e}\n{self.llvm_ir}") \
                from None
        if mod.uses_libdevice:
            path = libdevice_path()
            if path is None:
                raise unsupported("this function needs libdevice (math functions on the "
                                  "GPU)", None, "install a CUDA toolkit or nvidia-cuda-nvcc")
            with open(path, "rb") as f:
                ref.link_in(llvm.parse_bitcode(f.read()))
        optimize(ref, sm)
        self.ptx = target_machine(sm).emit_assembly(ref)
        check.check(self.ptx, sm)
        self.asm = self.ptx
        self._module = module
        self._loaded = weakref.WeakKeyDictionary()

    def entry(self, name: str, input_types=None, result_types=None, written=()):
        """A callable running function ``name`` on the GPU (see ``runtime.cuda.launcher``);
        ``written``: positions of the array arguments it writes, copied back to NumPy
        arguments."""
        func = self._module.lookup(name)
        program = HostProgram(self._module, func, self.partitions[name], self.errors)
        from runtime.cuda.launcher import GPUFunction
        inputs = input_types or list(func.function_type.inputs)
        results = result_types or list(func.function_type.results)
        return GPUFunction(self, program, [_spec(t) for t in inputs],
                           [_dtype(t) for t in results], [_is_array(t) for t in results],
                           written)

    def functions(self, rt) -> dict:
        """The kernels loaded by Runtime ``rt``: ``{name: CUfunction}`` (loaded once per
        Runtime, whose handles are valid only in its context). The kernels' semantics go
        with the PTX for the simulated driver (``simulate.py``)."""
        if rt not in self._loaded:
            self._loaded[rt] = check.load(rt, self.ptx, [k.name for k in self.kernels],
                                          lambda: SIM.semantics(self._module, self._plans,
                                                                K.check_ids(self._module)))
        return self._loaded[rt]


def _is_array(t) -> bool:
    return isinstance(t, (T.TensorType, T.MemRefType))


def _spec(t) -> tuple:
    """``(dtype, shape)`` of an array input (None for dynamic dims), ``(dtype, None)`` of a
    scalar."""
    return _dtype(t), tuple(t.shape) if _is_array(t) else None


def _dtype(t) -> np.dtype:
    return T.to_dtype(T.element_type(t) if isinstance(t, (T.TensorType, T.MemRefType))
                      else T.strong(t))


def compile_module(module, arch: str | None = None,
                   target: CudaTarget = DEFAULT_TARGET) -> PTXModule:
    """Compile a loop-level ``module`` for the GPU ``target`` (see the package docstring),
    for compute capability ``arch`` (default: ``target.arch``, else the present GPU's).
    Raises ``errors.unsupported`` (a CompileError that is a NotImplementedError) for code
    the CUDA back end does not support (prints, buffer allocation inside kernels, calls)."""
    return PTXModule(module, resolve_arch(arch or target.arch, target.device), target)


class CudaBackend(Backend):
    """The pipeline's backend for a CudaTarget: ``prepare(tensor module)`` before lowering,
    then ``codegen(loop module) -> PTXModule``. The only loop-level pass after lowering
    (``loop_pipeline``) computes float16 in float32 as the CPU does; no loop fusion or
    parallelization: each of the lowering's loops is a kernel."""

    name = "cuda"
    loop_pipeline = "arith-emulate-unsupported-floats"

    def __init__(self, target: CudaTarget = DEFAULT_TARGET):
        self.target = target

    def prepare(self, module):
        """The tensor-level rewrites of the CUDA target (``matmul.prepare``,
        ``gpu_reduce.prepare``)."""
        return GR.prepare(MM.prepare(module))

    def codegen(self, module) -> PTXModule:
        return compile_module(module, None, self.target)


__all__ = ["CudaBackend", "CudaTarget", "PTXModule", "compile_module"]
