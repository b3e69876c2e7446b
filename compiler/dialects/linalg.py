"""NumPy's ``np.linalg`` gufuncs at tensor level (ops of the ``np`` namespace).

Each op is one gufunc of NumPy's ``numpy/linalg/umath_linalg.cpp`` on float64 matrices (the
frontend casts to float64 before, and to the result dtype after, as ``numpy/linalg/_linalg.py``
does: float32 is computed in float64 there too). Leading dims are a stack of matrices that
every operand shares (the frontend broadcasts them); a result of a rank-2 operand that is one
number per matrix (``det``) is a scalar. Lowering (``lowering/linalg.py``) calls the LAPACK
routine NumPy calls and does NumPy's post-processing, so results are NumPy's bits.

- ``np.linalg.det(%a)``: (..., M, M) -> (...), via ``getrf``.
- ``np.linalg.slogdet(%a)``: (..., M, M) -> sign (...), logabsdet (...), via ``getrf``.
- ``np.linalg.inv(%a)``: (..., M, M) -> (..., M, M), ``gesv`` with the identity.
- ``np.linalg.solve(%a, %b)``: (..., M, M), (..., M, K) -> (..., M, K), ``gesv``.
- ``np.linalg.cholesky(%a) {upper}``: (..., M, M) -> (..., M, M), ``potrf``.
- ``np.linalg.eigh(%a) {uplo, vectors}``: (..., M, M) -> w (..., M) [, v (..., M, M)],
  ``syevd``.
- ``np.linalg.svd(%a) {mode}``: (..., M, N) -> u, s, vh (``mode`` "full": u (..., M, M),
  vh (..., N, N); "reduced": K = min(M, N) columns of u and rows of vh) or s (..., K) alone
  ("none"), ``gesdd``.
- ``np.linalg.qr(%a) {mode}``: (..., M, N) -> r (..., K, N) ("r") or q (..., M, C),
  r (..., C, N) with C = K ("reduced") or M ("complete"), ``geqrf`` + ``orgqr``.

- ``np.linalg.lstsq(%a, %b, %rcond)``: (M, N), (M, K), f64 -> x (N, K), residuals (R,),
  rank (i32), s (min(M, N),), ``gelsd``; R = K when the rank is N and M > N, else 0 (known
  at run time).

Errors NumPy raises at run time (``LinAlgError``: a singular matrix, one that is not
positive definite, no convergence) are ``grafo.check``s of LAPACK's ``info``.
"""

from __future__ import annotations

from .. import types as T
from ..ir.constraints import BoolAttr, NpValue, Tensor, Variadic, attr, named, str_attr
from ..ir.opdef import InferredTypes, Op, Pure, TensorLevel, register_ops

LINALG_ERROR = "LinAlgError"


def _array(shape, element=T.f64) -> T.Type:
    return T.TensorType(tuple(shape), element) if shape else element


def _matrices(op_name: str, t: T.Type, square: bool) -> tuple:
    """``(batch, m, n)`` of the float64 stack of matrices ``t``; TypeError/ValueError with
    NumPy's words for other operands."""
    if not isinstance(t, T.TensorType) or t.element != T.f64:
        raise TypeError(f"{op_name} takes float64 tensors, not {t}")
    if t.rank < 2:
        raise ValueError(f"{t.rank}-dimensional array given. Array must be at least "
                         "two-dimensional")
    *batch, m, n = t.shape
    if square and m is not None and n is not None and m != n:
        raise ValueError("Last 2 dimensions of the array must be square")
    return tuple(batch), m, n


def _min(m, n):
    return None if m is None or n is None else min(m, n)


class GufuncOp(Op):
    """A gufunc of ``np.linalg`` (see the module's docstring); ``infer`` from ``shapes``."""

    traits = frozenset({Pure, TensorLevel, InferredTypes})
    result_defs = (Variadic(NpValue, 1),)
    square = True

    @classmethod
    def infer(cls, operand_types, attributes):
        batch, m, n = _matrices(cls.name, operand_types[0], cls.square)
        return [_array(s) for s in cls.shapes(batch, m, n, operand_types, attributes)]

    @classmethod
    def shapes(cls, batch, m, n, operand_types, attributes) -> list:
        return [batch + (m, n)]


class DetOp(GufuncOp):
    name = "np.linalg.det"
    operand_defs = named(a=Tensor)

    @classmethod
    def shapes(cls, batch, m, n, operand_types, attributes):
        return [batch]


class SlogdetOp(GufuncOp):
    name = "np.linalg.slogdet"
    operand_defs = named(a=Tensor)

    @classmethod
    def shapes(cls, batch, m, n, operand_types, attributes):
        return [batch, batch]


class InvOp(GufuncOp):
    name = "np.linalg.inv"
    operand_defs = named(a=Tensor)


class SolveOp(GufuncOp):
    """Verified: ``b`` is a stack of the same batch with as many rows as ``a``."""

    name = "np.linalg.solve"
    operand_defs = named(a=Tensor, b=Tensor)

    @classmethod
    def shapes(cls, batch, m, n, operand_types, attributes):
        b = operand_types[1]
        bb, bm, k = _matrices(cls.name, b, False)
        if len(bb) != len(batch) or (bm is not None and m is not None and bm != m):
            raise ValueError(f"np.linalg.solve: b of shape {b} does not match a's stack of "
                             f"{m}x{m} matrices")
        return [batch + (m, k)]


class CholeskyOp(GufuncOp):
    name = "np.linalg.cholesky"
    operand_defs = named(a=Tensor)
    attr_defs = {"upper": attr(BoolAttr)}


class EighOp(GufuncOp):
    name = "np.linalg.eigh"
    operand_defs = named(a=Tensor)
    attr_defs = {"uplo": attr(str_attr(("L", "U"))), "vectors": attr(BoolAttr)}

    @classmethod
    def shapes(cls, batch, m, n, operand_types, attributes):
        w = [batch + (m,)]
        return w + [batch + (m, m)] if attributes["vectors"] else w


class SvdOp(GufuncOp):
    name = "np.linalg.svd"
    square = False
    operand_defs = named(a=Tensor)
    attr_defs = {"mode": attr(str_attr(("full", "reduced", "none")))}

    @classmethod
    def shapes(cls, batch, m, n, operand_types, attributes):
        k = _min(m, n)
        mode = attributes["mode"]
        if mode == "none":
            return [batch + (k,)]
        u, v = (m, n) if mode == "full" else (k, k)
        return [batch + (m, u), batch + (k,), batch + (v, n)]


class QrOp(GufuncOp):
    name = "np.linalg.qr"
    square = False
    operand_defs = named(a=Tensor)
    attr_defs = {"mode": attr(str_attr(("r", "reduced", "complete")))}

    @classmethod
    def shapes(cls, batch, m, n, operand_types, attributes):
        k = _min(m, n)
        mode = attributes["mode"]
        if mode == "r":
            return [batch + (k, n)]
        c = m if mode == "complete" and (m is None or n is None or m > n) else k
        if mode == "complete" and (m is None or n is None):
            raise ValueError("np.linalg.qr(mode='complete') needs static matrix dims")
        return [batch + (m, c), batch + (c, n)]


class LstsqOp(GufuncOp):
    """Verified: one matrix (no stack), ``b`` with as many rows as ``a``."""

    name = "np.linalg.lstsq"
    square = False
    operand_defs = named(a=Tensor, b=Tensor, rcond=NpValue)

    @classmethod
    def infer(cls, operand_types, attributes):
        a, b, rcond = operand_types
        batch, m, n = _matrices(cls.name, a, False)
        bb, bm, k = _matrices(cls.name, b, False)
        if batch or bb or rcond != T.f64:
            raise TypeError(f"{cls.name} takes two float64 matrices and an f64 rcond")
        if m is not None and bm is not None and m != bm:
            raise ValueError("Incompatible dimensions")
        return [_array((n, k)), _array((None,)), T.i32, _array((_min(m, n),))]


LINALG_OPS = register_ops("np", (DetOp, SlogdetOp, InvOp, SolveOp, CholeskyOp, EighOp, SvdOp,
                                 QrOp, LstsqOp))
