"""Products of whole arrays built from elementwise ops and views: ``np.cross`` and ``np.kron``.

Semantics: NumPy 2's ``numeric.cross`` (vectors along ``axisa``/``axisb`` moved last, the
component formulas and their operation order, 2-vectors taken with a zero third component,
a pair of 2-vectors giving the z-component alone) and ``lib._shape_base_impl.kron``
(interleaved new axes, one broadcast multiply, a reshape).
"""

from __future__ import annotations

import numpy as np

from .. import types as T
from . import arrays as A
from . import shape_functions as S
from .ops import apply_ufunc, as_array, cast, dim, materialize, product
from .values import Constant, TupleValue

_INCOMPATIBLE = "incompatible dimensions for cross product\n(dimension must be 2 or 3)"


def _rank(x) -> int:
    return len(T.shape_of(x.type))


def _axis(cx, axis, rank: int, name: str) -> int:
    """NumPy's ``normalize_axis_index(axis, rank, msg_prefix=name)``."""
    ax = A.int_constant(cx, axis, name)
    if not -rank <= ax < rank:
        cx.fail(f"{name}: axis {ax} is out of bounds for array of dimension {rank}",
                kind=np.exceptions.AxisError)
    return ax % rank


def _move_axis(cx, x, source: int, destination: int):
    """``np.moveaxis(x, source, destination)`` for normalized axes."""
    order = [k for k in range(_rank(x)) if k != source]
    order.insert(destination, source)
    if order == list(range(_rank(x))):
        return x
    return A.transpose(cx, x, TupleValue(tuple(Constant(k) for k in order)))


def _components(cx, x, el):
    """The vector components ``x[..., k]`` of ``x`` cast to ``el``; CompileError unless the
    vector length is 2 or 3 and known at compile time."""
    n = x.type.shape[-1]
    if n is None:
        cx.fail("np.cross needs vectors of a length known at compile time",
                "give the arrays static shapes")
    if n not in (2, 3):
        cx.fail(_INCOMPATIBLE, kind=ValueError)
    x = cast(cx, x, el)
    return [S.gather(cx, x, Constant(k), _rank(x) - 1) for k in range(n)]


def cross(cx, a, b, axisa=None, axisb=None, axisc=None, axis=None):
    """``np.cross(a, b, axisa=-1, axisb=-1, axisc=-1, axis=None)``: the cross products of the
    vectors (2 or 3 components, along ``axisa`` of ``a`` and ``axisb`` of ``b``; ``axis``
    sets all three), broadcast over the other dims; the vectors of the result along
    ``axisc``, or the z-components alone (no vector axis) for two 2-vectors. dtype: the
    promoted one (bool is NumPy's TypeError). Errors: NumPy's ValueError and AxisError."""
    a, b = (materialize(cx, as_array(cx, v)) for v in (a, b))
    if _rank(a) < 1 or _rank(b) < 1:
        cx.fail("At least one array has zero dimension", kind=ValueError)
    if not A.is_none(axis):
        axisa = axisb = axisc = axis
    a = _move_axis(cx, a, _axis(cx, Constant(-1) if A.is_none(axisa) else axisa, _rank(a),
                                "axisa"), _rank(a) - 1)
    b = _move_axis(cx, b, _axis(cx, Constant(-1) if A.is_none(axisb) else axisb, _rank(b),
                                "axisb"), _rank(b) - 1)
    el = T.promote(T.strong(a.type), T.strong(b.type))
    a_, b_ = _components(cx, a, el), _components(cx, b, el)
    if T.is_bool(el):
        cx.fail("numpy boolean subtract, the `-` operator, is not supported, use the "
                "bitwise_xor, the `^` operator, or the logical_xor function instead.",
                kind=TypeError)

    def mul(x, y):
        return apply_ufunc(cx, np.multiply, [x, y])

    def sub(x, y):
        return apply_ufunc(cx, np.subtract, [x, y])

    def neg(x):
        return apply_ufunc(cx, np.negative, [x])

    z = sub(mul(a_[0], b_[1]), mul(a_[1], b_[0]))
    if len(a_) == 2 and len(b_) == 2:
        return z if isinstance(z.type, T.TensorType) else A.reshape(cx, z, Constant(()))
    if len(a_) == 2:
        parts = (mul(a_[1], b_[2]), neg(mul(a_[0], b_[2])), z)
    elif len(b_) == 2:
        parts = (neg(mul(a_[2], b_[1])), mul(a_[2], b_[0]), z)
    else:
        parts = (sub(mul(a_[1], b_[2]), mul(a_[2], b_[1])),
                 sub(mul(a_[2], b_[0]), mul(a_[0], b_[2])), z)
    parts = tuple(A.reshape(cx, p, Constant(())) if not isinstance(p.type, T.TensorType)
                  else p for p in parts)
    out = S.stack(cx, TupleValue(parts), Constant(-1))
    c = _axis(cx, Constant(-1) if A.is_none(axisc) else axisc, _rank(out), "axisc")
    return _move_axis(cx, out, _rank(out) - 1, c)


def kron(cx, a, b):
    """``np.kron(a, b)``: the Kronecker product; ``a`` gets leading unit dims up to ``b``'s
    rank and ``b`` up to ``a``'s, then ``result[i*b.shape + j] = a[i] * b[j]``, of shape
    ``a.shape * b.shape`` (a 0-d operand: ``a * b``). dtype: the multiply's."""
    b = materialize(cx, as_array(cx, b))
    b = cast(cx, b, T.strong(b.type))
    a = materialize(cx, as_array(cx, a))
    a = cast(cx, a, T.strong(a.type))
    if _rank(a) < _rank(b):
        a = S._view(cx, a, ("n",) * (_rank(b) - _rank(a)) + ("s",) * _rank(a))
    nda, ndb = _rank(a), _rank(b)
    if ndb == 0:
        return apply_ufunc(cx, np.multiply, [a, b])
    b = S._view(cx, b, ("n",) * (nda - ndb) + ("s",) * ndb)
    nd = nda
    a_arr = S._view(cx, a, ("s", "n") * nd)
    b_arr = S._view(cx, b, ("n", "s") * nd)
    out = apply_ufunc(cx, np.multiply, [a_arr, b_arr])
    shape = tuple(product(cx, [dim(cx, a, k), dim(cx, b, k)]) for k in range(nd))
    return A.reshape(cx, out, TupleValue(shape))


RULES = {
    np.cross: ("np.cross", cross, ["a", "b", "axisa=", "axisb=", "axisc=", "axis="]),
    np.kron: ("np.kron", kron, ["a", "b"]),
}
