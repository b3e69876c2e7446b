"""``print(...)`` (and ``compiler.print``) as a ``grafo.print`` op that runs on every call.

Compile-time values (string literals, Python constants, global arrays) are formatted now and
become the op's text pieces; run-time arrays and scalars are its operands, formatted by the
runtime as NumPy/Python format them. Tuples and lists print as Python prints them (items by
``repr``).
"""

from __future__ import annotations

from .. import types as T
from ..dialects.grafo import PrintOp
from ..ir.attributes import ArrayAttr, StringAttr
from ..ir.core import Value
from .values import Constant, TupleValue, describe


def print_rule(cx, args, kwargs):
    """``print(*values, sep=" ", end="\\n", flush=False)``; returns None."""
    texts = {"sep": " ", "end": "\n"}
    for k, v in kwargs.items():
        if k in texts:
            if not (isinstance(v, Constant) and (v.value is None or isinstance(v.value, str))):
                cx.fail(f"print() {k} must be a string known at compile time",
                        f"pass a string literal as {k}=")
            if v.value is not None:
                texts[k] = v.value
        elif k != "flush":
            cx.fail(f"print() keyword '{k}' is not supported",
                    "print to sys.stdout (the default file)")
    fmt = _Format()
    for i, a in enumerate(args):
        if i:
            fmt.text(texts["sep"])
        fmt.value(cx, a, "s")
    fmt.text(texts["end"])
    cx.emit_op(PrintOp, fmt.operands, {
        "pieces": ArrayAttr(tuple(StringAttr(p) for p in fmt.pieces)),
        "conversions": StringAttr("".join(fmt.conversions)),
        "kinds": ArrayAttr(tuple(StringAttr(k) for k in fmt.kinds))})
    return Constant(None)


class _Format:
    """Text pieces around run-time operands, built left to right."""

    def __init__(self):
        self.pieces, self.operands, self.conversions, self.kinds = [""], [], [], []

    def text(self, s: str) -> None:
        self.pieces[-1] += s

    def value(self, cx, v, conversion: str) -> None:
        if isinstance(v, Constant):
            self.text(str(v.value) if conversion == "s" else repr(v.value))
        elif isinstance(v, TupleValue):
            self.text("[" if v.is_list else "(")
            for k, item in enumerate(v.items):
                if k:
                    self.text(", ")
                self.value(cx, item, "r")
            self.text("]" if v.is_list else ",)" if len(v.items) == 1 else ")")
        elif isinstance(v, Value):
            t = T.element_type(v.type)
            self.operands.append(v)
            self.conversions.append(conversion)
            self.kinds.append(t.kind if T.is_weak(t) else str(T.to_dtype(t)))
            self.pieces.append("")
        else:
            cx.fail(f"print() of {describe(v)} is not supported",
                    "print arrays, scalars, strings and tuples of them")
