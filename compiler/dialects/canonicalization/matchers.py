"""Predicates on operands that rewrite patterns test: constants of a given value in every
element, and the element kinds where an identity is exact."""

from __future__ import annotations

import numpy as np

from ... import types as T
from ...ir.core import Value
from .constants import constant_attr, numpy_value


def all_elements(v: Value, pred) -> bool:
    """True when ``v`` is a constant (scalar or array) and ``pred`` holds for every element."""
    attr = constant_attr(v)
    value = None if attr is None else numpy_value(attr, v.type)
    if value is None:
        return False
    return bool(np.all(pred(np.asarray(value))))


def int_zero(v: Value) -> bool:
    """An integer constant 0 (or bool False), every element."""
    return not T.is_float(v.type) and all_elements(v, lambda a: a == 0)


def pos_zero(v: Value) -> bool:
    """A float constant +0.0, every element."""
    return T.is_float(v.type) and all_elements(v, lambda a: (a == 0) & ~np.signbit(a))


def neg_zero(v: Value) -> bool:
    """A float constant -0.0, every element."""
    return T.is_float(v.type) and all_elements(v, lambda a: (a == 0) & np.signbit(a))


def one(v: Value) -> bool:
    """A constant 1 (1.0, True), every element."""
    return all_elements(v, lambda a: a == 1)


def all_true(v: Value) -> bool:
    return T.is_bool(v.type) and all_elements(v, lambda a: a)


def integral(v: Value) -> bool:
    """Integers and weak ints, not bool (NumPy rejects ``-`` on bools)."""
    return T.is_integer(v.type)


def not_float(v: Value) -> bool:
    """Integers and bools: where adding 0 (or False) is exact."""
    return not T.is_float(v.type)
