"""The ``np`` dialect: array and scalar operations with NumPy's semantics.

The frontend emits these ops; lowering turns them into loops. Conventions:

- Operands are tensors (``tensor<?x4xf32>``) or scalars (``f32``, ``!py.int``); ops apply
  NumPy broadcasting to their shapes. An elementwise result of rank 0 is a scalar, as NumPy
  ufuncs return scalars for 0-d inputs.
- Dtype promotion is explicit: the frontend inserts ``np.astype`` so that the operands of an
  elementwise op share one element type (NEP 50 rules, ``types.promote``).
- Each op has a NumPy reference implementation (``evaluate``) used for constant folding and as
  a test oracle; weak (Python scalar) operands follow Python's own semantics there.
"""

from __future__ import annotations

import math
import operator

import numpy as np

from .. import types as T
from ..ir.attributes import (
    DenseAttr,
    FloatAttr,
    IntegerAttr,
    attr_value,
    complex_attr,
    complex_value,
    is_complex_attr,
)
from ..ir.constraints import (
    BoolAttr,
    Constraint,
    NpInteger,
    NpScalar,
    NpValue,
    Tensor,
    Variadic,
    array_of,
    attr,
    int_attr,
    named,
    opt_attr,
    str_attr,
)
from ..ir.opdef import (
    Commutative,
    ConstantLike,
    Elementwise,
    InferredTypes,
    Op,
    Pure,
    Reduction,
    TensorLevel,
    register_ops,
)
from .func import FuncOp

# shape helpers -------------------------------------------------------------------------------

def broadcast_shapes(*shapes) -> tuple:
    """NumPy broadcasting of shapes whose dims may be None (dynamic).

    Raises ValueError with NumPy's message when static dims conflict."""
    rank = max((len(s) for s in shapes), default=0)
    out = []
    for k in range(rank):
        dims = [s[len(s) - rank + k] for s in shapes if len(s) - rank + k >= 0]
        static = {d for d in dims if d is not None and d != 1}
        if len(static) > 1:
            text = " ".join("(" + ",".join("?" if d is None else str(d) for d in s)
                            + ("," if len(s) == 1 else "") + ")" for s in shapes)
            raise ValueError(f"operands could not be broadcast together with shapes {text}")
        if static:
            out.append(static.pop())
        elif any(d is None for d in dims):
            out.append(None)
        else:
            out.append(1)
    return tuple(out)


def check_axis(axis: int, rank: int) -> None:
    """Raise NumPy's AxisError text (a ValueError) unless ``0 <= axis < rank``."""
    if not 0 <= axis < rank:
        raise ValueError(f"axis {axis} is out of bounds for array of dimension {rank}")


def verify_dynamic_sizes(op, t: T.Type, sizes) -> None:
    """One size operand per dynamic dim of ``t`` (the ops with explicit result shapes)."""
    from ..ir.verifier import VerifyError
    dynamic = sum(d is None for d in T.shape_of(t))
    if len(sizes) != dynamic:
        raise VerifyError(op, f"needs one size operand per dynamic dim of {t} ({dynamic}), "
                              f"has {len(sizes)}")


def verify_element(op, got: T.Type, want: T.Type, what: str) -> None:
    from ..ir.verifier import VerifyError
    if T.element_type(got) != T.element_type(want):
        raise VerifyError(op, f"{what} has element type {T.element_type(got)}, expected "
                              f"{T.element_type(want)}")


def array_type(shape: tuple, element: T.Type) -> T.Type:
    """A tensor type, or the scalar ``element`` when ``shape`` is ``()``."""
    return T.TensorType(tuple(shape), element) if shape else element


def _dtype_value(v, t: T.Type):
    """A NumPy value of type ``t`` for folding (weak scalars stay Python scalars)."""
    if T.is_weak(t):
        return v
    return np.asarray(v, dtype=T.to_dtype(t)) if T.shape_of(t) else T.to_dtype(t).type(v)


# constants and casts ------------------------------------------------------------------------

ConstantValue = Constraint("an integer, float, complex ([re, im]) or dense elements "
                           "attribute", lambda a: isinstance(a, (IntegerAttr, FloatAttr,
                                                                 DenseAttr))
                           or is_complex_attr(a, T.c64) or is_complex_attr(a, T.c128))


class ConstantOp(Op):
    """``np.constant {value}``: a scalar (IntegerAttr/FloatAttr of the result's dtype, weak
    scalars as int64/float64/bool) or array (DenseAttr of the result type)."""

    name = "np.constant"
    traits = frozenset({Pure, TensorLevel, ConstantLike})
    operand_defs = ()
    result_defs = (NpValue,)
    attr_defs = {"value": attr(ConstantValue)}

    @classmethod
    def of(cls, value, t: T.Type, loc=None) -> "ConstantOp":
        """A constant of type ``t`` holding the Python/NumPy ``value``."""
        if isinstance(t, T.TensorType):
            arr = np.array(np.broadcast_to(np.asarray(value, dtype=T.to_dtype(t)), t.shape))
            arr.flags.writeable = False
            attr = DenseAttr(arr, t)
        elif T.is_complex(t):
            attr = complex_attr(value, t)
        elif T.is_float(t):
            attr = FloatAttr(float(value), T.strong(t))
        else:
            attr = IntegerAttr(int(value), T.strong(t))
        return cls.build([], {"value": attr}, [t], loc=loc)

    @property
    def value(self):
        """The constant as a NumPy array/scalar (Python scalar for weak types)."""
        a = self.attributes["value"]
        t = self.result.type
        if isinstance(a, DenseAttr):
            return a.value
        if T.is_complex(t):
            v = complex_value(a)
            return v if T.is_weak(t) else T.to_dtype(t).type(v)
        v = attr_value(a)
        if t == T.py_bool or t == T.i1:
            return bool(v) if T.is_weak(t) else np.bool_(v)
        return _dtype_value(v, t)

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError, verify_integer_value
        a, t = self.attributes["value"], self.result.type
        if isinstance(t, T.TensorType):
            ok = isinstance(a, DenseAttr) and a.type == t
        elif T.is_complex(t):
            ok = is_complex_attr(a, t)
        else:
            ok = isinstance(a, (IntegerAttr, FloatAttr)) and a.type == T.strong(t) \
                and isinstance(a, FloatAttr) == T.is_float(t)
        if not ok:
            raise VerifyError(self, f"'value' = {a} is not a constant of the result type {t}")
        verify_integer_value(self, signless=False)


class AsTypeOp(Op):
    """``np.astype``: convert to the result's element type (``ndarray.astype``, unsafe
    casting; float to int of NaN/inf/out-of-range gives NumPy's x86-64 value, INT_MIN)."""

    name = "np.astype"
    traits = frozenset({Pure, TensorLevel, Elementwise})
    operand_defs = named(input=NpValue)
    result_defs = (NpValue,)
    # a copy in C (``ndarray.copy``) or Fortran memory order, which a later float sum reads
    attr_defs = {"order": opt_attr(str_attr(("C", "F")))}

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        x, t = self.input.type, self.result.type
        if not T.compatible(T.with_element(x, T.element_type(t)), t):
            raise VerifyError(self, f"converts {x} to {t}, which has another shape")

    def evaluate(self, x):
        t = self.result.type
        if T.is_weak(t):
            return T.python_type(t)(x)
        with np.errstate(all="ignore"):
            return _dtype_value(np.asarray(x).astype(T.to_dtype(t)), t)


# elementwise ---------------------------------------------------------------------------------

class ElementwiseOp(Op):
    """Base of n-ary elementwise ops: operands share one element type; shapes broadcast."""

    traits = frozenset({Pure, TensorLevel, Elementwise, InferredTypes})
    result_defs = (NpValue,)
    numpy: str = ""           # the NumPy ufunc that defines the semantics
    python = None             # the Python operator for weak scalars (None: use NumPy's)
    result_bool = False       # comparisons and predicates give bool
    float_only = False
    int_only = False
    complex_ok = False        # takes complex operands (the ufunc has a complex loop)
    real_result = False       # a complex operand gives a float of its part type

    @classmethod
    def infer(cls, operand_types, attributes):
        elems = {T.element_type(t) for t in operand_types}
        if len(elems) != 1:
            raise TypeError(f"{cls.name} needs operands of one element type, got "
                            + ", ".join(map(str, operand_types)))
        el = elems.pop()
        if T.is_complex(el):
            if not cls.complex_ok:
                raise TypeError(f"ufunc '{cls.numpy}' of complex operands is not supported")
        elif cls.float_only and not T.is_float(el):
            raise TypeError(f"{cls.numpy} needs float operands, got {el}")
        if cls.int_only and T.is_float(el):
            raise TypeError(f"ufunc '{cls.numpy}' not supported for the input types "
                            f"({T.to_dtype(el)})")
        shape = broadcast_shapes(*[T.shape_of(t) for t in operand_types])
        if cls.result_bool:
            el = T.py_bool if T.is_weak(el) else T.i1
        elif cls.real_result:   # |z|, z.real, z.imag are real
            el = T.real_type(el)
        return [array_type(shape, el)]

    def evaluate(self, *args):
        t = self.result.type
        if all(T.is_weak(v.type) for v in self.operands) and self.python is not None:
            return self.python(*args)
        with np.errstate(all="ignore"):
            out = getattr(np, self.numpy)(*args)
        return _dtype_value(out, t) if not T.is_weak(t) else out.item()


def _elementwise(op_name: str, numpy: str, arity: int, python=None, traits=(), **flags):
    """The class of ``np.<op_name>``, named ``<OpName>Op`` (``logical_and`` ->
    ``LogicalAndOp``), with operand ``x`` (and ``y``); assigned to that name below."""
    return type(op_name.title().replace("_", "") + "Op", (ElementwiseOp,), {
        "name": "np." + op_name, "numpy": numpy, "complex_ok": op_name in COMPLEX_UFUNCS,
        "python": staticmethod(python) if python is not None else None,
        "operand_defs": named(**dict.fromkeys(("x", "y")[:arity], NpValue)),
        "traits": frozenset({Pure, TensorLevel, Elementwise, InferredTypes, *traits}), **flags})


# The ufuncs whose complex loops the lowering implements (``lowering/complex_scalar.py``).
COMPLEX_UFUNCS = {"add", "subtract", "multiply", "divide", "equal", "not_equal", "less",
                  "less_equal", "greater", "greater_equal", "maximum", "minimum", "fmax",
                  "fmin", "logical_and", "logical_or", "logical_xor", "logical_not",
                  "negative", "positive", "absolute", "square", "reciprocal", "isnan",
                  "isinf", "isfinite", "conjugate", "real", "imag", "sign", "power",
                  "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "sin",
                  "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
                  "arcsinh", "arccosh", "arctanh"}


def _binary(op_name: str):
    numpy, python, traits, flags = BINARY[op_name]
    return _elementwise(op_name, numpy, 2, python, traits, **flags)


def _unary(op_name: str, python=None, **flags):
    return _elementwise(op_name, op_name, 1, python, **flags)


def _py_floordiv(a, b):
    return a // b


def _py_div(a, b):
    return a / b


BINARY = {
    "add": ("add", operator.add, (Commutative,), {}),
    "subtract": ("subtract", operator.sub, (), {}),
    "multiply": ("multiply", operator.mul, (Commutative,), {}),
    "divide": ("true_divide", _py_div, (), {"float_only": True}),
    "floor_divide": ("floor_divide", _py_floordiv, (), {}),
    "remainder": ("remainder", operator.mod, (), {}),
    "fmod": ("fmod", None, (), {}),
    "power": ("power", operator.pow, (), {}),
    "maximum": ("maximum", None, (Commutative,), {}),
    "minimum": ("minimum", None, (Commutative,), {}),
    "fmax": ("fmax", None, (Commutative,), {}),
    "fmin": ("fmin", None, (Commutative,), {}),
    "arctan2": ("arctan2", None, (), {"float_only": True}),
    "hypot": ("hypot", None, (Commutative,), {"float_only": True}),
    "copysign": ("copysign", None, (), {"float_only": True}),
    "logaddexp": ("logaddexp", None, (Commutative,), {"float_only": True}),
    "logaddexp2": ("logaddexp2", None, (Commutative,), {"float_only": True}),
    "bitwise_and": ("bitwise_and", operator.and_, (Commutative,), {"int_only": True}),
    "bitwise_or": ("bitwise_or", operator.or_, (Commutative,), {"int_only": True}),
    "bitwise_xor": ("bitwise_xor", operator.xor, (Commutative,), {"int_only": True}),
    "left_shift": ("left_shift", operator.lshift, (), {"int_only": True}),
    "right_shift": ("right_shift", operator.rshift, (), {"int_only": True}),
    "equal": ("equal", operator.eq, (Commutative,), {"result_bool": True}),
    "not_equal": ("not_equal", operator.ne, (Commutative,), {"result_bool": True}),
    "less": ("less", operator.lt, (), {"result_bool": True}),
    "less_equal": ("less_equal", operator.le, (), {"result_bool": True}),
    "greater": ("greater", operator.gt, (), {"result_bool": True}),
    "greater_equal": ("greater_equal", operator.ge, (), {"result_bool": True}),
    "logical_and": ("logical_and", None, (Commutative,), {"result_bool": True}),
    "logical_or": ("logical_or", None, (Commutative,), {"result_bool": True}),
    "logical_xor": ("logical_xor", None, (Commutative,), {"result_bool": True}),
}

UNARY_FLOAT = ["exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "cbrt",
               "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh",
               "arcsinh", "arccosh", "arctanh", "floor", "ceil", "trunc", "rint",
               "deg2rad", "rad2deg"]
UNARY_ANY = {"negative": operator.neg, "absolute": abs, "square": None, "sign": None,
             "positive": operator.pos, "reciprocal": None}
UNARY_BOOL = ["isnan", "isinf", "isfinite", "signbit", "logical_not"]

# One class per NumPy function; the tables above give each its NumPy name, Python
# operator, traits and flags.
AddOp = _binary("add")
SubtractOp = _binary("subtract")
MultiplyOp = _binary("multiply")
DivideOp = _binary("divide")
FloorDivideOp = _binary("floor_divide")
RemainderOp = _binary("remainder")
FmodOp = _binary("fmod")
PowerOp = _binary("power")
MaximumOp = _binary("maximum")
MinimumOp = _binary("minimum")
FmaxOp = _binary("fmax")
FminOp = _binary("fmin")
Arctan2Op = _binary("arctan2")
HypotOp = _binary("hypot")
CopysignOp = _binary("copysign")
LogaddexpOp = _binary("logaddexp")
Logaddexp2Op = _binary("logaddexp2")
BitwiseAndOp = _binary("bitwise_and")
BitwiseOrOp = _binary("bitwise_or")
BitwiseXorOp = _binary("bitwise_xor")
LeftShiftOp = _binary("left_shift")
RightShiftOp = _binary("right_shift")
EqualOp = _binary("equal")
NotEqualOp = _binary("not_equal")
LessOp = _binary("less")
LessEqualOp = _binary("less_equal")
GreaterOp = _binary("greater")
GreaterEqualOp = _binary("greater_equal")
LogicalAndOp = _binary("logical_and")
LogicalOrOp = _binary("logical_or")
LogicalXorOp = _binary("logical_xor")
ExpOp = _unary("exp", float_only=True)
Exp2Op = _unary("exp2", float_only=True)
Expm1Op = _unary("expm1", float_only=True)
LogOp = _unary("log", float_only=True)
Log2Op = _unary("log2", float_only=True)
Log10Op = _unary("log10", float_only=True)
Log1POp = _unary("log1p", float_only=True)
SqrtOp = _unary("sqrt", float_only=True)
CbrtOp = _unary("cbrt", float_only=True)
SinOp = _unary("sin", float_only=True)
CosOp = _unary("cos", float_only=True)
TanOp = _unary("tan", float_only=True)
ArcsinOp = _unary("arcsin", float_only=True)
ArccosOp = _unary("arccos", float_only=True)
ArctanOp = _unary("arctan", float_only=True)
SinhOp = _unary("sinh", float_only=True)
CoshOp = _unary("cosh", float_only=True)
TanhOp = _unary("tanh", float_only=True)
ArcsinhOp = _unary("arcsinh", float_only=True)
ArccoshOp = _unary("arccosh", float_only=True)
ArctanhOp = _unary("arctanh", float_only=True)
FloorOp = _unary("floor", float_only=True)
CeilOp = _unary("ceil", float_only=True)
TruncOp = _unary("trunc", float_only=True)
RintOp = _unary("rint", float_only=True)
Deg2RadOp = _unary("deg2rad", float_only=True)
Rad2DegOp = _unary("rad2deg", float_only=True)
NegativeOp = _unary("negative", python=UNARY_ANY["negative"])
AbsoluteOp = _unary("absolute", python=UNARY_ANY["absolute"])
SquareOp = _unary("square", python=UNARY_ANY["square"])
SignOp = _unary("sign", python=UNARY_ANY["sign"])
PositiveOp = _unary("positive", python=UNARY_ANY["positive"])
ReciprocalOp = _unary("reciprocal", python=UNARY_ANY["reciprocal"])
IsnanOp = _unary("isnan", result_bool=True)
IsinfOp = _unary("isinf", result_bool=True)
IsfiniteOp = _unary("isfinite", result_bool=True)
SignbitOp = _unary("signbit", result_bool=True)
LogicalNotOp = _unary("logical_not", result_bool=True)
InvertOp = _unary("invert", python=operator.invert, int_only=True)
AbsoluteOp.real_result = True
ConjugateOp = _unary("conjugate", python=lambda x: x.conjugate())
RealOp = _unary("real", python=lambda x: x.real, real_result=True)
ImagOp = _unary("imag", python=lambda x: x.imag, real_result=True)


class ComplexOp(ElementwiseOp):
    """``np.complex(%re, %im)``: the complex of float parts ``re + im*1j`` computed exactly
    (Python's ``complex(re, im)``; ``re + im*1j`` would turn an infinite ``im`` into a NaN real
    part). Operands of one float type (or ``!py.float``), result of its complex type."""

    name = "np.complex"
    operand_defs = named(x=NpValue, y=NpValue)

    @classmethod
    def infer(cls, operand_types, attributes):
        elems = {T.element_type(t) for t in operand_types}
        el = elems.pop()
        if elems or not T.is_float(el):
            raise TypeError("np.complex needs two float parts of one type, got "
                            + ", ".join(map(str, operand_types)))
        shape = broadcast_shapes(*[T.shape_of(t) for t in operand_types])
        return [array_type(shape, T.complex_of(el))]

    def evaluate(self, x, y):
        t = self.result.type
        if T.is_weak(t):
            return complex(x, y)
        out = np.empty(np.broadcast(x, y).shape, T.to_dtype(t))
        out.real, out.imag = x, y
        return _dtype_value(out, t)


class WhereOp(Op):
    """``np.where(cond, a, b)``: cond is bool; a and b share one element type; broadcasts."""

    name = "np.where"
    traits = frozenset({Pure, TensorLevel, Elementwise, InferredTypes})
    operand_defs = named(condition=NpValue, x=NpValue, y=NpValue)
    result_defs = (NpValue,)

    @classmethod
    def infer(cls, operand_types, attributes):
        c, a, b = operand_types
        if not T.is_bool(c):
            raise TypeError(f"np.where condition must be bool, got {c}")
        if T.element_type(a) != T.element_type(b):
            raise TypeError(f"np.where branches differ in dtype: {a} vs {b}")
        shape = broadcast_shapes(T.shape_of(c), T.shape_of(a), T.shape_of(b))
        return [array_type(shape, T.element_type(a))]

    def evaluate(self, c, a, b):
        return _dtype_value(np.where(c, a, b), self.result.type)


# reductions ----------------------------------------------------------------------------------

REDUCE_KINDS = ("sum", "prod", "max", "min", "any", "all")


def reduced_shape(shape: tuple, axes, keepdims: bool) -> tuple:
    """The shape after reducing ``axes`` (already normalized, non-negative)."""
    if keepdims:
        return tuple(1 if i in axes else d for i, d in enumerate(shape))
    return tuple(d for i, d in enumerate(shape) if i not in axes)


class ReduceOp(Op):
    """``np.reduce {kind, axes, keepdims}``: sum/prod/max/min/any/all over ``axes``.

    The accumulator is the result's element type (the frontend casts the input first, e.g.
    int16 -> int64 for ``sum``). max/min propagate NaN and raise ValueError on zero-size
    reductions, as ``np.max`` does."""

    name = "np.reduce"
    traits = frozenset({Pure, TensorLevel, Reduction, InferredTypes})
    operand_defs = named(input=NpValue)
    result_defs = (NpValue,)
    attr_defs = {"kind": attr(str_attr(REDUCE_KINDS)), "axes": attr(array_of(int_attr(0))),
                 "keepdims": opt_attr(BoolAttr)}

    @classmethod
    def infer(cls, operand_types, attributes):
        (x,) = operand_types
        kind, axes = attributes["kind"], attributes["axes"]
        if kind not in REDUCE_KINDS:
            raise TypeError(f"unknown reduction {kind!r}")
        for a in axes:
            check_axis(a, len(T.shape_of(x)))
        if len(set(axes)) != len(axes):
            raise ValueError(f"duplicate value in 'axes' {tuple(axes)}")
        el = T.i1 if kind in ("any", "all") else T.element_type(x)
        return [array_type(reduced_shape(T.shape_of(x), axes, attributes.get("keepdims")),
                           el)]

    def evaluate(self, x):
        kind = self.attr("kind")
        fn = {"sum": np.sum, "prod": np.prod, "max": np.max, "min": np.min,
              "any": np.any, "all": np.all}[kind]
        with np.errstate(all="ignore"):
            out = fn(x, axis=tuple(self.attr("axes")), keepdims=bool(self.attr("keepdims")))
        return _dtype_value(out, self.result.type)


class ArgReduceOp(Op):
    """``np.argreduce {kind = "argmax"|"argmin"|"nanargmax"|"nanargmin", axis}``: int64
    indices; ``axis`` = -1 in the attribute means over the flattened array. NaN wins, as in
    NumPy; the ``nan`` kinds skip NaNs and raise ValueError on an all-NaN slice."""

    name = "np.argreduce"
    traits = frozenset({Pure, TensorLevel, Reduction, InferredTypes})
    operand_defs = named(input=NpValue)
    result_defs = (NpValue,)
    attr_defs = {"kind": attr(str_attr(("argmax", "argmin", "nanargmax", "nanargmin"))),
                 "axis": attr(int_attr(-1))}

    @classmethod
    def infer(cls, operand_types, attributes):
        shape = T.shape_of(operand_types[0])
        axis = attributes["axis"]
        if axis >= 0:
            check_axis(axis, len(shape))
        out = () if axis < 0 else tuple(d for i, d in enumerate(shape) if i != axis)
        return [array_type(out, T.i64)]

    def evaluate(self, x):
        axis = self.attr("axis")
        fn = getattr(np, self.attr("kind"))
        return _dtype_value(fn(x, axis=None if axis < 0 else axis), self.result.type)


# structure -----------------------------------------------------------------------------------

class BroadcastToOp(Op):
    """``np.broadcast_to``: result type explicit; dynamic result dims are extra operands
    (index-like scalars), in order."""

    name = "np.broadcast_to"
    traits = frozenset({Pure, TensorLevel})
    operand_defs = named(input=NpValue, sizes=Variadic(NpInteger))
    result_defs = (Tensor,)

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        x, t = self.input.type, self.result.type
        verify_dynamic_sizes(self, t, self.sizes)
        verify_element(self, t, x, "the result")
        xs = T.shape_of(x)
        if len(xs) > t.rank or not all(a in (1, b) or None in (a, b)
                                       for a, b in zip(xs[::-1], t.shape[::-1], strict=False)):
            raise VerifyError(self, f"cannot broadcast {x} to {t}")

    def evaluate(self, x, *dims):
        shape = list(self.result.type.shape)
        it = iter(dims)
        shape = [next(it) if d is None else d for d in shape]
        return np.array(np.broadcast_to(x, shape))


class ReshapeOp(Op):
    """``np.reshape``: C-order reshape to the result type; dynamic dims are extra operands."""

    name = "np.reshape"
    traits = frozenset({Pure, TensorLevel})
    operand_defs = named(input=NpValue, sizes=Variadic(NpInteger))
    result_defs = (NpValue,)

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        x, t = self.input.type, self.result.type
        verify_dynamic_sizes(self, t, self.sizes)
        verify_element(self, t, x, "the result")
        a, b = T.shape_of(x), T.shape_of(t)
        if None not in a + b and math.prod(a) != math.prod(b):
            raise VerifyError(self, f"cannot reshape {x} into {t}")

    def evaluate(self, x, *dims):
        it = iter(dims)
        shape = [next(it) if d is None else d for d in T.shape_of(self.result.type)]
        return _dtype_value(np.reshape(x, shape), self.result.type)


class TransposeOp(Op):
    """``np.transpose {perm}``: permute the axes."""

    name = "np.transpose"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor)
    result_defs = (Tensor,)
    attr_defs = {"perm": attr(array_of(int_attr(0)))}

    @classmethod
    def infer(cls, operand_types, attributes):
        x = operand_types[0]
        perm = attributes["perm"]
        if sorted(perm) != list(range(x.rank)):
            raise ValueError(f"'perm' {tuple(perm)} is not a permutation of the {x.rank} axes "
                             f"of {x}")
        return [T.TensorType(tuple(x.shape[p] for p in perm), x.element)]

    def evaluate(self, x):
        return np.transpose(x, self.attr("perm"))


class SubscriptOp(Op):
    """``np.subscript {spec}``: NumPy basic indexing ``x[...]``.

    ``spec`` has one string per index item: ``"i"`` (an integer index, the next operand),
    ``"n"`` (np.newaxis) or ``"s"`` (a slice whose start, stop and step follow in ``bounds``).
    ``bounds`` is a flat list of three entries per slice: an int, ``"none"``, or ``"?"`` (the
    next operand). Integer indices may be negative; out-of-range indices raise IndexError at
    run time; slice bounds are clamped as NumPy clamps them.
    """

    name = "np.subscript"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=NpValue, indices=Variadic(NpInteger))
    result_defs = (NpValue,)
    attr_defs = {"spec": attr(array_of(str_attr(("i", "n", "s")))),
                 "bounds": opt_attr(array_of(int_attr() | str_attr(("none", "?"))))}

    @classmethod
    def infer(cls, operand_types, attributes):
        x = operand_types[0]
        shape = T.shape_of(x)
        spec, bounds = attributes["spec"], list(attributes.get("bounds", ()))
        if len(bounds) != 3 * spec.count("s"):
            raise ValueError(f"'bounds' has {len(bounds)} entries for {spec.count('s')} "
                             f"slice(s) (3 per slice)")
        wanted = 1 + spec.count("i") + bounds.count("?")
        if len(operand_types) != wanted:
            raise ValueError(f"'spec' and 'bounds' take {wanted} operand(s), it has "
                             f"{len(operand_types)}")
        out, dim = [], 0
        for item in spec:
            if item == "n":
                out.append(1)
                continue
            if dim >= len(shape):
                raise IndexError(f"too many indices for array: array is {len(shape)}-"
                                 f"dimensional, but {sum(s != 'n' for s in spec)} were indexed")
            if item == "s":
                b = [bounds.pop(0) for _ in range(3)]
                out.append(slice_length(shape[dim], *b))
            dim += 1
        out.extend(shape[dim:])
        return [array_type(tuple(out), T.element_type(x))]

    def evaluate(self, x, *vals):
        out = np.asarray(x)[basic_index_key(self, vals)]
        return _dtype_value(out, self.result.type)


def basic_index_key(op, vals) -> tuple:
    """The NumPy index tuple of an ``np.subscript``/``np.setitem`` (``spec``/``bounds``
    attributes) whose dynamic index operands have the values ``vals``."""
    it = iter(vals)
    bounds = list(op.attr("bounds", ()))
    key = []
    for item in op.attr("spec"):
        if item == "i":
            key.append(int(next(it)))
        elif item == "n":
            key.append(None)
        else:
            b = [bounds.pop(0) for _ in range(3)]
            key.append(slice(*[None if v == "none" else (int(next(it)) if v == "?" else v)
                               for v in b]))
    return tuple(key)


def slice_length(n, start, stop, step):
    """Static length of ``range(n)[start:stop:step]`` or None when unknown."""
    if n is None or "?" in (start, stop, step):
        return None
    s = lambda v: None if v == "none" else v  # noqa: E731
    return len(range(n)[slice(s(start), s(stop), s(step))])


class SetItemOp(Op):
    """``np.setitem {spec, bounds}``: NumPy basic-index assignment as a value.

    Operands: the target tensor, the value (a tensor or scalar of the target's element type),
    then the index operands as for ``np.subscript`` (same ``spec``/``bounds``). The result is a
    copy of the target whose indexed region holds the value broadcast to the region's shape
    (``x[idx] = v``; the value is read before anything is written, so overlapping views behave
    as NumPy's copy-first assignment). Out-of-range integer indices raise IndexError and a
    value that does not broadcast raises ValueError, at run time.
    """

    name = "np.setitem"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(target=Tensor, value=NpValue, indices=Variadic(NpInteger))
    result_defs = (Tensor,)
    attr_defs = SubscriptOp.attr_defs

    @classmethod
    def infer(cls, operand_types, attributes):
        target = operand_types[0]
        if not isinstance(target, T.TensorType):
            raise TypeError("'np.setitem' needs an array target")
        if T.element_type(operand_types[1]) != target.element:
            raise TypeError(f"'np.setitem' of a {T.element_type(operand_types[1])} value into "
                            f"{target}")
        SubscriptOp.infer([target, *operand_types[2:]], attributes)
        return [target]

    def evaluate(self, x, v, *vals):
        out = np.array(x, copy=True)
        out[basic_index_key(self, vals)] = v
        return out


class WriteBackOp(Op):
    """``np.write_back(%param, %value)``: copy ``%value`` into the caller's buffer of the
    array argument ``%param`` (a block argument of the function) when the function returns,
    so that the caller sees the mutations of its input (``x[i] = v`` on a parameter). Has a
    side effect: never removed by DCE or CSE."""

    name = "np.write_back"
    traits = frozenset({TensorLevel})
    operand_defs = named(param=Tensor, value=Tensor)
    result_defs = ()

    @classmethod
    def infer(cls, operand_types, attributes):
        return []

    def verify(self):
        super().verify()
        from ..ir.core import BlockArgument
        from ..ir.verifier import VerifyError
        param, value = self.param, self.value
        block = param.block if isinstance(param, BlockArgument) else None
        if block is None or not isinstance(block.parent_op(), FuncOp):
            raise VerifyError(self, "writes back into a parameter of the function only")
        if not T.compatible(param.type, value.type):
            raise VerifyError(self, f"cannot write {value.type} back into {param.type}")


class DimOp(Op):
    """``np.dim {index}``: the run-time size of a dimension, as a Python int."""

    name = "np.dim"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(input=Tensor)
    result_defs = (NpInteger,)
    attr_defs = {"index": attr(int_attr(0))}

    @classmethod
    def infer(cls, operand_types, attributes):
        check_axis(attributes["index"], len(T.shape_of(operand_types[0])))
        return [T.py_int]

    def evaluate(self, x):
        return int(np.shape(x)[self.attr("index")])


class MatmulOp(Op):
    """``np.matmul``: NumPy matmul for ranks >= 1 (1-D operands are promoted and the added
    axis removed; batch dims broadcast). Operands share one element type."""

    name = "np.matmul"
    traits = frozenset({Pure, TensorLevel, InferredTypes})
    operand_defs = named(lhs=NpValue, rhs=NpValue)
    result_defs = (NpValue,)

    @classmethod
    def infer(cls, operand_types, attributes):
        a, b = operand_types
        if T.element_type(a) != T.element_type(b):
            raise TypeError(f"np.matmul operands differ in dtype: {a} vs {b}")
        sa, sb = T.shape_of(a), T.shape_of(b)
        if not sa or not sb:
            raise ValueError("matmul: Input operand does not have enough dimensions")
        ka = sa[-1]
        kb = sb[0] if len(sb) == 1 else sb[-2]
        if ka is not None and kb is not None and ka != kb:
            raise ValueError(f"matmul: Input operand 1 has a mismatch in its core dimension "
                             f"0, with gufunc signature (n?,k),(k,m?)->(n?,m?) (size {kb} is "
                             f"different from {ka})")
        batch = broadcast_shapes(sa[:-2], sb[:-2])
        out = batch + (sa[-2:-1] if len(sa) > 1 else ()) + (sb[-1:] if len(sb) > 1 else ())
        return [array_type(out, T.element_type(a))]

    def evaluate(self, a, b):
        with np.errstate(all="ignore"):
            return _dtype_value(np.matmul(a, b), self.result.type)


class FullOp(Op):
    """``np.full``: a tensor of the result type filled with the scalar operand; dynamic dims
    follow as extra operands."""

    name = "np.full"
    traits = frozenset({Pure, TensorLevel})
    operand_defs = named(fill_value=NpValue, sizes=Variadic(NpInteger))
    result_defs = (Tensor,)

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        if T.shape_of(self.fill_value.type):
            raise VerifyError(self, f"fills with a scalar, got {self.fill_value.type}")
        verify_dynamic_sizes(self, self.result.type, self.sizes)

    def evaluate(self, v, *dims):
        it = iter(dims)
        shape = [next(it) if d is None else d for d in self.result.type.shape]
        return np.full(shape, v, dtype=T.to_dtype(self.result.type))


class ArangeOp(Op):
    """``np.arange(start, step)`` of the result's length (static, or a trailing operand)."""

    name = "np.arange"
    traits = frozenset({Pure, TensorLevel})
    operand_defs = named(start=NpScalar, step=NpScalar, sizes=Variadic(NpInteger))
    result_defs = (Tensor,)

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        t = self.result.type
        if t.rank != 1:
            raise VerifyError(self, f"gives a 1-d tensor, not {t}")
        verify_dynamic_sizes(self, t, self.sizes)

    def evaluate(self, start, step, *n):
        length = n[0] if n else self.result.type.shape[0]
        dt = T.to_dtype(self.result.type)
        return (start + step * np.arange(length)).astype(dt)


class EyeOp(Op):
    """``np.eye(N, M, k)``: static sizes, result type explicit."""

    name = "np.eye"
    traits = frozenset({Pure, TensorLevel})
    operand_defs = ()
    result_defs = (Tensor,)
    attr_defs = {"k": opt_attr(int_attr())}

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        t = self.result.type
        if t.rank != 2 or not t.is_static:
            raise VerifyError(self, f"gives a 2-d tensor of static shape, not {t}")

    def evaluate(self):
        n, m = self.result.type.shape
        return np.eye(n, m, self.attr("k", 0), dtype=T.to_dtype(self.result.type))


# Every op of the ``np`` namespace by name (``np_data.py`` adds its own).
NUMPY_OPS = register_ops("np", (
    ConstantOp, AsTypeOp, AddOp, SubtractOp, MultiplyOp, DivideOp, FloorDivideOp, RemainderOp,
    FmodOp, PowerOp, MaximumOp, MinimumOp, FmaxOp, FminOp, Arctan2Op, HypotOp, CopysignOp,
    LogaddexpOp, Logaddexp2Op, BitwiseAndOp, BitwiseOrOp, BitwiseXorOp, LeftShiftOp, RightShiftOp, EqualOp,
    NotEqualOp, LessOp, LessEqualOp, GreaterOp, GreaterEqualOp, LogicalAndOp, LogicalOrOp,
    LogicalXorOp, ExpOp, Exp2Op, Expm1Op, LogOp, Log2Op, Log10Op, Log1POp, SqrtOp, CbrtOp,
    SinOp, CosOp, TanOp, ArcsinOp, ArccosOp, ArctanOp, SinhOp, CoshOp, TanhOp, ArcsinhOp,
    ArccoshOp, ArctanhOp, FloorOp, CeilOp, TruncOp, RintOp, Deg2RadOp, Rad2DegOp, NegativeOp,
    AbsoluteOp, SquareOp, SignOp, PositiveOp, ReciprocalOp, IsnanOp, IsinfOp, IsfiniteOp,
    SignbitOp, LogicalNotOp, InvertOp, ConjugateOp, RealOp, ImagOp, ComplexOp, WhereOp,
    ReduceOp, ArgReduceOp, BroadcastToOp, ReshapeOp, TransposeOp, SubscriptOp, SetItemOp,
    WriteBackOp, DimOp, MatmulOp, FullOp, ArangeOp, EyeOp))
