"""What each kernel computes, for the simulated CUDA driver (``runtime/cuda/simulator.py``).

A kernel's semantics is the loop-level IR it was generated from, run by the loop-level
interpreter (``compiler/ir/interpreter.py``) on the simulated device memory, thread by thread
with the thread-to-iteration mapping of the PTX the emitters write:

- parameters are read as ``KernelEmitter`` declares them: a memref as ``(pointer, offset,
  sizes, strides)`` (an identity-layout memref ignores offset and strides; static sizes are
  the type's), a complex scalar as its two parts, another scalar in its storage type (``i1``
  as ``i8``), then ``status`` and, for
  ``reduce`` and ``serial``, ``out``;
- ``parallel`` (``kernels.emit_parallel``): thread ``ctaid.x * ntid.x + tid.x`` runs the
  flattened iterations ``linear, linear + nctaid.x * ntid.x, ...`` (row-major over the nest);
- ``reduce`` (``kernels.emit_reduce``): the same grid-stride split of the loop, each thread
  from the identities; a block combines its threads' values in thread order and writes group
  ``g`` to the 8-byte slot ``out[ctaid.x * groups + g]``;
- ``rows`` (``rows.py``): rows ``ctaid.x * ntid.y + tid.y`` step ``nctaid.x * ntid.y``; thread
  ``tid.x`` runs iterations ``tid.x, tid.x + ntid.x, ...`` of the row's reduction loop; the
  row's values combine in thread order, the loop's initial value last; the ops after the loop
  run once per row;
- ``matmul`` (``matmul.py``): thread ``(tid.x, tid.y)`` of block ``(ctaid.x, ctaid.y)``
  computes ``C[z..., ctaid.y * TILE + tid.y, ctaid.x * TILE + tid.x]`` for batch ``z =
  ctaid.z, ... step nctaid.z`` when inside ``C``, by the loop nest's cell;
- ``serial``: every launched thread runs the op and writes its scalar results to ``out``
  (``kernels.SERIAL_SLOT``-byte slots).

A failing ``grafo.check`` writes the status block as the PTX does (the first failure's code,
its params widened to i64) and ends its thread. Warp shuffles, shared memory and barriers are
not simulated: threads' values combine in order, not by the GPU's tree (float sums may differ
in the last bits). ``Fault`` (CUDA_ERROR_LAUNCH_FAILED) is raised for a launch shape the PTX
cannot run correctly (a reduction over partial warps, a second grid dimension for a
one-dimensional kernel, matmul blocks other than ``TILE x TILE``), and
(CUDA_ERROR_ILLEGAL_ADDRESS) for a load or store outside its memref or memory outside an
allocation.
"""

from __future__ import annotations

import ctypes

import numpy as np

from runtime.cuda.sim_memory import Fault

from ... import types as T
from ...dialects.grafo import CheckOp
from ...dialects.scf import ForOp
from ...interpreter import Buffer, Interpreter, UndefinedBehavior, signed, storage_dtype
from . import reduce as R
from .kernels import SERIAL_SLOT
from .matmul import TILE
from .partition import MEMORY, free_values

STATUS_BYTES = 40
# The interpreter's messages for bad loads and stores start with the op's name.
_MEMORY_OPS = tuple(cls.name for cls in MEMORY)


class _ThreadExit(Exception):
    """The running thread failed a check and leaves the kernel."""


def _thread_check(th, op, xs, env) -> list:
    """``grafo.check`` in a kernel: a failure writes the status block (``fail``) and ends the
    thread."""
    ok, *params = xs
    if not ok:
        fail(th.status, th.check_ids[op], params)
        raise _ThreadExit
    return []


class _Thread(Interpreter):
    """The interpreter with ``grafo.check`` writing the status block (``fail``)."""

    rules = {**Interpreter.rules, CheckOp: _thread_check}

    def __init__(self, module, status: np.ndarray, check_ids: dict):
        super().__init__(module)
        self.status = status
        self.check_ids = check_ids

    def run(self, op, env) -> None:
        """Run ``op``, binding its results in ``env``."""
        for r, v in zip(op.results, self.evaluate(op, env), strict=True):
            env[r] = v


def fail(status: np.ndarray, code: int, params: list) -> None:
    """The status block protocol: the first failure claims the block (code 0 -> ``code``,
    int32 at byte 0) and writes its params as int64 from byte 8."""
    head = status[:4].view(np.int32)
    if head[0] == 0:
        head[0] = code
        status[8:8 + 8 * len(params)].view(np.int64)[:] = [int(p) for p in params]


def _storage(t: T.Type) -> np.dtype:
    return storage_dtype(T.i8 if t == T.i1 else t)


def param_types(k) -> list:
    """The ctypes type of each PTX parameter of kernel ``k`` (``KernelEmitter``)."""
    out = []
    for v in k.params:
        if isinstance(v.type, T.MemRefType):
            out += [ctypes.c_uint64] + [ctypes.c_int64] * (1 + 2 * v.type.rank)
        elif isinstance(v.type, T.ComplexType):
            out += [np.ctypeslib.as_ctypes_type(_storage(T.lowered(v.type).element))] * 2
        elif v.type == T.f16:   # its 16 bits (``KernelEmitter``)
            out.append(ctypes.c_uint16)
        else:
            out.append(np.ctypeslib.as_ctypes_type(_storage(v.type)))
    return out + [ctypes.c_uint64] * (2 if k.kind in ("reduce", "serial") else 1)


def _trip(lb: int, ub: int, step: int) -> int:
    return max(0, -((lb - ub) // step))


def _to_interp(t: T.Type, x):
    """A value of storage dtype as the interpreter holds it."""
    if isinstance(t, T.FloatType):
        return storage_dtype(t).type(x)
    return int(bool(x)) if t == T.i1 else signed(int(x), 64 if isinstance(t, T.IndexType)
                                                   else t.width)


def identity(combiner: type, t: T.Type):
    """The identity of ``combiner`` for type ``t``, as the interpreter holds it."""
    if isinstance(t, T.FloatType):
        return storage_dtype(t).type(R.FLOAT_IDENTITY[combiner])
    w = 1 if t == T.i1 else 64 if isinstance(t, T.IndexType) else t.width
    return signed(R.int_identity(combiner, w), w)


def fold(combiner: type, t: T.Type, values: list, init):
    """``init`` combined with ``values`` in order (``reduce.combine_host``)."""
    dt = storage_dtype(t)
    x = R.combine_host(combiner, np.array(values, dt), np.array(init).astype(dt))
    return _to_interp(t, x)


class KernelSemantics:
    """The semantics of one kernel (see the module docstring): ``param_types`` and
    ``run(grid, block, args, memory)``, the simulated driver's interface."""

    def __init__(self, module, kernel, constants: list, extra, check_ids: dict):
        self.module = module
        self.k = kernel
        self.constants = constants
        self.extra = extra
        self.check_ids = check_ids
        self.param_types = param_types(kernel)

    def run(self, grid: tuple, block: tuple, args: list, memory) -> None:
        """Compute what the kernel computes when launched with ``grid`` x ``block`` on
        ``args`` (the decoded parameters). Raises ``Fault``."""
        k = self.k
        env, rest = self._bind(args, memory)
        status = memory.view(rest[0], np.uint8, (STATUS_BYTES,), (1,))
        th = _Thread(self.module, status, self.check_ids)
        for c in self.constants:
            th.run(c, env)
        self._shape(grid, block)
        try:
            getattr(self, "_" + k.kind)(th, env, grid, block, memory, *rest[1:])
        except UndefinedBehavior as e:
            memory_op = str(e).startswith(_MEMORY_OPS)
            raise Fault("CUDA_ERROR_ILLEGAL_ADDRESS" if memory_op else
                        "CUDA_ERROR_LAUNCH_FAILED", str(e)) from None

    def _shape(self, grid, block) -> None:
        """Fault for launch shapes the kernel's PTX does not handle."""
        kind = self.k.kind
        if kind == "matmul":
            ok = block == (TILE, TILE, 1)
        elif kind in ("reduce", "rows"):
            ok = grid[1:] == (1, 1) and block[0] % R.WARP == 0 and block[2] == 1 and \
                (kind == "rows" or block[1] == 1)
        else:
            ok = grid[1:] == (1, 1) and block[1:] == (1, 1)
        if not ok:
            raise Fault("CUDA_ERROR_LAUNCH_FAILED", f"a {kind} kernel launched with grid "
                        f"{grid} and block {block}, a shape its code does not handle")

    def _bind(self, args: list, memory) -> tuple:
        """``(env, [status, out])``: the kernel's params bound to interpreter values."""
        env, it = {}, iter(args)
        for v in self.k.params:
            t = v.type
            if isinstance(t, T.ComplexType):
                re, im = next(it), next(it)
                env[v] = _storage(t).type(complex(re, im))
                continue
            if t == T.f16:
                env[v] = np.uint16(next(it)).view(np.float16)
                continue
            if not isinstance(t, T.MemRefType):
                env[v] = _to_interp(t, next(it))
                continue
            ptr, offset = next(it), next(it)
            sizes = [next(it) for _ in range(t.rank)]
            strides = [next(it) for _ in range(t.rank)]
            sizes = [d if d is not None else s for d, s in zip(t.shape, sizes, strict=True)]
            if not t.strided:
                offset = 0
                strides = [int(np.prod(sizes[i + 1:], dtype=np.int64)) for i in range(t.rank)]
            dt = storage_dtype(t.element)
            env[v] = Buffer(memory.view(ptr + offset * dt.itemsize, dt, tuple(sizes), strides),
                            owned=False)
        return env, list(it)

    # -- kinds ---------------------------------------------------------------------------------
    def _nest(self, loops, env):
        """``(total, bind)`` of the flattened nest (``kernels.flat_nest``)."""
        bounds = [[env[v] for v in dim] for dim in self.k.dims]
        counts = [_trip(*b) for b in bounds]

        def bind(lin):
            ivs = []
            for (lb, _, step), c in zip(reversed(bounds), reversed(counts), strict=True):
                ivs.append(lb + lin % c * step)
                lin //= c
            for loop, iv in zip(loops, reversed(ivs), strict=True):
                env[loop.body.args[0]] = iv
                for arg, init in zip(loop.body.args[1:], loop.iter_inits, strict=True):
                    env[arg] = env[init]
        return int(np.prod(counts, dtype=object)), bind

    def _parallel(self, th, env, grid, block, memory):
        loops = self.extra
        total, bind = self._nest(loops, env)
        inner = loops[-1].body
        stride = grid[0] * block[0]
        for gid in range(min(stride, total)):
            try:
                for lin in range(gid, total, stride):
                    bind(lin)
                    th.run_block(inner, [env[a] for a in inner.args], env)
            except _ThreadExit:
                pass

    def _thread_values(self, th, env, loop, groups, first, count, stride) -> list | None:
        """One thread's value per group: iterations ``first, first + stride, ... < count`` of
        ``loop`` from the identities; None when the thread failed a check."""
        lb, _, step = (env[v] for v in loop.operands[:3])
        types = [a.type for a in loop.body.args[1:]]
        accs = [None] * len(types)
        for g in groups:
            for i in g.iter_indices:
                accs[i] = identity(g.combiner, types[i])
        try:
            for j in range(first, count, stride):
                accs = th.run_block(loop.body, [lb + j * step, *accs], env)
        except _ThreadExit:
            return None
        with np.errstate(all="ignore"):
            return [accs[g.iter_indices[0]] if len(g.iter_indices) == 1 else
                    accs[g.iter_indices[0]] - accs[g.iter_indices[1]] for g in groups]

    def _block_values(self, th, env, loop, groups, first, count, stride, threads) -> list:
        """The values of ``threads`` threads (thread ``t`` starting at ``first + t``) per group,
        combined in thread order from the identities."""
        per_thread = [self._thread_values(th, env, loop, groups, first + t, count, stride)
                      for t in range(threads)]
        per_thread = [v for v in per_thread if v is not None]
        out = []
        for gi, g in enumerate(groups):
            t = loop.results[g.iter_indices[0]].type
            out.append(fold(g.combiner, t, [v[gi] for v in per_thread],
                            identity(g.combiner, t)))
        return out

    def _reduce(self, th, env, grid, block, memory, out):
        loop, groups = self.k.op, self.extra
        lb, ub, step = (env[v] for v in loop.operands[:3])
        count, stride = _trip(lb, ub, step), grid[0] * block[0]
        for b in range(grid[0]):
            values = self._block_values(th, env, loop, groups, b * block[0], count, stride,
                                        block[0])
            for gi, (g, v) in enumerate(zip(groups, values, strict=True)):
                _store(memory, out + 8 * (b * len(groups) + gi),
                       loop.results[g.iter_indices[0]].type, v)

    def _rows(self, th, env, grid, block, memory):
        loops, red, groups = self.extra
        rows, bind = self._nest(loops, env)
        body = loops[-1].body
        at = body.ops.index(red)
        provided = {g.output.owner_op() for g in groups if len(g.iter_indices) == 2}
        ntx, nty = block[0], block[1]
        for b in range(grid[0]):
            for ty in range(nty):
                for row in range(b * nty + ty, rows, grid[0] * nty):
                    bind(row)
                    for op in body.ops[:at]:
                        th.run(op, env)
                    lb, ub, step = (env[v] for v in red.operands[:3])
                    values = self._block_values(th, env, red, groups, 0, _trip(lb, ub, step),
                                                ntx, ntx)
                    for g, v in zip(groups, values, strict=True):
                        if len(g.iter_indices) == 1:
                            i = g.iter_indices[0]
                            env[red.results[i]] = fold(g.combiner, red.results[i].type, [v],
                                                       env[red.iter_inits[i]])
                        else:
                            env[g.output] = v
                    for op in body.ops[at + 1:-1]:
                        if op not in provided:
                            th.run(op, env)

    def _matmul(self, th, env, grid, block, memory):
        c = env[self.k.params[2]].array
        nb = c.ndim - 2
        n, m = c.shape[nb], c.shape[nb + 1]
        nbatch = int(np.prod(c.shape[:nb], dtype=np.int64))
        chain = [self.k.op]
        for _ in range(c.ndim - 1):
            chain.append(next(o for o in chain[-1].body.ops if isinstance(o, ForOp)))
        for op in chain:
            for v in op.operands[:3]:
                self._resolve(th, v, env)

        def level(d, idx):
            loop = chain[d]
            env[loop.body.args[0]] = idx[d]
            for op in loop.body.ops[:-1]:
                if d + 1 < len(chain) and op is chain[d + 1]:
                    level(d + 1, idx)
                else:
                    for v in _free(op, env):
                        self._resolve(th, v, env)
                    th.run(op, env)
        for bz in range(grid[2]):
            for row in range(grid[1] * TILE):
                for col in range(grid[0] * TILE):
                    if row >= n or col >= m:
                        continue
                    for z in range(bz, nbatch, grid[2]):
                        level(0, [*np.unravel_index(z, c.shape[:nb]), row, col])

    def _resolve(self, th, v, env) -> None:
        """Bind ``v``, a value the matmul kernel derives from its ``A, B, C`` params (sizes,
        constants), by evaluating its defining ops."""
        if v in env:
            return
        op = v.owner_op()
        if op is None or op.regions or isinstance(op, MEMORY):
            raise Fault("CUDA_ERROR_LAUNCH_FAILED", f"the {self.k.name} kernel uses {v}, which "
                        f"is not derived from its parameters")
        for x in op.operands:
            self._resolve(th, x, env)
        th.run(op, env)

    def _serial(self, th, env, grid, block, memory, out):
        for _ in range(int(np.prod(grid)) * int(np.prod(block))):
            try:
                th.run(self.k.op, env)
            except _ThreadExit:
                continue
            for i, v in enumerate(self.k.outputs):
                _store(memory, out + SERIAL_SLOT * i, v.type, env[v])


def _free(op, env) -> list:
    return [v for v in free_values(op) if v not in env]


def _store(memory, ptr: int, t: T.Type, value) -> None:
    """Write ``value`` (interpreter representation) at ``ptr`` in ``t``'s storage type."""
    dt = _storage(t)
    memory.span(ptr, dt.itemsize, "CUDA_ERROR_ILLEGAL_ADDRESS").view(dt)[0] = value


def semantics(module, plans: list, check_ids: dict) -> dict:
    """``{kernel name: KernelSemantics}`` of the ``(kernel, constants, extra)`` ``plans`` of
    loop-level ``module`` (``Partition.plans``)."""
    return {k.name: KernelSemantics(module, k, consts, extra, check_ids)
            for k, consts, extra in plans}


__all__ = ["KernelSemantics", "fail", "fold", "identity", "param_types", "semantics"]
