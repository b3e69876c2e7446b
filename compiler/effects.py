"""Side effects of compiled functions that outlive a call: ``print`` and ``Variable``.

Both behave the same eagerly and compiled: a compiled function prints on every call, in
program order, exactly the text eager Python writes; it reads and updates a ``Variable``
created outside it, and the update persists across calls.
"""

from __future__ import annotations

import builtins
import operator
import sys

import numpy as np


def print(*values, sep: str | None = " ", end: str | None = "\n", flush: bool = False) -> None:  # noqa: A001
    """Python's ``print`` to ``sys.stdout``; inside a compiled function it runs on every call
    (see ``compiler/frontend/effects.py``). ``sep`` and ``end`` must be string literals
    there."""
    builtins.print(*values, sep=sep, end=end, file=sys.stdout, flush=flush)


class Variable:
    """Mutable state read and updated by compiled functions (as ``tf.Variable``).

    ``Variable(value)`` copies ``value`` (an array, a NumPy scalar or a Python scalar; a
    scalar is stored as a 0-d array of NumPy's dtype for it: Python ``float`` -> float64).
    Its dtype and shape are fixed. ``v.value`` / ``v.numpy()`` return a copy of the current
    value (an ndarray, 0-d for scalars); ``v.assign(x)``, ``v.assign_add(x)`` and
    ``v.assign_sub(x)`` update it in place (``x`` broadcast and cast as NumPy's
    ``a[...] = x``) and return None; arithmetic, comparisons and NumPy functions on ``v`` read
    its value. A compiled function that uses ``v`` (found by identity in its globals or
    closure, or those of the functions it calls) takes its buffer as a hidden argument and
    writes updates back on every call.
    """

    __array_priority__ = 1000

    def __init__(self, value):
        self._value = np.array(value, copy=True)

    @property
    def value(self) -> np.ndarray:
        return self._value.copy()

    def numpy(self) -> np.ndarray:
        return self._value.copy()

    @property
    def dtype(self) -> np.dtype:
        return self._value.dtype

    @property
    def shape(self) -> tuple:
        return self._value.shape

    @property
    def ndim(self) -> int:
        return self._value.ndim

    def assign(self, value) -> None:
        self._value[...] = value

    def assign_add(self, value) -> None:
        self._value[...] = self._value + value

    def assign_sub(self, value) -> None:
        self._value[...] = self._value - value

    def __array__(self, dtype=None, copy=None):
        return self._value.copy() if dtype is None else self._value.astype(dtype)

    def __str__(self) -> str:
        return str(self._value)

    def __repr__(self) -> str:
        return f"<compiler.Variable shape={self.shape} dtype={self.dtype} value={self._value!r}>"


def buffers(variables) -> list:
    """The arrays holding the values of ``variables`` (not copies): the hidden trailing
    arguments through which compiled code reads and updates them."""
    return [v._value for v in variables]


def _forward(op, reflected=False):
    if reflected:
        return lambda self, other: op(other, self.numpy())
    return lambda self, *other: op(self.numpy(), *other)


for _name, _op in (("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("floordiv", operator.floordiv),
                   ("mod", operator.mod), ("pow", operator.pow), ("matmul", operator.matmul),
                   ("and", operator.and_), ("or", operator.or_), ("xor", operator.xor),
                   ("lshift", operator.lshift), ("rshift", operator.rshift)):
    setattr(Variable, f"__{_name}__", _forward(_op))
    setattr(Variable, f"__r{_name}__", _forward(_op, reflected=True))
for _name, _op in (("lt", operator.lt), ("le", operator.le), ("gt", operator.gt),
                   ("ge", operator.ge), ("neg", operator.neg), ("pos", operator.pos),
                   ("invert", operator.invert), ("abs", operator.abs),
                   ("getitem", operator.getitem), ("float", float), ("int", int),
                   ("bool", bool), ("len", len)):
    setattr(Variable, f"__{_name}__", _forward(_op))
