"""``np.linalg``: NumPy's linear algebra functions, as ``numpy/linalg/_linalg.py`` writes them.

The functions NumPy computes with a gufunc of ``umath_linalg`` become the ``np.linalg.*`` op
of that gufunc (``dialects/linalg.py``, lowered to calls of NumPy's own LAPACK) between NumPy's
casts: to float64 before (float32 too, as NumPy computes ``'d->d'``) and to the result dtype
after (float32 for float32 input, float64 for integers, bool and float64). The others are
NumPy's Python code in grafo's ops: ``pinv`` (``svd``, a cutoff, a product), ``matrix_power``
(repeated products, ``inv`` for negative powers) and ``norm`` (reductions, ``svd`` for the
2-norm, -2-norm and nuclear norm of matrices).

Shape errors NumPy raises before computing (a 1-D input, non-square matrices) are
CompileErrors that are ValueErrors (``LinAlgError`` is a ValueError); where the dims are known
only at run time, the LinAlgError is raised at run time. Results that NumPy returns as named
tuples (``SlogdetResult``, ``EighResult``, ``SVDResult``, ``QRResult``) are plain tuples.
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import linalg as la
from . import arrays as A
from . import shape_functions as S
from .ops import apply_ufunc, as_array, cast, dim, materialize, power_operator
from .values import Constant, TupleValue

LinAlgError = np.linalg.LinAlgError


def _result_type(*elements) -> T.Type:
    """NumPy's ``_commonType``: float32 when every input is float32, else float64."""
    return T.f32 if all(e == T.f32 for e in elements) else T.f64


def _matrices(cx, a, square=True):
    """``a`` as a stack of matrices in float64, and its result dtype."""
    a = materialize(cx, as_array(cx, a))
    t = a.type
    rank = t.rank if isinstance(t, T.TensorType) else 0
    if rank < 2:
        cx.fail(f"{rank}-dimensional array given. Array must be at least two-dimensional",
                "pass a matrix or a stack of matrices", kind=LinAlgError)
    m, n = t.shape[-2:]
    if square and m is not None and n is not None and m != n:
        cx.fail("Last 2 dimensions of the array must be square", kind=LinAlgError)
    return cast(cx, a, T.f64), _result_type(t.element)


def _gufunc(cx, cls, operands, attrs=None) -> list:
    return list(cx.emit_op(cls, operands, attrs).results)


def det(cx, a):
    """``np.linalg.det``: (..., M, M) -> (...) (a scalar for one matrix), via LU."""
    a, rt = _matrices(cx, a)
    return cast(cx, _gufunc(cx, la.DetOp, [a])[0], rt)


def slogdet(cx, a):
    """``np.linalg.slogdet``: (sign, logabsdet), each (...)."""
    a, rt = _matrices(cx, a)
    sign, logdet = _gufunc(cx, la.SlogdetOp, [a])
    return TupleValue((cast(cx, sign, rt), cast(cx, logdet, rt)))


def inv(cx, a):
    """``np.linalg.inv``: (..., M, M) -> (..., M, M); LinAlgError("Singular matrix")."""
    a, rt = _matrices(cx, a)
    return cast(cx, _gufunc(cx, la.InvOp, [a])[0], rt)


def _broadcast_batch(cx, a, b):
    """``a`` and ``b`` broadcast to one stack shape (their leading dims), as gufuncs do."""
    ta, tb = a.type, b.type
    ba, bb = ta.shape[:-2], tb.shape[:-2]
    if ba == bb and None not in ba:
        return a, b
    if None in ba or None in bb:
        if len(ba) == len(bb) and all(x is None or y is None or x == y
                                      for x, y in zip(ba, bb, strict=True)):
            return a, b
        cx.fail("stacks of matrices whose dims are known only at run time must have the "
                "same shape here", "broadcast them with np.broadcast_to first")
    try:
        batch = np.broadcast_shapes(ba, bb)
    except ValueError as e:
        cx.fail(str(e), kind=ValueError)

    def to(x):
        shape = TupleValue(tuple(Constant(d) for d in batch)
                           + tuple(dim(cx, x, k) for k in (x.type.rank - 2, x.type.rank - 1)))
        return S.broadcast_to(cx, x, shape)
    return to(a), to(b)


def solve(cx, a, b):
    """``np.linalg.solve``: (..., M, M), (..., M, K) -> (..., M, K), or (M,) -> (M,) for a 1-D
    ``b`` (NumPy 2's rule); LinAlgError("Singular matrix")."""
    a, ra = _matrices(cx, a)
    b = materialize(cx, as_array(cx, b))
    tb = b.type
    if not isinstance(tb, T.TensorType) or tb.rank == 0:
        cx.fail("solve: b must be at least one-dimensional", kind=ValueError)
    rt = _result_type(ra if ra == T.f32 else T.f64, tb.element)
    vector = tb.rank == 1
    b = cast(cx, b, T.f64)
    if vector:
        b = S.expand_dims(cx, b, Constant(-1))
        if a.type.rank > 2:
            b = S.broadcast_to(cx, b, TupleValue(
                tuple(dim(cx, a, k) for k in range(a.type.rank - 2))
                + (dim(cx, b, 0), Constant(1))))
    m, bm = a.type.shape[-1], b.type.shape[-2]
    if m is not None and bm is not None and m != bm:
        sig = "(m,m),(m)->(m)" if vector else "(m,m),(m,n)->(m,n)"
        cx.fail(f"solve{'1' if vector else ''}: Input operand 1 has a mismatch in its core "
                f"dimension 0, with gufunc signature {sig} (size {bm} is different from {m})",
                kind=ValueError)
    a, b = _broadcast_batch(cx, a, b)
    x = _gufunc(cx, la.SolveOp, [a, b])[0]
    if vector:
        x = S.squeeze(cx, x, Constant(-1))
    return cast(cx, x, rt)


def cholesky(cx, a, upper):
    """``np.linalg.cholesky(a, upper=False)``: the lower (upper) factor, (..., M, M);
    LinAlgError("Matrix is not positive definite")."""
    a, rt = _matrices(cx, a)
    up = False if A.is_none(upper) else A.bool_of(cx, upper, "upper")
    return cast(cx, _gufunc(cx, la.CholeskyOp, [a], {"upper": up})[0], rt)


def _uplo(cx, uplo) -> str:
    if A.is_none(uplo):
        return "L"
    if not (isinstance(uplo, Constant) and isinstance(uplo.value, str)):
        cx.fail("UPLO must be a string known at compile time")
    u = uplo.value.upper()
    if u not in ("L", "U"):
        cx.fail("UPLO argument must be 'L' or 'U'", kind=ValueError)
    return u


def eigh(cx, a, uplo):
    """``np.linalg.eigh``: eigenvalues (..., M) in ascending order and eigenvectors
    (..., M, M) (columns) of symmetric matrices, from the ``UPLO`` triangle."""
    a, rt = _matrices(cx, a)
    w, v = _gufunc(cx, la.EighOp, [a], {"uplo": _uplo(cx, uplo), "vectors": True})
    return TupleValue((cast(cx, w, rt), cast(cx, v, rt)))


def eigvalsh(cx, a, uplo):
    """``np.linalg.eigvalsh``: the eigenvalues of ``eigh``, (..., M)."""
    a, rt = _matrices(cx, a)
    (w,) = _gufunc(cx, la.EighOp, [a], {"uplo": _uplo(cx, uplo), "vectors": False})
    return cast(cx, w, rt)


def _flag(cx, v, default: bool, what: str) -> bool:
    return default if A.is_none(v) else A.bool_of(cx, v, what)


def svd(cx, a, full_matrices, compute_uv, hermitian):
    """``np.linalg.svd``: (u, s, vh) with ``s`` descending (..., K), K = min(M, N), or ``s``
    alone; LinAlgError("SVD did not converge")."""
    if _flag(cx, hermitian, False, "hermitian"):
        cx.fail("np.linalg.svd(hermitian=True) is not supported", "leave hermitian False")
    a, rt = _matrices(cx, a, square=False)
    if not _flag(cx, compute_uv, True, "compute_uv"):
        return cast(cx, _gufunc(cx, la.SvdOp, [a], {"mode": "none"})[0], rt)
    mode = "full" if _flag(cx, full_matrices, True, "full_matrices") else "reduced"
    u, s, vh = _gufunc(cx, la.SvdOp, [a], {"mode": mode})
    return TupleValue((cast(cx, u, rt), cast(cx, s, rt), cast(cx, vh, rt)))


def qr(cx, a, mode):
    """``np.linalg.qr``: (q, r) for ``mode`` "reduced" (q (..., M, K), r (..., K, N)) and
    "complete" (q (..., M, M), r (..., M, N)), r alone for "r"."""
    name = "reduced" if A.is_none(mode) else mode.value if isinstance(mode, Constant) else None
    if name not in ("reduced", "complete", "r"):
        cx.fail(f"np.linalg.qr(mode={name!r}) is not supported",
                "use mode='reduced', 'complete' or 'r'")
    a, rt = _matrices(cx, a, square=False)
    outs = _gufunc(cx, la.QrOp, [a], {"mode": name})
    if name == "r":
        return cast(cx, outs[0], rt)
    return TupleValue(tuple(cast(cx, v, rt) for v in outs))


def pinv(cx, a, rcond, hermitian):
    """``np.linalg.pinv`` (rcond default 1e-15): ``vt.T @ (s⁺[..., None] * u.T)`` of the
    reduced SVD, where ``s⁺`` is ``1 / s`` above ``rcond * max(s)`` and 0 below."""
    if _flag(cx, hermitian, False, "hermitian"):
        cx.fail("np.linalg.pinv(hermitian=True) is not supported", "leave hermitian False")
    x = materialize(cx, as_array(cx, a))
    if not isinstance(x.type, T.TensorType) or x.type.rank < 2:
        _matrices(cx, x, square=False)
    m, n = x.type.shape[-2:]
    if m == 0 or n == 0:
        shape = TupleValue(tuple(dim(cx, x, k) for k in range(x.type.rank - 2))
                           + (Constant(n), Constant(m)))
        return A.full(cx, shape, Constant(0), Constant(T.to_dtype(x.type.element)))
    u, s, vt = svd(cx, x, Constant(False), None, None).items
    cut = Constant(1e-15) if A.is_none(rcond) else rcond
    cutoff = apply_ufunc(cx, np.multiply, [cut, A.reduce(cx, "max", s, Constant(-1),
                                                        Constant(True))])
    large = apply_ufunc(cx, np.greater, [s, cutoff])
    el = s.type.element
    inv_s = A.select(cx, large, apply_ufunc(cx, np.divide, [cast(cx, Constant(1), el), s]),
                     cast(cx, Constant(0), el))
    scaled = apply_ufunc(cx, np.multiply, [S.expand_dims(cx, inv_s, Constant(-1)),
                                           _swap(cx, u)])
    return A.matmul(cx, _swap(cx, vt), scaled)


def _swap(cx, x):
    """``np.linalg.transpose``: the last two axes swapped."""
    r = x.type.rank
    return S.swapaxes(cx, x, Constant(r - 2), Constant(r - 1))


def matrix_power(cx, a, n):
    """``np.linalg.matrix_power``: ``a`` to the compile-time integer power ``n`` by NumPy's
    binary decomposition (n == 0: the identity in ``a``'s dtype; n < 0: of ``inv(a)``)."""
    x = materialize(cx, as_array(cx, a))
    if not (isinstance(n, Constant) and isinstance(n.value, (int, np.integer))
            and not isinstance(n.value, (bool, np.bool_))):
        cx.fail("exponent must be an integer known at compile time", kind=TypeError)
    p = int(n.value)
    _matrices(cx, x)
    rank, rows = x.type.rank, x.type.shape[-2]
    if p == 0:
        if rows is None:
            cx.fail("np.linalg.matrix_power(a, 0) needs the matrix dims at compile time")
        eye = A.eye(cx, Constant(rows), None, None, Constant(T.to_dtype(x.type.element)))
        return S.broadcast_to(cx, eye, TupleValue(tuple(dim(cx, x, k) for k in range(rank))))
    if p < 0:
        x = inv(cx, x)
        p = -p
    if p == 1:
        return A.copy(cx, x)
    if p == 2:
        return A.matmul(cx, x, x)
    if p == 3:
        return A.matmul(cx, A.matmul(cx, x, x), x)
    z = result = None
    while p > 0:
        z = x if z is None else A.matmul(cx, z, z)
        p, bit = divmod(p, 2)
        if bit:
            result = z if result is None else A.matmul(cx, result, z)
    return result


def lstsq(cx, a, b, rcond):
    """``np.linalg.lstsq``: (x, residuals, rank, s) of the minimum-norm least-squares
    solution (``gelsd``); ``rcond`` default ``eps * max(M, N)`` (float64's eps). ``x`` is (N,)
    for a 1-D ``b``; ``residuals`` is empty unless the rank is N and M > N (its size is
    known at run time); ``rank`` an int32 scalar."""
    a, ra = _matrices(cx, a, square=False)
    b = materialize(cx, as_array(cx, b))
    tb = b.type
    rt = _result_type(ra if ra == T.f32 else T.f64,
                      tb.element if isinstance(tb, T.TensorType) else T.f64)
    vector = isinstance(tb, T.TensorType) and tb.rank == 1
    b = cast(cx, S.expand_dims(cx, b, Constant(-1)) if vector else b, T.f64)
    for x in (a, b):
        if x.type.rank != 2:
            cx.fail(f"{x.type.rank}-dimensional array given. Array must be two-dimensional",
                    kind=LinAlgError)
    m, bm = a.type.shape[0], b.type.shape[0]
    if m is not None and bm is not None and m != bm:
        cx.fail("Incompatible dimensions", kind=LinAlgError)
    if A.is_none(rcond):
        longest = apply_ufunc(cx, np.maximum, [dim(cx, a, 0), dim(cx, a, 1)])
        rcond = apply_ufunc(cx, np.multiply, [Constant(float(np.finfo(np.float64).eps)),
                                              longest])
    x, resids, rank, s = _gufunc(cx, la.LstsqOp, [a, b, cast(cx, rcond, T.f64)])
    if vector:
        x = S.squeeze(cx, x, Constant(-1))
    return TupleValue((cast(cx, x, rt), cast(cx, resids, rt), rank, cast(cx, s, rt)))


def _ord(cx, ord):
    if A.is_none(ord):
        return None
    if not isinstance(ord, Constant) or isinstance(ord.value, (bool, np.bool_)):
        cx.fail("ord must be a number or a string known at compile time")
    v = ord.value
    return v if isinstance(v, str) else float(v)


def _largest(cx, x, axis: int, keep: bool, kind="max"):
    """``x.max(axis, initial=0)`` of values >= 0: the sum (0) where the axis is empty."""
    if kind == "max" and x.type.shape[axis] == 0:
        kind = "sum"
    return A.reduce(cx, kind, x, Constant(axis), Constant(keep))


def _singular_values(cx, x, row: int, col: int):
    rank = x.type.rank
    rest = [k for k in range(rank) if k not in (row, col)]
    moved = A.transpose(cx, x, TupleValue(tuple(Constant(k) for k in (*rest, row, col))))
    return svd(cx, moved, None, Constant(False), None)


def norm(cx, x, ord, axis, keepdims):
    """``np.linalg.norm``: vector norms (one axis, or a 1-D ``x``) and matrix norms (two axes,
    or a 2-D ``x``) of order ``ord`` (None, inf, -inf, 0, 1, -1, 2, -2, other numbers for
    vectors, 'fro' and 'nuc' for matrices), NumPy's formulas; integers and bool in float64."""
    x = materialize(cx, as_array(cx, x))
    if not isinstance(x.type, T.TensorType):
        x = A.zero_d(cx, x)
    if not T.is_float(x.type.element):
        x = cast(cx, x, T.f64)
    rank, o = x.type.rank, _ord(cx, ord)
    keep = not A.is_none(keepdims) and A.bool_of(cx, keepdims, "keepdims")
    if A.is_none(axis) and (o is None or (o in ("f", "fro") and rank == 2)
                            or (o == 2 and rank == 1)):
        flat = A.reshape(cx, x, Constant(-1))
        ret = apply_ufunc(cx, np.sqrt, [A.dot(cx, flat, flat)])
        if keep:
            ret = A.reshape(cx, ret, TupleValue((Constant(1),) * rank))
        return ret
    axes = tuple(range(rank)) if A.is_none(axis) else tuple(   # in order: (1, 0) != (0, 1)
        A.normalize_axis(cx, A.int_constant(cx, a, "axis"), rank)
        for a in A.items_of(cx, axis, "axis"))
    absx = apply_ufunc(cx, np.absolute, [x])
    if len(axes) == 1:
        (ax,) = axes
        if o == np.inf:
            return _largest(cx, absx, ax, keep)
        if o == -np.inf:
            return A.reduce(cx, "min", absx, Constant(ax), Constant(keep))
        if o == 0:
            nonzero = cast(cx, apply_ufunc(cx, np.not_equal, [x, Constant(0)]), x.type.element)
            return A.reduce(cx, "sum", nonzero, Constant(ax), Constant(keep))
        if o == 1:
            return A.reduce(cx, "sum", absx, Constant(ax), Constant(keep))
        if o is None or o == 2:
            squares = apply_ufunc(cx, np.multiply, [x, x])
            return apply_ufunc(cx, np.sqrt, [A.reduce(cx, "sum", squares, Constant(ax),
                                                      Constant(keep))])
        if isinstance(o, str):
            cx.fail(f"Invalid norm order '{o}' for vectors", kind=ValueError)
        ret = A.reduce(cx, "sum", power_operator(cx, absx, Constant(ord.value)), Constant(ax),
                       Constant(keep))
        dtype = T.to_dtype(x.type.element)
        return power_operator(cx, ret, Constant(np.reciprocal(np.asarray(o, dtype))[()]))
    if len(axes) != 2:
        cx.fail("Improper number of dimensions to norm.", kind=ValueError)
    row, col = axes
    if row == col:
        cx.fail("Duplicate axes given.", kind=ValueError)
    if o in (2, -2, "nuc"):
        s = _singular_values(cx, x, row, col)
        ret = (_largest(cx, s, -1, False) if o == 2 else
               A.reduce(cx, "min" if o == -2 else "sum", s, Constant(-1), Constant(False)))
    elif o in (1, -1, np.inf, -np.inf):
        first, then = (row, col) if o in (1, -1) else (col, row)
        sums = A.reduce(cx, "sum", absx, Constant(first), Constant(False))
        then -= then > first
        ret = (_largest(cx, sums, then, False) if o > 0 else
               A.reduce(cx, "min", sums, Constant(then), Constant(False)))
    elif o in (None, "fro", "f"):
        squares = apply_ufunc(cx, np.multiply, [x, x])
        ret = apply_ufunc(cx, np.sqrt, [A.reduce(cx, "sum", squares, TupleValue(
            (Constant(row), Constant(col))), Constant(False))])
    else:
        cx.fail("Invalid norm order for matrices.", kind=ValueError)
    if keep:
        shape = [dim(cx, x, k) for k in range(rank)]
        shape[row] = shape[col] = Constant(1)
        ret = A.reshape(cx, ret, TupleValue(tuple(shape)))
    return ret


RULES = {
    np.linalg.det: ("np.linalg.det", det, ["a"]),
    np.linalg.slogdet: ("np.linalg.slogdet", slogdet, ["a"]),
    np.linalg.inv: ("np.linalg.inv", inv, ["a"]),
    np.linalg.solve: ("np.linalg.solve", solve, ["a", "b"]),
    np.linalg.cholesky: ("np.linalg.cholesky", cholesky, ["a", "upper="]),
    np.linalg.eigh: ("np.linalg.eigh", eigh, ["a", "UPLO="]),
    np.linalg.eigvalsh: ("np.linalg.eigvalsh", eigvalsh, ["a", "UPLO="]),
    np.linalg.svd: ("np.linalg.svd", svd, ["a", "full_matrices=", "compute_uv=",
                                            "hermitian="]),
    np.linalg.qr: ("np.linalg.qr", qr, ["a", "mode="]),
    np.linalg.pinv: ("np.linalg.pinv", pinv, ["a", "rcond=", "hermitian="]),
    np.linalg.matrix_power: ("np.linalg.matrix_power", matrix_power, ["a", "n"]),
    np.linalg.norm: ("np.linalg.norm", norm, ["x", "ord=", "axis=", "keepdims="]),
    np.linalg.lstsq: ("np.linalg.lstsq", lstsq, ["a", "b", "rcond="]),
}
