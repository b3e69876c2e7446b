"""The converter: one Python function (and the functions it calls, inlined) to a
``builtin.module`` holding one ``func.func`` of tensor-level IR. ``convert`` makes the
conversion's ``State``; this module builds the function's signature (run-time parameters,
then the hidden arguments of Variables and rebound globals), its results and the write-backs
into the buffers of array parameters.

The handlers of statements and expressions are registered by their modules
(``dispatch``), which this module imports (``HANDLERS``)."""

from __future__ import annotations

import inspect

from .. import types as T
from ..dialects import func
from ..dialects import np as np_dialect
from ..dialects.builtin import ModuleOp
from ..errors import CompileError
from ..ir.attributes import ArrayAttr, StringAttr, TypeAttr, UnitAttr
from . import (
    branches,
    calls,
    expressions,
    imports,
    inlining,
    loops,
    operators,
    statements,
    tracking,
    variables,
)
from . import globals as module_globals
from .ops import cast, materialize
from .scope import GLOBAL, Frame, Scope
from .state import State
from .values import Constant, OptionalValue, TupleValue, is_array

# the modules whose handlers ``dispatch`` holds: imported for that
HANDLERS = (branches, calls, expressions, imports, loops, operators, statements)

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
            return _function(State(slots=list(slots)), fn, args)
        except module_globals.NewGlobal as found:
            slots.append(found.slot)


def _function(cx, fn, args) -> ModuleOp:
    frame = Frame(fn, Scope())
    cx.frames.append(frame)
    node = frame.node
    loc = cx.loc(node)
    params = _parameters(fn, loc)
    if len(args) != len(params):
        raise TypeError(f"{fn.__name__} has {len(params)} parameters, got {len(args)} "
                        f"argument types")
    runtime = [(p, a) for p, a in zip(params, args, strict=True) if isinstance(a, T.Type)]
    found = variables.find_variables(fn)
    runtime += [(f"var{k}", t) for k, t in enumerate(variables.variable_types(found))]
    runtime += [(f"global{k}", t) for k, t in enumerate(module_globals.slot_types(cx.slots, loc))]
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
    with cx.builder.at_end(fop.body), cx.builder.at_loc(loc):
        for p in params:
            if is_array(frame.scope[p]):
                tracking.track(cx, p)
        hidden = list(block_args)
        cx.global_args = hidden[len(found):]
        variables.bind_variables(cx, found, hidden[:len(found)])
        module_globals.bind_globals(cx, cx.global_args)
        value = inlining.run_body(cx, node)
        with cx.builder.at_loc(frame.return_loc or loc):
            structure, results = _results(cx, value)
        results += [materialize(cx, v) for v in module_globals.global_results(cx, loc)]
        for p, arg in frame.tracked.items():
            if p.startswith(GLOBAL):
                continue
            final = tracking.exit_value(cx, p)
            if final is not None and final is not arg:
                cx.emit_op(np_dialect.WriteBackOp, [arg, materialize(cx, final)])
        cx.emit_op(func.ReturnOp, results)
    fop.attributes["function_type"] = TypeAttr(T.FunctionType(
        tuple(a for _, a in runtime), tuple(v.type for v in results)))
    if structure.startswith("("):
        fop.attributes["grafo.result_tuple"] = UnitAttr()
    if not _plain(structure):
        fop.attributes["grafo.result_structure"] = StringAttr(structure)
    if cx.slots:
        fop.attributes["grafo.globals"] = ArrayAttr(tuple(
            StringAttr(f"{ns.get('__name__')}:{n}") for ns, n in cx.slots))
    module = ModuleOp.empty()
    module.body.append(fop)
    cx.frames.pop()
    return module


def _results(cx, value) -> tuple:
    """(structure, results): the run-time results of the return value ``value`` and
    the structure string that rebuilds it from them (see ``runtime.results``)."""
    if isinstance(value, Constant) and isinstance(value.value, (tuple, list)):
        value = TupleValue(tuple(Constant(v) for v in value.value),
                           isinstance(value.value, list))
    if isinstance(value, TupleValue):
        parts = [_results(cx, v) for v in value.items]
        inner = ",".join(p for p, _ in parts)
        if value.is_list:
            return f"[{inner}]", [r for _, rs in parts for r in rs]
        inner += "," if len(parts) == 1 else ""
        return f"({inner})", [r for _, rs in parts for r in rs]
    if isinstance(value, Constant) and value.value is None:
        return "None", []
    if isinstance(value, OptionalValue):
        if isinstance(value.has, Constant):
            return _results(cx, value.value if value.has.value else Constant(None))
        return "?", [materialize(cx, cast(cx, value.has, T.py_bool)),
                     materialize(cx, value.value)]
    return "_", [materialize(cx, value)]


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
