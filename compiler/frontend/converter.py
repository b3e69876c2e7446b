"""The converter: one Python function (and the functions it calls, inlined) to a
``builtin.module`` holding one ``func.func`` of tensor-level IR."""

from __future__ import annotations

import ast
import inspect

from .. import types as T
from ..dialects import func
from ..dialects import np as np_dialect
from ..dialects.builtin import ModuleOp
from ..errors import CompileError, compile_error_class
from ..ir.attributes import ArrayAttr, StringAttr, TypeAttr, UnitAttr
from ..ir.builder import Builder
from ..ir.core import Location, Value
from .control_flow import ControlFlowMixin
from .expressions import ExpressionMixin
from .globals import GLOBAL, GlobalsMixin, NewGlobal, declared_globals, slot_types
from .holders import slots, text
from .mutation import MutationMixin, stored_bases
from .ops import cast, materialize
from .scope import BROKE, CONTINUED, RETURNED, RETVAL, Frame, Scope
from .statements import StatementMixin
from .values import (
    BoundMethod,
    Constant,
    LocalFunction,
    OptionalValue,
    RangeValue,
    SliceValue,
    TupleValue,
    Undefined,
    is_array,
)
from .variables import VAR, VariableMixin, find_variables, variable_types

_ERRORS = (TypeError, ValueError, IndexError, OverflowError)


MAX_RECURSION = 32  # inlining depth of one function in itself


class Converter(ExpressionMixin, StatementMixin, ControlFlowMixin, MutationMixin,
                VariableMixin, GlobalsMixin):
    """Converts Python functions; ``frames`` is the stack of functions being inlined;
    ``slots`` the module globals the code rebinds (globals.py); ``views`` links an updated
    view to its updated base, ``guards`` the arrays that may or may not view another,
    ``foreign`` the compile-time arrays of globals and enclosing functions and ``frozen``
    their run-time values (mutation.py)."""

    def __init__(self, slots: list | None = None):
        self.builder = Builder()
        self.frames: list[Frame] = []
        self.slots = list(slots or [])
        self.views: dict = {}
        self.guards: dict = {}
        self.foreign: set = set()
        self.frozen: dict = {}

    # state -----------------------------------------------------------------------------------

    @property
    def frame(self) -> Frame:
        return self.frames[-1]

    @property
    def scope(self) -> Scope:
        return self.frame.scope

    @scope.setter
    def scope(self, scope: Scope) -> None:
        self.frame.scope = scope

    def loc(self, node) -> Location:
        return self.frame.source.loc(node)

    def at(self, node):
        """Ops built inside this context get the location of ``node``."""
        return self.builder.at_loc(self.loc(node))

    def fail(self, message: str, hint: str = "", kind: type[BaseException] | None = None):
        """Raise a CompileError at the current source location; ``kind``: the exception NumPy
        or Python raises at run time, which the error then also is (``errors.py``)."""
        cls = CompileError if kind is None else compile_error_class(kind)
        raise cls(message, self.builder.loc, hint)

    # building --------------------------------------------------------------------------------

    def insert(self, op):
        return self.builder.insert(op)

    def emit_op(self, op_cls, operands, attributes=None, types=None):
        """Build and insert an op; type-inference errors become CompileErrors here."""
        try:
            return self.builder.create(op_cls, list(operands), attributes, types)
        except _ERRORS as e:
            self.fail(str(e), kind=type(e))

    def emit(self, op_cls, operands, attributes=None, types=None):
        """``emit_op`` for a single-result op; returns the result value."""
        return self.emit_op(op_cls, operands, attributes, types).result

    # functions -------------------------------------------------------------------------------

    def convert(self, fn, args) -> ModuleOp:
        frame = Frame(fn, Scope())
        self.frames.append(frame)
        node = frame.node
        loc = self.loc(node)
        params = _parameters(fn, loc)
        if len(args) != len(params):
            raise TypeError(f"{fn.__name__} has {len(params)} parameters, got {len(args)} "
                            f"argument types")
        runtime = [(p, a) for p, a in zip(params, args, strict=True) if isinstance(a, T.Type)]
        variables = find_variables(fn)
        runtime += [(f"var{k}", t) for k, t in enumerate(variable_types(variables))]
        runtime += [(f"global{k}", t) for k, t in enumerate(slot_types(self.slots, loc))]
        fop = func.FuncOp.create(fn.__name__, T.FunctionType(tuple(a for _, a in runtime), ()),
                                 [p for p, _ in runtime], loc)
        block_args = iter(fop.body.args)
        for p, a in zip(params, args, strict=True):
            if isinstance(a, T.Type):
                frame.scope[p] = next(block_args)
            elif isinstance(a, Constant):
                frame.scope[p] = a
            else:
                raise TypeError(f"argument '{p}': expected an IR type or a Constant, got {a!r}")
        frame.key = fn
        with self.builder.at_end(fop.body), self.builder.at_loc(loc):
            for p in params:
                if is_array(frame.scope[p]):
                    self.track(p)
            hidden = list(block_args)
            self.global_args = hidden[len(variables):]
            self.bind_variables(variables, hidden[:len(variables)])
            self.bind_globals(self.global_args)
            value = self.run_body(node)
            with self.builder.at_loc(frame.return_loc or loc):
                structure, results = self._results(value)
            results += [materialize(self, v) for v in self.global_results(loc)]
            for p, arg in frame.tracked.items():
                if p.startswith(GLOBAL):
                    continue
                final = self.exit_value(p)
                if final is not None and final is not arg:
                    self.emit_op(np_dialect.WriteBackOp, [arg, materialize(self, final)])
            self.emit_op(func.ReturnOp, results)
        fop.attributes["function_type"] = TypeAttr(T.FunctionType(
            tuple(a for _, a in runtime), tuple(v.type for v in results)))
        if structure.startswith("("):
            fop.attributes["grafo.result_tuple"] = UnitAttr()
        if not _plain(structure):
            fop.attributes["grafo.result_structure"] = StringAttr(structure)
        if self.slots:
            fop.attributes["grafo.globals"] = ArrayAttr(tuple(
                StringAttr(f"{ns.get('__name__')}:{n}") for ns, n in self.slots))
        module = ModuleOp.empty()
        module.body.append(fop)
        self.frames.pop()
        return module

    def run_body(self, node):
        """Convert a function body in the current frame; returns its return value."""
        if isinstance(node, ast.Lambda):
            body = [ast.copy_location(ast.Return(node.body), node.body)]
        else:
            last = node.body[-1]
            implicit = ast.Return(None, lineno=last.end_lineno or last.lineno,
                                  col_offset=last.col_offset)
            body = node.body + [implicit]
        self.frame.declared = declared_globals(node)
        for flag in (RETURNED, BROKE, CONTINUED):
            self.scope[flag] = Constant(False)
        self.statements(body)
        value = self.scope[RETVAL]
        if isinstance(value, Undefined):
            value.fail(self.builder.loc)
        return value

    def _results(self, value) -> tuple:
        """(structure, results): the run-time results of the return value ``value`` and
        the structure string that rebuilds it from them (see ``runtime.results``)."""
        if isinstance(value, Constant) and isinstance(value.value, (tuple, list)):
            value = TupleValue(tuple(Constant(v) for v in value.value),
                               isinstance(value.value, list))
        if isinstance(value, TupleValue):
            parts = [self._results(v) for v in value.items]
            inner = ",".join(p for p, _ in parts)
            if value.is_list:
                return f"[{inner}]", [r for _, rs in parts for r in rs]
            inner += "," if len(parts) == 1 else ""
            return f"({inner})", [r for _, rs in parts for r in rs]
        if isinstance(value, Constant) and value.value is None:
            return "None", []
        if isinstance(value, OptionalValue):
            if isinstance(value.has, Constant):
                return self._results(value.value if value.has.value else Constant(None))
            return "?", [materialize(self, cast(self, value.has, T.py_bool)),
                         materialize(self, value.value)]
        return "_", [materialize(self, value)]

    def inline(self, fn, args, kwargs, local: LocalFunction | None = None):
        """Call a user function (or the nested function ``local``) by converting its body
        here with the arguments bound. Direct or mutual recursion is inlined too, up to
        ``MAX_RECURSION`` levels: it ends when its base case is decided at compile time (on
        static shapes or compile-time constants)."""
        key = local.node if local is not None else fn
        name = local.name if local is not None else fn.__name__
        if sum(1 for f in self.frames if f.key is key) >= MAX_RECURSION:
            self.fail(f"recursion of '{name}' deeper than {MAX_RECURSION} levels, the most grafo "
                      f"inlines: its base case is not decided at compile time, or comes later",
                      f"recurse on static shapes or Python constants, at most {MAX_RECURSION} "
                      f"calls deep (the first call included), or rewrite the recursion as a "
                      f"loop")
        if fn is not None and (inspect.isgeneratorfunction(fn)
                               or inspect.iscoroutinefunction(fn)):
            self.fail(f"'{name}' is a generator or coroutine function, which is not "
                      f"supported", "return the values instead")
        signature = local.signature if local is not None else inspect.signature(fn)
        try:
            bound = signature.bind(*args, **kwargs)
        except TypeError as e:
            self.fail(f"{name}(): {e}")
        bound.apply_defaults()
        frame = Frame(fn, Scope()) if local is None else Frame(
            None, Scope(), local.node, local.frame)
        frame.key = key
        for pname, value in bound.arguments.items():
            kind = bound.signature.parameters[pname].kind
            if kind is inspect.Parameter.VAR_KEYWORD:
                self.fail(f"'{name}' takes **{pname}, which is not supported")
            if kind is inspect.Parameter.VAR_POSITIONAL:
                value = TupleValue(tuple(value))
            elif not _is_frontend_value(value):
                value = Constant(value)
            frame.scope[pname] = value
        captured = stored_bases(_body(frame.node)) - set(bound.arguments)
        # arrays of the enclosing function it reads: writes through views of them reach it
        read = _free_reads(_body(frame.node)) - captured - set(bound.arguments) \
            if local is not None else set()
        for n, v in self.scope.names.items():
            if n.startswith((VAR, GLOBAL)):
                frame.scope[n] = v
        self.frames.append(frame)
        try:
            for n in sorted(captured | read):
                owner = local.frame if local is not None else None
                while owner is not None and n not in owner.scope.names:
                    owner = owner.parent
                if owner is None:
                    continue
                value = owner.scope[n]
                if n in captured:
                    value = self.materialize_local(owner.scope, value)
                if is_array(value) or isinstance(value, TupleValue):
                    self.scope[n] = value
            # an array the caller holds in a tuple (or a nested function's default) is
            # observable through a hidden name ("t[0]") that follows writes like an alias
            for slot, v in slots(self.scope):
                if not isinstance(slot, str) and is_array(v):
                    self.scope[text(slot)] = v
            for n in list(self.scope.names):
                if is_array(self.scope[n]) or n.startswith(GLOBAL):
                    self.track(n, snapshot=n.startswith(GLOBAL))
            value = self.run_body(frame.node)
            exits = [(n, v, self.exit_value(n)) for n, v in frame.tracked.items()]
        finally:
            self.frames.pop()
        for name, old, new in exits:
            if name.startswith(GLOBAL):
                self.scope[name] = old if new is None else new
                continue
            if new is not None and new is not old:
                self.mutate(old, new)
        return value


def _plain(structure: str) -> bool:
    """Whether ``grafo.result_tuple`` alone describes ``structure``: one result, none, or a
    flat tuple of results."""
    return structure in ("_", "None") or (
        structure.startswith("(") and set(structure[1:-1].split(",")) <= {"_", ""}
        and structure != "()")


def _parameters(fn, loc) -> list:
    params = []
    for p in inspect.signature(fn).parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            raise CompileError(f"'{fn.__name__}' takes *{p.name}" if p.kind is p.VAR_POSITIONAL
                               else f"'{fn.__name__}' takes **{p.name}", loc,
                               "compile a function with a fixed list of parameters")
        params.append(p.name)
    return params


def _is_frontend_value(v) -> bool:
    return isinstance(v, (Value, Constant, TupleValue, BoundMethod, RangeValue, SliceValue,
                          LocalFunction))


def _free_reads(nodes) -> set:
    """Names read and never assigned in ``nodes`` (outside nested definitions)."""
    loads, stores, stack = set(), set(), list(nodes)
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Name):
            (loads if isinstance(n.ctx, ast.Load) else stores).add(n.id)
        if not isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            stack.extend(ast.iter_child_nodes(n))
    return loads - stores


def _body(node) -> list:
    return [node.body] if isinstance(node, ast.Lambda) else node.body


def convert(fn, args) -> ModuleOp:
    """Convert the Python function ``fn`` to tensor-level IR for one specialization.

    ``args`` has one entry per parameter of ``fn`` (defaults applied): an IR type
    (``TensorType`` for an array, a scalar type for a NumPy scalar) for a run-time argument,
    or a ``Constant`` for a compile-time value (a Python scalar or a tuple of scalars folded
    into the code, a function whose calls are inlined).

    Returns a ``builtin.module`` with one ``func.func`` named ``fn.__name__`` whose arguments
    are the run-time arguments in order; ``grafo.result_tuple`` is set when ``fn`` returns a
    tuple; a function returning None has no results. A result that is not one value or a
    flat tuple of values (nested tuples, None items, a value that may be None) sets
    ``grafo.result_structure``, the string that rebuilds it from the flat results (see
    ``runtime.results``).

    Supported: arithmetic, comparison (chained), unary, ``and``/``or``/``not`` operators with
    NumPy broadcasting and NEP 50 promotion; NumPy ufuncs of the ``np`` dialect, reductions
    (sum, mean, prod, max, min, any, all, argmax, argmin), matmul/dot, transpose, reshape,
    zeros/ones/full(_like), eye, arange, where, clip, astype, array attributes and methods;
    basic indexing; ``if``/``elif``/``else``, conditional expressions, ``for ... in
    range(...)``, ``while``, ``break``/``continue``/``return`` anywhere; calls to other Python
    functions (inlined, no recursion).

    Raises CompileError (file:line:col, the source line with a caret, a hint) for anything
    else, and for type and shape errors found while converting.
    """
    slots = []
    while True:
        try:
            return Converter(slots).convert(fn, args)
        except NewGlobal as found:
            slots.append(found.slot)
