"""Expressions: names, constants, tuples, operators (arithmetic, comparison, chained
comparison, ``and``/``or``/``not``, conditional expressions), attributes, subscripts and
calls (NumPy functions, builtins, array methods, inlined user functions)."""

from __future__ import annotations

import ast
import inspect
import operator
import types

import numpy as np

from .. import types as T
from ..effects import Variable
from ..errors import PY_INT_OVERFLOW
from ..ir.core import Value
from . import arrays as A
from .indexing import subscript
from .ops import (
    OPERATOR_UFUNCS,
    apply_ufunc,
    fold,
    logical_not,
    power_operator,
    raise_at_runtime,
    truth,
)
from .optional import optional_compare, unwrap
from .registry import (
    ATTRIBUTES,
    BUILTINS,
    FOLDABLE,
    METHODS,
    NUMPY,
    VIEW_FUNCTIONS,
    VIEW_METHODS,
)
from .scope import MISSING
from .values import (
    RUNTIME,
    BoundMethod,
    Constant,
    LocalFunction,
    OptionalValue,
    SliceValue,
    TupleValue,
    Undefined,
    compile_time,
    describe,
    is_sequence,
    sequence_kind,
    sequence_semantics,
)
from .variables import VariableMethod

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

UNSUPPORTED_EXPRESSIONS = {
    "ListComp": ("list comprehension", "use NumPy operations or a for loop"),
    "SetComp": ("set comprehension", "use NumPy operations or a for loop"),
    "DictComp": ("dict comprehension", "use NumPy operations or a for loop"),
    "GeneratorExp": ("generator expression", "use NumPy operations or a for loop"),
    "Yield": ("'yield'", "return the values instead"),
    "YieldFrom": ("'yield from'", "return the values instead"),
    "Await": ("'await'", "compile synchronous code only"),
    "JoinedStr": ("f-string", "format strings outside the compiled function"),
    "Dict": ("dict display", "use separate variables or a tuple"),
    "Set": ("set display", "use a tuple"),
    "NamedExpr": ("assignment expression (:=)", "assign in a separate statement"),
    "Starred": ("starred expression", "pass the items one by one"),
}


class ExpressionMixin:
    """Expression conversion for ``Converter``."""

    def expr(self, node, optional: bool = False):
        """The frontend value of ``node``; a value that may be None (``OptionalValue``) is
        returned as such with ``optional``, else checked to be present at run time."""
        kind = type(node).__name__
        method = getattr(self, "_expr_" + kind, None)
        with self.at(node):
            if method is None:
                what, hint = UNSUPPORTED_EXPRESSIONS.get(kind, (f"'{kind}' expression", ""))
                self.fail(f"unsupported syntax {what}", hint)
            value = method(node)
            return value if optional else unwrap(self, value)

    # leaves ----------------------------------------------------------------------------------

    def _expr_Constant(self, node: ast.Constant):
        return Constant(node.value)

    def _expr_Name(self, node: ast.Name):
        return self.load_name(node.id)

    def load_name(self, name: str):
        """A local's value, else the closure's, global's or builtin's value as a Constant
        (the current value of a global the compiled code rebinds, see globals.py)."""
        if name in self.frame.declared:
            hidden = self.global_slot(name)
            if hidden is not None:
                return self.scope[hidden]
        value = self.scope.get(name, MISSING)
        if isinstance(value, Undefined):
            value.fail(self.builder.loc)
        if value is not MISSING:
            return value
        value = self.frame.lookup_enclosing(name)
        if isinstance(value, Undefined):
            value.fail(self.builder.loc)
        if value is not MISSING:
            return self._foreign(value)
        hidden = self.global_slot(name)
        if hidden is not None and not self.frame.in_closure(name):
            return self.scope[hidden]
        found = self.frame.lookup_free(name)
        if found is MISSING:
            self.fail(f"name '{name}' is not defined")
        if isinstance(found, Variable):
            return self.variable_value(found)
        return self._foreign(Constant(found))

    def _foreign(self, value):
        """A value of a global or an enclosing function: views of its array are read-only."""
        if isinstance(value, Constant) and isinstance(value.value, np.ndarray):
            self.foreign.add(value)
        return value

    def _expr_Tuple(self, node):
        return TupleValue(tuple(self.expr(e, optional=True) for e in node.elts),
                          isinstance(node, ast.List))

    _expr_List = _expr_Tuple

    def _expr_Slice(self, node: ast.Slice):
        return SliceValue(*[self.expr(p) if p is not None else Constant(None)
                            for p in (node.lower, node.upper, node.step)])

    # operators -------------------------------------------------------------------------------

    def _expr_BinOp(self, node: ast.BinOp):
        return self.binary(node.op, self.expr(node.left), self.expr(node.right))

    def binary(self, op, left, right):
        """``left <op> right`` for an ``ast`` operator: folded for constants, else an op with
        NumPy broadcasting and promotion (Python semantics for two Python scalars)."""
        python_op = BINARY[type(op)]
        if isinstance(left, Constant) and isinstance(right, Constant):
            folded = fold(python_op, [left.value, right.value])
            if folded is not None:
                return self._exact_int(folded, left, right)
            if all(type(v.value) in (bool, int, float) for v in (left, right)):
                return self._python_scalar_error(python_op, left.value, right.value)
        # a NumPy scalar repeats a sequence (``(1, 2) * np.int64(2)``) as a Python int does
        if sequence_semantics([left, right], scalars=python_op is not operator.mul):
            return self._tuple_binary(python_op, left, right)
        if python_op is operator.matmul:
            return A.matmul(self, left, right)
        if python_op is operator.pow:
            return power_operator(self, left, right)
        return apply_ufunc(self, OPERATOR_UFUNCS[python_op], [left, right], python_op)

    def _python_scalar_error(self, python_op, a, b):
        """``a <op> b`` on Python scalars that Python answers with an exception (raised
        when the call gets here, as in Python) or with a complex number (a CompileError)."""
        try:
            r = python_op(a, b)
        except (ArithmeticError, ValueError) as e:
            raise_at_runtime(self, e)
            return Constant(python_op(type(a)(1), type(b)(1)))
        if isinstance(r, complex):
            self.fail(f"({a!r}) ** {b!r} is the complex number {r!r}: grafo does not support "
                      f"complex numbers",
                      "compute with floats whose result is real (e.g. abs(x) ** y)")
        return Constant(r)

    def _tuple_binary(self, python_op, left, right):
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
            return TupleValue((a or b) * A.int_constant(self, n, "a tuple repeat count"),
                              is_list)
        self.fail(f"operator {python_op.__name__} on a tuple is not supported",
                  "convert the tuple to an array with np.array(...)")

    def _expr_UnaryOp(self, node: ast.UnaryOp):
        value = self.expr(node.operand, optional=isinstance(node.op, ast.Not))
        if isinstance(node.op, ast.Not):
            return logical_not(self, value)
        python_op = UNARY[type(node.op)]
        if is_sequence(value):
            self.fail(f"bad operand type for unary {_UNARY_SYMBOL[python_op]}: "
                      f"'{sequence_kind(value)}'",
                      "convert it to an array with np.array(...)", TypeError)
        if isinstance(value, Constant):
            folded = fold(python_op, [value.value])
            if folded is not None:
                return self._exact_int(folded, value)
        return apply_ufunc(self, OPERATOR_UFUNCS[python_op], [value], python_op)

    def _exact_int(self, folded, *operands):
        """``folded``; an OverflowError CompileError here when Python ints gave an int that
        grafo's 64-bit Python ints cannot hold (the compiled code would be wrong)."""
        v = folded.value
        if type(v) is int and not -2 ** 63 <= v < 2 ** 63 and all(
                type(o.value) in (int, bool) for o in operands):
            self.fail(f"{PY_INT_OVERFLOW}{v} does not fit in 64 bits",
                      "grafo keeps Python ints in 64 bits: use smaller values or floats",
                      OverflowError)
        return folded

    def _expr_Compare(self, node: ast.Compare):
        return self._chain(self.expr(node.left, optional=True),
                           list(zip(node.ops, node.comparators, strict=True)))

    def _chain(self, left, pairs):
        op, node = pairs[0]
        right = self.expr(node, optional=True)
        with self.at(node):
            result = self.compare(op, left, right)
        if len(pairs) == 1:
            return result
        return self.short_circuit(result, lambda: self._chain(right, pairs[1:]), "and")

    def compare(self, op, left, right):
        """One comparison; ``is``/``in`` only where they are decided at compile time or test
        an ``OptionalValue``."""
        if isinstance(left, OptionalValue) or isinstance(right, OptionalValue):
            result = optional_compare(self, op, left, right)
            if result is not None:
                return result
            left, right = unwrap(self, left), unwrap(self, right)
        both_const = isinstance(left, Constant) and isinstance(right, Constant)
        if isinstance(op, (ast.Is, ast.IsNot)):
            negate = isinstance(op, ast.IsNot)
            if both_const:
                return Constant((left.value is right.value) != negate)
            if any(isinstance(v, Constant) and v.value is None for v in (left, right)):
                return Constant(negate)  # a run-time value is never None
            self.fail("'is' is only supported with None or compile-time values",
                      "compare values with ==")
        if isinstance(op, (ast.In, ast.NotIn)):
            item, container = compile_time(left), compile_time(right)
            known = item is not RUNTIME and container is not RUNTIME
            folded = fold(operator.contains, [container, item]) if known else None
            if folded is None:
                self.fail("'in' is only supported on values known at compile time")
            return Constant(folded.value != isinstance(op, ast.NotIn))
        python_op = COMPARE[type(op)]
        if both_const:
            folded = fold(python_op, [left.value, right.value])
            if folded is not None:
                return folded
        if sequence_semantics([left, right]):
            return self._sequence_compare(python_op, left, right)
        return apply_ufunc(self, OPERATOR_UFUNCS[python_op], [left, right], python_op)

    def _sequence_compare(self, python_op, left, right):
        """Python's comparison of a tuple or list with a value that is not a NumPy array or
        scalar (``(1, 2) == (1, 2)`` is True, ``(1, 2) == 1`` False), decided at compile time;
        the TypeError Python raises (``(1, 2) < 1``) is raised when the code gets here."""
        a, b = compile_time(left), compile_time(right)
        if a is RUNTIME or b is RUNTIME:
            self.fail("comparing a tuple or list that holds run-time values is not supported",
                      "compare the items one by one, or convert it with np.array(...)")
        try:
            return Constant(bool(python_op(a, b)))
        except (TypeError, ValueError) as e:
            raise_at_runtime(self, e)
            return Constant(False)

    def _expr_BoolOp(self, node: ast.BoolOp):
        kind = "and" if isinstance(node.op, ast.And) else "or"
        return self._bool_chain(kind, node.values)

    def _bool_chain(self, kind, nodes):
        value = self.expr(nodes[0], optional=True)
        if len(nodes) == 1:
            return value
        return self.short_circuit(value, lambda: self._bool_chain(kind, nodes[1:]), kind)

    def _expr_Lambda(self, node: ast.Lambda):
        return self.local_function(node)

    def local_function(self, node) -> LocalFunction:
        """A nested ``def``/``lambda``: its signature with the defaults evaluated now."""
        a = node.args
        if a.vararg or a.kwarg:
            self.fail("nested functions with *args or **kwargs are not supported",
                      "list the parameters one by one")
        P = inspect.Parameter
        positional = [*a.posonlyargs, *a.args]
        name = getattr(node, "name", "<lambda>")

        def default(p, d):
            return self.shared_default(self.expr(d), f"{name}(default of {p.arg})")

        first = len(positional) - len(a.defaults)
        defaults = [None] * first + [default(p, d) for p, d in zip(positional[first:],
                                                                   a.defaults, strict=True)]
        params = [P(p.arg, P.POSITIONAL_ONLY if k < len(a.posonlyargs) else
                    P.POSITIONAL_OR_KEYWORD, default=P.empty if d is None else d)
                  for k, (p, d) in enumerate(zip(positional, defaults, strict=True))]
        params += [P(p.arg, P.KEYWORD_ONLY, default=P.empty if d is None else default(p, d))
                   for p, d in zip(a.kwonlyargs, a.kw_defaults, strict=True)]
        return LocalFunction(node, self.frame, inspect.Signature(params))

    def _expr_IfExp(self, node: ast.IfExp):
        test = self.expr(node.test, optional=True)
        with self.at(node.test):
            cond = truth(self, test)
        return self.select(cond, lambda: self.expr(node.body, optional=True),
                           lambda: self.expr(node.orelse, optional=True))

    # attributes, subscripts, calls -----------------------------------------------------------

    def _expr_Attribute(self, node: ast.Attribute):
        var = self.variable_named(node.value.id) if isinstance(node.value, ast.Name) else None
        if var is not None:
            return self.variable_attribute(var, node.attr)
        return self.attribute(self.expr(node.value), node.attr)

    def attribute(self, obj, name: str):
        """``obj.name``: module/class/dtype attributes, array attributes and methods."""
        if isinstance(obj, Constant) and isinstance(obj.value, (types.ModuleType, type,
                                                                np.dtype)):
            try:
                return Constant(getattr(obj.value, name))
            except AttributeError as e:
                self.fail(str(e))
        if isinstance(obj, Value) or (isinstance(obj, Constant) and isinstance(
                obj.value, (np.ndarray, np.generic))):
            if name in ATTRIBUTES:
                return ATTRIBUTES[name](self, self.array_operand(obj) if name == "T" else obj)
            if name in METHODS:
                return BoundMethod(obj, name)
            self.fail(f"array attribute '{name}' is not supported")
        self.fail(f"attribute '{name}' of {describe(obj)} is not supported",
                  "lists have a fixed length here: build arrays with NumPy (np.zeros(n), "
                  "np.concatenate, np.stack) instead" if getattr(obj, "is_list", False) else "")

    def _expr_Subscript(self, node: ast.Subscript):
        value = self.array_operand(self.expr(node.value))
        index = self.expr(node.slice)
        return subscript(self, value, index)

    def _expr_Call(self, node: ast.Call):
        callee = self.expr(node.func)
        inlined = _inlined(callee)
        args = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                v = self.expr(a.value, optional=inlined)
                if _length(v) is None:
                    with self.at(a):
                        self.fail("unsupported syntax starred argument of "
                                  f"{describe(v)}", "pass the items one by one")
                args.extend(self.unpack(v, _length(v), a))
            else:
                args.append(self.expr(a, optional=inlined))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                with self.at(k):
                    self.fail("unsupported syntax '**' argument", "pass keywords one by one")
            kwargs[k.arg] = self.expr(k.value, optional=inlined)
        with self.at(node):
            return self.call(callee, args, kwargs, node)

    def call(self, callee, args, kwargs, node):
        """Call a NumPy function, builtin, array method or user function (inlined)."""
        if isinstance(callee, BoundMethod):
            view = callee.name in VIEW_METHODS
            obj = self.array_operand(callee.obj) if view else callee.obj
            return self._new_array(METHODS[callee.name](self, [obj, *args], kwargs),
                                   [obj, *args, *kwargs.values()], view)
        if isinstance(callee, VariableMethod):
            return self.variable_call(callee, args, kwargs)
        fn = callee.value if isinstance(callee, Constant) else None
        rule = _lookup(fn)
        if rule is not None:
            view = _lookup_set(fn, VIEW_FUNCTIONS)
            if view:
                args = [self.array_operand(a) for a in args]
            values = [compile_time(a) for a in [*args, *kwargs.values()]]
            if _lookup_set(fn, FOLDABLE) and not any(v is RUNTIME for v in values):
                folded = fold(fn, values[:len(args)], dict(zip(kwargs, values[len(args):],
                                                               strict=True)))
                if folded is not None:
                    return self._exact_int(folded, *[Constant(v) for v in values])
            return self._new_array(rule(self, args, kwargs), [*args, *kwargs.values()], view)
        if isinstance(callee, LocalFunction):
            return self.inline(None, args, kwargs, callee)
        inner = getattr(fn, "python_function", None)  # a compiler.Function: inline its body
        if inspect.isfunction(inner):
            fn = inner
        if inspect.isfunction(fn) and not _is_numpy(fn):
            return self.inline(fn, args, kwargs)
        text = ast.unparse(node.func)
        if fn is None:
            self.fail(f"{text} ({describe(callee)}) is not callable")
        self.fail(f"{text} is not supported", "use the supported NumPy functions (listed in "
                  "docs/numpy_support.md) or call it outside the compiled function")


    def _new_array(self, result, operands, view: bool):
        """``result`` of a NumPy function or method: one that returns a new array in NumPy is
        copied when grafo computed it as an operand itself or a view of one
        (``np.array(x)``, ``np.concatenate([x])``, ``np.floor`` of integers)."""
        if view or not (isinstance(result, Value) and isinstance(result.type, T.TensorType)):
            return result
        inputs = set()
        for v in operands:
            inputs.update(_arrays_in(v))
        v = result
        while True:
            if v in inputs:
                return A.copy(self, result)
            found = self.view_source(v)
            if found is None:
                return result
            v = found[1]


def _arrays_in(v) -> list:
    if isinstance(v, TupleValue):
        return [a for item in v.items for a in _arrays_in(item)]
    return [v] if isinstance(v, Value) else []


def _inlined(callee) -> bool:
    """Whether a call of ``callee`` inlines a Python function (its arguments may be None)."""
    if isinstance(callee, LocalFunction):
        return True
    fn = callee.value if isinstance(callee, Constant) else None
    fn = getattr(fn, "python_function", fn)
    return _lookup(fn) is None and inspect.isfunction(fn) and not _is_numpy(fn)


def _lookup(fn):
    try:
        return NUMPY.get(fn) or BUILTINS.get(fn)
    except TypeError:  # unhashable
        return None


def _lookup_set(fn, table) -> bool:
    try:
        return fn in table
    except TypeError:
        return False


def _is_numpy(fn) -> bool:
    return (getattr(fn, "__module__", None) or "").split(".")[0] == "numpy"


def _length(v):
    if isinstance(v, TupleValue):
        return len(v.items)
    if isinstance(v, Constant) and isinstance(v.value, (tuple, list)):
        return len(v.value)
    return None

