"""What a call or attribute means: NumPy functions and Python builtins keyed by the function
object (``np.add`` is ``np.add`` whatever name it is imported under), array methods and
attributes keyed by name. Each rule is ``rule(cx, args, kwargs) -> frontend value``."""

from __future__ import annotations

import builtins
import operator

import numpy as np

from .. import effects
from .. import types as T
from . import arrays as A
from . import (
    arithmetic,
    complex_parts,
    covariance,
    creation,
    expansion,
    flat_put,
    histograms,
    linalg,
    manipulation,
    polynomials,
    products,
    quantiles,
    shape_functions,
    sorting,
    statistics,
    ufunc_args,
    ufunc_methods,
)
from .effects import print_rule
from .iteration import enumerate_rule, ndenumerate_rule, ndindex_rule, zip_rule
from .ops import (
    OPERATOR_UFUNCS,
    UFUNC_OPS,
    apply_ufunc,
    cast,
    dim,
    materialize,
    product,
    raise_at_runtime,
    scalar_of,
    truth,
    value_type,
)
from .values import (
    Constant,
    ListValue,
    RangeValue,
    TupleValue,
    is_sequence,
    sequence_kind,
    sequence_semantics,
)

_UNSET = object()


def signature(display: str, impl, params: list, varargs: str | None = None):
    """A rule that binds ``args``/``kwargs`` to ``params`` (names; ``name=default`` strings
    for optional ones) and calls ``impl(cx, *values)``. Keyword arguments grafo does not
    implement are a CompileError naming them."""
    names = [p.split("=")[0] for p in params]
    required = [p for p in params if "=" not in p]

    def rule(cx, args, kwargs):
        if varargs is not None and len(args) > len(names):
            args = list(args[:len(names) - 1]) + [TupleValue(tuple(args[len(names) - 1:]))]
        if len(args) > len(names):
            cx.fail(f"{display} takes at most {len(names)} positional arguments here")
        values = list(args) + [_UNSET] * (len(names) - len(args))
        for k, v in kwargs.items():
            if k not in names:
                cx.fail(f"argument '{k}' of {display} is not supported")
            i = names.index(k)
            if values[i] is not _UNSET:
                cx.fail(f"{display} got multiple values for argument '{k}'")
            values[i] = v
        for i, v in enumerate(values):
            if v is _UNSET:
                if names[i] in required:
                    cx.fail(f"{display} is missing the argument '{names[i]}'")
                values[i] = None
        return impl(cx, *values)

    return rule


def _arg(kind):
    def impl(cx, x, axis, out, keepdims):
        statistics.no_out(cx, out)
        return A.argreduce(cx, kind, x, axis, keepdims)
    return impl


def _zeros(value):
    return lambda cx, shape, dtype: A.full(
        cx, shape, Constant(value), Constant(np.float64) if A.is_none(dtype) else dtype)


def _scalar_type(dtype):
    """``np.float64(x)``: an array of that dtype is returned itself, as NumPy does."""
    return lambda cx, x: cast(cx, x, A.resolve_dtype(cx, Constant(dtype)))


def _shape(cx, x):
    x = materialize(cx, x)
    return TupleValue(tuple(dim(cx, x, k) for k in range(len(T.shape_of(x.type)))))


def _ndim(cx, x):
    return Constant(len(T.shape_of(value_type(cx, x))))


def _size(cx, x):
    return product(cx, _shape(cx, x).items)


def _ravel(cx, x):
    return A.reshape(cx, x, Constant(-1))


_L = ["a", "axis=", "out=", "keepdims="]

NUMPY: dict = {ufunc: ufunc_args.ufunc_rule(ufunc) for ufunc in UFUNC_OPS}
NUMPY.update({
    np.argmax: signature("np.argmax", _arg("argmax"), _L),
    np.argmin: signature("np.argmin", _arg("argmin"), _L),
    np.matmul: signature("np.matmul", A.matmul, ["a", "b"]),
    np.dot: signature("np.dot", A.dot, ["a", "b"]),
    np.transpose: signature("np.transpose", A.transpose, ["a", "axes="]),
    np.reshape: signature("np.reshape", A.reshape, ["a", "shape"]),
    np.ravel: signature("np.ravel", _ravel, ["a"]),
    np.zeros: signature("np.zeros", _zeros(0), ["shape", "dtype="]),
    np.ones: signature("np.ones", _zeros(1), ["shape", "dtype="]),
    np.full: signature("np.full", A.full, ["shape", "fill_value", "dtype="]),
    np.eye: signature("np.eye", A.eye, ["N", "M=", "k=", "dtype="]),
    np.arange: signature("np.arange", A.arange, ["start", "stop=", "step=", "dtype="]),
    np.where: signature("np.where", manipulation.where, ["condition", "x=", "y="]),
    np.clip: signature("np.clip", A.clip, ["a", "a_min=", "a_max="]),
    np.astype: signature("np.astype", A.astype, ["x", "dtype"]),
    np.real: signature("np.real", complex_parts.real, ["val"]),
    np.imag: signature("np.imag", complex_parts.imag, ["val"]),
    np.angle: signature("np.angle", complex_parts.angle, ["z", "deg="]),
    np.shape: signature("np.shape", _shape, ["a"]),
    np.ndim: signature("np.ndim", _ndim, ["a"]),
    np.size: signature("np.size", _size, ["a"]),
})
for _table in (statistics.RULES, sorting.RULES, shape_functions.RULES, linalg.RULES,
               creation.RULES, manipulation.RULES, expansion.RULES, histograms.RULES,
               covariance.RULES, ufunc_args.RULES, ufunc_methods.RULES, arithmetic.RULES,
               polynomials.RULES, products.RULES, quantiles.RULES, flat_put.RULES):
    NUMPY.update({f: signature(d, impl, params) for f, (d, impl, params) in _table.items()})
NUMPY[np.einsum] = shape_functions.einsum
NUMPY.update(ufunc_methods.OUTER)
NUMPY[np.meshgrid] = expansion.meshgrid
NUMPY[np.ndindex] = ndindex_rule
NUMPY[np.ndenumerate] = ndenumerate_rule
for _t in (np.bool_, np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
           np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128):
    NUMPY[_t] = signature(f"np.{_t.__name__}", _scalar_type(_t), ["x"])


# array methods and attributes ---------------------------------------------------------------

def _method_reshape(cx, x, shape):
    return A.reshape(cx, x, shape)


def _method_transpose(cx, x, axes):
    if isinstance(axes, TupleValue) and len(axes.items) == 1:
        axes = axes.items[0]
    return A.transpose(cx, x, None if isinstance(axes, TupleValue) and not axes.items
                       else axes)


def _flatten(cx, x):
    return A.copy(cx, _ravel(cx, x))


METHODS: dict = {
    "argmax": signature("ndarray.argmax", _arg("argmax"), _L),
    "argmin": signature("ndarray.argmin", _arg("argmin"), _L),
    "reshape": signature("ndarray.reshape", _method_reshape, ["a", "shape"], varargs="shape"),
    "transpose": signature("ndarray.transpose", _method_transpose, ["a", "axes"],
                           varargs="axes"),
    "astype": signature("ndarray.astype", A.astype, ["a", "dtype"]),
    "dot": signature("ndarray.dot", A.dot, ["a", "b"]),
    "clip": signature("ndarray.clip", A.clip, ["a", "min=", "max="]),
    "ravel": signature("ndarray.ravel", _ravel, ["a"]),
    "flatten": signature("ndarray.flatten", _flatten, ["a"]),
    "conj": signature("ndarray.conj", complex_parts.conjugate, ["a"]),
    "conjugate": signature("ndarray.conjugate", complex_parts.conjugate, ["a"]),
}

for _table in (statistics.METHODS, sorting.METHODS, shape_functions.METHODS,
               creation.METHODS, manipulation.METHODS, expansion.METHODS,
               ufunc_args.METHODS, flat_put.METHODS):
    METHODS.update({n: signature(d, impl, params) for n, (d, impl, params) in _table.items()})

ATTRIBUTES: dict = {
    "shape": _shape,
    "ndim": _ndim,
    "size": _size,
    "dtype": lambda cx, x: Constant(T.to_dtype(value_type(cx, x))),
    "T": lambda cx, x: A.transpose(cx, x),
    "real": complex_parts.real,
    "imag": complex_parts.imag,
}


# Python builtins ----------------------------------------------------------------------------

def _abs(cx, x):
    if is_sequence(x):
        cx.fail(f"bad operand type for abs(): '{sequence_kind(x)}'",
                "convert it to an array with np.array(...)", TypeError)
    t = value_type(cx, x)
    return apply_ufunc(cx, np.absolute, [x], abs if T.is_weak(t) else None)


def _scalar_only(cx, x, what: str):
    t = value_type(cx, x)
    if isinstance(t, T.TensorType):
        cx.fail(f"{what}() of an array is not supported",
                "index or reduce the array to one element first")
    return materialize(cx, x)


def _float(cx, x):
    """Python's ``float(x)``; a 0-d array converts as its scalar does."""
    return cast(cx, _scalar_only(cx, scalar_of(cx, x), "float"), T.py_float)


def _int(cx, x):
    """Python's ``int(x)``; a 0-d array converts as its scalar does."""
    return cast(cx, _scalar_only(cx, scalar_of(cx, x), "int"), T.py_int)


def _bool(cx, x):
    t = truth(cx, x)
    return t if isinstance(t, Constant) else cast(cx, t, T.py_bool)


def _extreme(name: str, pick):
    """Python's min/max of scalars: the first of the extreme values, types promoted."""
    def rule(cx, args, kwargs):
        if kwargs:
            cx.fail(f"argument '{next(iter(kwargs))}' of {name}() is not supported")
        items = list(args[0].items) if len(args) == 1 and isinstance(args[0], TupleValue) \
            else list(args)
        if not items:
            cx.fail(f"{name}() expected at least 1 argument")
        for v in items:
            _scalar_only(cx, v, name)
        out = items[0]
        for v in items[1:]:
            el = T.promote(value_type(cx, out), value_type(cx, v))
            better = apply_ufunc(cx, pick, [v, out], {np.less: operator.lt,
                                                     np.greater: operator.gt}[pick])
            out = A.select(cx, better, cast(cx, v, el), cast(cx, out, el))
        return out
    return rule


def _len(cx, x):
    if isinstance(x, ListValue):
        return x.length
    if isinstance(x, TupleValue):
        return Constant(len(x.items))
    t = value_type(cx, x)
    if not isinstance(t, T.TensorType):
        cx.fail("len() of unsized object", kind=TypeError)
    if not t.shape:  # a 0-d array: NumPy's TypeError when the call gets here
        raise_at_runtime(cx, TypeError("len() of unsized object"))
        return Constant(0)
    return dim(cx, materialize(cx, x), 0)


def _range(cx, args, kwargs):
    if kwargs or not 1 <= len(args) <= 3:
        cx.fail("range expected 1 to 3 integer arguments")
    args = [scalar_of(cx, a) if T.is_integer(value_type(cx, a)) else a for a in args]
    for a in args:
        t = value_type(cx, a)
        if not (T.is_integer(t) or T.is_bool(t)) or isinstance(t, T.TensorType):
            cx.fail(f"range() argument of type {t} is not an integer")
    start, stop, step = (Constant(0), args[0], Constant(1)) if len(args) == 1 else (
        args[0], args[1], args[2] if len(args) == 3 else Constant(1))
    return RangeValue(start, stop, step)


def _divmod(cx, a, b):
    weak = T.is_weak(value_type(cx, a)) and T.is_weak(value_type(cx, b))
    return TupleValue((
        apply_ufunc(cx, np.floor_divide, [a, b], operator.floordiv if weak else None),
        apply_ufunc(cx, np.remainder, [a, b], operator.mod if weak else None)))


def _getattr(cx, obj, name):
    if not (isinstance(name, Constant) and isinstance(name.value, str)):
        cx.fail("getattr() needs an attribute name known at compile time")
    from .expressions import attribute  # a handler module: it imports this one
    return attribute(cx, obj, name.value)


BUILTINS: dict = {
    builtins.getattr: signature("getattr", _getattr, ["object", "name"]),
    builtins.abs: signature("abs", _abs, ["x"]),
    builtins.float: signature("float", _float, ["x"]),
    builtins.complex: signature("complex", complex_parts.python_complex, ["real=", "imag="]),
    builtins.int: signature("int", _int, ["x"]),
    builtins.bool: signature("bool", _bool, ["x"]),
    builtins.len: signature("len", _len, ["obj"]),
    builtins.min: _extreme("min", np.less),
    builtins.max: _extreme("max", np.greater),
    builtins.range: _range,
    builtins.slice: ufunc_methods.slice_rule,
    builtins.divmod: signature("divmod", _divmod, ["a", "b"]),
}



def _operator_rule(python_op):
    def rule(cx, args, kwargs):
        if kwargs or len(args) != OPERATOR_UFUNCS[python_op].nin:
            cx.fail(f"operator.{python_op.__name__} takes "
                    f"{OPERATOR_UFUNCS[python_op].nin} positional operands")
        if sequence_semantics(args, scalars=python_op is not operator.mul):
            cx.fail(f"operator.{python_op.__name__} of a tuple or list is not supported",
                    "use the operator syntax, or convert it with np.array(...)")
        return apply_ufunc(cx, OPERATOR_UFUNCS[python_op], list(args), python_op)
    return rule


BUILTINS.update({op: _operator_rule(op) for op in OPERATOR_UFUNCS})
BUILTINS.update({f: signature(d, impl, params) for f, (d, impl, params) in
                 arithmetic.BUILTINS.items()})
BUILTINS[operator.matmul] = signature("operator.matmul", A.matmul, ["a", "b"])

# Functions and methods whose result may be their first operand or a view of it in NumPy
# (np.array's rule copies where its copy= asks); any other function returns a new array
# (calls.py copies one that is an operand).
VIEW_FUNCTIONS = {np.transpose, np.reshape, np.ravel, np.squeeze, np.expand_dims, np.swapaxes,
                  np.flip, np.fliplr, np.flipud, np.rot90, np.broadcast_to, np.asarray,
                  np.array, np.ascontiguousarray, np.asfortranarray, np.einsum, np.bool_,
                  np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32,
                  np.uint64, np.float16, np.float32, np.float64, np.complex64, np.complex128,
                  np.real}
VIEW_METHODS = {"reshape", "ravel", "squeeze", "swapaxes", "transpose"}
FOLDABLE = (set(NUMPY) - creation.UNFOLDABLE - ufunc_methods.UNFOLDABLE) | (set(BUILTINS) - {builtins.range,
                                                                 builtins.getattr})

# Effects and loop iterables: never folded at compile time.
BUILTINS[builtins.print] = BUILTINS[effects.print] = print_rule
BUILTINS[builtins.enumerate] = enumerate_rule
BUILTINS[builtins.zip] = zip_rule

