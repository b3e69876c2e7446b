"""Frontend values: what a Python expression evaluates to while it is being compiled.

- ``Constant``: a compile-time Python/NumPy value (a specialization constant, a global, a
  folded expression, a module or function object).
- an IR ``Value``: a run-time array or scalar produced by an op or a block argument.
- ``TupleValue``: a Python tuple (or list display) of frontend values, static length.
- ``SliceValue``: ``start:stop:step`` inside a subscript.
- ``BoundMethod``: ``x.sum`` before it is called.
- ``RangeValue``: ``range(...)``, only iterable by ``for``.
- ``LocalFunction``: a nested ``def`` or ``lambda``, inlined where it is called.
- ``OptionalValue``: a value that is None on some paths (a run-time "has value" flag).
- ``Undefined``: a name that is not bound on every path; reading it is a CompileError.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .. import types as T
from ..errors import CompileError
from ..ir.core import Location, Value


@dataclass(frozen=True, eq=False)
class Constant:
    """A compile-time value: a Python scalar, tuple or function passed as a specialization
    constant (folded into the code), a global, or any value the frontend computes while
    compiling."""

    value: object

    def __repr__(self) -> str:
        return f"Constant({self.value!r})"


@dataclass(frozen=True, eq=False)
class TupleValue:
    """A tuple, or a list display (``is_list``: a fixed-length sequence, not growable)."""

    items: tuple
    is_list: bool = False


@dataclass(frozen=True, eq=False)
class ListValue:
    """A Python list built at run time (``lst = []`` then ``lst.append(v)``, lists.py): the
    first ``length`` elements of the 1-D buffer ``data`` (its size is the capacity), and
    ``item``, the type of the values appended (``None`` while nothing was, ``MIXED`` when
    they differ). ``data`` is None while ``item`` is None."""

    data: object
    length: object
    item: object = None
    # lists of arrays: a bool value, true once an appended row's shape differed from the
    # first row's (that row is not stored; np.array then raises NumPy's ValueError)
    ragged: object = None


MIXED = "mixed"  # a list's ``item`` when values of several types were appended


@dataclass(frozen=True, eq=False)
class SliceValue:
    start: object
    stop: object
    step: object


@dataclass(frozen=True, eq=False)
class BoundMethod:
    obj: object
    name: str


@dataclass(frozen=True, eq=False)
class RangeValue:
    start: object
    stop: object
    step: object


@dataclass(frozen=True, eq=False)
class LocalFunction:
    """A ``def`` or ``lambda`` inside the function being compiled: its AST ``node``, the
    ``frame`` that defined it and its ``signature`` (defaults are frontend values evaluated
    at the definition, as Python evaluates them)."""

    node: object
    frame: object
    signature: object

    @property
    def name(self) -> str:
        return getattr(self.node, "name", "<lambda>")


@dataclass(frozen=True, eq=False)
class OptionalValue:
    """A variable that is None on some paths and a value on others (``last = None`` before a
    loop that assigns it): ``has`` is a bool (run-time or a Constant) and ``value`` the value,
    meaningful only where ``has`` holds."""

    has: object
    value: object


@dataclass(frozen=True, eq=False)
class Undefined:
    """A name bound on some paths only; ``why`` completes "variable 'x' is ..."."""

    name: str
    why: str
    hint: str = ""

    def fail(self, loc: Location):
        raise CompileError(f"variable '{self.name}' {self.why}", loc, self.hint)


def is_runtime(v) -> bool:
    return isinstance(v, Value)


def is_array(v) -> bool:
    """Whether ``v`` is a run-time array (a tensor-typed IR value)."""
    return isinstance(v, Value) and isinstance(v.type, T.TensorType)


def is_sequence(v) -> bool:
    """Whether ``v`` is a Python tuple or list (a display or a compile-time value)."""
    return isinstance(v, TupleValue) or (isinstance(v, Constant)
                                         and isinstance(v.value, (tuple, list)))


def sequence_kind(v) -> str:
    """"list" or "tuple": the Python type of a sequence (``is_sequence``)."""
    is_list = v.is_list if isinstance(v, TupleValue) else isinstance(v.value, list)
    return "list" if is_list else "tuple"


def holds_runtime(v) -> bool:
    """Whether a tuple or list display holds a run-time value (nested ones too)."""
    return isinstance(v, TupleValue) and any(is_runtime(x) or holds_runtime(x)
                                             for x in v.items)


def is_numpy_operand(v, scalars: bool = True) -> bool:
    """Whether ``v`` is a NumPy array (or, with ``scalars``, a NumPy scalar): an operator
    with such an operand is NumPy's, which converts a tuple or list operand to an array."""
    if isinstance(v, Value):
        return isinstance(v.type, T.TensorType) or (scalars and not T.is_weak(v.type))
    if isinstance(v, Constant):
        return isinstance(v.value, np.ndarray) or (scalars and isinstance(v.value, np.generic))
    return False


def sequence_semantics(operands, scalars: bool = True) -> bool:
    """Whether an operator on ``operands`` is Python's on a tuple or list (concatenation,
    repetition, lexicographic comparison) rather than NumPy's elementwise one: some operand
    is a sequence and none is a NumPy array or scalar (see ``is_numpy_operand``)."""
    return any(is_sequence(v) for v in operands) and not any(
        is_numpy_operand(v, scalars) for v in operands)


def const_type(value) -> T.Type | None:
    """The IR type a compile-time value takes when it is materialized (None: it has none).

    Python scalars are weak (``!py.int`` ...), NumPy scalars and arrays keep their dtype
    (checked first: ``np.float64`` is a subclass of ``float``)."""
    try:
        if isinstance(value, np.generic):
            return T.from_dtype(value.dtype)
        if isinstance(value, np.ndarray):
            return T.TensorType(value.shape, T.from_dtype(value.dtype))
    except TypeError:
        return None
    if isinstance(value, bool):
        return T.py_bool
    if isinstance(value, int):
        return T.py_int
    if isinstance(value, float):
        return T.py_float
    if isinstance(value, complex):
        return T.py_complex
    return None


RUNTIME = object()  # ``compile_time``'s answer for a value known only at run time


def compile_time(v):
    """The Python value of a compile-time frontend value: a Constant's value, a tuple or list
    display of them as a tuple or list (nested ones too); ``RUNTIME`` for anything else."""
    if isinstance(v, Constant):
        return v.value
    if isinstance(v, TupleValue):
        items = tuple(compile_time(x) for x in v.items)
        if any(x is RUNTIME for x in items):
            return RUNTIME
        return list(items) if v.is_list else items
    return RUNTIME


def type_of(v) -> T.Type | None:
    """The IR type of a run-time value or materializable constant, else None."""
    if isinstance(v, Value):
        return v.type
    if isinstance(v, Constant):
        return const_type(v.value)
    return None


def same_constant(a, b) -> bool:
    """True when two compile-time values are interchangeable (same type and value)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        return a.dtype == b.dtype and a.shape == b.shape and np.array_equal(a, b, equal_nan=True)
    if isinstance(a, (float, np.floating)):
        return a == b or (a != a and b != b)
    if isinstance(a, (complex, np.complexfloating)):
        return same_constant(a.real, b.real) and same_constant(a.imag, b.imag)
    try:
        return bool(a is b or a == b)
    except (TypeError, ValueError):
        return False


def numpy_terms(t: T.Type) -> str:
    """An IR type in NumPy's words: "array of shape (?, 3) and dtype float32", "float64
    scalar", "Python float"."""
    el = T.element_type(t)
    if T.is_weak(el):
        name = f"Python {el.kind}"
    else:
        try:
            name = str(T.to_dtype(el))
        except TypeError:
            return f"value of type {t}"
    if isinstance(t, T.TensorType):
        dims = ", ".join("?" if d is None else str(d) for d in t.shape)
        return f"array of shape ({dims}{',' if len(t.shape) == 1 else ''}) and dtype {name}"
    return name if T.is_weak(el) else f"{name} scalar"


def describe(v) -> str:
    """A short text for a frontend value in error messages."""
    if isinstance(v, Value):
        return f"a run-time {numpy_terms(v.type)}"
    if isinstance(v, Constant):
        t = const_type(v.value)
        return f"{v.value!r}" + (f" ({t})" if t is not None else "")
    if isinstance(v, TupleValue):
        n = len(v.items)
        return f"a {'list' if v.is_list else 'tuple'} of {n} item{'' if n == 1 else 's'}"
    if isinstance(v, OptionalValue):
        return f"None or {describe(v.value)}"
    if isinstance(v, ListValue):
        return "a list built at run time"
    if isinstance(v, LocalFunction):
        return f"the nested function '{v.name}'"
    return type(v).__name__
