"""The emission context of lowering: a builder plus helpers for loop-level code.

``Emitter`` creates loop-level ops at its insertion point: hoisted constants, index arithmetic
that folds when its operands are Python ints (a *dim* is ``int | Value``), ``scf.for`` loop
nests (versioned on run-time broadcasting, see ``nest``), buffer allocation, and
``grafo.check`` run-time errors. Every lowering module emits through it, so the code it
writes looks the same everywhere.
"""

from __future__ import annotations

from .. import types as T
from ..dialects import arith, func, grafo, memref, scf
from ..dialects import complex as complex_dialect
from ..ir.attributes import FloatAttr, IntegerAttr, StringAttr, UnitAttr, complex_attr
from ..ir.builder import Builder
from ..ir.core import Block, OpResult, Value
from ..ir.opdef import Op

Dim = int | Value

# A loop nest whose element count may reach this is marked grafo.parallel (when independent).
PARALLEL_MIN_ELEMENTS = 1 << 15


class Emitter:
    """Emits loop-level ops at the end of the builder's current block.

    Constants are placed at the top of ``entry`` (the function's entry block, which
    dominates every use) and reused."""

    def __init__(self, fn: func.FuncOp):
        self.fn = fn
        self.entry: Block = fn.body
        self.b = Builder(self.entry)
        self._consts: dict = {}
        self._const_pos = 0
        self._reads: list = []        # (flag, index) of every broadcast_index select emitted
        self._unit_free: set = set()  # flags known false where code is being emitted

    # generic ops -----------------------------------------------------------------------------
    def op(self, cls: type[Op], *operands: Value, type: T.Type | None = None, **attrs) -> Value:
        """Create a ``cls`` op (e.g. ``arith.AddFOp``) on ``operands``; its single result."""
        types = None if type is None else [type]
        return self.b.create(cls, list(operands), attrs or None, types).result

    def effect(self, cls: type[Op], *operands: Value, **attrs) -> None:
        """Create an op without results (``memref.StoreOp``, ``memref.DeallocOp``, ...)."""
        self.b.create(cls, list(operands), attrs or None, [])

    def const(self, value, t: T.Type) -> Value:
        """A hoisted ``arith.constant`` of the loop-level type ``t`` (a ``complex.constant``
        for a complex ``t``)."""
        if isinstance(t, T.ComplexType):
            key = (t, repr(complex(value)))
        else:
            key = (t, repr(float(value)) if isinstance(t, T.FloatType) else int(value))
        v = self._consts.get(key)
        if v is None:
            if isinstance(t, T.ComplexType):
                op = complex_dialect.ConstantOp.build(
                    [], {"value": complex_attr(value, t)}, [t], loc=self.fn.loc)
            else:
                attr = FloatAttr(float(value), t) if isinstance(t, T.FloatType) \
                    else IntegerAttr(_wrap(int(value), t), t)
                op = arith.ConstantOp.build([], {"value": attr}, [t], loc=self.fn.loc)
            self.entry.insert(self._const_pos, op)
            self._const_pos += 1
            v = self._consts[key] = op.result
        return v

    def dense(self, attr, t: T.MemRefType) -> Value:
        """A hoisted read-only buffer (``grafo.constant``) holding the DenseAttr ``attr``."""
        v = self._consts.get(attr)
        if v is None:
            op = grafo.ConstantOp.build([], {"value": attr}, [t], loc=self.fn.loc)
            self.entry.insert(self._const_pos, op)
            self._const_pos += 1
            v = self._consts[attr] = op.result
        return v

    def cmpi(self, pred: str, a: Value, b: Value) -> Value:
        return self.op(arith.CmpIOp, a, b, predicate=IntegerAttr(arith.CMPI[pred]))

    def cmpf(self, pred: str, a: Value, b: Value) -> Value:
        return self.op(arith.CmpFOp, a, b, predicate=IntegerAttr(arith.CMPF[pred]))

    def select(self, c: Value, a: Value, b: Value) -> Value:
        return self.op(arith.SelectOp, c, a, b)

    def cast(self, cls: type[Op], v: Value, t: T.Type) -> Value:
        return v if v.type == t else self.op(cls, v, type=t)

    def broadcast_index(self, one: Value, i: Dim) -> Dim:
        """The index into a dim that broadcasts when the run-time ``i1`` flag ``one`` holds
        (its size is 1): ``select(one, 0, i)``, or ``i`` itself inside a nest version that
        assumes ``one`` false (see ``nest``)."""
        if one in self._unit_free:
            return i
        self._reads.append((one, i))
        return self.select(one, self.index(0), self.index(i))

    def true(self) -> Value:
        return self.const(1, T.i1)

    def false(self) -> Value:
        return self.const(0, T.i1)

    # index arithmetic (folds on Python ints) -------------------------------------------------
    def index(self, d: Dim) -> Value:
        """``d`` as an ``index`` value (integers of other widths are cast)."""
        if isinstance(d, (bool, int)):
            return self.const(int(d), T.index)
        if d.type == T.index:
            return d
        src = d.owner_op()
        if isinstance(src, arith.IndexCastOp) and src.input.type == T.index:
            return src.input  # i64 made from an index: use the index itself
        return self.op(arith.IndexCastOp, d, type=T.index)

    def to_i64(self, d: Dim) -> Value:
        if isinstance(d, int):
            return self.const(d, T.i64)
        return d if d.type == T.i64 else self.op(arith.IndexCastOp, d, type=T.i64)

    def add(self, a: Dim, b: Dim) -> Dim:
        if isinstance(a, int) and isinstance(b, int):
            return a + b
        if isinstance(b, int) and b == 0:
            return a
        if isinstance(a, int) and a == 0:
            return b
        return self.op(arith.AddIOp, self.index(a), self.index(b))

    def sub(self, a: Dim, b: Dim) -> Dim:
        if isinstance(a, int) and isinstance(b, int):
            return a - b
        if isinstance(b, int) and b == 0:
            return a
        return self.op(arith.SubIOp, self.index(a), self.index(b))

    def mul(self, a: Dim, b: Dim) -> Dim:
        if isinstance(a, int) and isinstance(b, int):
            return a * b
        if isinstance(b, int) and b == 1:
            return a
        if isinstance(a, int) and a == 1:
            return b
        if (isinstance(a, int) and a == 0) or (isinstance(b, int) and b == 0):
            return 0
        return self.op(arith.MulIOp, self.index(a), self.index(b))

    def floordiv(self, a: Dim, b: Dim) -> Dim:
        """``a // b`` for ``a >= 0`` and ``b > 0`` (sizes and counters)."""
        if isinstance(a, int) and isinstance(b, int):
            return a // b
        if (isinstance(b, int) and b == 1) or (isinstance(a, int) and a == 0):
            return a
        return self.op(arith.DivSIOp, self.index(a), self.index(b))

    def truncdiv(self, a: Dim, b: Dim) -> Dim:
        """``a / b`` rounded toward zero (``arith.divsi``) for ``b != 0`` of either sign."""
        if isinstance(a, int) and isinstance(b, int):
            q = abs(a) // abs(b)
            return q if (a < 0) == (b < 0) else -q
        if isinstance(b, int) and b == 1:
            return a
        return self.op(arith.DivSIOp, self.index(a), self.index(b))

    def mod(self, a: Dim, b: Dim) -> Dim:
        """``a % b`` for ``a >= 0`` and ``b > 0``."""
        if isinstance(a, int) and isinstance(b, int):
            return a % b
        if (isinstance(b, int) and b == 1) or (isinstance(a, int) and a == 0):
            return 0
        return self.op(arith.RemSIOp, self.index(a), self.index(b))

    def cmp(self, pred: str, a: Dim, b: Dim) -> bool | Value:
        """Signed comparison ("eq", "ne", "slt", ...) of dims: a Python bool when folded."""
        if isinstance(a, int) and isinstance(b, int):
            return {"eq": a == b, "ne": a != b, "slt": a < b, "sle": a <= b,
                    "sgt": a > b, "sge": a >= b}[pred]
        if a is b:
            return pred in ("eq", "sle", "sge")
        return self.cmpi(pred, self.index(a), self.index(b))

    def pick(self, c: bool | Value, a: Dim, b: Dim) -> Dim:
        """``a if c else b`` on dims."""
        if isinstance(c, bool):
            return a if c else b
        if a is b or (isinstance(a, int) and isinstance(b, int) and a == b):
            return a
        return self.select(c, self.index(a), self.index(b))

    def both(self, a: bool | Value, b: bool | Value) -> bool | Value:
        if isinstance(a, bool):
            return b if a else False
        if isinstance(b, bool):
            return a if b else False
        return self.op(arith.AndIOp, a, b)

    def either(self, a: bool | Value, b: bool | Value) -> bool | Value:
        if isinstance(a, bool):
            return True if a else b
        if isinstance(b, bool):
            return True if b else a
        return self.op(arith.OrIOp, a, b)

    def abs(self, d: Dim) -> Dim:
        """``|d|`` of a dim (a stride's magnitude)."""
        return self.max(d, self.sub(0, d))

    def max(self, a: Dim, b: Dim) -> Dim:
        return self.pick(self.cmp("sgt", a, b), a, b)

    def min(self, a: Dim, b: Dim) -> Dim:
        return self.pick(self.cmp("slt", a, b), a, b)

    def product(self, dims) -> Dim:
        out: Dim = 1
        for d in dims:
            out = self.mul(out, d)
        return out

    # effects ---------------------------------------------------------------------------------
    def check(self, ok: bool | Value, kind: str, message: str, params=()) -> None:
        """Raise ``kind(message.format(*params))`` at run time unless ``ok``; ``params`` are
        dims or integer values (passed as i64)."""
        if ok is True:
            return
        for k in range(grafo.MAX_CHECK_PARAMS, len(params)):  # more do not fit the status block
            message = message.replace("{%d}" % k, "?")
        params = params[:grafo.MAX_CHECK_PARAMS]
        cond = self.false() if ok is False else ok
        self.effect(grafo.CheckOp, cond, *[self.to_i64(p) for p in params],
                    kind=StringAttr(kind), message=StringAttr(message))

    def alloc(self, shape, element: T.Type, mtype: T.MemRefType | None = None) -> Value:
        """A contiguous ``memref.alloc`` of ``shape`` (dims) and loop-level ``element``;
        ``mtype`` fixes the type (dims it leaves dynamic are passed as sizes)."""
        if mtype is None:
            mtype = T.MemRefType(tuple(d if isinstance(d, int) else None for d in shape),
                                 element)
        sizes = [self.index(d) for d, s in zip(shape, mtype.shape, strict=True) if s is None]
        return self.b.create(memref.AllocOp, sizes, None, [mtype]).result

    def load(self, buf: Value, idx) -> Value:
        return self.op(memref.LoadOp, buf, *[self.index(i) for i in idx])

    def store(self, v: Value, buf: Value, idx) -> None:
        self.effect(memref.StoreOp, v, buf, *[self.index(i) for i in idx])

    def dim_of(self, buf: Value, k: int) -> Dim:
        """The size of dim ``k`` of a memref: static from its type, else ``memref.dim``."""
        d = buf.type.shape[k]
        return d if d is not None else self.op(memref.DimOp, buf, self.index(k))

    # loops -----------------------------------------------------------------------------------
    def loop(self, ub: Dim, body, inits=(), lb: Dim = 0, step: Dim = 1, parallel=False,
             work: int | None = None, version=False, lanes: int | None = None, unroll=True,
             outlined=False):
        """``scf.for %i = lb to ub step step`` carrying ``inits``; ``body(i, *iters)`` returns
        the next iter values. Returns the loop's results. ``work`` (with ``parallel``): the
        elements one iteration processes, recorded as ``grafo.work`` for the backend's
        decision to run the loop on threads (see ``scf.py``). ``version``: as in ``nest``,
        for the broadcast selects whose index varies with ``i`` (loops ``body`` nests
        inside included). ``lanes``: ``inits`` are groups of that many same-typed scalars
        that the CPU backend keeps in one vector each (``grafo.lanes``, see
        ``backend/llvm/rules/scf.py``); the values are the same. ``unroll=False`` marks the
        loop ``grafo.no_unroll``: LLVM must not unroll it (a register-tiled body that
        unrolled would need more registers than the CPU has, and spill). ``outlined`` (with
        ``parallel``) marks it ``grafo.serial_outlined``: the CPU backend compiles its body
        once, the serial path calling the threads' version (``backend/llvm/parallel.py``)."""
        mark = len(self._reads)

        def emit():
            op = self._for(ub, body, inits, lb, step, parallel, work)
            if lanes:
                op.attributes[scf.LANES] = IntegerAttr(lanes)
            if not unroll:
                op.attributes[scf.NO_UNROLL] = UnitAttr()
            if outlined and parallel:
                op.attributes[scf.SERIAL_OUTLINED] = UnitAttr()
            return op

        op = emit()
        if not version:
            return list(op.results)
        return self._versioned(op, op.induction_var, self._reads[mark:], emit)

    def _for(self, ub: Dim, body, inits=(), lb: Dim = 0, step: Dim = 1, parallel=False,
             work: int | None = None, independent=False) -> scf.ForOp:
        """``loop``, returning the ``scf.for`` op. ``independent``: the iterations are
        independent but too few to thread (``grafo.independent``, which lets
        ``passes/fuse_loops.py`` fuse the loop)."""
        op = scf.ForOp.create(self.index(lb), self.index(ub), self.index(step), list(inits))
        if parallel:
            op.attributes[scf.PARALLEL] = UnitAttr()
            if work is not None:
                op.attributes[scf.WORK] = IntegerAttr(work)
        elif independent:
            op.attributes[scf.INDEPENDENT] = UnitAttr()
        self.b.insert(op)
        with self.b.at_end(op.body):
            nxt = body(op.induction_var, *op.body.args[1:])
            self.b.create(scf.YieldOp, list(nxt or ()))
        return op

    def nest(self, shape, body, inits=(), parallel=False, work=(), version=False):
        """Loops over every index of ``shape`` (outermost first); ``body(idx, *iters)``
        returns the next iter values. ``parallel`` marks the outermost loop when the nest
        may be large (its iterations must be independent). ``work``: the dims of what the
        body processes per index (a row reduction's reduced extent), counted toward that
        decision and, when static, recorded as the outer loop's ``grafo.work``.

        ``version`` (loop versioning; ``body`` must only emit code, as it runs twice): when
        an index that varies with the innermost loop goes through a ``broadcast_index``
        select on a flag computed before the nest, the nest is emitted again with those
        flags false (no operand broadcasts along that dim, each index is used as it is: the
        loop LLVM vectorizes). One ``scf.if`` on "some flag holds" runs the general nest,
        else the fast one."""
        shape = list(shape)
        per_outer, independent = None, parallel
        if parallel:
            dims = shape + list(work)
            size = self.product(d for d in dims if isinstance(d, int))
            parallel = any(not isinstance(d, int) for d in dims) or size >= PARALLEL_MIN_ELEMENTS
            if work and all(isinstance(d, int) for d in dims[1:]):
                per_outer = self.product(dims[1:])
        inner = []  # the innermost induction variable of each emission

        def level(k, idx, iters):
            if k == len(shape):
                inner.append(idx[-1])
                return body(tuple(idx), *iters)
            return list(self._for(shape[k], lambda i, *it: level(k + 1, idx + [i], it), iters,
                                  parallel=parallel and k == 0,
                                  work=per_outer if k == 0 else None,
                                  independent=independent and k == 0).results)

        def emit():
            return self._for(shape[0], lambda i, *it: level(1, [i], it), list(inits),
                             parallel=parallel, work=per_outer, independent=independent)

        if not shape:
            return list(body((), *inits) or ())
        mark = len(self._reads)
        op = emit()
        if not version:
            return list(op.results)
        return self._versioned(op, inner[0], self._reads[mark:], emit)

    def _versioned(self, general: scf.ForOp, iv: Value, reads, emit) -> list:
        """The results of ``general``, a nest just emitted from ``reads``' first entry on.
        When some of those reads vary with ``iv`` (its innermost induction variable) and
        select on flags computed before it, ``general`` moves into the then branch of an
        ``scf.if`` on "some flag holds" whose else branch is ``emit()`` with them false."""
        flags = []
        for one, i in reads:
            if (all(one is not f for f in flags) and _varies(i, iv)
                    and not (isinstance(one, OpResult) and general.is_ancestor_of(one.op))):
                flags.append(one)
        if not flags:
            return list(general.results)
        any_unit = flags[0]
        for f in flags[1:]:
            any_unit = self.either(any_unit, f)
        op = scf.IfOp.create(any_unit, [r.type for r in general.results])
        self.b.insert(op)
        general.detach()
        op.then_block.append(general)
        with self.b.at_end(op.then_block):
            self.b.create(scf.YieldOp, list(general.results))
        saved = self._unit_free
        self._unit_free = saved | set(flags)
        try:
            with self.b.at_end(op.else_block):
                self.b.create(scf.YieldOp, list(emit().results))
        finally:
            self._unit_free = saved
        return list(op.results)

    def if_(self, cond: Value, then, otherwise, types=()):
        """``scf.if``: ``then()`` / ``otherwise()`` return the yielded values."""
        op = scf.IfOp.create(cond, list(types))
        self.b.insert(op)
        for block, fn in ((op.then_block, then), (op.else_block, otherwise)):
            with self.b.at_end(block):
                self.b.create(scf.YieldOp, list(fn() or ()))
        return list(op.results)


def _varies(d: Dim, iv: Value) -> bool:
    """Whether dim ``d`` is computed from ``iv``, the induction variable of a loop (only
    ops inside that loop can be)."""
    loop, seen = iv.block.parent_op(), {}

    def walk(v) -> bool:
        if v is iv:
            return True
        if not isinstance(v, OpResult) or not loop.is_ancestor_of(v.op):
            return False
        if v not in seen:
            seen[v] = False
            seen[v] = any(walk(x) for x in v.op.operands)
        return seen[v]
    return walk(d)


def _wrap(v: int, t: T.Type) -> int:
    """``v`` as the signed value of ``t``'s width (constants print signed, as MLIR's do)."""
    if isinstance(t, T.IntegerType) and t.width > 1:
        m = 1 << t.width
        v %= m
        return v - m if v >= m >> 1 else v
    if t == T.i1:
        return v & 1
    return v
