"""Parser for MLIR's generic operation syntax, the text form ``printer.py`` writes.

``parse(text)`` reads one top-level operation (usually ``builtin.module``) with everything nested
in it and returns real IR: op kinds from the registry (``opdef.lookup``), the same type and
attribute objects the rest of the compiler builds, values linked through their use lists.
The grammar is ``grammar/ir.lark`` (shipped in the wheel as the package ``compiler.grammar``).

It also reads what upstream ``mlir-opt --mlir-print-op-generic`` prints back (with or without
``--mlir-print-debuginfo``): attribute, type and location aliases, defined before or after the
operation; block argument locations (dropped: grafo's block arguments have none); name, call
site and fused locations, which become the first file location they hold; properties whose
value is the op's default (``default_properties``, e.g. ``fastmath = #arith.fastmath<none>``),
dropped; other dialects' attributes, kept as their text (``DialectAttr``); bit-packed hex
``i1`` constants; and ``dense_resource<key>`` constants with the ``{-# dialect_resources #-}``
section holding their bytes. The custom assembly form is not read: the error says so.

Every fault in the text raises ``IRParseError`` pointing at the offending line and column. The
parser checks what the text alone decides (syntax, known op names, each value defined once and
before its use, operand types against the op's signature); the IR's own invariants (terminators,
operand counts, dominance across isolated regions) are left to ``verifier.verify``.
"""

from __future__ import annotations

import math
from functools import lru_cache
from importlib import resources
from pathlib import Path

import lark
import numpy as np
from lark import Token, Tree

from .. import types as T
from .attributes import (
    ArrayAttr,
    Attribute,
    DenseArrayAttr,
    DenseAttr,
    DialectAttr,
    FloatAttr,
    IntegerAttr,
    StringAttr,
    SymbolRefAttr,
    TypeAttr,
    UnitAttr,
    float_from_bits,
    unescape_string,
)
from .core import UNKNOWN_LOC, Block, Location, Operation, Region, Value
from .opdef import lookup
from .parse_error import IRParseError


def parse(text: str, filename: str = "-") -> Operation:
    """Parse IR ``text`` holding exactly one top-level operation and return that operation.

    ``filename`` names the text in error messages. Raises ``IRParseError`` for syntax errors,
    unknown op names, uses of undefined values, values defined twice, operands whose types
    differ from the op's signature, signatures listing the wrong number of operand or result
    types, malformed types or attributes (unknown type names, dense literals of the wrong
    shape, float literals out of range for their type), aliases that are undefined, defined
    twice, defined in terms of themselves or of the wrong kind, and ``dense_resource``
    constants whose blob is missing, elided or of the wrong size.
    """
    reader = _Reader(text, filename)
    try:
        tree = _lark().parse(text)
    except lark.UnexpectedInput as e:
        raise reader.syntax_error(e) from None
    try:
        reader.definitions(tree)
        return reader.operation(next(c for c in tree.children if c.data == "operation"))
    except RecursionError:
        raise reader.error("the IR nests too deeply to parse", 1, 1) from None


def grammar_text() -> str:
    """The text of ``ir.lark``: from the installed package, else from the source checkout."""
    try:
        return resources.files("compiler.grammar").joinpath("ir.lark").read_text("utf-8")
    except (ModuleNotFoundError, FileNotFoundError):
        return (Path(__file__).resolve().parents[2] / "grammar" / "ir.lark").read_text("utf-8")


@lru_cache(maxsize=1)
def _lark() -> lark.Lark:
    # The contextual lexer is what keeps overlapping terminals apart (see ir.lark).
    return lark.Lark(grammar_text(), parser="lalr", lexer="contextual",
                     maybe_placeholders=False)


_SCALARS = {str(t): t for t in (T.i1, T.i8, T.i16, T.i32, T.i64, T.u8, T.u16, T.u32, T.u64,
                                T.f16, T.f32, T.f64, T.index, T.none, T.py_int, T.py_float,
                                T.py_bool, T.py_complex)}
_LOCATION_KINDS = {"file_loc", "name_loc", "callsite_loc", "fused_loc", "unknown_loc",
                   "loc_alias"}
_FLOAT_BITS = {T.f16: (np.float16, np.uint16), T.f32: (np.float32, np.uint32),
               T.f64: (np.float64, np.uint64)}
_TERMINAL_TEXT = {
    "VALUE_ID": "a value (%name)", "BLOCK_ID": "a block label (^bb0)", "STRING": "a string",
    "SYMBOL": "a symbol (@name)", "BARE_ID": "an attribute name", "INT": "an integer",
    "DECIMAL": "a decimal number", "FLOAT": "a float", "HEX": "a hex literal",
    "INT_TYPE": "an integer type", "FLOAT_TYPE": "a float type", "WEAK_TYPE": "!py.<kind>",
    "DIMS": "dimensions (4x?x)", "$END": "end of input", "ATTR_ALIAS": "an alias (#name)",
    "TYPE_ALIAS": "a type alias (!name)", "DIALECT_ATTR": "a dialect attribute (#dialect.name)",
}
# Where these are all the parser expects, a bare word is an op in MLIR's custom form.
_OP_START = {"STRING", "VALUE_ID", "BLOCK_ID", "RBRACE", "ATTR_ALIAS", "TYPE_ALIAS"}
_CUSTOM_FORM_HINT = ("; grafo reads MLIR's generic operation form: print it with "
                     "'mlir-opt --mlir-print-op-generic'")


def _first_token(node) -> Token | None:
    if isinstance(node, Token):
        return node
    for child in node.children:
        tok = _first_token(child)
        if tok is not None:
            return tok
    return None


class _Reader:
    """Turns the parse tree into IR, tracking which value names are visible where."""

    def __init__(self, text: str, filename: str):
        self.filename = filename
        self.lines = text.split("\n")  # lark counts lines by "\n" only, not splitlines()
        # One dict per open region (plus the top level): value name -> its values.
        self.scopes: list[dict[str, list[Value]]] = [{}]
        # Alias name -> its definition's tree, and its value once resolved.
        self.alias_trees: dict[str, Tree] = {}
        self.aliases: dict[str, object] = {}
        self.resolving: set[str] = set()
        self.resources: dict[str, Token] = {}  # dense_resource key -> its blob's string

    # errors ------------------------------------------------------------------------------
    def error(self, reason: str, line: int, col: int) -> IRParseError:
        src = self.lines[line - 1].rstrip("\r") if 0 < line <= len(self.lines) else ""
        return IRParseError(reason, self.filename, line, col, src)

    def error_at(self, node, reason: str) -> IRParseError:
        tok = _first_token(node)
        if tok is None:
            return self.error(reason, *self.end())
        return self.error(reason, tok.line, tok.column)

    def end(self) -> tuple[int, int]:
        """Just after the last non-blank character."""
        lines = "\n".join(self.lines).rstrip().split("\n")
        return len(lines), len(lines[-1]) + 1

    def syntax_error(self, e: lark.UnexpectedInput) -> IRParseError:
        if isinstance(e, lark.UnexpectedCharacters):
            return self.error(f"unexpected character {e.char!r}", e.line, e.column)
        # ``accepts`` (after LALR's default reductions) is sharper than ``expected``.
        names = getattr(e, "accepts", None) or e.expected
        expected = self.describe(names)
        tok = getattr(e, "token", None)
        if tok is None or tok.type == "$END":
            return self.error(f"unexpected end of input, expected {expected}", *self.end())
        hint = ""
        if "STRING" in names and set(names) <= _OP_START and str(tok)[:1].isalpha():
            hint = _CUSTOM_FORM_HINT
        return self.error(f"unexpected {str(tok)!r}, expected {expected}{hint}", tok.line,
                          tok.column)

    def describe(self, names) -> str:
        texts = set()
        for name in names:
            if name in _TERMINAL_TEXT:
                texts.add(_TERMINAL_TEXT[name])
                continue
            pattern = _lark().get_terminal(name).pattern
            texts.add(repr(pattern.value) if pattern.type == "str" else name.lower())
        shown = sorted(texts)
        return " or ".join(shown[:10]) + (" ..." if len(shown) > 10 else "")

    # aliases and file metadata -----------------------------------------------------------
    def definitions(self, tree: Tree) -> None:
        """Record the aliases and resource blobs of the top level; aliases resolve on use,
        since mlir-opt prints location aliases after the operation that uses them."""
        for child in tree.children:
            if child.data in ("attr_alias_def", "type_alias_def"):
                name = child.children[0]
                if name.value in self.alias_trees:
                    raise self.error_at(name, f"alias {name.value} is defined twice")
                self.alias_trees[name.value] = child.children[1]
            elif child.data == "file_metadata":
                for group in child.children:
                    if group.children[0] == "dialect_resources":
                        self.dialect_resources(group)

    def dialect_resources(self, group: Tree) -> None:
        for dialect in group.children[1:]:
            if dialect.children[0] != "builtin":  # only builtin's blobs back dense_resource
                continue
            for entry in dialect.children[1:]:
                key_tok, value = entry.children
                key = unescape_string(key_tok[1:-1]) if key_tok.type == "STRING" else key_tok.value
                if key in self.resources:
                    raise self.error_at(key_tok, f"resource '{key}' is defined twice")
                self.resources[key] = value

    def alias(self, tok: Token, kind: str):
        """The value of alias ``tok``: a location, an attribute or a type (``kind``)."""
        name = tok.value
        if name in self.aliases:
            value = self.aliases[name]
        else:
            tree = self.alias_trees.get(name)
            if tree is None:
                raise self.error_at(tok, f"use of undefined alias {name}")
            if name in self.resolving:
                raise self.error_at(tok, f"alias {name} is defined in terms of itself")
            self.resolving.add(name)
            if name.startswith("!"):
                value = self.type(tree)
            elif tree.data == "location":
                value = self.location(tree)
            else:
                value = self.attribute(tree)
            self.resolving.discard(name)
            self.aliases[name] = value
        is_loc = isinstance(value, Location)
        if (kind == "a location") != is_loc:
            what = "a location" if is_loc else "an attribute"
            raise self.error_at(tok, f"alias {name} is {what}, not {kind}")
        return value

    # values ------------------------------------------------------------------------------
    def define(self, tok: Token, values: list[Value]) -> None:
        if any(tok.value in scope for scope in self.scopes):
            raise self.error_at(tok, f"value {tok.value} is defined twice")
        self.scopes[-1][tok.value] = values

    def use(self, node: Tree) -> Value:
        tok = node.children[0]
        group = next((s[tok.value] for s in reversed(self.scopes) if tok.value in s), None)
        if group is None:
            raise self.error_at(tok, f"use of undefined value {tok.value}")
        if len(node.children) == 1:
            if len(group) != 1:
                raise self.error_at(tok, f"{tok.value} names {len(group)} results; "
                                         f"write {tok.value}#0 .. {tok.value}#{len(group) - 1}")
            return group[0]
        k = self.int(node.children[1])
        if k >= len(group):
            raise self.error_at(node.children[1], f"{tok.value} has only {len(group)} "
                                                  f"result(s), #{k} does not exist")
        return group[k]

    def int(self, tok: Token, text: str | None = None) -> int:
        """A decimal literal (``text``, a part of ``tok``, if given)."""
        try:
            return int(tok if text is None else text)
        except ValueError:  # more digits than Python converts (sys.get_int_max_str_digits)
            raise self.error_at(tok, "integer literal has too many digits") from None

    # operations --------------------------------------------------------------------------
    def operation(self, tree: Tree) -> Operation:
        parts = {c.data if isinstance(c, Tree) else c.type: c for c in tree.children}
        name_tok = parts["STRING"]
        name = unescape_string(name_tok[1:-1])
        cls = lookup(name)
        if cls is None:
            raise self.error_at(name_tok, f"unknown operation {name!r} (no dialect defines it)")
        uses = [c for c in tree.children if isinstance(c, Tree) and c.data == "value_use"]
        operands = [self.use(u) for u in uses]
        attributes = self.attr_dict(parts["attr_dict"]) if "attr_dict" in parts else {}
        sig = self.type(parts["function_type"])
        if len(sig.inputs) != len(operands):
            raise self.error_at(name_tok, f"'{name}' has {len(operands)} operand(s) but its "
                                          f"signature lists {len(sig.inputs)} type(s)")
        for i, (u, v, t) in enumerate(zip(uses, operands, sig.inputs, strict=True)):
            if v.type != t:
                raise self.error_at(u, f"operand #{i} of '{name}' has type {v.type}, but the "
                                       f"signature says {t}")
        defs = parts.get("op_results")
        count = 0 if defs is None else 1 if len(defs.children) == 1 else \
            self.int(defs.children[1])
        if defs is not None and count == 0:
            raise self.error_at(defs, "a result group needs at least one result")
        if count != len(sig.results):
            raise self.error_at(defs if defs is not None else name_tok,
                                f"'{name}' defines {count} result name(s) but its signature "
                                f"lists {len(sig.results)} result type(s)")
        loc = self.location(parts["location"]) if "location" in parts else None
        regions = []
        if "op_regions" in parts:
            regions = [self.region(r) for r in parts["op_regions"].children]
        op = cls(operands, list(sig.results), attributes, regions, loc)
        if "properties" in parts:
            self.properties(op, parts["properties"].children[0])
        if defs is not None:
            self.define(defs.children[0], op.results)
        return op

    def properties(self, op: Operation, tree: Tree) -> None:
        """MLIR's ``<{...}>``: properties the op derives from its operands must match them;
        those equal to the op's default mean nothing more than their absence; the others are
        inherent attributes and join the attribute dictionary."""
        derived = op.properties() if hasattr(op, "properties") else {}
        defaults = getattr(op, "default_properties", {})
        for key, value in self.attr_dict(tree).items():
            if defaults.get(key) == value:
                continue
            if key in derived:
                if value != derived[key]:
                    raise self.error_at(tree, f"property {key} = {value} of '{op.name}' does "
                                              f"not match its operands, expected {derived[key]}")
            elif key in op.attributes:
                raise self.error_at(tree, f"attribute '{key}' is given twice")
            else:
                op.attributes[key] = value

    def region(self, tree: Tree) -> Region:
        region = Region()
        self.scopes.append({})
        labels: set[str] = set()
        for child in tree.children:
            if child.data == "operation":  # ops before any label form the entry block
                region.block.append(self.operation(child))
                continue
            label = child.children[0]
            if label.value in labels:
                raise self.error_at(label, f"block {label.value} is defined twice")
            labels.add(label.value)
            block = region.add_block(Block())
            for part in child.children[1:]:
                if part.data == "block_args":
                    for arg in part.children:
                        value = block.add_arg(self.type(arg.children[1]))
                        if len(arg.children) > 2:  # checked, then dropped: grafo's args have none
                            self.location(arg.children[2])
                        self.define(arg.children[0], [value])
                else:
                    block.append(self.operation(part))
        self.scopes.pop()
        return region

    def location(self, tree: Tree) -> Location:
        """A ``loc(...)`` (or the body of one). grafo's locations are file:line:col, so a name
        or call site location becomes the location it wraps (a call site's callee) and a fused
        one the first of its parts that is known."""
        kind, ch = tree.data, tree.children
        if kind == "location":
            return self.location(ch[0])
        if kind == "file_loc":
            file, line, col = ch
            return Location(unescape_string(file[1:-1]), self.int(line), self.int(col))
        if kind == "loc_alias":
            return self.alias(ch[0], "a location")
        if kind == "name_loc":
            return self.location(ch[1]) if len(ch) > 1 else UNKNOWN_LOC
        if kind == "callsite_loc":
            self.location(ch[1])  # the caller: checked, then dropped
            return self.location(ch[0])
        if kind == "fused_loc":
            if ch and ch[0].data not in _LOCATION_KINDS:
                self.attribute(ch[0])  # the metadata attribute: checked, then dropped
                ch = ch[1:]
            parts = [self.location(c) for c in ch]
            return next((p for p in parts if p != UNKNOWN_LOC), UNKNOWN_LOC)
        return UNKNOWN_LOC

    # attributes --------------------------------------------------------------------------
    def attr_dict(self, tree: Tree) -> dict[str, Attribute]:
        out: dict[str, Attribute] = {}
        for entry in tree.children:
            key_tok = entry.children[0]
            key = unescape_string(key_tok[1:-1]) if key_tok.type == "STRING" else key_tok.value
            if key in out:
                raise self.error_at(key_tok, f"attribute '{key}' is given twice")
            out[key] = self.attribute(entry.children[1]) if len(entry.children) > 1 \
                else UnitAttr()
        return out

    def attribute(self, tree: Tree) -> Attribute:
        kind, ch = tree.data, tree.children
        if kind == "int_attr":
            t = self.type(ch[1]) if len(ch) > 1 else T.i64
            if not isinstance(t, (T.IntegerType, T.IndexType)):
                hint = "; write a float literal such as 1.0" if isinstance(t, T.FloatType) \
                    else ""
                raise self.error_at(tree, f"an integer attribute cannot have type {t}{hint}")
            return IntegerAttr(self.int(ch[0]), t)
        if kind == "float_attr":
            t = self.type(ch[1]) if len(ch) > 1 else T.f64
            if t not in _FLOAT_BITS:
                raise self.error_at(tree, f"a float attribute cannot have type {t}")
            return FloatAttr(float(self.float_array([ch[0]], t)[0]), t)
        if kind == "hex_attr":
            t = self.type(ch[1])
            if t in _FLOAT_BITS:
                return FloatAttr(float_from_bits(self.hex_bits(ch[0], t), t), t)
            if isinstance(t, (T.IntegerType, T.IndexType)):
                return IntegerAttr(int(ch[0], 16), t)
            raise self.error_at(tree, f"a hex attribute cannot have type {t}")
        if kind == "bool_attr":
            return IntegerAttr(int(ch[0] == "true"), T.i1)
        if kind == "string_attr":
            return StringAttr(unescape_string(ch[0][1:-1]))
        if kind == "array_attr":
            return ArrayAttr(tuple(self.attribute(c) for c in ch))
        if kind == "dense_attr":
            return self.dense(tree)
        if kind == "dense_array_attr":
            t = self.type(Tree("scalar_type", [ch[1]]))
            if not isinstance(t, T.IntegerType):
                raise self.error_at(tree, f"an array attribute cannot have elements of type {t}")
            return DenseArrayAttr(t, tuple(self.int(c) for c in ch[2:]))
        if kind == "symbol_attr":
            return SymbolRefAttr(ch[0][1:])
        if kind == "unit_attr":
            return UnitAttr()
        if kind == "dialect_attr":
            return DialectAttr(ch[0].value)
        if kind == "alias_attr":
            return self.alias(ch[0], "an attribute")
        if kind == "dense_resource_attr":
            return self.dense_resource(tree)
        return TypeAttr(self.type(ch[0]))

    def dense_type(self, type_tree: Tree) -> tuple[T.TensorType, np.dtype]:
        t = self.type(type_tree)
        if not isinstance(t, T.TensorType) or not t.is_static:
            raise self.error_at(type_tree, f"a dense attribute needs a tensor type of static "
                                           f"shape, got {t}")
        if not isinstance(t.element, (T.IntegerType, T.FloatType, T.IndexType,
                                      T.ComplexType)):
            raise self.error_at(type_tree, f"dense elements of type {t.element} are not "
                                           f"supported")
        return t, T.to_dtype(t.element)

    def dense_resource(self, tree: Tree) -> DenseAttr:
        """``dense_resource<key> : tensor<...>``: the elements are builtin's blob ``key``, a
        hex string whose first 4 bytes are the blob's alignment (``i1``: one byte each)."""
        keyword, key, type_tree = tree.children
        t, dtype = self.dense_type(type_tree)
        blob = self.resources.get(key.value)
        if key.value == "__elided__":
            raise self.error_at(key, "the elements of this dense_resource were elided "
                                     "(--mlir-elide-elementsattrs-if-larger); print it whole")
        if blob is None:
            raise self.error_at(key, f"no blob '{key.value}' in the file's "
                                     f"dialect_resources (builtin)")
        text = blob.value[1:-1] if blob.type == "STRING" else ""
        try:
            data = bytes.fromhex(text[2:]) if text.startswith("0x") else None
        except ValueError:
            data = None
        size = math.prod(t.shape) * dtype.itemsize
        if data is None or len(data) != 4 + size:
            raise self.error_at(blob, f"resource '{key.value}' needs a hex blob of 4 + {size} "
                                      f"bytes for {t}")
        if dtype == np.bool_:
            arr = np.frombuffer(data[4:], dtype=np.uint8) != 0
        else:
            arr = np.frombuffer(data[4:], dtype=dtype.newbyteorder("<")).astype(dtype)
        arr = arr.reshape(t.shape)
        arr.flags.writeable = False
        return DenseAttr(arr, t)

    def dense(self, tree: Tree) -> DenseAttr:
        keyword, *body, type_tree = tree.children
        t, dtype = self.dense_type(type_tree)
        body = body[0] if body else Tree("dense_list", [])
        if body.data == "dense_hex":
            arr = self.dense_hex(body.children[0], t, dtype)
        elif isinstance(t.element, T.ComplexType) or body.data == "dense_complex":
            arr = self.dense_complexes(body, keyword, t, dtype)
        elif body.data == "dense_scalar":
            flat = self.dense_values([body.children[0]], t.element, dtype)
            try:
                arr = np.full(t.shape, flat[0], dtype=dtype)
            except (MemoryError, ValueError):
                raise self.error_at(keyword, f"{t} is too large to hold in memory") from None
        else:
            shape, tokens = self.dense_shape(body, keyword)
            # An empty list stands for any number of empty inner dims: [] : tensor<0x3xf32>.
            empty = bool(shape) and shape[-1] == 0 and t.shape[:len(shape)] == shape
            if shape != t.shape and not empty:
                raise self.error_at(keyword, f"dense literal has shape {shape}, but its type "
                                             f"{t} has shape {t.shape}")
            arr = self.dense_values(tokens, t.element, dtype).reshape(t.shape)
        arr.flags.writeable = False
        return DenseAttr(arr, t)

    def dense_hex(self, tok: Token, t: T.TensorType, dtype: np.dtype) -> np.ndarray:
        """``"0x..."``: the little-endian bytes of all elements, or of one for a splat. ``i1``
        elements are bits, the first in the lowest bit; one byte 0x00 or 0xFF is a splat
        (MLIR's ``DenseElementsAttr::isValidRawBuffer``)."""
        data = bytes.fromhex(tok.value[3:-1]) if len(tok.value) % 2 == 0 else None
        size = math.prod(t.shape)
        if t.element == T.i1:
            if data is not None and data in (b"\x00", b"\xff"):
                return np.full(t.shape, data == b"\xff")
            if data is None or len(data) != (size + 7) // 8:
                raise self.error_at(tok, f"hex dense literal needs {(size + 7) // 8} byte(s), "
                                         f"one bit per element, for {t}")
            bits = np.unpackbits(np.frombuffer(data, dtype=np.uint8), bitorder="little")
            return bits[:size].astype(np.bool_).reshape(t.shape)
        flat = np.frombuffer(data or b"", dtype=dtype.newbyteorder("<")).astype(dtype)
        if data is None or flat.size not in (1, size):
            raise self.error_at(tok, f"hex dense literal needs {size * dtype.itemsize} bytes "
                                     f"(or {dtype.itemsize} for a splat) for {t}")
        return np.broadcast_to(flat, (size,)).reshape(t.shape).copy()

    def dense_complexes(self, body: Tree, keyword: Token, t: T.TensorType,
                        dtype: np.dtype) -> np.ndarray:
        """Complex elements ``(re,im)`` (a splat, or a nested list of them)."""
        if not isinstance(t.element, T.ComplexType):
            raise self.error_at(keyword, f"a complex element (re,im) in a dense literal of {t}")
        shape, leaves = self.dense_shape(body, keyword)
        if shape not in ((), t.shape) or any(not isinstance(x, Tree) for x in leaves):
            raise self.error_at(keyword, f"{t} needs complex elements (re,im) of shape "
                                         f"{t.shape}")
        parts = self.float_array([p for leaf in leaves for p in leaf.children],
                                 t.element.element)
        return np.broadcast_to(parts.view(dtype), (math.prod(t.shape),)).reshape(t.shape).copy()

    def dense_shape(self, tree: Tree, keyword: Token) -> tuple[tuple, list]:
        """The shape of a nested dense literal and its scalar tokens (a ``dense_complex``
        tree for a complex element) in row-major order."""
        if tree.data == "dense_scalar":
            return (), [tree.children[0]]
        if tree.data == "dense_complex":
            return (), [tree]
        parts = [self.dense_shape(c, keyword) for c in tree.children]
        if any(p[0] != parts[0][0] for p in parts):
            raise self.error_at(keyword, "dense literal is not rectangular")
        inner = parts[0][0] if parts else ()
        return (len(parts), *inner), [tok for p in parts for tok in p[1]]

    def dense_values(self, tokens: list, el: T.Type, dtype: np.dtype) -> np.ndarray:
        for tok in tokens:
            if isinstance(tok, Tree):
                raise self.error_at(tok.children[0], f"a complex element (re,im) in a dense "
                                                     f"literal of {el}")
        if el in _FLOAT_BITS:
            return self.float_array(tokens, el)
        if el == T.i1:
            for tok in tokens:
                if tok.type not in ("TRUE", "FALSE"):
                    raise self.error_at(tok, f"expected true or false for an i1 element, "
                                             f"got {tok.value}")
            return np.array([tok == "true" for tok in tokens], dtype=dtype)
        info = np.iinfo(dtype)
        values = []
        for tok in tokens:
            if tok.type not in ("INT", "HEX"):
                raise self.error_at(tok, f"expected an integer element of type {el}, "
                                         f"got {tok.value}")
            v = int(tok, 16) if tok.type == "HEX" else self.int(tok)
            if not info.min <= v <= info.max:
                raise self.error_at(tok, f"{tok.value} is out of range for {el}")
            values.append(v)
        return np.array(values, dtype=dtype)

    def float_array(self, tokens: list[Token], t: T.Type) -> np.ndarray:
        """Float literals (decimal or hex bit patterns) as an array of ``t``, bit-exact."""
        ftype, utype = _FLOAT_BITS[t]
        bits = []
        for tok in tokens:
            if tok.type == "HEX":
                bits.append(self.hex_bits(tok, t))
                continue
            if tok.type != "FLOAT":
                raise self.error_at(tok, f"expected a float literal of type {t} (such as 1.0 "
                                         f"or 0x7FC00000), got {tok.value}")
            x = float(tok)
            with np.errstate(over="ignore"):
                y = ftype(x)
            if math.isinf(y):
                raise self.error_at(tok, f"{tok.value} is out of range for {t}")
            bits.append(int(np.array(y).view(utype)))
        return np.array(bits, dtype=utype).view(ftype)

    def hex_bits(self, tok: Token, t: T.Type) -> int:
        bits = int(tok, 16)
        width = t.width
        if bits >> width:
            raise self.error_at(tok, f"{tok.value} has more than {width} bits for {t}")
        return bits

    # types -------------------------------------------------------------------------------
    def type(self, tree: Tree) -> T.Type:
        kind, ch = tree.data, tree.children
        if kind == "scalar_type":
            t = _SCALARS.get(ch[0].value)
            if t is None:
                raise self.error_at(ch[0], f"unknown type {ch[0].value} (types: "
                                           f"{', '.join(_SCALARS)})")
            return t
        if kind == "complex_type":
            part = _SCALARS.get(ch[1].value)
            if part not in (T.f32, T.f64):
                raise self.error_at(ch[1], f"complex parts must be f32 or f64, got "
                                           f"{ch[1].value}")
            return T.ComplexType(part)
        if kind == "type_alias":
            return self.alias(ch[0], "a type")
        if kind == "function_type":
            ins = tuple(self.type(c) for c in ch[:-1])
            return T.FunctionType(ins, tuple(self.type(c) for c in ch[-1].children))
        ch = ch[1:]  # after the tensor/memref keyword
        shape = ()
        if isinstance(ch[0], Token):
            shape = tuple(None if d == "?" else self.int(ch[0], d)
                          for d in ch[0].value.split("x")[:-1])
            ch = ch[1:]
        element = self.type(ch[0])
        if kind == "tensor_type":
            return T.TensorType(shape, element)
        strided = len(ch) > 1
        if strided and len(ch[1].children) - 1 != len(shape):
            raise self.error_at(ch[1], f"strided layout lists {len(ch[1].children) - 1} "
                                       f"stride(s) for a memref of rank {len(shape)}")
        return T.MemRefType(shape, element, strided)
