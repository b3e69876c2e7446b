"""Reductions on the GPU: recognizing reduction loops, block reductions, host combination.

A loop-level ``scf.for`` whose iteration values are all scalars is a reduction when each
value is a *group*:

- a monoid: the iteration value's only use is ``combine(acc, x)`` (``arith.addf``,
  ``arith.maximumf``, ``arith.ori`` ...), directly or as the initial value of a nested loop
  whose value is again such a monoid, and the yielded value is that combination;
- a compensated sum: two float iteration values starting at 0.0 whose only use after the
  loop is ``arith.subf(total, compensation)`` (the lowering's blocked Kahan sums).

Each thread starts from the identity, so the loop's initial values are combined on the host
with the partials (``combine_host``). ``block_combine`` (warp butterflies, shared memory
across warps) is shared with the row kernels (``rows.py``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from llvmlite import ir

from ...dialects import arith, scf
from ..llvm.types import I1, I32, I64

# The combining ops (matched by exact class: ``type(op) in COMBINERS``).
COMBINERS = (arith.AddFOp, arith.AddIOp, arith.MulFOp, arith.MulIOp, arith.MaximumFOp,
             arith.MinimumFOp, arith.MaxSIOp, arith.MinSIOp, arith.MaxUIOp, arith.MinUIOp,
             arith.OrIOp, arith.AndIOp, arith.XOrIOp)
UNSIGNED = (arith.MaxUIOp, arith.MinUIOp)
FLOAT_IDENTITY = {arith.AddFOp: 0.0, arith.MulFOp: 1.0, arith.MaximumFOp: float("-inf"),
                  arith.MinimumFOp: float("inf")}
WARP = 32
MAX_WARPS = 32


@dataclass
class Group:
    """A reduction result: the combining op, the loop's iteration value indices it uses (one,
    or total and compensation) and the IR value the host receives."""

    combiner: type
    iter_indices: tuple
    output: object


def _monoid(acc, yielded) -> type | None:
    """The combining op when ``acc`` (a loop's iteration argument) is a monoid accumulator
    whose next value is ``yielded``."""
    uses = list(acc.uses)
    if len(uses) != 1:
        return None
    user = uses[0].owner
    if type(user) in COMBINERS and len(user.operands) == 2:
        return type(user) if user.results[0] is yielded else None
    if isinstance(user, scf.ForOp) and uses[0].index >= 3:
        i = uses[0].index - 3
        inner = _monoid(user.body.args[1 + i], user.body.ops[-1].operands[i])
        return inner if inner and user.results[i] is yielded else None
    return None


def _is_zero(v) -> bool:
    op = v.owner_op()
    return isinstance(op, arith.ConstantOp) and op.attr("value") == 0


def groups(loop) -> list | None:
    """The reduction groups of ``loop`` (an ``scf.for``), or None when it is not a reduction."""
    inits = list(loop.iter_inits)
    if not inits or any(not _scalar(r.type) for r in loop.results):
        return None
    yielded = loop.body.ops[-1].operands
    out, seen = [], set()
    for i, r in enumerate(loop.results):
        if i in seen:
            continue
        kind = _monoid(loop.body.args[1 + i], yielded[i])
        if kind is not None:
            out.append(Group(kind, (i,), r))
            continue
        users = [u.owner for u in r.uses]
        if len(users) != 1 or not isinstance(users[0], arith.SubFOp):
            return None
        sub = users[0]
        a, c = sub.operands
        if a is not r or c.owner_op() is not loop or len(list(c.uses)) != 1:
            return None
        j = loop.results.index(c)
        if not (_is_zero(inits[i]) and _is_zero(inits[j])):
            return None
        seen.add(j)
        out.append(Group(arith.AddFOp, (i, j), sub.results[0]))
    return out if len(seen) + len(out) == len(inits) else None


def _scalar(t) -> bool:
    from ... import types as T
    return not isinstance(t, (T.MemRefType, T.TensorType))


def int_identity(combiner: type, width: int) -> int:
    """The identity of the integer ``combiner`` for ``width``-bit values, signed (-1: all
    ones)."""
    smallest, largest = -(1 << (width - 1)), (1 << (width - 1)) - 1
    return {arith.AddIOp: 0, arith.MulIOp: 1, arith.OrIOp: 0, arith.XOrIOp: 0,
            arith.AndIOp: -1, arith.MaxUIOp: 0, arith.MinUIOp: -1, arith.MaxSIOp: smallest,
            arith.MinSIOp: largest}[combiner]


def identity(combiner: type, ty: ir.Type) -> ir.Constant:
    """The identity of ``combiner`` in LLVM type ``ty``."""
    if isinstance(ty, (ir.FloatType, ir.DoubleType)):
        return ir.Constant(ty, FLOAT_IDENTITY[combiner])
    w = ty.width
    return ir.Constant(ty, int_identity(combiner, w) & ((1 << w) - 1))


_FLOAT_EXTREMA = {arith.MaximumFOp: "maximum", arith.MinimumFOp: "minimum"}
# (predicate, signed) of the integer extrema
_INT_EXTREMA = {arith.MaxSIOp: (">", True), arith.MinSIOp: ("<", True),
                arith.MaxUIOp: (">", False), arith.MinUIOp: ("<", False)}


def combine(b: ir.IRBuilder, mod, combiner: type, x, y):
    """``combiner(x, y)`` in LLVM IR."""
    simple = {arith.AddFOp: b.fadd, arith.MulFOp: b.fmul, arith.AddIOp: b.add,
              arith.MulIOp: b.mul, arith.OrIOp: b.or_, arith.AndIOp: b.and_,
              arith.XOrIOp: b.xor}
    if combiner in simple:
        return simple[combiner](x, y)
    if combiner in _FLOAT_EXTREMA:
        return b.call(mod.intrinsic(_FLOAT_EXTREMA[combiner], x.type, 2), [x, y])
    pred, signed = _INT_EXTREMA[combiner]
    cmp = b.icmp_signed if signed else b.icmp_unsigned
    return b.select(cmp(pred, x, y), x, y)


def _shuffle(ke, v, offset: int):
    """``v`` of the lane ``lane ^ offset`` (any scalar type up to 64 bits)."""
    b, mod = ke.b, ke.mod
    fn = mod.external("llvm.nvvm.shfl.sync.bfly.i32", I32, [I32, I32, I32, I32])

    def shfl32(x):
        return b.call(fn, [ir.Constant(I32, -1), x, ir.Constant(I32, offset),
                           ir.Constant(I32, WARP - 1)])
    t = v.type
    bits = 32 if isinstance(t, ir.FloatType) else 64 if isinstance(t, ir.DoubleType) else t.width
    as_int = b.bitcast(v, ir.IntType(bits)) if bits in (32, 64) and not isinstance(
        t, ir.IntType) else v
    if bits == 64:
        lo = shfl32(b.trunc(as_int, I32))
        hi = shfl32(b.trunc(b.lshr(as_int, ir.Constant(I64, 32)), I32))
        r = b.or_(b.zext(lo, I64), b.shl(b.zext(hi, I64), ir.Constant(I64, 32)))
    elif bits == 32:
        r = shfl32(as_int)
    else:
        r = b.trunc(shfl32(b.zext(as_int, I32)), t)
    return b.bitcast(r, t) if r.type != t else r


def warp_reduce(ke, v, combiner: type):
    """``v`` combined over the 32 lanes of the warp (every lane gets the result)."""
    offset = WARP // 2
    while offset:
        v = combine(ke.b, ke.mod, combiner, v, _shuffle(ke, v, offset))
        offset //= 2
    return v


def block_combine(ke, v, combiner: type, smem, tid, nthreads):
    """``v`` combined over the ``nthreads`` threads ``tid = 0 .. nthreads - 1`` (a multiple of
    32, warps in ``tid`` order; at most ``32 * MAX_WARPS``) that run it together: a butterfly
    over each warp's lanes (``shfl.sync.bfly``), then, when ``nthreads > 32`` (uniform across
    the block), each warp's value goes to the shared array ``smem`` and every warp combines
    them by a second butterfly. Every thread gets the result; the trailing barrier lets the
    caller reuse ``smem``. The combination is a tree of depth log2(nthreads)."""
    b, mod = ke.b, ke.mod
    ty = v.type
    store_ty = ir.IntType(8) if ty == I1 else ty
    lane, warp = b.urem(tid, ir.Constant(I64, WARP)), b.udiv(tid, ir.Constant(I64, WARP))
    nwarps = b.udiv(b.add(nthreads, ir.Constant(I64, WARP - 1)), ir.Constant(I64, WARP))
    barrier = mod.external("llvm.nvvm.barrier0", ir.VoidType(), [])
    v = warp_reduce(ke, v, combiner)
    single, multi, done = b.block, ke.new_block("block.multi"), ke.new_block("block.done")
    b.cbranch(b.icmp_unsigned(">", nthreads, ir.Constant(I64, WARP)), multi, done)
    b.position_at_end(multi)

    def at(i):
        return mod.shared_slot(b, smem, i)
    with b.if_then(b.icmp_unsigned("==", lane, ir.Constant(I64, 0))):
        b.store(b.zext(v, store_ty) if ty == I1 else v, at(warp))
    b.call(barrier, [])
    x = b.load(at(lane), typ=store_ty)
    x = b.trunc(x, ty) if ty == I1 else x
    x = b.select(b.icmp_unsigned("<", lane, nwarps), x, identity(combiner, ty))
    x = warp_reduce(ke, x, combiner)
    b.call(barrier, [])
    multi_end = b.block
    b.branch(done)
    b.position_at_end(done)
    out = b.phi(ty)
    out.add_incoming(v, single)
    out.add_incoming(x, multi_end)
    return out


def shared_for(ke, name: str, ty: ir.Type):
    """The ``MAX_WARPS``-slot shared array ``block_combine`` needs for values of ``ty``."""
    return ke.mod.shared_array(name, ir.IntType(8) if ty == I1 else ty, MAX_WARPS)


def block_reduce(ke, v, combiner: type, smem_name: str, slot: int, slots: int) -> None:
    """Combine ``v`` over the block (``block_combine``); thread 0 stores it to
    ``out[ctaid.x * slots + slot]``."""
    b, mod = ke.b, ke.mod
    ty = v.type
    tid, bid = mod.sreg(b, "tid.x"), mod.sreg(b, "ctaid.x")
    x = block_combine(ke, v, combiner, shared_for(ke, smem_name, ty), tid, mod.sreg(b, "ntid.x"))
    with b.if_then(b.icmp_unsigned("==", tid, ir.Constant(I64, 0))):
        pos = b.add(b.mul(bid, ir.Constant(I64, slots)), ir.Constant(I64, slot))
        dst = b.gep(ke.out, [b.mul(pos, ir.Constant(I64, 8))], source_etype=ir.IntType(8))
        b.store(b.zext(x, ir.IntType(8)) if ty == I1 else x, dst)


_HOST = {arith.AddFOp: np.add, arith.AddIOp: np.add, arith.MulFOp: np.multiply,
         arith.MulIOp: np.multiply, arith.MaximumFOp: np.maximum, arith.MinimumFOp: np.minimum,
         arith.MaxSIOp: np.maximum, arith.MinSIOp: np.minimum, arith.MaxUIOp: np.maximum,
         arith.MinUIOp: np.minimum, arith.OrIOp: np.logical_or, arith.AndIOp: np.logical_and,
         arith.XOrIOp: np.bitwise_xor}


def combine_host(combiner: type, partials: np.ndarray, init):
    """The second pass: ``init`` combined with the blocks' ``partials`` (NumPy, pairwise for
    sums)."""
    if combiner in UNSIGNED:
        partials = partials.view(partials.dtype.str.replace("i", "u"))
        init = np.array(init).astype(partials.dtype)
    ufunc = _HOST[combiner]
    with np.errstate(all="ignore"):
        total = ufunc.reduce(partials) if partials.size else None
        return init if total is None else ufunc(np.array(init, partials.dtype), total)
