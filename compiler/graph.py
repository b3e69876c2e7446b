"""Dataflow graphs of IR modules, drawn with Graphviz (``grafo graph``,
``ConcreteFunction.graph``, Jupyter's rich display).

Operations are nodes labelled with their name and key attributes; values are edges from the
op (or block argument) that defines them to each op that uses them, labelled with their type.
Function arguments are input nodes, the operands of ``func.return`` are output nodes, and the
regions of ``func.func``, ``scf.for``, ``scf.if`` ... are clusters (``subgraph cluster_*``)
holding their block arguments and nested ops.

Needs the ``graphviz`` Python package (the ``grafo[graph]`` extra); writing ``.dot`` text
needs nothing else, rendering ``.svg``/``.png`` also needs Graphviz's ``dot`` program. When
either is missing, ``GraphError`` says how to install it.
"""

from __future__ import annotations

import html
import os

from .dialects.builtin import ModuleOp
from .dialects.func import FuncOp, ReturnOp
from .ir.attributes import UnitAttr
from .ir.core import Operation

FORMATS = ("dot", "svg", "png", "pdf")
_HIDDEN_ATTRIBUTES = {"sym_name", "function_type"}
_MAX_ATTRIBUTE_CHARS = 40


class GraphError(Exception):
    """The graph cannot be drawn: the ``graphviz`` package or ``dot`` program is missing, or
    the output format is unknown. The message says what to install or use instead."""


def _graphviz():
    try:
        import graphviz
    except ImportError:
        raise GraphError("drawing graphs needs the 'graphviz' Python package: "
                         "pip install 'grafo[graph]' (or pip install graphviz)") from None
    return graphviz


def _text(s: str) -> str:
    """``s`` for a Graphviz label, where a backslash starts an escape sequence."""
    return s.replace("\\", "\\\\")


def _op_label(op: Operation) -> str:
    lines = [op.name]
    if isinstance(op, FuncOp):
        lines = [f"func @{op.attributes['sym_name'].value}"]
    for key in sorted(op.attributes):
        if key in _HIDDEN_ATTRIBUTES:
            continue
        value = op.attributes[key]
        text = key if isinstance(value, UnitAttr) else f"{key} = {value}"
        if len(text) > _MAX_ATTRIBUTE_CHARS:
            text = text[:_MAX_ATTRIBUTE_CHARS - 3] + "..."
        lines.append(text)
    return "\\n".join(_text(line) for line in lines)


class _Builder:
    """Walks the IR once, adding nodes, clusters and edges to a ``graphviz.Digraph``."""

    def __init__(self, graph):
        self.graph = graph
        self.sources: dict = {}    # value -> id of the node that defines it
        self.count = 0
        self.edges: list[tuple[str, str, str]] = []

    def new_id(self, prefix: str) -> str:
        self.count += 1
        return f"{prefix}{self.count}"

    def module(self, module: Operation) -> None:
        ops = [module]
        if isinstance(module, ModuleOp):
            ops = [op for block in module.regions[0].blocks for op in block.ops]
        for op in ops:
            if isinstance(op, FuncOp):
                self.function(op)
            else:
                self.op(op, self.graph)

    def finish(self) -> None:
        """Add the edges, after every node (an edge to an unknown node would create one)."""
        for tail, head, label in self.edges:
            self.graph.edge(tail, head, label=_text(label))

    def function(self, func: Operation) -> None:
        name = func.attributes["sym_name"].value
        with self.graph.subgraph(name=f"cluster_func_{self.new_id('f')}") as c:
            c.attr(label=_text(f"func @{name}"), style="rounded")
            if not func.regions[0].blocks:
                return
            entry = func.regions[0].blocks[0]
            for i, arg in enumerate(entry.args):
                node = self.new_id("in")
                c.node(node, _text(f"%arg{i}"), shape="invhouse", style="filled",
                       fillcolor="lightblue")
                self.sources[arg] = node
            for op in entry.ops:
                if isinstance(op, ReturnOp):
                    self.outputs(op, c)
                else:
                    self.op(op, c)

    def outputs(self, ret: Operation, parent) -> None:
        for i, v in enumerate(ret.operands):
            node = self.new_id("out")
            parent.node(node, f"result {i}", shape="house", style="filled",
                        fillcolor="lightgreen")
            self.use(v, node)

    def op(self, op: Operation, parent) -> None:
        node = self.new_id("op")
        if not op.regions:
            parent.node(node, _op_label(op), shape="box")
            self.connect(op, node)
            return
        with parent.subgraph(name=f"cluster_{node}") as c:
            c.attr(label=_text(op.name), style="dashed")
            c.node(node, _op_label(op), shape="box", style="bold")
            self.connect(op, node)
            for r, region in enumerate(op.regions):
                with c.subgraph(name=f"cluster_{node}_region{r}") as rc:
                    rc.attr(label=f"region {r}", style="dotted")
                    self.region(region, rc)

    def region(self, region, parent) -> None:
        for b, block in enumerate(region.blocks):
            for i, arg in enumerate(block.args):
                node = self.new_id("arg")
                parent.node(node, _text(f"^bb{b} arg {i}"), shape="ellipse")
                self.sources[arg] = node
            for op in block.ops:
                self.op(op, parent)

    def connect(self, op: Operation, node: str) -> None:
        for v in op.operands:
            self.use(v, node)
        for r in op.results:
            self.sources[r] = node

    def use(self, value, node: str) -> None:
        source = self.sources.get(value)
        if source is not None:
            self.edges.append((source, node, str(value.type)))


def dataflow_graph(module: Operation | list, name: str = "grafo"):
    """The dataflow graph of ``module`` (a ``builtin.module`` or any op, or a list of them:
    one graph holding each) as a ``graphviz.Digraph``. Raises GraphError when the
    ``graphviz`` package is missing."""
    graphviz = _graphviz()
    graph = graphviz.Digraph(name=name)
    graph.attr(compound="true", fontname="Helvetica")
    graph.attr("node", fontname="Courier", fontsize="10")
    graph.attr("edge", fontname="Courier", fontsize="9")
    builder = _Builder(graph)
    for m in module if isinstance(module, list) else [module]:
        builder.module(m)
    builder.finish()
    return graph


def render(module: Operation | list, fmt: str) -> bytes:
    """``module``'s graph (see ``dataflow_graph``) in format ``fmt`` (one of ``FORMATS``):
    DOT text, or an image drawn by Graphviz's ``dot`` program. Raises GraphError for an
    unknown format, a missing ``graphviz`` package, or a missing or failing ``dot``."""
    if fmt not in FORMATS:
        raise GraphError(f"unknown graph format '{fmt}'; formats: {', '.join(FORMATS)}")
    graph = dataflow_graph(module)
    if fmt == "dot":
        return graph.source.encode("utf-8")
    graphviz = _graphviz()
    try:
        return graph.pipe(format=fmt)
    except graphviz.ExecutableNotFound:
        raise GraphError(f"rendering .{fmt} needs Graphviz's 'dot' program (Debian, Ubuntu: "
                         f"apt-get install graphviz; macOS: brew install graphviz; conda: "
                         f"conda install graphviz); DOT text needs only the Python "
                         f"package") from None
    except graphviz.CalledProcessError as e:
        raise GraphError(f"Graphviz's 'dot' failed: {e}") from None


def write_graph(module: Operation, path: str) -> None:
    """Write ``module``'s graph to ``path``, in the format its extension names (``.dot``,
    ``.svg``, ``.png``, ``.pdf``). Raises GraphError as ``render`` does and OSError when the
    file cannot be written."""
    fmt = os.path.splitext(path)[1].lstrip(".").lower()
    data = render(module, fmt)
    with open(path, "wb") as f:
        f.write(data)


def svg(module: Operation | list) -> str:
    """``module``'s graph as SVG text. Raises GraphError as ``render`` does."""
    return render(module, "svg").decode("utf-8")


def html_view(title: str, parts: list) -> str:
    """An HTML fragment for Jupyter's ``_repr_html_``: ``title``, then for each
    ``(heading, module, ir_text)`` of ``parts`` the heading and the module's graph as inline
    SVG; where Graphviz is missing, the GraphError's install instructions once and each
    part's IR text instead of its graph."""
    out = [f"<p><b>{html.escape(title, quote=False)}</b></p>"]
    try:
        pictures = [_inline(svg(module)) for _, module, _ in parts]
    except GraphError as e:
        out.append(f"<p>No graph: {html.escape(str(e), quote=False)}.</p>")
        pictures = [f"<pre>{html.escape(text, quote=False)}</pre>" for _, _, text in parts]
    for (heading, _, _), picture in zip(parts, pictures, strict=True):
        if heading:
            out.append(f"<p><code>{html.escape(heading, quote=False)}</code></p>")
        out.append(picture)
    return "\n".join(out)


def _inline(svg_text: str) -> str:
    """``svg_text`` without the XML declaration and DOCTYPE that precede ``<svg``, which have
    no place inside an HTML page."""
    return svg_text[svg_text.find("<svg"):]
