"""NumPy's 1-D polynomial functions: ``np.convolve``, ``np.correlate`` and ``np.polyval``.

Semantics: NumPy 2's ``numeric.convolve`` / ``multiarray.correlate2`` (``_pyarray_correlate``:
the longer operand slides over the shorter one; an inverted pair's ``same`` window is
centred on the other side) and ``lib._polynomial_impl.polyval`` (Horner's rule from
``zeros_like(x)``). Each output of a correlation is a sum of products of a gathered index
grid, reduced along the shorter operand's axis (NumPy calls the dtype's ``dot``: for floats
OpenBLAS's, whose summation order differs, so float results agree to a few ULP; integers
and bools are exact).
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from . import arrays as A
from . import shape_functions as S
from .manipulation import axis_slice, iota
from .ops import (
    apply_ufunc,
    as_array,
    cast,
    check,
    dim,
    materialize,
    raise_at_runtime,
    value_type,
)
from .values import Constant, TupleValue

_MODES = {"valid": 0, "same": 1, "full": 2}
# Beyond this many coefficients np.polyval's unrolled Horner steps would bloat the code.
_MAX_COEFFICIENTS = 256


def _mode(cx, mode, default: int) -> int:
    """NumPy's ``convolve/correlate mode`` converter (messages of NumPy 2.4)."""
    if A.is_none(mode):
        return default
    m = mode.value if isinstance(mode, Constant) else None
    if isinstance(m, str):
        if m in _MODES:
            return _MODES[m]
        if m[:1].lower() in ("v", "s", "f"):
            cx.fail("Use one of 'valid', 'same', or 'full' for convolve/correlate mode",
                    kind=ValueError)
        cx.fail(f"mode must be one of 'valid', 'same', or 'full' (got {m!r})", kind=ValueError)
    if isinstance(m, (int, np.integer)) and not isinstance(m, bool):
        if m not in (0, 1, 2):
            cx.fail("integer convolve/correlate mode must be 0, 1, or 2", kind=ValueError)
        return int(m)
    cx.fail("convolve/correlate mode not understood", kind=TypeError)


def _vector(cx, x, ndmin: bool):
    """A 1-D operand (``np.array(x, ndmin=1)`` where ``ndmin``, else as ``correlate2``
    requires)."""
    x = materialize(cx, as_array(cx, x))
    t = T.strong(x.type)
    x = cast(cx, x, t)
    rank = len(T.shape_of(x.type))
    if rank == 0:
        if not ndmin:
            cx.fail("object of too small depth for desired array", kind=ValueError)
        return A.reshape(cx, x, Constant((1,)))
    if rank > 1:
        cx.fail("object too deep for desired array", kind=ValueError)
    return x


_INT_OPS = {np.add: operator.add, np.subtract: operator.sub, np.minimum: min,
            np.maximum: max, np.floor_divide: operator.floordiv, np.less: operator.lt}


def _int(cx, ufunc, x, y):
    """``ufunc(x, y)`` of two sizes (Python ints), folded when both are compile-time ints."""
    if isinstance(x, Constant) and isinstance(y, Constant):
        return Constant(_INT_OPS[ufunc](x.value, y.value))
    python_op = None if ufunc in (np.minimum, np.maximum) else _INT_OPS[ufunc]
    out = apply_ufunc(cx, ufunc, [cast(cx, x, T.py_int), cast(cx, y, T.py_int)], python_op)
    return out if T.is_bool(out.type) else cast(cx, out, T.py_int)


def _nonempty(cx, n, message: str) -> None:
    if isinstance(n, Constant):
        if n.value == 0:
            raise_at_runtime(cx, ValueError(message))
        return
    check(cx, apply_ufunc(cx, np.greater, [n, Constant(0)], operator.gt), "ValueError",
          message)


def _full_correlation(cx, a, v, flip: bool):
    """``c[i] = sum_j a[idx(i, j)] * v[j]`` for ``i`` in ``0 .. n1 + n2 - 2``, ``idx = i - j``
    (convolution, ``flip``) or ``i + j - (n2 - 1)`` (correlation); terms outside ``a`` drop
    out. Result dtype: the operands' promoted one (bool: any of ands)."""
    el = T.promote(T.strong(a.type), T.strong(v.type))
    a, v = cast(cx, a, el), cast(cx, v, el)
    n1, n2 = dim(cx, a, 0), dim(cx, v, 0)
    shift = _int(cx, np.subtract, n2, Constant(1))
    i = S._view(cx, iota(cx, _int(cx, np.add, n1, shift)), ("s", "n"))
    j = S._view(cx, iota(cx, n2), ("n", "s"))
    if flip:
        idx = apply_ufunc(cx, np.subtract, [i, j])
    else:
        idx = apply_ufunc(cx, np.subtract, [apply_ufunc(cx, np.add, [i, j]),
                                            cast(cx, shift, T.i64)])
    last = cast(cx, _int(cx, np.subtract, n1, Constant(1)), T.i64)
    inside = apply_ufunc(cx, np.logical_and, [
        apply_ufunc(cx, np.greater_equal, [idx, Constant(0)]),
        apply_ufunc(cx, np.less_equal, [idx, last])])
    taken = S.gather(cx, a, A.clip(cx, idx, Constant(0), last), 0)
    if T.is_bool(el):
        terms = A.where(cx, inside, apply_ufunc(cx, np.logical_and, [taken, v]), Constant(False))
        return A.reduce(cx, "any", terms, Constant(1))
    terms = A.where(cx, inside, apply_ufunc(cx, np.multiply, [taken, v]), Constant(0))
    return A.reduce(cx, "sum", cast(cx, terms, el), Constant(1), None,
                    Constant(T.to_dtype(el)))


def _window(cx, full, n1, n2, mode: int, inverted):
    """The ``valid``/``same``/``full`` part of a full correlation of lengths ``n1``, ``n2``;
    ``inverted``: NumPy slid the first operand over the second (it is the shorter), a Python
    bool or a run-time one."""
    if mode == 2:
        return full
    short, long_ = _int(cx, np.minimum, n1, n2), _int(cx, np.maximum, n1, n2)
    below = _int(cx, np.subtract, short, Constant(1))
    if mode == 0:
        start = below
        size = _int(cx, np.add, _int(cx, np.subtract, long_, short), Constant(1))
    else:
        half = _int(cx, np.floor_divide, short, Constant(2))
        left = _int(cx, np.subtract, below, half)
        if isinstance(inverted, bool):
            start = half if inverted else left
        else:
            start = A.select(cx, inverted, cast(cx, half, T.py_int), cast(cx, left, T.py_int))
        size = long_
    return axis_slice(cx, full, 0, start, _int(cx, np.add, start, size))


def convolve(cx, a, v, mode=None):
    """``np.convolve(a, v, mode='full')`` of 1-D ``a`` (n) and ``v`` (m): length ``n + m - 1``
    (full), ``max(n, m)`` (same) or ``max(n, m) - min(n, m) + 1`` (valid), the operands'
    promoted dtype. ValueError "a cannot be empty" / "v cannot be empty"."""
    m = _mode(cx, mode, 2)
    a, v = _vector(cx, a, True), _vector(cx, v, True)
    n1, n2 = dim(cx, a, 0), dim(cx, v, 0)
    _nonempty(cx, n1, "a cannot be empty")
    _nonempty(cx, n2, "v cannot be empty")
    return _window(cx, _full_correlation(cx, a, v, True), n1, n2, m, False)


def correlate(cx, a, v, mode=None):
    """``np.correlate(a, v, mode='valid')``: ``c[k] = sum_n a[n + k] * v[n]`` of 1-D real
    operands (shapes as ``np.convolve``'s; ``same`` is centred as NumPy's, which depends on
    which operand is longer). ValueError "first/second array argument cannot be empty"."""
    m = _mode(cx, mode, 0)
    a, v = _vector(cx, a, False), _vector(cx, v, False)
    n1, n2 = dim(cx, a, 0), dim(cx, v, 0)
    _nonempty(cx, n1, "first array argument cannot be empty")
    _nonempty(cx, n2, "second array argument cannot be empty")
    inverted = _int(cx, np.less, n1, n2)
    inverted = bool(inverted.value) if isinstance(inverted, Constant) else inverted
    return _window(cx, _full_correlation(cx, a, v, False), n1, n2, m, inverted)


def polyval(cx, p, x):
    """``np.polyval(p, x)``: ``y = zeros_like(x)``, then ``y = y * x + c`` for each
    coefficient ``c`` of the 1-D ``p`` (highest power first; its length known at compile
    time); the shape of ``x``, the dtype NumPy's promotions give (``x``'s for an empty
    ``p``), a NumPy scalar for a scalar ``x``."""
    coefficients = materialize(cx, as_array(cx, p))
    shape = T.shape_of(coefficients.type)
    if len(shape) != 1:
        cx.fail(f"np.polyval of {len(shape)}-d coefficients is not supported",
                "pass a 1-d array or list of coefficients")
    if shape[0] is None:
        cx.fail("np.polyval needs a number of coefficients known at compile time")
    if shape[0] > _MAX_COEFFICIENTS:
        cx.fail(f"np.polyval of more than {_MAX_COEFFICIENTS} coefficients is not supported")
    x = as_array(cx, x)
    t = value_type(cx, x)
    x = cast(cx, x, T.strong(t))
    if isinstance(t, T.TensorType):
        x = materialize(cx, x)
        y = A.full(cx, TupleValue(tuple(dim(cx, x, k) for k in range(t.rank))), Constant(0),
                   Constant(T.to_dtype(T.strong(t))))
    else:
        y = cast(cx, Constant(0), T.strong(t))
    for k in range(shape[0]):
        c = S.gather(cx, coefficients, Constant(k), 0)
        y = apply_ufunc(cx, np.add, [apply_ufunc(cx, np.multiply, [y, x]), c])
    return y


RULES = {
    np.convolve: ("np.convolve", convolve, ["a", "v", "mode="]),
    np.correlate: ("np.correlate", correlate, ["a", "v", "mode="]),
    np.polyval: ("np.polyval", polyval, ["p", "x"]),
}
