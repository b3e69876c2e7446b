"""Code generation state: ``ModuleEmitter`` (one LLVM module per IR module), ``Emitter``
(ops -> one LLVM function) and ``FunctionEmitter`` (one loop-level ``func.func`` -> one
internal LLVM function); ``parallel.py`` adds the emitter of outlined parallel loop bodies.

A function ``name`` becomes ``i32 @"name.impl"(<inputs>, <result ptrs>, ptr status,
ptr arena)``: the C ABI's parameters (``entry.py``) plus the call's buffer list
(``alloc.py``). Ops are lowered in block order by the rules of ``rules/``; structured control
flow rules emit their nested blocks through ``emit_ops``.
"""

from __future__ import annotations

import functools

from llvmlite import ir

from ... import types as T
from ...dialects import scf
from ...dialects.builtin import ModuleOp
from ...errors import unsupported
from ...ir.core import Block, Operation, Value
from .descriptor import MemRef
from .errors import check_ops
from .interrupt import emit_poll
from .printing import print_ops
from .rules import RULES
from .target import host_target_machine, triple
from .types import I32, PTR, STATUS, abi_param, from_storage, scalar

_FLOAT_SUFFIX = {"float": "f32", "double": "f64"}


class ModuleEmitter:
    """Holds the LLVM module being built, declarations, and the status code of each check."""

    def __init__(self, module: ModuleOp, name: str = "grafo"):
        self.module = module
        self.ll = ir.Module(name=name)
        self.ll.triple = triple()
        self.ll.data_layout = str(host_target_machine().target_data)
        self.check_ids = {op: k for k, op in enumerate(check_ops(module), 1)}
        self.print_ids = {op: k for k, op in enumerate(print_ops(module))}
        self.functions = {f.sym_name: f for f in module.functions()}
        self._impls: dict[str, ir.Function] = {}
        self._outlined = 0

    def outlined_name(self, parent: ir.Function) -> str:
        """A fresh name for a function outlined from ``parent``."""
        self._outlined += 1
        return f"{parent.name}.par{self._outlined}"

    def lookup(self, name: str):
        """The ``func.func`` named ``name``. Raises KeyError naming the missing symbol."""
        try:
            return self.functions[name]
        except KeyError:
            raise KeyError(f"func.call of an unknown function @{name}") from None

    def impl(self, name: str) -> ir.Function:
        """The internal LLVM function of ``func.func @name`` (declared on first use)."""
        if name not in self._impls:
            ft = self.lookup(name).function_type
            params = [abi_param(t) for t in ft.inputs] + [PTR] * len(ft.results) + [PTR, PTR]
            fn = ir.Function(self.ll, ir.FunctionType(I32, params), f"{name}.impl")
            fn.linkage = "internal"
            self._impls[name] = fn
        return self._impls[name]

    def intrinsic(self, name: str, ty: ir.Type, arity: int) -> ir.Function:
        """``llvm.<name>.f32/f64`` taking ``arity`` operands of float type ``ty``."""
        return self.intrinsic_typed(f"llvm.{name}", [ty], ty, [ty] * arity)

    def intrinsic_typed(self, name: str, overloads: list, ret: ir.Type, args: list):
        """An overloaded intrinsic, mangled ``name.<t>...`` for the types in ``overloads``."""
        suffix = ".".join(_FLOAT_SUFFIX.get(str(t), str(t)) for t in overloads)
        return self.external(f"{name}.{suffix}", ret, args)

    def external(self, name: str, ret: ir.Type, args: list) -> ir.Function:
        """A declared external function (C library or intrinsic), declared once."""
        fn = self.ll.globals.get(name)
        if fn is None:
            fn = ir.Function(self.ll, ir.FunctionType(ret, args), name)
        return fn


class Emitter:
    """Emits IR ops into one LLVM function ``fn``: the state and helpers rules use.

    Subclasses set ``status`` (the status block that callees fill) and ``arena`` (the buffer
    list) and decide what a failure does (``fail_if``/``return_if``). ``parallel_ok`` says
    whether ``grafo.parallel`` loops may run on threads here (not inside a parallel body);
    ``polls`` whether loops marked ``grafo.poll`` poll the interrupt flag (``interrupt.py``)."""

    parallel_ok = True
    polls = True

    def __init__(self, mod: ModuleEmitter, fn: ir.Function):
        self.mod = mod
        self.fn = fn
        self._allocas = ir.IRBuilder(fn.append_basic_block("entry"))
        self._body = fn.append_basic_block("body")
        self.b = ir.IRBuilder(self._body)
        self.values: dict[Value, object] = {}

    def finish(self) -> None:
        """Close the entry block (allocas only) with a branch to the body."""
        self._allocas.branch(self._body)

    # -- used by rules ----------------------------------------------------------------------
    def emit_ops(self, block: Block) -> Operation:
        """Emit every op of ``block`` but its terminator, which is returned."""
        for op in block.ops[:-1]:
            self.emit_op(op)
        return block.ops[-1]

    def emit_op(self, op: Operation) -> None:
        rule = RULES.get(type(op))
        if rule is None:
            raise unsupported(f"the LLVM backend cannot lower '{op.name}'", op.loc,
                              "it takes loop-level ops only; run the lowering first")
        results = rule(self, op) or []
        self.bind(op.results, results)

    def bind(self, values, generated) -> None:
        for v, g in zip(values, generated, strict=True):
            self.values[v] = g

    def operand(self, op: Operation, i: int):
        return self.values[op.operands[i]]

    def operands(self, op: Operation) -> list:
        return [self.values[v] for v in op.operands]

    def new_block(self, name: str) -> ir.Block:
        return self.fn.append_basic_block(name)

    def entry_alloca(self, ty: ir.Type) -> ir.Value:
        """A stack slot in the entry block (allocas in loops would grow the stack), as an
        opaque ``ptr`` (llvmlite types allocas with typed pointers)."""
        slot = self._allocas.alloca(ty)
        slot.type = PTR
        return slot

    def status_field(self, *idx) -> ir.Value:
        """Pointer to a field of ``self.status``: ``(0,)`` the code, ``(2, i)`` param i."""
        return self.b.gep(self.status, [ir.Constant(I32, i) for i in (0, *idx)],
                          inbounds=True, source_etype=STATUS)

    def return_if(self, cond: ir.Value, code: ir.Value) -> None:
        """Return ``code`` from the function when ``cond`` holds (an unlikely branch); the
        status block was filled by a callee."""
        out, cont = self.new_block("fail"), self.new_block("ok")
        self.b.cbranch(cond, out, cont).set_weights([1, 1 << 20])
        self.b.position_at_end(out)
        self.b.ret(code)
        self.b.position_at_end(cont)

    def poll(self) -> None:
        """Stop with status ``INTERRUPTED`` when the interrupt flag is set for this thread
        (``interrupt.emit_poll``)."""
        emit_poll(self)

    def fail_if(self, cond: ir.Value, code, params: list) -> None:
        """When ``cond`` holds: write ``code`` (an int or an ``i32`` value) and ``params``
        (``i64`` values) to the status block, return ``code``."""
        out, cont = self.new_block("fail"), self.new_block("ok")
        self.b.cbranch(cond, out, cont).set_weights([1, 1 << 20])
        self.b.position_at_end(out)
        code = ir.Constant(I32, code) if isinstance(code, int) else code
        self.b.store(code, self.status_field(0))
        for i, p in enumerate(params):
            self.b.store(p, self.status_field(2, i))
        self.b.ret(code)
        self.b.position_at_end(cont)


class FunctionEmitter(Emitter):
    """Emits the body of one ``func.func`` into its internal LLVM function."""

    def __init__(self, mod: ModuleEmitter, func):
        super().__init__(mod, mod.impl(func.sym_name))
        self.func = func
        ft = func.function_type
        n_in, n_out = len(ft.inputs), len(ft.results)
        self.result_ptrs = self.fn.args[n_in:n_in + n_out]
        self.status, self.arena = self.fn.args[-2], self.fn.args[-1]
        self._bind_arguments(ft.inputs)

    def _bind_arguments(self, inputs) -> None:
        for arg, t, p in zip(self.func.body.args, inputs, self.fn.args, strict=False):
            if isinstance(t, T.MemRefType):
                self.values[arg] = MemRef.load(self.b, t, p)
            elif p.type == PTR:  # a complex scalar, passed by pointer
                self.values[arg] = self.b.load(p, typ=scalar(t))
            else:
                self.values[arg] = from_storage(self.b, p, t)

    @functools.cached_property
    def parallel_loops(self) -> int:
        """The number of loops marked ``grafo.parallel`` in the function."""
        return sum(scf.PARALLEL in op.attributes for op in self.func.walk())

    def emit(self) -> None:
        """Emit the whole body (its ``func.return`` included)."""
        term = self.emit_ops(self.func.body)
        self.emit_op(term)
        self.finish()
