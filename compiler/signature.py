"""Input signatures: ``TensorSpec`` and the signature-string syntax.

A signature string is a comma-separated list of argument types. A type is a dtype name
(``bool``, ``i8``..``i64``, ``u8``..``u64``, ``f16``, ``f32``, ``f64``, ``c64``, ``c128``, or a
NumPy name such as ``float32``/``int64``/``uint8``/``complex64``), optionally followed by dims in
brackets: ``f32[10,10]``, ``f32[?,4]`` (``?`` is a dynamic dim), ``f32[]`` (a 0-d array). A
bare dtype is a scalar.

Errors raise ``SignatureError`` (a ``ValueError``) pointing at the offending character.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from . import types as T

_GRAMMAR = r"""
start: [arg ("," arg)*]
arg: DTYPE dims?
dims: "[" [dim ("," dim)*] "]"
dim: INT | DYN
DYN: "?"
DTYPE: /[A-Za-z_][A-Za-z0-9_]*/
%import common.INT
%import common.WS
%ignore WS
"""


@functools.cache
def _parser():
    # Built on first use: lark and its grammar compilation cost more than the rest of
    # ``import compiler``, and most programs never parse a signature string.
    import lark
    return lark.Lark(_GRAMMAR, parser="lalr", propagate_positions=True)


_ALIASES = {"bool": "bool", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
            "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
            "ui8": "uint8", "ui16": "uint16", "ui32": "uint32", "ui64": "uint64",
            "f16": "float16", "f32": "float32", "f64": "float64", "c64": "complex64",
            "c128": "complex128"}


class SignatureError(ValueError):
    """A signature string that does not parse, with the column (1-based) of the fault."""

    def __init__(self, text: str, col: int, reason: str):
        self.col = col
        super().__init__(f"invalid signature at column {col}: {reason}\n  {text}\n"
                         f"  {' ' * (col - 1)}^")


@dataclass(frozen=True)
class TensorSpec:
    """The type of one argument: ``shape`` (a tuple of ints / None for dynamic dims, ``()``
    for a 0-d array, or ``None`` for a scalar) and ``dtype`` (anything ``np.dtype`` takes)."""

    shape: tuple | None
    dtype: object = np.float32

    def __post_init__(self):
        object.__setattr__(self, "dtype", np.dtype(self.dtype))
        if self.shape is not None:
            object.__setattr__(self, "shape", tuple(None if d is None or d == -1 else int(d)
                                                    for d in self.shape))

    def to_type(self) -> T.Type:
        el = T.from_dtype(self.dtype)
        return el if self.shape is None else T.TensorType(self.shape, el)

    def __str__(self) -> str:
        return type_text(self.to_type())


def dtype_from_name(name: str) -> np.dtype:
    """The dtype a signature name denotes. Raises TypeError for unknown or unsupported names."""
    try:
        dt = np.dtype(_ALIASES.get(name, name))
    except TypeError:
        raise TypeError(f"unknown dtype {name!r}") from None
    T.from_dtype(dt)
    return dt


def parse_signature(text: str) -> list[TensorSpec]:
    """Parse ``"f32[?,4], i64"`` into TensorSpecs. Raises SignatureError."""
    from lark.exceptions import UnexpectedInput
    try:
        tree = _parser().parse(text)
    except UnexpectedInput as e:
        col = getattr(e, "column", 1)
        at_end = getattr(getattr(e, "token", None), "type", "") == "$END"
        col = col if isinstance(col, int) and col > 0 and not at_end else len(text) + 1
        raise SignatureError(text, col, "expected a type such as f32[?,4] or i64") from None
    specs = []
    for arg in tree.children:
        if arg is None:
            continue
        tok = arg.children[0]
        try:
            dt = dtype_from_name(str(tok))
        except TypeError as e:
            raise SignatureError(text, tok.column, str(e)) from None
        shape = None
        if len(arg.children) > 1:
            shape = tuple(None if str(d.children[0]) == "?" else int(d.children[0])
                          for d in arg.children[1].children if d is not None)
        specs.append(TensorSpec(shape, dt))
    return specs


def to_specs(signature) -> list[TensorSpec]:
    """A signature string, or a list of TensorSpec / (shape, dtype), as TensorSpecs."""
    if isinstance(signature, str):
        return parse_signature(signature)
    out = []
    for s in signature:
        if isinstance(s, TensorSpec):
            out.append(s)
        elif isinstance(s, str):
            out.extend(parse_signature(s))
        else:
            raise TypeError(f"expected a TensorSpec or a signature string, got {s!r}")
    return out


def type_text(t: T.Type) -> str:
    """The signature-string text of a type: ``f32[?,4]``, ``i64``."""
    el = T.element_type(t)
    name = {"bool": "bool"}.get(T.to_dtype(el).name) if el == T.i1 else str(el).replace(
        "ui", "u")
    if isinstance(t, T.TensorType):
        return name + "[" + ",".join("?" if d is None else str(d) for d in t.shape) + "]"
    return name
