"""The ``lapack`` dialect: calls of LAPACK's double precision routines at loop level.

Each op is one routine family (``lapack.getrf`` is ``dgetrf``) called with the Fortran
convention of an ILP64 LAPACK: every argument by reference, integers 64-bit, matrices
column-major in contiguous 1-D buffers (``memref<?xf64>``; the leading dimension is an
operand). Operands are the routine's arguments in LAPACK's order, except the character
arguments (``jobz``, ``uplo``), which are attributes, and ``info``, which is the op's
``i64`` result. The op writes the buffers it is given (results, factors, workspace), so it
is not Pure.

``PARAMETERS`` gives each routine's numeric arguments as kinds: ``i`` an integer (``i64`` or
``index`` scalar), ``d`` a double scalar (``f64``), ``A`` a double array and ``I`` an integer
array (``memref<?xf64>`` / ``memref<?xi64>``, passed as the address of their first element).
"""

from __future__ import annotations

from .. import types as T
from ..ir.constraints import Float, IntOrIndex, MemRef, Variadic, attr, named, str_attr
from ..ir.opdef import Op, register_ops

PARAMETERS = {
    "getrf": ("m", "n", "a:A", "lda", "ipiv:I"),
    "gesv": ("n", "nrhs", "a:A", "lda", "ipiv:I", "b:A", "ldb"),
    "potrf": ("n", "a:A", "lda"),
    "syevd": ("n", "a:A", "lda", "w:A", "work:A", "lwork", "iwork:I", "liwork"),
    "gesdd": ("m", "n", "a:A", "lda", "s:A", "u:A", "ldu", "vt:A", "ldvt", "work:A", "lwork",
              "iwork:I"),
    "geqrf": ("m", "n", "a:A", "lda", "tau:A", "work:A", "lwork"),
    "orgqr": ("m", "n", "k", "a:A", "lda", "tau:A", "work:A", "lwork"),
    "gelsd": ("m", "n", "nrhs", "a:A", "lda", "b:A", "ldb", "s:A", "rcond:d", "rank:I",
              "work:A", "lwork", "iwork:I"),
}
# The character arguments of each routine, in LAPACK's order (they come first).
CHARACTERS = {"syevd": ("jobz", "uplo"), "potrf": ("uplo",), "gesdd": ("jobz",)}
_CHOICES = {"jobz": ("N", "V", "A", "S"), "uplo": ("L", "U")}


def kind_of(parameter: str) -> str:
    """``i``, ``d``, ``A`` or ``I`` (see ``PARAMETERS``)."""
    return parameter.split(":")[1] if ":" in parameter else "i"


def _accepts(kind: str, t: T.Type) -> bool:
    if kind == "i":
        return IntOrIndex.test(t) and (not isinstance(t, T.IntegerType) or t.width == 64)
    if kind == "d":
        return t == T.f64
    element = T.f64 if kind == "A" else T.i64
    return (MemRef.test(t) and t.rank == 1 and not t.strided and t.element == element)


class RoutineOp(Op):
    """Verified: the operands are the routine's ``PARAMETERS`` in order, of their kinds."""

    routine = ""
    operand_defs = named(args=Variadic(IntOrIndex | Float | MemRef))
    result_defs = named(info=IntOrIndex)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.i64]

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        params = PARAMETERS[self.routine]
        if len(self.args) != len(params):
            raise VerifyError(self, f"takes {len(params)} operands ({', '.join(params)}), has "
                                    f"{len(self.args)}")
        for p, v in zip(params, self.args, strict=True):
            if not _accepts(kind_of(p), v.type):
                raise VerifyError(self, f"operand '{p.split(':')[0]}' has type {v.type}")


def _character(name: str):
    return attr(str_attr(_CHOICES[name]))


class GetrfOp(RoutineOp):
    """``dgetrf``: LU factorization with partial pivoting, in place."""

    name = "lapack.getrf"
    routine = "getrf"


class GesvOp(RoutineOp):
    """``dgesv``: solves ``A X = B`` (``b`` is overwritten by X, ``a`` by A's LU)."""

    name = "lapack.gesv"
    routine = "gesv"


class PotrfOp(RoutineOp):
    """``dpotrf``: Cholesky factorization of the ``uplo`` triangle, in place."""

    name = "lapack.potrf"
    routine = "potrf"
    attr_defs = {"uplo": _character("uplo")}


class SyevdOp(RoutineOp):
    """``dsyevd``: eigenvalues (eigenvectors into ``a`` when ``jobz`` is V) of a symmetric
    matrix, by divide and conquer."""

    name = "lapack.syevd"
    routine = "syevd"
    attr_defs = {"jobz": _character("jobz"), "uplo": _character("uplo")}


class GesddOp(RoutineOp):
    """``dgesdd``: singular value decomposition by divide and conquer."""

    name = "lapack.gesdd"
    routine = "gesdd"
    attr_defs = {"jobz": _character("jobz")}


class GeqrfOp(RoutineOp):
    """``dgeqrf``: QR factorization as Householder reflectors, in place."""

    name = "lapack.geqrf"
    routine = "geqrf"


class OrgqrOp(RoutineOp):
    """``dorgqr``: the Q of ``geqrf``'s reflectors, in place."""

    name = "lapack.orgqr"
    routine = "orgqr"


class GelsdOp(RoutineOp):
    """``dgelsd``: minimum-norm least squares by SVD (``b`` is overwritten by X)."""

    name = "lapack.gelsd"
    routine = "gelsd"


ROUTINE_OPS = (GetrfOp, GesvOp, PotrfOp, SyevdOp, GesddOp, GeqrfOp, OrgqrOp, GelsdOp)

register_ops("lapack", ROUTINE_OPS)
