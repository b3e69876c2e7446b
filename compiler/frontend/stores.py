"""How NumPy converts a scalar stored into an integer array (``x[i] = v``, ``x[1:] = v``).

NumPy 2's ``PyArray_Pack`` hands the scalar to the dtype's ``setitem`` where the dtype takes
it as its own: Python scalars for every integer dtype, and every NumPy scalar for the signed
ones (``signed_integers_is_known_scalar_types`` in ``dtypemeta.c``). ``setitem`` converts as
``int(v)`` does and checks the range: NaN raises ValueError, infinities and integers outside
the dtype or outside C's long OverflowError. Every other store is a cast (``astype``) that
raises nothing: NumPy scalars into unsigned arrays, arrays (0-d ones too), and NumPy scalars
stored through an index array or a mask (``x[j] = v``), which NumPy converts to an array
first.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from .. import types as T
from ..ir.core import Value
from .ops import OPERATOR_UFUNCS, apply_ufunc, cast, check, raise_at_runtime
from .values import Constant

_NAN = "cannot convert float NaN to integer"
_INF = "cannot convert float infinity to integer"
_LONG = "Python int too large to convert to C long"
ge, gt, le, lt = operator.ge, operator.gt, operator.le, operator.lt


def check_store(cx, value, el: T.Type, basic: bool) -> None:
    """The errors NumPy raises when ``value`` is stored into an array of element type ``el``
    (by basic indexing when ``basic``), raised when the call reaches the store: ValueError
    for NaN, OverflowError for infinities and for integers outside ``el`` or int64."""
    if not T.is_integer(el):
        return
    if isinstance(value, Constant):
        python = type(value.value) is float
        if python or (basic and isinstance(value.value, np.generic)):
            _check_constant(cx, value.value, el)
        return
    if not isinstance(value, Value) or isinstance(value.type, T.TensorType):
        return
    src = T.element_type(value.type)
    if T.is_bool(src) or not (T.is_weak(src) or (basic and not T.is_unsigned(el))):
        return
    if T.is_float(src):
        _check_float(cx, value, el)
    else:
        _check_int(cx, value, src, el)


def _check_constant(cx, value, el: T.Type) -> None:
    """A compile-time value: NumPy itself decides, by storing it."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            np.zeros(1, T.to_dtype(el))[0] = value
        except (ValueError, OverflowError) as e:
            raise_at_runtime(cx, e)


def _check_float(cx, v, el: T.Type) -> None:
    check(cx, apply_ufunc(cx, np.equal, [v, v], operator.eq), "ValueError", _NAN)
    check(cx, apply_ufunc(cx, np.isfinite, [v]), "OverflowError", _INF)
    # float64 holds every float32 and every bound below exactly
    wide = v if T.is_weak(v.type) else cast(cx, v, T.f64)
    # unsigned 32- and 64-bit dtypes read int(v) as an unsigned long first, the others as a long
    top = 2.0 ** 64 if el in (T.u32, T.u64) else 2.0 ** 63
    check(cx, _all(cx, wide, (ge, -2.0 ** 63), (lt, top)), "OverflowError", _LONG)
    if el == T.u32:  # int(v) >= 2**63 does not fit an int64 parameter: its digits in two
        n = cast(cx, v, T.u64)
        digits = [cast(cx, apply_ufunc(cx, ufunc, [n, Constant(10 ** 18)]), T.i64)
                  for ufunc in (np.floor_divide, np.remainder)]
        check(cx, _all(cx, wide, (lt, 2.0 ** 63)), "OverflowError",
              "Python integer {0}{1:018d} out of bounds for uint32", digits)
    info = np.iinfo(T.to_dtype(el))
    bounds = []  # int(v) truncates toward zero: min - 1 < v < max + 1
    if info.min > -2 ** 63:
        bounds.append((gt, float(info.min) - 1.0))
    if info.max < 2 ** 63 - 1:
        bounds.append((lt, float(info.max) + 1.0))
    if bounds:
        check(cx, _all(cx, wide, *bounds), "OverflowError",
              f"Python integer {{0}} out of bounds for {T.to_dtype(el)}", [cast(cx, v, T.i64)])


def _check_int(cx, v, src: T.Type, el: T.Type) -> None:
    if src == T.u64:
        check(cx, _all(cx, v, (le, 2 ** 63 - 1)), "OverflowError", _LONG)
    n = cast(cx, v, T.i64)
    have = np.iinfo(np.int64) if src == T.u64 else np.iinfo(T.to_dtype(T.strong(src)))
    want = np.iinfo(T.to_dtype(el))
    bounds = []
    if have.min < want.min:
        bounds.append((ge, int(want.min)))
    if have.max > want.max:
        bounds.append((le, int(want.max)))
    if bounds:
        check(cx, _all(cx, n, *bounds), "OverflowError",
              f"Python integer {{0}} out of bounds for {T.to_dtype(el)}", [n])


def _all(cx, v, *bounds):
    """Whether ``v <op> bound`` holds for every ``(op, bound)`` (``operator.lt``, ...)."""
    tests = [apply_ufunc(cx, OPERATOR_UFUNCS[op], [v, Constant(b)], op) for op, b in bounds]
    out = tests[0]
    for t in tests[1:]:
        out = apply_ufunc(cx, np.logical_and, [out, t])
    return out
