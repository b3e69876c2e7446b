"""The host program: walks the loop-level function in Python, launching its kernels in
order through ``runtime.cuda`` and evaluating everything else (scalars, buffer allocation,
checks, control flow around kernels) on the host.

Scalars follow the loop-level interpreter's representation (``compiler/interpreter/``:
Python ints holding signed values, NumPy floats); memrefs are ``runtime.cuda.DeviceArray`` s.
Reading back a reduction or serial kernel's results synchronizes the stream; parallel
kernels are queued without waiting.
"""

from __future__ import annotations

import numpy as np

from runtime.cuda.launcher import raise_status_error
from runtime.cuda.memory import wrap

from ... import types as T
from ...dialects import func, grafo, memref, scf
from ...interpreter import Interpreter, storage_dtype
from . import matmul as MM
from . import reduce as R
from . import rows as RW
from .kernels import SERIAL_SLOT, check_ids

THREADS = 256
MAX_REDUCE_BLOCKS = 1024


def _trip(lb: int, ub: int, step: int) -> int:
    return max(0, -((lb - ub) // step))


def _host_scalar(t: T.Type, x):
    if isinstance(t, (T.FloatType, T.ComplexType)):
        return storage_dtype(t).type(x)
    return int(x)


class HostProgram:
    """Runs one loop-level function: ``run(args)`` takes DeviceArrays and scalars in the
    interpreter's representation and returns the function's results."""

    def __init__(self, module, func, partition, errors: list):
        self.func = func
        self.part = partition
        self.errors = errors
        self.check_ids = check_ids(module)
        self._interp = Interpreter(module)
        self._constants: dict = {}   # grafo.constant op -> its DeviceArray

    def run(self, rt, functions: dict, args: list) -> list:
        self.rt, self.functions = rt, functions
        self.status = rt.zeros(40)
        try:
            return self._block(self.func.body, args, {})
        finally:
            self.status.free()

    def _block(self, block, args, env) -> list:
        for a, v in zip(block.args, args, strict=True):
            env[a] = v
        for op in block.ops:
            if isinstance(op, _TERMINATORS):
                return [env[v] for v in op.operands]
            if op in self.part.provided:
                continue
            k = self.part.kernels.get(op)
            res = self._launch(k, op, env) if k is not None else self._op(op, env)
            for r, v in zip(op.results, res, strict=True):
                env[r] = v
        return []

    def _op(self, op, env) -> list:
        """Run ``op`` (no kernel): by its ``_ON_HOST`` method, by ``_AROUND_KERNELS`` when it
        is a loop holding kernels, or else by the interpreter."""
        run = self._ON_HOST.get(type(op))
        if run is None and any(o in self.part.kernels for o in _all(op)):
            run = self._AROUND_KERNELS.get(type(op))
        if run is not None:
            return run(self, op, [env[v] for v in op.operands], env)
        return self._interp.evaluate(op, env)

    # -- host ops: ``(self, op, operand values, env) -> results`` ------------------------------
    def _alloc(self, op, xs, env) -> list:
        t = op.result.type
        dyn = iter(xs)
        shape = tuple(d if d is not None else next(dyn) for d in t.shape)
        return [self.rt.empty(shape, storage_dtype(t.element))]

    def _dealloc(self, op, xs, env) -> list:
        xs[0].free()
        return []

    def _constant(self, op, xs, env) -> list:
        """Copied to the device once, kept with the program."""
        if op not in self._constants:
            a = op.attributes["value"].value.astype(storage_dtype(op.result.type.element))
            self._constants[op] = wrap(self.rt, a)
        return [self._constants[op]]

    def _check_op(self, op, xs, env) -> list:
        if not xs[0]:
            raise_status_error(self.errors, self.check_ids[op], [int(x) for x in xs[1:]],
                               self.func.sym_name)
        return []

    def _dim(self, op, xs, env) -> list:
        return [xs[0].shape[xs[1]]]

    def _stride(self, op, xs, env) -> list:
        return [xs[0].element_strides[xs[1]]]

    def _if(self, op, xs, env) -> list:
        region = op.regions[0] if xs[0] else op.regions[1]
        return self._block(region.blocks[0], [], env) if region.blocks else []

    def _for(self, op, xs, env) -> list:
        lb, ub, step, *carried = xs
        i = lb
        while i < ub:
            carried = self._block(op.body, [i, *carried], env)
            i += step
        return carried

    def _while(self, op, xs, env) -> list:
        carried = xs
        while True:
            cond, *fwd = self._block(op.regions[0].blocks[0], carried, env)
            if not cond:
                return fwd
            carried = self._block(op.regions[1].blocks[0], fwd, env)

    # Ops the host always runs itself, and loops it walks when they hold kernels (the
    # interpreter runs the rest).
    _ON_HOST = {memref.AllocOp: _alloc, memref.DeallocOp: _dealloc, grafo.ConstantOp: _constant,
                grafo.CheckOp: _check_op, memref.DimOp: _dim, grafo.StrideOp: _stride,
                scf.IfOp: _if}
    _AROUND_KERNELS = {scf.ForOp: _for, scf.WhileOp: _while}

    def _param_values(self, k, env) -> list:
        out = []
        for v in k.params:
            x = env[v]
            if isinstance(v.type, T.MemRefType):
                out.append(x)
            elif isinstance(v.type, T.ComplexType):   # as two float parameters (``kernels.py``)
                part = storage_dtype(T.lowered(v.type).element).type
                out += [part(x.real), part(x.imag)]
            elif v.type == T.f16:   # as its 16 bits (``kernels.py``)
                out.append(np.float16(x).view(np.uint16))
            else:
                out.append((storage_dtype(v.type if v.type != T.i1 else T.i8).type(x)))
        return out

    def _launch(self, k, op, env) -> list:
        fn = self.functions[k.name]
        params = self._param_values(k, env)
        if k.kind == "parallel":
            total = 1
            for lb, ub, step in k.dims:
                total *= _trip(env[lb], env[ub], env[step])
            if total:
                blocks = min(-(-total // THREADS), self.rt.max_blocks())
                self.rt.launch(fn, blocks, THREADS, params, self.status)
            self._check(k)
            return [env[v] for v in op.iter_inits]
        if k.kind == "rows":
            self._launch_rows(k, fn, params, env)
            return [env[v] for v in op.iter_inits]
        if k.kind == "matmul":
            blocks, threads = MM.grid(params[2].shape)
            if all(blocks):
                self.rt.launch(fn, blocks, threads, params, self.status)
            return []
        if k.kind == "serial":
            raw = self._run_with_out(fn, 1, 1, params, len(k.outputs), SERIAL_SLOT)
            self._check(k)
            return [self._decode(raw[i], v.type) for i, v in enumerate(k.outputs)]
        lb, ub, step = (env[v] for v in op.operands[:3])
        blocks = max(1, min(-(-_trip(lb, ub, step) // THREADS), MAX_REDUCE_BLOCKS))
        raw = self._run_with_out(fn, blocks, THREADS, params, blocks * len(k.outputs))
        self._check(k)
        raw = raw.reshape(blocks, len(k.outputs), 8)
        for g, (v, comb, init) in enumerate(zip(k.outputs, k.combiners, k.inits, strict=True)):
            dt = storage_dtype(v.type)
            parts = raw[:, g, :dt.itemsize].copy().view(dt).reshape(-1)
            start = 0 if init is None else env[init]
            env[v] = _host_scalar(v.type, R.combine_host(comb, parts, np.array(start).astype(dt)))
        return [env[r] if r in env else None for r in op.results]

    def _launch_rows(self, k, fn, params, env) -> None:
        rows = 1
        for lb, ub, step in k.dims:
            rows *= _trip(env[lb], env[ub], env[step])
        bounds = k.row_loop.operands[:3]
        # the row length decides the launch shape when it is known before the launch
        trips = _trip(*(env[v] for v in bounds)) if all(v in env for v in bounds) else None
        if rows:
            grid, block = RW.launch_shape(rows, trips, self.rt.max_blocks())
            self.rt.launch(fn, grid, block, params, self.status)
        self._check(k)

    def _run_with_out(self, fn, blocks, threads, params, slots, width=8) -> np.ndarray:
        """The ``out`` block of a launch: ``slots`` rows of ``width`` bytes."""
        out = self.rt.zeros(width * slots)
        try:
            self.rt.launch(fn, blocks, threads, params, self.status, out)
            return out.read().view(np.uint8).reshape(slots, width)
        finally:
            out.free()

    @staticmethod
    def _decode(raw: np.ndarray, t: T.Type):
        dt = storage_dtype(t if t != T.i1 else T.i8)
        return _host_scalar(t, raw[:dt.itemsize].copy().view(dt)[0])

    def _check(self, k) -> None:
        if not k.has_checks:
            return
        block = self.status.read().view(np.uint8)
        code = int(block[:4].view(np.int32)[0])
        if code:
            raise_status_error(self.errors, code, [int(p) for p in block[8:40].view(np.int64)],
                               self.func.sym_name)


_TERMINATORS = (scf.YieldOp, scf.ConditionOp, func.ReturnOp)


def _all(op):
    from .partition import nested
    return nested(op)
