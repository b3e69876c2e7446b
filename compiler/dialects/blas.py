"""The ``blas`` dialect: calls of CBLAS's float32/float64 matrix products at loop level.

Each op is one CBLAS routine called for row-major operands (``CblasRowMajor``): ``blas.gemm``
is ``C = alpha * op(A) @ op(B) + beta * C`` (``?gemm``), ``blas.gemv`` is
``y = alpha * op(A) @ x + beta * y`` (``?gemv``), where ``op`` transposes its matrix when the
operand ``trans_*`` (an ``i1``) is true. An array operand is a memref of any rank and layout
and an ``index`` element offset: the routine reads (or writes) the array whose first element
is the memref's element at that offset (its position in memory relative to the memref's
element 0), and the leading dimension or increment says how the rest lies, in elements, as in
BLAS. The memrefs' element type decides the routine (``sgemm`` or ``dgemm``); the ops write
``c`` / ``y``, so they are not Pure.

The operands are CBLAS's arguments in its order, without the layout; the lowering
(``lowering/blas.py``) passes only layouts the routine accepts (positive unit-stride rows,
leading dimensions at least the row length).
"""

from __future__ import annotations

from .. import types as T
from ..ir.constraints import Float, Index, IntOrIndex, MemRef, named
from ..ir.opdef import Op, register_ops


class _RoutineOp(Op):
    """Verified: the trans flags are ``i1``, alpha and beta of the arrays' element type, and
    every array float32 or float64 of one element type."""

    routine = ""
    arrays: tuple = ()

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        elements = {getattr(self, a).type.element for a in self.arrays}
        if len(elements) != 1 or not elements <= {T.f32, T.f64}:
            raise VerifyError(self, f"arrays must share an element type f32 or f64, have "
                                    f"{', '.join(str(getattr(self, a).type) for a in self.arrays)}")
        (element,) = elements
        for s in ("alpha", "beta"):
            if getattr(self, s).type != element:
                raise VerifyError(self, f"{s} has type {getattr(self, s).type}, not {element}")
        for name, v in zip(self.operand_defs.names, self.operands, strict=True):
            if name.startswith("trans") and v.type != T.i1:
                raise VerifyError(self, f"{name} has type {v.type}, not i1")


class GemmOp(_RoutineOp):
    """``?gemm``: ``c[i, j] = alpha * sum_k op(a)[i, k] * op(b)[k, j] + beta * c[i, j]`` for
    ``i < m, j < n, k < k``; ``c`` is not read when ``beta`` is zero."""

    name = "blas.gemm"
    routine = "gemm"
    arrays = ("a", "b", "c")
    operand_defs = named(trans_a=IntOrIndex, trans_b=IntOrIndex, m=Index, n=Index, k=Index,
                         alpha=Float, a=MemRef, a_offset=Index, lda=Index, b=MemRef,
                         b_offset=Index, ldb=Index, beta=Float, c=MemRef, c_offset=Index,
                         ldc=Index)
    result_defs = ()


class GemvOp(_RoutineOp):
    """``?gemv``: ``y = alpha * op(a) @ x + beta * y`` for the ``m x n`` row-major matrix
    ``a`` (``y`` has ``m`` elements, or ``n`` when ``trans``)."""

    name = "blas.gemv"
    routine = "gemv"
    arrays = ("a", "x", "y")
    operand_defs = named(trans=IntOrIndex, m=Index, n=Index, alpha=Float, a=MemRef,
                         a_offset=Index, lda=Index, x=MemRef, x_offset=Index, incx=Index,
                         beta=Float, y=MemRef, y_offset=Index, incy=Index)
    result_defs = ()


ROUTINE_OPS = (GemmOp, GemvOp)

register_ops("blas", ROUTINE_OPS)
