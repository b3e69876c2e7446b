"""Operator and promotion helpers: materializing constants, explicit casts, NumPy ufuncs with
NumPy 2 (NEP 50) dtype resolution, Python's own semantics for Python scalars, truth values,
and shape queries.

Every helper takes the conversion state ``cx`` (state.py: ``emit`` / ``fail``) and frontend values
(``Constant`` or IR values); casts always appear as explicit ``np.astype`` ops.
"""

from __future__ import annotations

import builtins
import operator
import warnings

import numpy as np

from runtime.manifest import ERROR_KINDS

from .. import types as T
from ..dialects import np as npd
from ..dialects.grafo import CheckOp
from ..ir.attributes import StringAttr
from ..ir.core import Value
from .values import (
    RUNTIME,
    Constant,
    ListValue,
    OptionalValue,
    TupleValue,
    compile_time,
    const_type,
    describe,
    holds_runtime,
    is_sequence,
    sequence_kind,
    type_of,
)

UFUNC_OPS: dict = {getattr(np, cls.numpy): cls for cls in npd.NUMPY_OPS.values()
                   if issubclass(cls, npd.ElementwiseOp) and isinstance(
                       getattr(np, cls.numpy, None), np.ufunc)}

# Python operators (the ``operator`` module functions) and the ufuncs they apply to arrays.
OPERATOR_UFUNCS: dict = {
    operator.add: np.add, operator.sub: np.subtract, operator.mul: np.multiply,
    operator.truediv: np.divide, operator.floordiv: np.floor_divide, operator.mod: np.remainder,
    operator.pow: np.power, operator.lshift: np.left_shift, operator.rshift: np.right_shift,
    operator.or_: np.bitwise_or, operator.xor: np.bitwise_xor, operator.and_: np.bitwise_and,
    operator.eq: np.equal, operator.ne: np.not_equal, operator.lt: np.less,
    operator.le: np.less_equal, operator.gt: np.greater, operator.ge: np.greater_equal,
    operator.neg: np.negative, operator.pos: np.positive, operator.invert: np.invert,
}

# NumPy keeps integer dtypes for these (they are the identity on integers).
_INT_IDENTITY = {np.floor, np.ceil, np.trunc}
_WEAK_TOKEN = {"int": int, "float": float, "complex": complex, "bool": np.dtype(np.bool_)}
_SAMPLE = {"int": 1, "float": 1.5, "complex": 1.5 + 0.5j, "bool": True}
_FOLD_LIMIT = 256  # largest folded array kept as a constant (elements)


# constants and casts ------------------------------------------------------------------------

def value_type(cx, v) -> T.Type:
    """The IR type of ``v`` (of ``np.asarray(v)`` for a tuple or list, see ``as_array``);
    CompileError for values that have none (None, str, ...)."""
    t = type_of(as_array(cx, v))
    if t is None:
        cx.fail(f"{describe(v)} cannot be used as an array or number here")
    return t


def as_array(cx, v):
    """``v``, or for a tuple or list of compile-time numbers (nested ones too) the constant
    array ``np.asarray(v)``, with NumPy's dtype discovery (Python ints become int64, floats
    float64), as NumPy converts an array_like operand. Raises CompileError for a sequence
    holding run-time values, for a ragged one (NumPy's ValueError) and for one whose array
    has an unsupported dtype (strings, None, ints beyond 64 bits). A list built at run time
    is its array (lists.py)."""
    if isinstance(v, ListValue):
        from . import lists
        return lists.to_array(cx, v)
    if not is_sequence(v):
        return v
    value = compile_time(v)
    if value is RUNTIME:
        if holds_runtime(v):
            cx.fail(f"a {sequence_kind(v)} of run-time values cannot be used as an array here",
                    "build the array with np.zeros/np.full and item assignment, or pass an "
                    "array")
        cx.fail(f"{describe(v)} cannot be used as an array or number here")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            array = np.asarray(value)
        except ValueError as e:
            cx.fail(str(e), kind=ValueError)
    if const_type(array) is None:
        cx.fail(f"{value!r} converts to an array of dtype {array.dtype}, which is not "
                f"supported", "use numbers that NumPy stores as bool, integers or floats")
    return Constant(array)


def constant(cx, value, t: T.Type) -> Value:
    """An ``np.constant`` of type ``t`` holding ``value`` converted as NumPy converts it (a
    tuple or list item by item, see ``_sequence_array``)."""
    el = T.element_type(t)
    if isinstance(value, (tuple, list)):
        value = _sequence_array(cx, value, T.to_dtype(el))
    elif T.is_weak(el):
        value = T.python_type(el)(value)
        if el.kind == "int" and not -2 ** 63 <= value < 2 ** 63:
            cx.fail(f"Python int {value} does not fit in 64 bits")
    else:
        dt = T.to_dtype(el)
        if type(value) is int and dt.kind in "iu" and not (
                np.iinfo(dt).min <= value <= np.iinfo(dt).max):
            cx.fail(f"Python integer {value} out of bounds for {dt}", kind=OverflowError)
        with np.errstate(all="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = np.asarray(value).astype(dt)
    return cx.insert(npd.ConstantOp.of(value, t)).result


def _sequence_array(cx, value, dt: np.dtype) -> np.ndarray:
    """``np.array(value, dtype=dt)``: each item converted to ``dt`` as NumPy stores a sequence
    (``x[0] = (1.5, 2)``). A conversion NumPy refuses (NaN into an integer dtype, a Python int
    out of its range) raises NumPy's error when the code gets here, as ``x[0] = ...`` does."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return np.array(value, dtype=dt)
        except (OverflowError, ValueError) as e:
            raise_at_runtime(cx, e)
            return np.asarray(value).astype(dt)


def materialize(cx, v) -> Value:
    """The IR value of a frontend value (constants become ``np.constant`` of their type, a
    tuple or list of them that of ``np.asarray``; a list built at run time its array)."""
    if isinstance(v, Value):
        return v
    if isinstance(v, ListValue):
        return as_array(cx, v)
    t = value_type(cx, v)
    return constant(cx, compile_time(v), t)


def cast(cx, v, el: T.Type) -> Value:
    """``v`` with element type ``el`` (an ``np.astype`` when it differs; a constant, or a tuple
    or list of them, is converted at compile time). A complex to real cast keeps the real part
    with NumPy's ComplexWarning, given once when the function is compiled."""
    if T.is_complex(value_type(cx, v)) and not T.is_complex(el) and not T.is_bool(el):
        warnings.warn("Casting complex values to real discards the imaginary part",
                      np.exceptions.ComplexWarning, stacklevel=2)
    if not isinstance(v, Value):
        t = value_type(cx, v)
        return constant(cx, compile_time(v), T.with_element(t, el))
    v = materialize(cx, v)
    if T.element_type(v.type) == el:
        return v
    return cx.emit(npd.AsTypeOp, [v], types=[T.with_element(v.type, el)])


def coerce(cx, v, t: T.Type) -> Value:
    """``v`` as exactly type ``t``: a 0-d array as its scalar where ``t`` is a scalar type
    (``scalar_of``), element cast, then static dims relaxed to dynamic ones (an
    ``np.astype`` whose result type only differs in dims, like ``tensor.cast``)."""
    if not isinstance(t, T.TensorType):
        v = scalar_of(cx, v)
    v = cast(cx, v, T.element_type(t))
    if v.type != t:
        v = cx.emit(npd.AsTypeOp, [v], types=[t])
    return v


def scalar_of(cx, v):
    """The NumPy scalar a 0-d array holds (``x[()]``, an ``np.subscript`` without index
    items: what NumPy's ``__index__``, ``int()`` and arithmetic read); other values as they
    are."""
    if isinstance(v, Value) and isinstance(v.type, T.TensorType) and v.type.rank == 0:
        return cx.emit(npd.SubscriptOp, [v], {"spec": (), "bounds": ()})
    if isinstance(v, Constant) and isinstance(v.value, np.ndarray) and v.value.ndim == 0:
        return Constant(v.value[()])
    return v


def fold(fn, args, kwargs=None):
    """``Constant(fn(*args))`` evaluated now, or None when it raises or the result is not a
    small plain value (big arrays stay ops)."""
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            r = fn(*args, **(kwargs or {}))
        except Exception:  # noqa: BLE001 - the run-time op reports it, where it belongs
            return None
    return Constant(r) if _plain(r) else None


def _plain(r) -> bool:
    if r is None or isinstance(r, (bool, int, float, complex, str, np.dtype, type)):
        return True
    if isinstance(r, tuple):
        return all(_plain(x) for x in r)
    if isinstance(r, (np.generic, np.ndarray)):
        return const_type(r) is not None and np.size(r) <= _FOLD_LIMIT
    return False


# ufuncs -------------------------------------------------------------------------------------

def apply_ufunc(cx, ufunc, args, python_op=None):
    """``ufunc(*args)`` with NumPy's dtype resolution: operands are cast to the loop dtypes.

    ``python_op`` is the Python operator when the call comes from operator syntax; then
    operands that are all Python scalars follow Python's semantics (``1 / 2`` is a float,
    ``True + True`` an int) and stay weak."""
    op_cls = UFUNC_OPS[ufunc]
    types = [value_type(cx, a) for a in args]
    if python_op is not None and all(T.is_weak(t) for t in types):
        return _python_scalar_op(cx, op_cls, python_op, args, types)
    if ufunc in _COMPARE_SWAPPED:
        exact = _compare_by_value(cx, ufunc, args, types)
        if exact is not None:
            return exact
    all_weak = all(T.is_weak(t) for t in types)
    dts = tuple(T.to_dtype(t) if all_weak or not T.is_weak(t)
                else _WEAK_TOKEN[T.element_type(t).kind] for t in types)
    try:
        loop = ufunc.resolve_dtypes(dts + (None,) * ufunc.nout)
    except TypeError as e:
        cx.fail(str(e), "cast the operands with .astype(...) to a supported dtype", TypeError)
    if len(set(loop[:ufunc.nin])) > 1:  # NumPy's exact uint64/int64 comparison loops
        x, y = (cast(cx, a, T.from_dtype(d)) for a, d in zip(args, loop[:2], strict=True))
        return _mixed_compare(cx, ufunc, x, y) if loop[0].kind == "u" \
            else _mixed_compare(cx, _COMPARE_SWAPPED[ufunc], y, x)
    try:
        ins = [T.from_dtype(d) for d in loop[:ufunc.nin]]
        out = T.from_dtype(loop[ufunc.nin])
    except TypeError:
        cx.fail(f"np.{ufunc.__name__} of {', '.join(map(str, types))} computes in "
                f"{loop[ufunc.nin]}, which is not supported",
                "cast the operands with .astype(np.float32) first")
    if ufunc in _INT_IDENTITY and not T.is_float(out):
        return cast(cx, args[0], out)
    return cx.emit(op_cls, [cast(cx, a, t) for a, t in zip(args, ins, strict=True)])


# For ``x <op> y``: the ufunc of ``y <op> x``, and the result when ``y`` lies above (below)
# every value of ``x``'s dtype.
_COMPARE_SWAPPED = {np.equal: np.equal, np.not_equal: np.not_equal, np.less: np.greater,
                    np.less_equal: np.greater_equal, np.greater: np.less,
                    np.greater_equal: np.less_equal}
_ABOVE = {np.equal: False, np.not_equal: True, np.less: True, np.less_equal: True,
          np.greater: False, np.greater_equal: False}
_BELOW = {np.equal: False, np.not_equal: True, np.less: False, np.less_equal: False,
          np.greater: True, np.greater_equal: True}


def _compare_by_value(cx, ufunc, args, types):
    """A comparison of an integer array or NumPy scalar with a Python int, by value as NumPy
    2 compares them (``umath/special_integer_comparisons.cpp``): an int outside the dtype's
    range (``u8 == 256``, ``i64 < 2**63``, of any size) decides every element, where
    arithmetic raises OverflowError; one in range compares in the dtype. None when
    the operands are not such a pair."""
    weak = [k for k, t in enumerate(types) if T.element_type(t) == T.py_int]
    if len(weak) != 1:
        return None
    k = weak[0]
    x, y = args[1 - k], args[k]
    el = T.element_type(types[1 - k])
    if not T.is_integer(el) or T.is_weak(el):
        return None
    if k == 0:
        ufunc = _COMPARE_SWAPPED[ufunc]
    if isinstance(y, Constant):
        info = np.iinfo(T.to_dtype(el))
        if info.min <= y.value <= info.max:
            return None
        return _filled(cx, x, (_ABOVE if y.value > info.max else _BELOW)[ufunc])
    if el == T.i64:  # holds every Python int grafo has at run time
        return None
    return _mixed_compare(cx, ufunc, materialize(cx, x), y)


def _mixed_compare(cx, ufunc, x: Value, y: Value):
    """``ufunc(x, y)`` for integers ``y`` whose values may lie outside the dtype of ``x`` (a
    run-time Python int, or int64 against uint64): the comparison in ``x``'s dtype where
    ``y`` fits in it, else the result that ``y`` above or below every ``x`` gives."""
    el = T.element_type(x.type)
    xs = np.iinfo(T.to_dtype(el))
    ys = np.iinfo(T.to_dtype(T.strong(T.element_type(y.type))))
    tests = []
    if ys.min < xs.min:
        tests.append(apply_ufunc(cx, np.greater_equal, [y, Constant(xs.min)], operator.ge))
    if ys.max > xs.max:
        tests.append(apply_ufunc(cx, np.less_equal, [y, Constant(xs.max)], operator.le))
    fits = tests[0] if len(tests) == 1 else apply_ufunc(cx, np.logical_and, tests)
    above, below = _ABOVE[ufunc], _BELOW[ufunc]
    if above == below or ys.min >= xs.min:
        outside = Constant(above)
    elif ys.max <= xs.max:
        outside = Constant(below)
    else:  # a value outside the dtype is never 0: its sign says above or below
        outside = apply_ufunc(cx, np.greater if above else np.less, [y, Constant(0)])
    within = apply_ufunc(cx, ufunc, [x, cast(cx, y, el)])
    return cx.emit(npd.WhereOp, [cast(cx, fits, T.i1), within, cast(cx, outside, T.i1)])


def _filled(cx, x, value: bool):
    """The result of a comparison of ``x`` that every element answers with ``value``: an
    array of ``x``'s shape, or a NumPy bool for a scalar or 0-d ``x`` (as ufuncs give)."""
    shape = T.shape_of(value_type(cx, x))
    if not shape:
        return Constant(np.bool_(value))
    x = materialize(cx, x)
    dims = [d for d in (dim(cx, x, k) for k in range(len(shape))) if isinstance(d, Value)]
    return cx.emit(npd.FullOp, [constant(cx, value, T.i1), *dims],
                   types=[T.TensorType(shape, T.i1)])


# ``fast_scalar_power``'s ufuncs, by the exponent's exact Python type and value
_POWER = {(int, 2): np.square}
_FLOAT_POWER = {**_POWER, (int, -1): np.reciprocal, (float, 0.5): np.sqrt}


def power_operator(cx, base, exponent):
    """``base ** exponent``, as ``ndarray.__pow__`` computes it for an array ``base`` (0-d too):
    NumPy 2's ``fast_scalar_power`` (multiarray/number.c) sends an exponent that is exactly a
    Python int 2 to ``np.square`` (a bool base gives int8, where ``np.power`` gives int64), and
    for a float base a Python int -1 to ``np.reciprocal`` and a Python float 0.5 to
    ``np.sqrt``; every other case, and every NumPy-scalar base, is ``np.power``.

    Raises CompileError for a bool array raised to a Python int known only at run time: its
    result dtype depends on the value."""
    t = value_type(cx, base)
    if isinstance(t, T.TensorType):
        el = t.element
        if isinstance(exponent, Constant) and type(exponent.value) in (int, float):
            fast = _FLOAT_POWER if T.is_float(el) or T.is_complex(el) else _POWER
            ufunc = fast.get((type(exponent.value), exponent.value))
            if ufunc is not None:
                return apply_ufunc(cx, ufunc, [base])
        elif T.is_bool(el) and type_of(exponent) == T.py_int:
            cx.fail("a bool array ** a Python int known only at run time: NumPy's result "
                    "dtype depends on its value (int8 for 2, through np.square; int64 "
                    "otherwise)", "write np.square(x) or np.power(x, n), or make the "
                    "exponent a compile-time constant")
    return apply_ufunc(cx, np.power, [base, exponent], operator.pow)


def _python_scalar_op(cx, op_cls, python_op, args, types):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        sample = python_op(*[_SAMPLE[T.element_type(t).kind] for t in types])
    compute = T.promote(*types) if op_cls.result_bool else const_type(sample)
    return cx.emit(op_cls, [cast(cx, a, compute) for a in args])


# truth values -------------------------------------------------------------------------------

_AMBIGUOUS = ("The truth value of an array with more than one element is ambiguous. "
              "Use a.any() or a.all()")
_EMPTY = ("The truth value of an empty array is ambiguous. Use `array.size > 0` to check that "
          "an array is not empty.")


def truth(cx, v):
    """Python's ``bool(v)``: a ``Constant`` when known at compile time, else a bool value.

    Arrays must have exactly one element (static shape), as NumPy requires."""
    if isinstance(v, Constant):
        try:
            return Constant(bool(v.value))
        except (TypeError, ValueError) as e:
            cx.fail(str(e), "use a.any() or a.all()", type(e))
    if isinstance(v, TupleValue):
        return Constant(bool(v.items))
    if isinstance(v, OptionalValue):  # None is false
        from .branches import short_circuit  # a handler module: it imports this one
        return short_circuit(cx, v.has, lambda: truth(cx, v.value), "and")
    if not isinstance(v, Value):
        cx.fail(f"{describe(v)} cannot be used as a condition")
    if isinstance(v.type, T.TensorType):
        shape = v.type.shape
        if None in shape:
            _check_single_element(cx, v)
        size = int(np.prod([1 if d is None else d for d in shape]))
        if size != 1 and None not in shape:
            cx.fail(_AMBIGUOUS if size > 1 else _EMPTY, "reduce the array to one value first",
                    ValueError)
        zeros = [constant(cx, 0, T.py_int) for _ in shape]
        v = cx.emit(npd.SubscriptOp, [v, *zeros], {"spec": ("i",) * len(shape), "bounds": ()})
    if T.is_bool(v.type):
        return v
    return apply_ufunc(cx, np.not_equal, [v, Constant(0)], operator.ne)


def raise_at_runtime(cx, error: Exception) -> None:
    """A ``grafo.check`` that always fails: the call raises ``error``'s message when it
    reaches this point, as the eager code would, as the nearest of its classes that an
    error table may name (``runtime.manifest.ERROR_KINDS``: NumPy's AxisError is a
    ValueError), else RuntimeError."""
    kind = next((c.__name__ for c in type(error).__mro__
                 if c.__name__ in ERROR_KINDS and (getattr(builtins, c.__name__, None) is c
                                                   or c is np.linalg.LinAlgError)),
                "RuntimeError")
    text = str(error).replace("{", "{{").replace("}", "}}")   # a format template
    cx.emit_op(CheckOp, [constant(cx, False, T.i1)],
               {"kind": StringAttr(kind), "message": StringAttr(text)})


def check(cx, ok, kind: str, message: str, params=()) -> None:
    """A run-time ``kind(message.format(*params))`` unless the bool value ``ok`` holds
    (``params``: int64 values)."""
    cx.emit_op(CheckOp, [materialize(cx, ok), *params], {"kind": StringAttr(kind),
                                                         "message": StringAttr(message)})


def _check_single_element(cx, v: Value) -> None:
    """Run-time ValueErrors (NumPy's messages) unless ``v`` has exactly one element."""
    size = Constant(1)
    for k in range(len(v.type.shape)):
        size = apply_ufunc(cx, np.multiply, [size, dim(cx, v, k)], operator.mul)
    for ok, message in ((apply_ufunc(cx, np.less_equal, [size, Constant(1)], operator.le),
                         _AMBIGUOUS),
                        (apply_ufunc(cx, np.not_equal, [size, Constant(0)], operator.ne),
                         _EMPTY)):
        cx.emit_op(CheckOp, [materialize(cx, ok)], {"kind": StringAttr("ValueError"),
                                                    "message": StringAttr(message)})


def logical_not(cx, v):
    """Python's ``not v`` (a Python bool)."""
    t = truth(cx, v)
    if isinstance(t, Constant):
        return Constant(not t.value)
    return cx.emit(UFUNC_OPS[np.logical_not], [cast(cx, t, T.py_bool)])


# shapes -------------------------------------------------------------------------------------

def dim(cx, x: Value, k: int):
    """Size of dimension ``k``: a Python int when static, else an ``np.dim`` value."""
    d = x.type.shape[k]
    return Constant(d) if d is not None else cx.emit(npd.DimOp, [x], {"index": k})


def product(cx, factors):
    """The product of Python-int frontend values (folded when all are constants)."""
    out = Constant(1)
    for f in factors:
        if isinstance(out, Constant) and isinstance(f, Constant):
            out = Constant(out.value * f.value)
        else:
            out = apply_ufunc(cx, np.multiply, [out, f], operator.mul)
    return out
