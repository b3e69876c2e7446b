"""Optional values: a variable that is None on some paths and a value on others
(``OptionalValue``: a run-time "has value" flag and the value, see merge.py).

Python's semantics hold on the paths taken at run time: ``x is None`` and ``x is not None``
test the flag; ``x == v`` is False (``x != v`` True) where ``x`` is None; ``bool(x)`` is False
for None; any other use of ``x`` needs a value and raises TypeError at run time where ``x``
is None, as CPython does for ``None + 1``.
"""

from __future__ import annotations

import ast
import operator

import numpy as np

from ..dialects.grafo import CheckOp
from ..ir.attributes import StringAttr
from .merge import is_none
from .ops import apply_ufunc, logical_not, materialize, truth
from .values import Constant, OptionalValue

NONE_USED = "'NoneType' object used where a value is needed"


def unwrap(cx, v):
    """The value of ``v`` (an ``OptionalValue``), checked to be present at run time."""
    if not isinstance(v, OptionalValue):
        return v
    if not (isinstance(v.has, Constant) and v.has.value):
        cx.emit_op(CheckOp, [materialize(cx, truth(cx, v.has))],
                   {"kind": StringAttr("TypeError"), "message": StringAttr(NONE_USED)})
    return v.value


def optional_compare(cx, op, left, right):
    """``is``/``is not``/``==``/``!=`` with an ``OptionalValue`` operand, else None (the
    caller unwraps the operands)."""
    if not isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)):
        return None
    opt, other = (left, right) if isinstance(left, OptionalValue) else (right, left)
    negate = isinstance(op, (ast.IsNot, ast.NotEq))
    if isinstance(other, OptionalValue):
        if isinstance(op, (ast.Is, ast.IsNot)):
            return None
        both = apply_ufunc(cx, np.logical_and, [opt.has, other.has], operator.and_)
        neither = logical_not(cx, apply_ufunc(cx, np.logical_or, [opt.has, other.has],
                                              operator.or_))
        equal = cx.short_circuit(both, lambda: cx.compare(ast.Eq(), opt.value, other.value),
                                 "and")
        result = apply_ufunc(cx, np.logical_or, [neither, truth(cx, equal)], operator.or_)
        return logical_not(cx, result) if negate else result
    if is_none(other):
        return opt.has if negate else logical_not(cx, opt.has)
    if isinstance(op, (ast.Is, ast.IsNot)):
        return None
    equal = cx.short_circuit(opt.has, lambda: truth(cx, cx.compare(ast.Eq(), opt.value, other)),
                             "and")
    return logical_not(cx, equal) if negate else equal
