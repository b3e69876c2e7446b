"""``np.put(a, ind, v, mode)``: ``a.flat[ind] = v`` with ``v`` repeated cyclically, as
NumPy's ``PyArray_PutTo``. ``a`` is written in place (``mutation``): every name bound to it,
the array it views and the caller's buffer see the new elements.
"""

from __future__ import annotations

import operator

import numpy as np

from .. import types as T
from ..ir.core import Value
from . import arrays as A
from . import mutation
from .indexing import subscript
from .manipulation import iota
from .ops import apply_ufunc, cast, check, dim, materialize, product
from .shape_functions import concatenate
from .values import Constant, SliceValue, TupleValue

_MODES = ("raise", "wrap", "clip")


def _flat(cx, x):
    return A.reshape(cx, materialize(cx, x), Constant(-1))


def _first_bad(cx, ind, n):
    """``(position of the first index outside [-n, n), or len(ind); that index)``."""
    low = apply_ufunc(cx, np.less, [ind, apply_ufunc(cx, np.negative, [n], operator.neg)])
    bad = apply_ufunc(cx, np.logical_or, [low, apply_ufunc(cx, np.greater_equal, [ind, n])])
    # a sentinel after the end: no bad index gives len(ind)
    first = A.argreduce(cx, "argmax", concatenate(cx, TupleValue((bad, A.full(
        cx, Constant(1), Constant(True))))))
    index = subscript(cx, concatenate(cx, TupleValue((ind, A.full(
        cx, Constant(1), Constant(0), Constant(np.int64))))), first)
    return first, index


def put(cx, a, ind, v, mode=None):
    """``np.put``: ``ind`` (ints, any shape, read flat) index the flattened ``a``; the
    ``k``-th gets ``v.flat[k % v.size]`` cast to ``a``'s dtype (later duplicates win).
    ``mode`` "raise" (default: IndexError "index i is out of bounds for axis 0 with size
    n" at run time, negative indices count from the end), "wrap" (indices modulo the size)
    or "clip" (to ``[0, size - 1]``). Nothing is written when ``v`` is empty; indices into
    an empty ``a`` are NumPy's IndexError. Returns None."""
    how = "raise" if A.is_none(mode) else mode.value if isinstance(mode, Constant) else None
    if how not in _MODES:
        cx.fail(f"clipmode must be one of 'clip', 'raise', or 'wrap' (got {how!r})",
                kind=ValueError)
    a = mutation.materialize_local(cx, cx.scope, a)
    if isinstance(a, Constant) and isinstance(a.value, np.ndarray):
        cx.fail("writing into a global or constant array with np.put is not supported",
                "pass the array as an argument")
    if not (isinstance(a, Value) and isinstance(a.type, T.TensorType)):
        cx.fail("argument a of np.put must be an array", kind=TypeError)
    ind_t = T.element_type(materialize(cx, ind).type)
    if not (T.is_integer(ind_t) or T.is_bool(ind_t)):
        cx.fail(f"Cannot cast array data from dtype('{T.to_dtype(ind_t)}') to "
                "dtype('int64') according to the rule 'safe'", "pass integer indices", TypeError)
    ind = _flat(cx, cast(cx, ind, T.i64))   # cast first: a Python int index is weak
    values = _flat(cx, cast(cx, v, a.type.element))
    nv = dim(cx, values, 0)
    if isinstance(nv, Constant) and nv.value == 0:
        return Constant(None)
    if not isinstance(nv, Constant):  # an empty v writes nothing: use no indices
        count = A.where(cx, apply_ufunc(cx, np.equal, [nv, Constant(0)], operator.eq),
                        Constant(0), dim(cx, ind, 0))
        ind = subscript(cx, ind, SliceValue(Constant(None), count, Constant(None)))
    m = dim(cx, ind, 0)
    n = product(cx, [dim(cx, a, k) for k in range(a.type.rank)])
    empty = apply_ufunc(cx, np.logical_and, [
        apply_ufunc(cx, np.greater, [m, Constant(0)], operator.gt),
        apply_ufunc(cx, np.equal, [n, Constant(0)], operator.eq)])
    check(cx, apply_ufunc(cx, np.logical_not, [empty]), "IndexError",
          "cannot replace elements of an empty array")
    error = None
    if how == "raise":
        # NumPy writes the indices before the first bad one, then raises
        first, bad = _first_bad(cx, ind, n)
        error = (apply_ufunc(cx, np.equal, [first, m], operator.eq), bad)
        ind = subscript(cx, ind, SliceValue(Constant(None), first, Constant(None)))
        m = dim(cx, ind, 0)
        ind = A.where(cx, apply_ufunc(cx, np.less, [ind, Constant(0)]),
                      apply_ufunc(cx, np.add, [ind, n]), ind)
    elif how == "wrap":
        ind = apply_ufunc(cx, np.remainder, [ind, apply_ufunc(cx, np.maximum, [n, Constant(1)],
                                                              max)])
    else:
        top = apply_ufunc(cx, np.subtract, [n, Constant(1)], operator.sub)
        ind = apply_ufunc(cx, np.maximum, [apply_ufunc(cx, np.minimum, [ind, top]), Constant(0)])
    cycle = apply_ufunc(cx, np.remainder, [iota(cx, m),
                                           apply_ufunc(cx, np.maximum, [nv, Constant(1)], max)])
    flat = mutation.setitem(cx, _flat(cx, a), ind, subscript(cx, values, cycle))
    shape = TupleValue(tuple(dim(cx, a, k) for k in range(a.type.rank)))
    mutation.mutate(cx, a, mutation.setitem(cx, a, Constant(()), A.reshape(cx, flat, shape)))
    if error is not None:
        check(cx, error[0], "IndexError", "index {0} is out of bounds for axis 0 with size {1}",
              [cast(cx, error[1], T.i64), cast(cx, n, T.i64)])
    return Constant(None)


RULES = {np.put: ("np.put", put, ["a", "ind", "v", "mode="])}
METHODS = {"put": ("ndarray.put", put, ["a", "indices", "values", "mode="])}
