"""Kernel code generation: loop-level regions -> NVPTX functions marked ``kernel``.

The scalar, ``scf``, ``complex`` and ``memref.load``/``store`` rules of the CPU back end are
reused (``backend/llvm/rules``) through ``KernelEmitter``; ``OVERRIDES`` replaces the rules
that need the C library (math functions become libdevice's ``__nv_*``, complex functions
``complexlib.py``'s) or the heap. Kernel kinds:

- ``parallel``: a nest of independent loops becomes one grid-stride loop over the flattened
  iteration space (``linear = ctaid.x * ntid.x + tid.x``, step ``nctaid.x * ntid.x``).
- ``reduce``: a loop whose iteration values are reductions runs its iterations grid-stride,
  each thread from the identity; threads combine through warp shuffles
  (``llvm.nvvm.shfl.sync.bfly``) and shared memory, and thread 0 of each block writes the
  block's partial result to ``out[block * groups + g]`` (8-byte slots); the host combines the
  partials (the second pass).
- ``rows``: a parallel nest around one reduction loop per iteration (a row reduction): a
  group of threads per row (``rows.py``).
- ``serial``: one thread runs an op that touches memory but has no parallel structure; its
  scalar results go to ``out``, in ``SERIAL_SLOT``-byte slots (wide enough for a complex128).

Parameters: a memref is ``(ptr addrspace(1) aligned, i64 offset, i64 sizes[r], i64
strides[r])``, a complex scalar its two parts (``float`` or ``double``: no aggregate
parameters), another scalar its storage type; then ``ptr addrspace(1) status`` (the C ABI's status
block: the first failing ``grafo.check`` claims it with a compare-and-swap) and, for
``reduce``/``serial``, ``ptr addrspace(1) out``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from llvmlite import ir

from ... import types as T
from ...dialects import blas, func, grafo, lapack, math, memref
from ...dialects import complex as cx
from ...dialects.builtin import ModuleOp
from ...errors import unsupported
from ..llvm.descriptor import MemRef
from ..llvm.emitter import Emitter, ModuleEmitter
from ..llvm.errors import check_ops
from ..llvm.rules import RULES
from ..llvm.rules.complex import make as make_complex
from ..llvm.types import I1, I8, I32, I64, PTR, STATUS, from_storage, scalar, storage
from . import complexlib as CL
from . import reduce as R
from .target import TRIPLE, target_machine

GLOBAL = ir.PointerType(addrspace=1)
SERIAL_SLOT = 16   # bytes per result of a serial kernel
SREG = "llvm.nvvm.read.ptx.sreg."


@dataclass
class Kernel:
    """One kernel: its name, kind, the IR values passed as parameters, the values the host
    receives (``outputs``), for ``reduce`` each output's combiner and initial value, for
    ``parallel`` and ``rows`` the flattened loops' bounds and for ``rows`` the reduction
    loop."""

    name: str
    kind: str
    op: object
    params: list
    outputs: list = field(default_factory=list)
    combiners: list = field(default_factory=list)
    inits: list = field(default_factory=list)
    dims: list = field(default_factory=list)    # (lb, ub, step) values of the flattened loops
    row_loop: object = None                     # a ``rows`` kernel's reduction loop
    has_checks: bool = False


class PTXModuleEmitter(ModuleEmitter):
    """The LLVM module of a GPU program: NVPTX triple and data layout, one kernel per
    parallel region, libdevice declarations."""

    def __init__(self, module: ModuleOp, sm: str):
        self.module = module
        self.ll = ir.Module(name="grafo_ptx")
        self.ll.triple = TRIPLE
        self.ll.data_layout = str(target_machine(sm).target_data)
        self.check_ids = check_ids(module)
        self.print_ids = {}
        self.functions = {f.sym_name: f for f in module.functions()}
        self._impls, self._outlined = {}, 0
        self.uses_libdevice = False

    def kernel_function(self, name: str, params: list) -> ir.Function:
        """A ``void`` function annotated as a kernel in ``nvvm.annotations``."""
        fn = ir.Function(self.ll, ir.FunctionType(ir.VoidType(), params), name)
        self.ll.add_named_metadata("nvvm.annotations", [fn, "kernel", ir.Constant(I32, 1)])
        return fn

    def sreg(self, b: ir.IRBuilder, name: str) -> ir.Value:
        """A special register (``tid.x``, ``ctaid.x``, ...) as ``i64``."""
        fn = self.external(SREG + name, I32, [])
        return b.zext(b.call(fn, []), I64)

    def shared_array(self, name: str, ty: ir.Type, n: int) -> ir.GlobalVariable:
        """An internal ``[n x ty]`` in shared memory (address space 3)."""
        g = ir.GlobalVariable(self.ll, ir.ArrayType(ty, n), name, addrspace=3)
        g.linkage = "internal"
        g.initializer = ir.Constant(ir.ArrayType(ty, n), None)
        g.align = 8
        return g

    def shared_slot(self, b: ir.IRBuilder, g: ir.GlobalVariable, i: ir.Value) -> ir.Value:
        """A pointer (address space 3) to element ``i`` of the shared array ``g``."""
        slot = b.gep(g, [ir.Constant(I64, 0), i], source_etype=g.value_type)
        slot.type = ir.PointerType(addrspace=3)   # opaque, as llvmlite types geps
        return slot


def check_ids(module: ModuleOp) -> dict:
    """``{grafo.check op: status code}``, codes from 1 in the error table's order."""
    return {op: k for k, op in enumerate(check_ops(module), 1)}


def _libdevice(name: str):
    def lower(fe, op):
        args = fe.operands(op)
        suffix = "f" if isinstance(args[0].type, ir.FloatType) else ""
        fe.mod.uses_libdevice = True
        fn = fe.mod.external(f"__nv_{name}{suffix}", args[0].type, [a.type for a in args])
        return [fe.b.call(fn, args)]
    return lower


def _unsupported(what: str):
    def lower(fe, op):
        raise unsupported(f"the CUDA back end cannot run {what} inside a kernel", op.loc,
                          "compile for the CPU instead")
    return lower


# Keyed by op class, as ``RULES``: these replace the CPU rules inside kernels.
OVERRIDES = {cls: _libdevice(c) for cls, c in
             {math.Exp2Op: "exp2", math.Log2Op: "log2", math.Log10Op: "log10",
              math.SinOp: "sin", math.CosOp: "cos", math.PowFOp: "pow",
              math.Log1pOp: "log1p", math.CbrtOp: "cbrt", math.TanOp: "tan",
              math.AsinOp: "asin", math.AcosOp: "acos", math.AtanOp: "atan",
              math.SinhOp: "sinh", math.CoshOp: "cosh", math.AsinhOp: "asinh",
              math.AcoshOp: "acosh", math.AtanhOp: "atanh", math.ErfOp: "erf",
              math.Atan2Op: "atan2"}.items()}
OVERRIDES[grafo.LibmOp] = lambda fe, op: _libdevice(op.attr("callee"))(fe, op)
OVERRIDES[memref.AllocOp] = _unsupported("a buffer allocation (memref.alloc)")
OVERRIDES[grafo.CMathOp] = CL.lower_cmath
OVERRIDES[cx.AbsOp] = CL.lower_abs
OVERRIDES[cx.AngleOp] = CL.lower_angle
OVERRIDES[memref.DeallocOp] = _unsupported(memref.DeallocOp.name)
OVERRIDES[grafo.PrintOp] = _unsupported("print")
OVERRIDES[func.CallOp] = _unsupported("a function call")
OVERRIDES.update({cls: _unsupported(f"LAPACK ({cls.name})") for cls in lapack.ROUTINE_OPS})
OVERRIDES.update({cls: _unsupported(f"BLAS ({cls.name})") for cls in blas.ROUTINE_OPS})


class KernelEmitter(Emitter):
    """Emits one kernel. Values defined outside the kernel arrive as parameters; constants
    are re-emitted inside it."""

    parallel_ok = False
    polls = False   # the host has no way to reach a running kernel's loops

    def __init__(self, mod: PTXModuleEmitter, kernel: Kernel, with_out: bool):
        types = []
        for v in kernel.params:
            if isinstance(v.type, T.MemRefType):
                types += [GLOBAL, I64] + [I64] * (2 * v.type.rank)
            elif isinstance(v.type, T.ComplexType):
                types += list(storage(v.type).elements)
            else:
                types.append(storage(v.type))
        types += [GLOBAL] + ([GLOBAL] if with_out else [])
        super().__init__(mod, mod.kernel_function(kernel.name, types))
        args = iter(self.fn.args)
        for v in kernel.params:
            if isinstance(v.type, T.MemRefType):
                self.values[v] = self._memref(v.type, args)
            elif isinstance(v.type, T.ComplexType):
                self.values[v] = make_complex(self.b, next(args), next(args))
            else:   # as stored: a bool in a byte, a half in its 16 bits
                self.values[v] = from_storage(self.b, next(args), v.type)
        self.status = self.b.addrspacecast(next(args), PTR)
        self.out = self.b.addrspacecast(next(args), PTR) if with_out else None
        self.exit = self.new_block("exit")

    def _memref(self, t: T.MemRefType, args) -> MemRef:
        aligned = self.b.addrspacecast(next(args), PTR)
        offset = next(args)
        sizes = [next(args) for _ in range(t.rank)]
        strides = [next(args) for _ in range(t.rank)]
        sizes = [ir.Constant(I64, d) if d is not None else s for d, s in zip(t.shape, sizes,
                                                                              strict=True)]
        if not t.strided:
            return MemRef.contiguous(self.b, t, aligned, aligned, sizes)
        return MemRef(t, aligned, aligned, offset, sizes, strides)

    def emit_op(self, op) -> None:
        rule = OVERRIDES.get(type(op)) or RULES.get(type(op))
        if rule is None:
            raise unsupported(f"the CUDA back end cannot lower '{op.name}'", op.loc)
        self.bind(op.results, rule(self, op) or [])

    def emit_constants(self, ops) -> None:
        """Emit constant ops (defined outside the kernel, used inside)."""
        for op in ops:
            self.emit_op(op)

    def fail_if(self, cond, code, params) -> None:
        """When ``cond`` holds: claim the status block (first failure wins), write ``code`` and
        ``params``, and end this thread."""
        b = self.b
        out, cont = self.new_block("fail"), self.new_block("ok")
        b.cbranch(cond, out, cont).set_weights([1, 1 << 20])
        b.position_at_end(out)
        code = ir.Constant(I32, code) if isinstance(code, int) else code
        pair = b.cmpxchg(self.status_field(0), ir.Constant(I32, 0), code, "monotonic",
                         "monotonic")
        write = self.new_block("fail.write")
        b.cbranch(b.extract_value(pair, 1), write, self.exit)
        b.position_at_end(write)
        for i, p in enumerate(params):
            b.store(p, self.status_field(2, i))
        b.branch(self.exit)
        b.position_at_end(cont)

    def return_if(self, cond, code) -> None:
        b = self.b
        cont = self.new_block("ok")
        b.cbranch(cond, self.exit, cont)
        b.position_at_end(cont)

    def finish(self) -> None:
        self.b.branch(self.exit)
        self.b.position_at_end(self.exit)
        self.b.ret_void()
        super().finish()

    # -- helpers ----------------------------------------------------------------------------
    def global_id(self) -> tuple:
        """(first linear thread index, grid-stride step) as ``i64``."""
        b, m = self.b, self.mod
        tid, bid, bdim = (m.sreg(b, n) for n in ("tid.x", "ctaid.x", "ntid.x"))
        gdim = m.sreg(b, "nctaid.x")
        return b.add(b.mul(bid, bdim), tid), b.mul(gdim, bdim)

    def trip_count(self, lb, ub, step) -> ir.Value:
        """``max(0, ceil((ub - lb) / step))`` for a positive ``step``."""
        b = self.b
        span = b.sub(ub, lb)
        n = b.sdiv(b.add(span, b.sub(step, ir.Constant(I64, 1))), step)
        return b.select(b.icmp_signed(">", span, ir.Constant(I64, 0)), n, ir.Constant(I64, 0))

    def grid_loop(self, total, body, carried=()) -> list:
        """``for linear in range(gid, total, stride): carried = body(linear, *carried)``."""
        start, stride = self.global_id()
        return self.loop(start, total, stride, body, carried)

    def loop(self, start, end, step, body, carried=()) -> list:
        """``for i in range(start, end, step): carried = body(i, *carried)`` (``i64``, a
        positive ``step``); returns the final carried values."""
        b = self.b
        pre = b.block
        head, loop, done = (self.new_block(n) for n in ("loop.head", "loop.body", "loop.end"))
        b.branch(head)
        b.position_at_end(head)
        i = b.phi(I64)
        i.add_incoming(start, pre)
        phis = []
        for c in carried:
            p = b.phi(c.type)
            p.add_incoming(c, pre)
            phis.append(p)
        b.cbranch(b.icmp_signed("<", i, end), loop, done)
        b.position_at_end(loop)
        nxt = body(i, *phis) or []
        i.add_incoming(b.add(i, step), b.block)
        for p, v in zip(phis, nxt, strict=True):
            p.add_incoming(v, b.block)
        b.branch(head)
        b.position_at_end(done)
        return phis


def flat_nest(ke: KernelEmitter, k: Kernel, loops: list) -> tuple:
    """``(total, bind)``: the trip count of the flattened nest ``loops`` (``k.dims``) and
    ``bind(linear)``, which binds the loops' induction variables for flattened iteration
    ``linear`` (row-major) and their passed-through buffers."""
    b = ke.b
    bounds = [[ke.values[v] for v in dim] for dim in k.dims]
    counts = [ke.trip_count(*bd) for bd in bounds]
    total = counts[0]
    for c in counts[1:]:
        total = b.mul(total, c)

    def bind(lin):
        ivs = []
        for (lb, _, step), c in zip(reversed(bounds), reversed(counts), strict=True):
            ivs.append(b.add(lb, b.mul(b.srem(lin, c), step)))
            lin = b.sdiv(lin, c)
        for loop, iv in zip(loops, reversed(ivs), strict=True):
            ke.values[loop.body.args[0]] = iv
            for arg, init in zip(loop.body.args[1:], loop.iter_inits, strict=True):
                ke.values[arg] = ke.values[init]   # buffers passed through unchanged
    return total, bind


def emit_parallel(mod: PTXModuleEmitter, k: Kernel, loops: list, constants: list) -> None:
    """A grid-stride kernel over the flattened iteration space of the nest ``loops``."""
    ke = KernelEmitter(mod, k, with_out=False)
    ke.emit_constants(constants)
    total, bind = flat_nest(ke, k, loops)

    def body(lin):
        bind(lin)
        ke.emit_ops(loops[-1].body)
    ke.grid_loop(total, body)
    ke.finish()


def emit_serial(mod: PTXModuleEmitter, k: Kernel, constants: list) -> None:
    """One thread runs ``k.op``; its scalar results go to ``out`` (``SERIAL_SLOT``-byte
    slots)."""
    ke = KernelEmitter(mod, k, with_out=True)
    ke.emit_constants(constants)
    ke.emit_op(k.op)
    for i, v in enumerate(k.outputs):
        x = ke.values[v]
        x = ke.b.zext(x, I8) if x.type == I1 else x
        ke.b.store(x, ke.b.gep(ke.out, [ir.Constant(I64, SERIAL_SLOT * i)],
                                   source_etype=I8))
    ke.finish()


def emit_reduce(mod: PTXModuleEmitter, k: Kernel, groups: list, constants: list) -> None:
    """Grid-stride iterations of the loop ``k.op`` from the identities, then block
    reductions of each group's value (``reduce.py``)."""
    ke = KernelEmitter(mod, k, with_out=True)
    ke.emit_constants(constants)
    b, loop = ke.b, k.op
    lb, ub, step = (ke.values[v] for v in loop.operands[:3])
    types = [scalar(a.type) for a in loop.body.args[1:]]
    idents = [None] * len(types)
    for g in groups:
        for i in g.iter_indices:
            idents[i] = R.identity(g.combiner, types[i])

    def body(lin, *accs):
        ke.bind(loop.body.args, [b.add(lb, b.mul(lin, step)), *accs])
        return ke.operands(ke.emit_ops(loop.body))
    accs = ke.grid_loop(ke.trip_count(lb, ub, step), body, idents)
    for gi, g in enumerate(groups):
        v = accs[g.iter_indices[0]] if len(g.iter_indices) == 1 else \
            b.fsub(accs[g.iter_indices[0]], accs[g.iter_indices[1]])
        R.block_reduce(ke, v, g.combiner, f"{k.name}.smem{gi}", gi, len(groups))
    ke.finish()


__all__ = ["GLOBAL", "SERIAL_SLOT", "STATUS", "Kernel", "KernelEmitter", "PTXModuleEmitter",
           "check_ids", "emit_parallel", "emit_reduce", "emit_serial", "flat_nest"]
