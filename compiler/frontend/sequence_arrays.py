"""NumPy's array coercion (``np.array``, ``np.asarray``, the arrays of ``np.stack`` and
``np.concatenate``) of any frontend value, including tuples and lists that hold run-time
scalars and arrays (``np.array([a.sum(), b.sum()])``, ``np.array([[x, y], [z, w]])``,
``np.array([a, b])``).

Shape discovery follows NumPy's: level by level, every item of a sequence at that level and
every array reaching it must agree on its length (or all be scalars); the first level where
they do not is NumPy's ValueError "... inhomogeneous shape after N dimensions. The detected
shape was (...) + inhomogeneous part." A disagreement between static lengths is a
CompileError at the call; one that involves a dynamic dim is checked when the call runs,
with the same message. The dtype is the one NumPy discovers (``np.array`` of the items:
Python ints int64, floats float64, bools bool, NumPy scalars and arrays their own, promoted
with ``np.result_type``; float64 for an empty sequence). With ``dtype=``, scalar items
convert as NumPy stores them (``stores.check_store``: NaN or an out-of-range Python int into
an integer dtype raises), arrays by an unsafe cast.
"""

from __future__ import annotations

import operator
import warnings

import numpy as np

from .. import types as T
from ..dialects import np as npd
from ..dialects import np_data as nd
from ..ir.core import Value
from .arrays import copy, zero_d
from .ops import apply_ufunc, as_array, cast, check, dim, raise_at_runtime
from .stores import check_store
from .values import RUNTIME, Constant, ListValue, TupleValue, compile_time, const_type, describe, is_sequence

_RAGGED = ("setting an array element with a sequence. The requested array has an "
           "inhomogeneous shape after {depth} dimensions. The detected shape was {shape} + "
           "inhomogeneous part.")
_MAX_PARAMS = 4  # message parameters a grafo.check carries


def array_of(cx, v, dtype: T.Type | None = None) -> Value:
    """``np.asarray(v, dtype)`` as an IR array value: arrays are returned as they are (cast
    when ``dtype`` differs), scalars become 0-d arrays, tuples and lists are coerced as
    NumPy coerces them (module docstring). Raises CompileError for values that are no
    array_like (None, strings, functions) and for static ragged sequences."""
    if isinstance(v, ListValue):
        from . import lists
        return lists.to_array(cx, v, dtype)
    if is_sequence(v) and compile_time(v) is RUNTIME:
        return _sequence(cx, v, dtype)
    if is_sequence(v) and dtype is not None:   # converted item by item
        return cast(cx, v, dtype)
    v = as_array(cx, v)
    if isinstance(v, Constant) and const_type(v.value) is None:
        cx.fail(f"{describe(v)} cannot be used as an array here")
    if dtype is None:
        dtype = T.strong(v.type if isinstance(v, Value) else const_type(v.value))
    elif isinstance(v, Constant) and type(v.value) in (int, float):
        check_store(cx, v, dtype, basic=False)
    x = cast(cx, v, dtype)
    return x if isinstance(x.type, T.TensorType) else zero_d(cx, x)


def _sequence(cx, v, dtype: T.Type | None) -> Value:
    leaves = []
    rank = len(_discover(cx, v, leaves))
    return _build(cx, v, _discovered_dtype(cx, leaves) if dtype is None else dtype, rank)


def _display(v) -> bool:
    """Whether ``v`` is a tuple or list display holding run-time values."""
    return isinstance(v, TupleValue) and compile_time(v) is RUNTIME


def _shape(cx, v) -> tuple:
    if isinstance(v, Value):
        return T.shape_of(v.type)
    array = as_array(cx, v)
    if const_type(array.value) is None:
        cx.fail(f"{describe(v)} cannot be used as an array here")
    return np.shape(array.value)


def _discover(cx, root, leaves: list) -> list:
    """The result's dims (Constant ints, or run-time ``!py.int`` values), level by level,
    with the run-time checks that dynamic lengths agree; ``leaves`` receives every item
    that is no display."""
    nodes, dims = [(root, 0)], []   # (display or leaf, how many of a leaf's dims are used)
    while True:
        lengths = []
        for node, used in nodes:
            if _display(node):
                lengths.append(len(node.items))
                continue
            shape = _shape(cx, node)
            lengths.append(None if used == len(shape) else
                           shape[used] if shape[used] is not None else dim(cx, node, used))
        if all(n is None for n in lengths):
            leaves.extend(node for node, _ in nodes)
            return dims
        static = {n for n in lengths if isinstance(n, int)}
        if None in lengths or len(static) > 1:
            _ragged(cx, dims)
        length = Constant(static.pop()) if static else lengths[0]
        for n in lengths:
            if isinstance(n, Value) and n is not length:
                _ragged(cx, dims, apply_ufunc(cx, np.equal, [n, length], operator.eq))
        dims.append(length)
        nodes = [(x, 0) for node, used in nodes if _display(node) for x in node.items] + \
            [(node, used + 1) for node, used in nodes if not _display(node)]


def _ragged(cx, dims: list, ok=None) -> None:
    """NumPy's ValueError for a sequence that is ragged after ``dims``: at compile time
    when that is certain (``ok`` None) and every dim is static, else when the call runs
    (the first four dynamic dims in the message are the run-time ones)."""
    params, text = [], []
    for d in dims:
        if isinstance(d, Constant):
            text.append(str(d.value))
        elif len(params) < _MAX_PARAMS:
            text.append(f"{{{len(params)}}}")
            params.append(cast(cx, d, T.i64))
        else:
            text.append("?")
    shape = "(" + ", ".join(text) + ("," if len(dims) == 1 else "") + ")"
    message = _RAGGED.format(depth=len(dims), shape=shape)
    if ok is None and not params:
        cx.fail(message, kind=ValueError)
    check(cx, Constant(False) if ok is None else ok, "ValueError", message, params)


def _discovered_dtype(cx, leaves: list) -> T.Type:
    """NumPy's dtype for these leaves: ``np.array`` of one 0-d sample of each (a Python
    scalar as it is, since its value may decide; an empty constant sequence adds nothing)."""
    samples = []
    for v in leaves:
        if isinstance(v, Value):
            kind = T.element_type(v.type).kind if T.is_weak(v.type) else None
            samples.append({"int": 0, "float": 0.0, "bool": False}[kind] if kind else
                           np.zeros((), T.to_dtype(T.element_type(v.type))))
            continue
        array = as_array(cx, v).value
        if not isinstance(array, np.ndarray):
            samples.append(array)
        elif array.size or not is_sequence(v):
            samples.append(np.zeros((), array.dtype))
    if not samples:
        return T.f64
    try:
        return T.from_dtype(np.array(samples).dtype)
    except (TypeError, ValueError, OverflowError) as e:
        cx.fail(f"the items convert to no supported dtype ({e})",
                "use numbers that NumPy stores as bool, integers or floats")


def _build(cx, v, el: T.Type, rank: int) -> Value:
    """The array of a display or leaf ``v`` of element type ``el`` (``rank``: its dims)."""
    if not _display(v):
        if is_sequence(v):   # converted item by item
            return cast(cx, v, el)
        v = as_array(cx, v)
        if isinstance(v, Constant) and not isinstance(v.value, np.ndarray):
            v = _stored(cx, v.value, el)
        elif isinstance(v, Value) and not isinstance(v.type, T.TensorType):
            check_store(cx, v, el, basic=True)
        x = cast(cx, v, el)
        return x if isinstance(x.type, T.TensorType) else zero_d(cx, x)
    rows = [_unit(cx, _build(cx, x, el, rank - 1)) for x in v.items]
    if len(rows) == 1:   # a new array, not a view of the item
        return copy(cx, rows[0], order="K")
    return cx.emit(nd.ConcatenateOp, rows, {"axis": 0})


def _stored(cx, value, el: T.Type) -> Constant:
    """A scalar constant item as NumPy stores it into an array of ``el``; NumPy's error
    (NaN or an out-of-range Python int into an integer dtype) is raised when the call gets
    here, after those of the items before it."""
    out = np.zeros(1, T.to_dtype(el))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            out[0] = value
        except (ValueError, OverflowError, TypeError) as e:
            raise_at_runtime(cx, e)
    return Constant(out[0])


def _unit(cx, x: Value) -> Value:
    """``x[None]``: a new leading axis of length 1."""
    rank = x.type.rank
    return cx.emit(npd.SubscriptOp, [x], {"spec": ("n",) + ("s",) * rank,
                                          "bounds": ("none",) * 3 * rank})
