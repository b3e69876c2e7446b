"""Printer for MLIR's generic operation syntax.

``%0 = "arith.addf"(%a, %b) : (f32, f32) -> f32 loc("k.py":4:9)``. Values are named by the
printer (``%0``, ``%1``; block arguments ``%arg0``); ops with several results print as ``%3:2``
and their results are used as ``%3#1``. Attribute dictionaries are sorted by key; properties an
op derives from its operands (``Op.properties``) print as MLIR's ``<{...}>``. An empty entry
block prints as ``^bb0:`` (MLIR needs the block). The output parses back (``parser.py``) to IR
that prints identically.
"""

from __future__ import annotations

from .core import Block, Operation, Value


class _Names:
    def __init__(self):
        self.names: dict[Value, str] = {}
        self.next_value = 0
        self.next_arg = 0

    def define_results(self, op: Operation) -> str:
        if not op.results:
            return ""
        n = self.next_value
        self.next_value += 1
        if len(op.results) == 1:
            self.names[op.results[0]] = f"%{n}"
            return f"%{n} = "
        for i, r in enumerate(op.results):
            self.names[r] = f"%{n}#{i}"
        return f"%{n}:{len(op.results)} = "

    def define_arg(self, v: Value) -> str:
        name = f"%arg{self.next_arg}"
        self.next_arg += 1
        self.names[v] = name
        return name

    def use(self, v: Value) -> str:
        return self.names.get(v, "%<<UNKNOWN>>")


def print_op(op: Operation, debug_locs: bool = True) -> str:
    """The generic text form of ``op`` and everything nested in it."""
    lines: list[str] = []
    _print(op, _Names(), lines, 0, debug_locs)
    return "\n".join(lines) + "\n"


def _print(op: Operation, names: _Names, lines: list, indent: int, locs: bool) -> None:
    pad = "  " * indent
    operands = ", ".join(names.use(v) for v in op.operands)
    head = names.define_results(op)
    text = f'{pad}{head}"{op.name}"({operands})'
    props = op.properties() if hasattr(op, "properties") else {}
    if props:
        text += " <{" + ", ".join(f"{k} = {props[k]}" for k in sorted(props)) + "}>"
    attrs = ""
    if op.attributes:  # MLIR's generic form puts the attribute dictionary after the regions
        attrs = " {" + ", ".join(f"{k} = {op.attributes[k]}" if not _is_unit(op.attributes[k])
                                 else k for k in sorted(op.attributes)) + "}"
    if not op.regions:
        lines.append(text + attrs + _signature(op) + (f" {op.loc}" if locs else ""))
        return
    lines.append(text + " (")
    for i, region in enumerate(op.regions):
        lines[-1] += "{"
        for j, block in enumerate(region.blocks):
            _print_block_header(block, j, names, lines, indent)
            for nested in block.ops:
                _print(nested, names, lines, indent + 1, locs)
        lines.append(pad + "}" + (", " if i + 1 < len(op.regions) else ""))
    lines[-1] += ")" + attrs + _signature(op) + (f" {op.loc}" if locs else "")


def _print_block_header(block: Block, j: int, names: _Names, lines: list, indent: int):
    if j == 0 and not block.args and block.ops:
        return
    args = ", ".join(f"{names.define_arg(a)}: {a.type}" for a in block.args)
    lines.append("  " * indent + f"^bb{j}" + (f"({args})" if block.args else "") + ":")


def _signature(op: Operation) -> str:
    ins = ", ".join(str(v.type) for v in op.operands)
    outs = [str(r.type) for r in op.results]
    res = outs[0] if len(outs) == 1 and not outs[0].startswith("(") else f"({', '.join(outs)})"
    return f" : ({ins}) -> {res}"


def _is_unit(a) -> bool:
    from .attributes import UnitAttr
    return isinstance(a, UnitAttr)
