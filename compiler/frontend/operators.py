"""Operators: arithmetic and bitwise (``binary``), unary, comparisons (chained, ``is``/``in``
where decided at compile time, ``OptionalValue`` tests) and ``and``/``or``/``not``. Constants
fold with Python's semantics; everything else is an op with NumPy broadcasting and NEP 50
promotion; tuples and lists follow Python's sequence semantics."""

from __future__ import annotations

import ast
import operator

import numpy as np

from ..errors import PY_INT_OVERFLOW
from . import arrays as A
from . import branches, expressions
from .dispatch import expression_handler
from .merge import is_none
from .ops import (
    OPERATOR_UFUNCS,
    apply_ufunc,
    fold,
    logical_not,
    power_operator,
    raise_at_runtime,
    truth,
)
from .optional import unwrap
from .values import (
    RUNTIME,
    Constant,
    OptionalValue,
    TupleValue,
    compile_time,
    is_sequence,
    sequence_kind,
    sequence_semantics,
)

BINARY = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul,
    ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv, ast.Mod: operator.mod,
    ast.Pow: operator.pow, ast.LShift: operator.lshift, ast.RShift: operator.rshift,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor, ast.BitAnd: operator.and_,
    ast.MatMult: operator.matmul,
}


COMPARE = {ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt,
           ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge}


UNARY = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Invert: operator.invert}


_UNARY_SYMBOL = {operator.neg: "-", operator.pos: "+", operator.invert: "~"}


@expression_handler(ast.BinOp)
def _binop(cx, node: ast.BinOp):
    return binary(cx, node.op, expressions.expr(cx, node.left), expressions.expr(cx, node.right))


def binary(cx, op, left, right):
    """``left <op> right`` for an ``ast`` operator: folded for constants, else an op with
    NumPy broadcasting and promotion (Python semantics for two Python scalars)."""
    python_op = BINARY[type(op)]
    if isinstance(left, Constant) and isinstance(right, Constant):
        folded = fold(python_op, [left.value, right.value])
        if folded is not None:
            return exact_int(cx, folded, left, right)
        if all(type(v.value) in (bool, int, float) for v in (left, right)):
            return _python_scalar_error(cx, python_op, left.value, right.value)
    # a NumPy scalar repeats a sequence (``(1, 2) * np.int64(2)``) as a Python int does
    if sequence_semantics([left, right], scalars=python_op is not operator.mul):
        return _tuple_binary(cx, python_op, left, right)
    if python_op is operator.matmul:
        return A.matmul(cx, left, right)
    if python_op is operator.pow:
        return power_operator(cx, left, right)
    return apply_ufunc(cx, OPERATOR_UFUNCS[python_op], [left, right], python_op)


def _python_scalar_error(cx, python_op, a, b):
    """``a <op> b`` on Python scalars that Python answers with an exception (raised
    when the call gets here, as in Python)."""
    try:
        r = python_op(a, b)
    except (ArithmeticError, ValueError) as e:
        raise_at_runtime(cx, e)
        return Constant(python_op(type(a)(1), type(b)(1)))
    return Constant(r)


def _tuple_binary(cx, python_op, left, right):
    def items(v):
        if isinstance(v, TupleValue):
            return v.items
        if isinstance(v, Constant) and isinstance(v.value, tuple):
            return tuple(Constant(x) for x in v.value)
        return None
    a, b = items(left), items(right)
    is_list = any(isinstance(v, TupleValue) and v.is_list for v in (left, right))
    if python_op is operator.add and a is not None and b is not None:
        return TupleValue(a + b, is_list)
    if python_op is operator.mul and (a is None) != (b is None):
        n = right if a is not None else left
        return TupleValue((a or b) * A.int_constant(cx, n, "a tuple repeat count"),
                          is_list)
    cx.fail(f"operator {python_op.__name__} on a tuple is not supported",
            "convert the tuple to an array with np.array(...)")


@expression_handler(ast.UnaryOp)
def _unaryop(cx, node: ast.UnaryOp):
    value = expressions.expr(cx, node.operand, optional=isinstance(node.op, ast.Not))
    if isinstance(node.op, ast.Not):
        return logical_not(cx, value)
    python_op = UNARY[type(node.op)]
    if is_sequence(value):
        cx.fail(f"bad operand type for unary {_UNARY_SYMBOL[python_op]}: "
                f"'{sequence_kind(value)}'",
                "convert it to an array with np.array(...)", TypeError)
    if isinstance(value, Constant):
        folded = fold(python_op, [value.value])
        if folded is not None:
            return exact_int(cx, folded, value)
    return apply_ufunc(cx, OPERATOR_UFUNCS[python_op], [value], python_op)


def exact_int(cx, folded, *operands):
    """``folded``; an OverflowError CompileError here when Python ints gave an int that
    grafo's 64-bit Python ints cannot hold (the compiled code would be wrong)."""
    v = folded.value
    if type(v) is int and not -2 ** 63 <= v < 2 ** 63 and all(
            type(o.value) in (int, bool) for o in operands):
        cx.fail(f"{PY_INT_OVERFLOW}{v} does not fit in 64 bits",
                "grafo keeps Python ints in 64 bits: use smaller values or floats",
                OverflowError)
    return folded


@expression_handler(ast.Compare)
def _compare(cx, node: ast.Compare):
    return _chain(cx, expressions.expr(cx, node.left, optional=True),
                  list(zip(node.ops, node.comparators, strict=True)))


def _chain(cx, left, pairs):
    op, node = pairs[0]
    right = expressions.expr(cx, node, optional=True)
    with cx.at(node):
        result = compare(cx, op, left, right)
    if len(pairs) == 1:
        return result
    return branches.short_circuit(cx, result, lambda: _chain(cx, right, pairs[1:]), "and")


def compare(cx, op, left, right):
    """One comparison; ``is``/``in`` only where they are decided at compile time or test
    an ``OptionalValue``."""
    if isinstance(left, OptionalValue) or isinstance(right, OptionalValue):
        result = _optional_compare(cx, op, left, right)
        if result is not None:
            return result
        left, right = unwrap(cx, left), unwrap(cx, right)
    both_const = isinstance(left, Constant) and isinstance(right, Constant)
    if isinstance(op, (ast.Is, ast.IsNot)):
        negate = isinstance(op, ast.IsNot)
        if both_const:
            return Constant((left.value is right.value) != negate)
        if any(isinstance(v, Constant) and v.value is None for v in (left, right)):
            return Constant(negate)  # a run-time value is never None
        cx.fail("'is' is only supported with None or compile-time values",
                "compare values with ==")
    if isinstance(op, (ast.In, ast.NotIn)):
        item, container = compile_time(left), compile_time(right)
        known = item is not RUNTIME and container is not RUNTIME
        folded = fold(operator.contains, [container, item]) if known else None
        if folded is None:
            cx.fail("'in' is only supported on values known at compile time")
        return Constant(folded.value != isinstance(op, ast.NotIn))
    python_op = COMPARE[type(op)]
    if both_const:
        folded = fold(python_op, [left.value, right.value])
        if folded is not None:
            return folded
    if sequence_semantics([left, right]):
        return _sequence_compare(cx, python_op, left, right)
    return apply_ufunc(cx, OPERATOR_UFUNCS[python_op], [left, right], python_op)


def _optional_compare(cx, op, left, right):
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
        equal = branches.short_circuit(
            cx, both, lambda: compare(cx, ast.Eq(), opt.value, other.value), "and")
        result = apply_ufunc(cx, np.logical_or, [neither, truth(cx, equal)], operator.or_)
        return logical_not(cx, result) if negate else result
    if is_none(other):
        return opt.has if negate else logical_not(cx, opt.has)
    if isinstance(op, (ast.Is, ast.IsNot)):
        return None
    equal = branches.short_circuit(
        cx, opt.has, lambda: truth(cx, compare(cx, ast.Eq(), opt.value, other)), "and")
    return logical_not(cx, equal) if negate else equal


def _sequence_compare(cx, python_op, left, right):
    """Python's comparison of a tuple or list with a value that is not a NumPy array or
    scalar (``(1, 2) == (1, 2)`` is True, ``(1, 2) == 1`` False), decided at compile time;
    the TypeError Python raises (``(1, 2) < 1``) is raised when the code gets here."""
    a, b = compile_time(left), compile_time(right)
    if a is RUNTIME or b is RUNTIME:
        cx.fail("comparing a tuple or list that holds run-time values is not supported",
                "compare the items one by one, or convert it with np.array(...)")
    try:
        return Constant(bool(python_op(a, b)))
    except (TypeError, ValueError) as e:
        raise_at_runtime(cx, e)
        return Constant(False)


@expression_handler(ast.BoolOp)
def _boolop(cx, node: ast.BoolOp):
    kind = "and" if isinstance(node.op, ast.And) else "or"
    return _bool_chain(cx, kind, node.values)


def _bool_chain(cx, kind, nodes):
    value = expressions.expr(cx, nodes[0], optional=True)
    if len(nodes) == 1:
        return value
    return branches.short_circuit(cx, value, lambda: _bool_chain(cx, kind, nodes[1:]), kind)
