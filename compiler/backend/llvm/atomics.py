"""Atomic helpers for generated code: release stores and a spin lock.

Used where native threads share a small record: the failure record of a parallel loop
(``parallel.py``) and the buffer pool (``pool.py``). The critical sections are a few loads and
stores, so spinning on ``cmpxchg`` costs less than a futex round trip.
"""

from __future__ import annotations

from llvmlite import ir

I32 = ir.IntType(32)


def store_atomic(b: ir.IRBuilder, value, ptr, ordering: str) -> None:
    """An atomic store through an opaque ``ptr`` (llvmlite checks the pointee type)."""
    typed = b.gep(ptr, [ir.Constant(ir.IntType(64), 0)], inbounds=True, source_etype=value.type)
    typed.type = value.type.as_pointer()
    b.store_atomic(value, typed, ordering, value.type.width // 8)


def locked(b: ir.IRBuilder, lock, body) -> None:
    """Run ``body()`` holding the spin lock at ``lock`` (an ``i32``, 0 when free): acquire
    by ``cmpxchg`` 0 -> 1, release by an atomic store of 0. ``body`` may add blocks; ``b``
    continues after the release."""
    fn = b.function
    spin, held = fn.append_basic_block("lock.spin"), fn.append_basic_block("lock.held")
    b.branch(spin)
    b.position_at_end(spin)
    got = b.extract_value(b.cmpxchg(lock, ir.Constant(I32, 0), ir.Constant(I32, 1), "acquire",
                                    "monotonic"), 1)
    b.cbranch(got, held, spin)
    b.position_at_end(held)
    body()
    store_atomic(b, ir.Constant(I32, 0), lock, "release")
