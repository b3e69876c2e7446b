"""IR function types -> the runtime's argument specs (``runtime.abi``) and a callable.

Loop-level types are signless, so the NumPy dtype and the Python scalar kind of each parameter
come from the tensor-level types when given (``ui32`` -> uint32, ``!py.int`` -> a Python int
result), else from the loop-level type (``i32`` -> int32).
"""

from __future__ import annotations

from runtime.abi import ArraySpec, NativeFunction, ScalarSpec

from ... import types as T


def spec(loop_type: T.Type, source_type: T.Type | None = None):
    """The ``ArraySpec``/``ScalarSpec`` of one parameter or result."""
    src = loop_type if source_type is None else source_type
    el = T.element_type(src)
    dtype = T.to_dtype(el)
    if isinstance(loop_type, T.MemRefType):
        return ArraySpec(dtype, tuple(loop_type.shape), contiguous=not loop_type.strided)
    return ScalarSpec(dtype, el.kind if isinstance(el, T.WeakType) else None)


def parameter_names(func) -> list:
    """The parameter names of ``func.func`` ``func`` (its block arguments' name hints, the
    Python parameters in compiled code), ``arg<k>`` where it has none."""
    return [a.name_hint or f"arg{k}" for k, a in enumerate(func.body.args)]


def native_function(address: int, ftype: T.FunctionType, input_types, result_types,
                    errors, name: str, keepalive=None, arg_names=None,
                    written=()) -> NativeFunction:
    """A ``NativeFunction`` for the C entry at ``address`` of a function of type ``ftype``;
    ``errors`` is the error table (``errors.error_table``), ``arg_names`` the parameter
    names errors show, ``written`` the positions of the array parameters it writes."""
    input_types = input_types or [None] * len(ftype.inputs)
    result_types = result_types or [None] * len(ftype.results)
    ins = [spec(t, s) for t, s in zip(ftype.inputs, input_types, strict=True)]
    outs = [spec(t, s) for t, s in zip(ftype.results, result_types, strict=True)]
    table = [(kind, message, (loc.file, loc.line, loc.col, loc.function))
             for kind, message, loc in errors]
    return NativeFunction(address, ins, outs, table, name=name, keepalive=keepalive,
                          arg_names=arg_names, written=written)
