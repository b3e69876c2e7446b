"""The schema of an artifact's ``manifest.json``: every field the loader reads, its type and
the values it may take, in one place.

The checksum of an artifact is not a signature: anyone can edit a manifest and record the
SHA-256 of the edit. So ``runtime.artifact.read`` checks the manifest against ``MANIFEST``
(``validate``) before anything trusts it, and ``compiler.aot.builder`` checks what it writes
against the same schema. Each field has a type and bounds: dtypes are those of the calling
ABI, ranks at most NumPy's maximum, symbols ``grafo_<entry>``, error kinds builtin exception
classes (and NumPy's LinAlgError) from ``ERROR_KINDS``, messages ``str.format`` templates of
the status block's four integer parameters. ``ENTRY_RULES`` and ``MANIFEST_RULES`` relate
fields to each other (the parameters, inputs and hidden globals agree; a result structure
takes the results there are).

The shared library is checked against the manifest too (``runtime.artifact``): it exports
exactly the ``grafo_*`` symbols the manifest names (``library_symbols``), its
``ABI_SYMBOL`` holds ``ABI_VERSION`` and its ``INTERFACE_SYMBOL`` the ``interface_digest`` of
the manifest, the SHA-256 of every field that decides how the native code is called and what
a call returns, so that an edited dtype, shape or result structure that still fits the
schema is refused as well.
"""

from __future__ import annotations

import hashlib
import json
import re
import string
from dataclasses import dataclass

from .abi import STATUS_PARAMS
from .results import count, parse

FORMAT = "grafo-artifact"
FORMAT_VERSION = 3
MANIFEST = "manifest.json"
HEADER = "include/grafo.h"
SHARED_LIBRARY = "lib/libgrafo.so"
OBJECT = "lib/grafo.o"


def ir_member(entry: str, stage: str) -> str:
    """The member holding the IR text of ``entry`` after ``stage`` ("optimized", "loops")."""
    return f"ir/{entry}.{stage}.mlir"


def llvm_member(entry: str) -> str:
    """The member holding the optimized LLVM IR of ``entry``."""
    return f"llvm/{entry}.ll"


# Version of the calling convention (docs/architecture.md, "Calling convention"): descriptor
# and status layouts, ``grafo_thread_state``. Exported by every library as ``ABI_SYMBOL``.
ABI_VERSION = 1
ABI_SYMBOL = "grafo_abi_version"
INTERFACE_SYMBOL = "grafo_interface_sha256"
THREADS_SYMBOL = "grafo_threads"
INTERRUPT_SYMBOL = "grafo_interrupt"             # runtime/interrupt.py
INTERRUPT_HANDLER = "grafo_interrupt_handler"
SYMBOL_PREFIX = "grafo_"

DTYPES = ("bool", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64",
          "float16", "float32", "float64", "complex64", "complex128")
PYTHON_KINDS = {"int": "int64", "float": "float64", "complex": "complex128",
                "bool": "bool"}   # weak scalar -> dtype
ERROR_KINDS = ("ArithmeticError", "AssertionError", "FloatingPointError", "IndexError",
               "KeyError", "LinAlgError", "LookupError", "MemoryError", "NotImplementedError",
               "OverflowError", "RuntimeError", "TypeError", "ValueError",
               "ZeroDivisionError")
MAX_RANK = 64              # NumPy's NPY_MAXDIMS
MAX_ARGUMENTS = 1024       # ctypes' limit on the arguments of one call, the status included
MAX_DIM = 2**63 - 1
MAX_LINE = 1_000_000
MAX_COLUMN = 100_000
MAX_NESTING = 64           # of result structures and constant tuples
FORMAT_SPEC = re.compile(r"[<>^=]?[-+ ]?#?0?\d{0,2}[bdoxX]?")
C_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
HEX_SHA256 = re.compile(r"[0-9a-f]{64}")


class SchemaError(ValueError):
    """A manifest field that does not fit the schema: ``path`` (``entries[0].inputs[1]
    .dtype``) and ``problem``."""

    def __init__(self, path: str, problem: str):
        super().__init__(f"{path}: {problem}")
        self.path, self.problem = path, problem


def _fail(path: str, problem: str):
    raise SchemaError(path, problem)


def _show(value) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


# field types ------------------------------------------------------------------------------------

@dataclass(frozen=True)
class Str:
    """A string of at most ``max_len`` characters, without NUL (nor line breaks when
    ``line``), matching ``pattern`` when given."""

    max_len: int = 1000
    pattern: re.Pattern | None = None
    line: bool = True

    def __call__(self, value, path: str) -> None:
        if type(value) is not str:
            _fail(path, f"expected a string, got {_show(value)}")
        if len(value) > self.max_len:
            _fail(path, f"longer than {self.max_len} characters")
        if "\0" in value or self.line and ("\n" in value or "\r" in value):
            _fail(path, f"{_show(value)} holds a NUL or line break")
        if self.pattern is not None and not self.pattern.fullmatch(value):
            _fail(path, f"{_show(value)} does not match {self.pattern.pattern}")


@dataclass(frozen=True)
class Int:
    """An int (not a bool) in ``[lo, hi]``."""

    lo: int
    hi: int

    def __call__(self, value, path: str) -> None:
        if type(value) is not int or not self.lo <= value <= self.hi:
            _fail(path, f"expected an integer in [{self.lo}, {self.hi}], got {_show(value)}")


@dataclass(frozen=True)
class Literal:
    """One of ``values`` (compared with their types: ``1`` is not ``True``)."""

    values: tuple

    def __call__(self, value, path: str) -> None:
        if not any(type(value) is type(v) and value == v for v in self.values):
            _fail(path, f"expected one of {', '.join(map(repr, self.values))}, got "
                        f"{_show(value)}")


def one_of(*values) -> Literal:
    return Literal(values)


BOOL = one_of(True, False)


@dataclass(frozen=True)
class Nullable:
    """None or a value of ``schema``."""

    schema: object

    def __call__(self, value, path: str) -> None:
        if value is not None:
            self.schema(value, path)


@dataclass(frozen=True)
class ListOf:
    """A list of at most ``max_len`` items of ``item`` (all different when ``unique``)."""

    item: object
    max_len: int
    unique: bool = False
    min_len: int = 0

    def __call__(self, value, path: str) -> None:
        if type(value) is not list:
            _fail(path, f"expected a list, got {_show(value)}")
        if not self.min_len <= len(value) <= self.max_len:
            _fail(path, f"expected {self.min_len} to {self.max_len} items, got {len(value)}")
        for k, v in enumerate(value):
            self.item(v, f"{path}[{k}]")
        if self.unique and len({json.dumps(v, sort_keys=True) for v in value}) != len(value):
            _fail(path, "holds an item twice")


@dataclass(frozen=True)
class Record:
    """A JSON object with exactly the keys of ``fields`` ({key: schema}), those named in
    ``optional`` possibly missing."""

    fields: dict
    optional: frozenset = frozenset()

    def __call__(self, value, path: str) -> None:
        if type(value) is not dict:
            _fail(path, f"expected an object, got {_show(value)}")
        for key in value:
            if key not in self.fields:
                _fail(f"{path}.{key}", "unknown field")
        for key, schema in self.fields.items():
            if key in value:
                schema(value[key], f"{path}.{key}")
            elif key not in self.optional:
                _fail(f"{path}.{key}", "missing")


@dataclass(frozen=True)
class MapOf:
    """A JSON object of at most ``max_len`` items: ``key`` strings to ``value`` s."""

    key: object
    value: object
    max_len: int

    def __call__(self, value, path: str) -> None:
        if type(value) is not dict or len(value) > self.max_len:
            _fail(path, f"expected an object of at most {self.max_len} items, got "
                        f"{_show(value)}")
        for k, v in value.items():
            self.key(k, f"{path} key")
            self.value(v, f"{path}.{k}")


@dataclass(frozen=True)
class Switch:
    """A JSON object whose schema depends on its field ``field``: ``cases[choose(value of
    field)]``."""

    field: str
    cases: dict
    choose: object = None

    def __call__(self, value, path: str) -> None:
        if type(value) is not dict:
            _fail(path, f"expected an object, got {_show(value)}")
        if self.field not in value:
            _fail(f"{path}.{self.field}", "missing")
        key = value[self.field]
        key = key if self.choose is None else self.choose(key)
        if type(key) is not str or key not in self.cases:
            _fail(f"{path}.{self.field}", f"expected one of {', '.join(map(repr, self.cases))}, "
                                          f"got {_show(key)}")
        self.cases[key](value, path)


@dataclass(frozen=True)
class Check:
    """``base``, then ``test(value)``: a problem (str) or None."""

    base: object
    test: object

    def __call__(self, value, path: str) -> None:
        self.base(value, path)
        problem = self.test(value)
        if problem:
            _fail(path, problem)


# the fields -------------------------------------------------------------------------------------

def _identifier(value: str):
    return None if value.isidentifier() else f"{_show(value)} is not a Python identifier"


def _message(value: str):
    """Problems of an error message: fields other than ``{k}`` (k < STATUS_PARAMS) with a
    short integer format, or braces that do not pair."""
    try:
        fields = [(f, spec, conv) for _, f, spec, conv in string.Formatter().parse(value)
                  if f is not None]
    except ValueError as e:
        return f"not a format string ({e})"
    for field, spec, conversion in fields:
        if not (field.isdigit() and int(field) < STATUS_PARAMS) or conversion is not None \
                or not FORMAT_SPEC.fullmatch(spec or ""):
            return (f"field {{{field}{'!' + conversion if conversion else ''}"
                    f"{':' + spec if spec else ''}}} is not one of the status block's "
                    f"{STATUS_PARAMS} integer parameters ({{0}} .. {{{STATUS_PARAMS - 1}}})")
    return None


def _structure(value: str):
    depth = deepest = 0
    for c in value:
        depth += (c in "([") - (c in ")]")
        deepest = max(deepest, depth)
    if deepest > MAX_NESTING:
        return f"nested deeper than {MAX_NESTING} levels"
    try:
        parse(value)
    except ValueError as e:
        return str(e)
    return None


def _constant(value, path: str, depth: int = 0) -> None:
    """A trace-time constant as ``runtime.artifact.constant_record`` writes it."""
    if value is None or type(value) in (bool, float):
        return
    if type(value) is int:
        Int(-(2**64), 2**64)(value, path)
    elif type(value) is list:
        if depth >= MAX_NESTING:
            _fail(path, f"constant nested deeper than {MAX_NESTING} levels")
        ListOf(lambda v, p: _constant(v, p, depth + 1), 10_000)(value, path)
    elif type(value) is dict and set(value) == {"function"}:
        Str(1000)(value["function"], f"{path}.function")
    elif type(value) is dict and set(value) == {"dtype", "value"}:
        DTYPE(value["dtype"], f"{path}.dtype")
        if type(value["value"]) not in (bool, int, float):
            _fail(f"{path}.value", f"expected a number, got {_show(value['value'])}")
    else:
        _fail(path, f"not a constant record: {_show(value)}")


def _python_kind(record: dict):
    kind = record.get("python")
    if kind is not None and PYTHON_KINDS[kind] != record.get("dtype"):
        return f"a Python {kind} is a {PYTHON_KINDS[kind]}, not {_show(record.get('dtype'))}"
    return None


IDENTIFIER = Check(Str(1000), _identifier)
DTYPE = one_of(*DTYPES)
SHAPE = ListOf(Nullable(Int(0, MAX_DIM)), MAX_RANK)
LINE = Int(0, MAX_LINE)


def _spec(named: bool) -> Switch:
    """An input (``named``) or result: an array (a shape) or a scalar (shape null)."""
    name = {"name": IDENTIFIER} if named else {}
    array = Record({**name, "dtype": DTYPE, "shape": SHAPE, "contiguous": BOOL})
    scalar = Check(Record({**name, "dtype": DTYPE, "shape": one_of(None),
                           "python": Nullable(one_of(*PYTHON_KINDS))}), _python_kind)
    return Switch("shape", {"array": array, "scalar": scalar},
                  lambda shape: "scalar" if shape is None else "array")


ERROR = Record({
    "kind": one_of(*ERROR_KINDS),
    "message": Check(Str(100_000, line=False), _message),
    "file": Str(4096),
    "line": LINE,
    "col": Int(0, MAX_COLUMN),
    "function": Str(1000),
    "source": Str(100_000),
})

SOURCE = Record({"function": Str(1000), "file": Str(4096), "line": LINE, "lines": LINE,
                 "sha256": Str(64, HEX_SHA256)})

ENTRY = Record({
    "name": Str(200, C_IDENTIFIER),
    "symbol": Str(200 + len(SYMBOL_PREFIX), C_IDENTIFIER),
    "function": Str(1000),
    "module": Nullable(Str(1000)),
    "signature": Str(100_000),
    "params": ListOf(IDENTIFIER, MAX_ARGUMENTS, unique=True),
    "constants": MapOf(IDENTIFIER, _constant, MAX_ARGUMENTS),
    "inputs": ListOf(_spec(named=True), MAX_ARGUMENTS),
    "results": ListOf(_spec(named=False), MAX_ARGUMENTS),
    "written": ListOf(Int(0, MAX_ARGUMENTS), MAX_ARGUMENTS, unique=True),
    "result_tuple": BOOL,
    "result_structure": Nullable(Check(Str(100_000), _structure)),
    "globals": ListOf(Str(1000, re.compile(r"[\w.]+:[^\W\d]\w*")), MAX_ARGUMENTS, unique=True),
    "errors": ListOf(ERROR, 1_000_000),
    "sources": ListOf(SOURCE, 100_000),
    "llvm_function": Str(1000),
})


def _native(kind: str) -> Record:
    """The native code: a shared library, or an object file and a note on how to link it."""
    fields = {"kind": one_of(kind), "abi_version": one_of(ABI_VERSION),
              "threads_symbol": Nullable(one_of(THREADS_SYMBOL)),
              "interrupt_symbol": Nullable(one_of(INTERRUPT_SYMBOL)),
              "interrupt_handler": Nullable(one_of(INTERRUPT_HANDLER))}
    if kind == "object":
        return Record({**fields, "member": one_of(OBJECT), "note": Str(10_000)})
    return Record({**fields, "member": one_of(SHARED_LIBRARY)})


# Libraries outside the artifact that its code calls (NumPy's LAPACK and BLAS, one OpenBLAS:
# ``runtime/lapack.py``, ``runtime/blas.py``): the loader opens each first and refuses an
# artifact whose symbols it lacks.
LIBRARY = Record({"name": one_of("numpy-lapack", "numpy-blas"), "pattern": Str(200),
                  "symbols": ListOf(Str(100, re.compile(
                      r"scipy_d[a-z]+_64_|scipy_cblas_[sd][a-z]+64_")), 1000,
                                    unique=True, min_len=1)})

MANIFEST_SCHEMA = Record({
    "format": one_of(FORMAT),
    "format_version": one_of(FORMAT_VERSION),
    "grafo_version": Str(100),
    "target": Record({"name": Str(200), "triple": Str(200, re.compile(r"[\w.]+(-[\w.]+)+")),
                      "cpu": Str(200), "features": ListOf(Str(100), 10_000, unique=True),
                      "llvm_features": Str(100_000)}),
    "native": Switch("kind", {k: _native(k) for k in ("shared_library", "object")}),
    "header": one_of(HEADER),
    "entries": ListOf(ENTRY, 10_000, min_len=1),
    "payload": Record({"members": ListOf(Str(1000), 100_000, unique=True),
                       "sha256": Str(64, HEX_SHA256)}),
    "cache_key": Str(64, HEX_SHA256),   # disk cache entries only (compiler/cache.py)
    "libraries": ListOf(LIBRARY, 10),
}, optional=frozenset({"cache_key", "libraries"}))


# relations between fields -----------------------------------------------------------------------

def _symbol(e: dict):
    if e["symbol"] != SYMBOL_PREFIX + e["name"]:
        return f"symbol {e['symbol']!r} is not {SYMBOL_PREFIX + e['name']!r}"
    if e["symbol"] in (ABI_SYMBOL, INTERFACE_SYMBOL, THREADS_SYMBOL, INTERRUPT_SYMBOL,
                       INTERRUPT_HANDLER):
        return f"entry name {e['name']!r} is reserved for the library's own {e['symbol']!r}"
    return None


def _globals(e: dict):
    """Module globals are hidden trailing scalar inputs and results."""
    g = len(e["globals"])
    if g > min(len(e["inputs"]), len(e["results"])):
        return f"{g} globals need as many hidden inputs and results"
    if g and any(r["shape"] is not None for r in e["inputs"][-g:] + e["results"][-g:]):
        return "the hidden inputs and results of globals must be scalars"
    return None


def _params(e: dict):
    """The parameters are the runtime inputs (the inputs less the hidden globals) and the
    constants, in order."""
    names = [r["name"] for r in e["inputs"]]
    if len(set(names)) != len(names):
        return "two inputs have one name"
    arg_names = names[:len(names) - len(e["globals"])]
    if not set(e["constants"]) <= set(e["params"]):
        return "constants name parameters that params does not list"
    if [p for p in e["params"] if p not in e["constants"]] != arg_names:
        return f"params less constants are not the inputs {arg_names}"
    return None


def _written(e: dict):
    arg_count = len(e["inputs"]) - len(e["globals"])
    for w in e["written"]:
        if w >= arg_count or e["inputs"][w]["shape"] is None:
            return f"written {w} is not an array input"
    return None


def _results(e: dict):
    own = len(e["results"]) - len(e["globals"])
    structure = e["result_structure"]
    if structure is not None and count(parse(structure)) != own:
        return f"result structure {structure!r} does not take {own} results"
    if structure is None and not e["result_tuple"] and own > 1:
        return f"{own} results are neither a tuple nor a result structure"
    return None


def _arguments(e: dict):
    if len(e["inputs"]) + len(e["results"]) + 1 > MAX_ARGUMENTS:
        return f"more than {MAX_ARGUMENTS} native arguments"
    return None


ENTRY_RULES = (_symbol, _globals, _params, _written, _results, _arguments)


def _entry_names(m: dict):
    names = [e["name"] for e in m["entries"]]
    return None if len(set(names)) == len(names) else "two entries have one name"


def _members(m: dict):
    needed = {m["native"]["member"], m["header"]}
    for e in m["entries"]:
        needed |= {ir_member(e["name"], "optimized"), ir_member(e["name"], "loops"),
                   llvm_member(e["name"])}
    missing = needed - set(m["payload"]["members"])
    return f"payload lacks {', '.join(sorted(missing))}" if missing else None


MANIFEST_RULES = (_entry_names, _members)


def validate(manifest) -> None:
    """Check a parsed manifest against ``MANIFEST_SCHEMA``, ``ENTRY_RULES`` and
    ``MANIFEST_RULES``. Raises SchemaError naming the first field that does not fit."""
    MANIFEST_SCHEMA(manifest, "manifest")
    for k, e in enumerate(manifest["entries"]):
        for rule in ENTRY_RULES:
            problem = rule(e)
            if problem:
                _fail(f"manifest.entries[{k}]", problem)
    for rule in MANIFEST_RULES:
        problem = rule(manifest)
        if problem:
            _fail("manifest", problem)


# the library ------------------------------------------------------------------------------------

INTERFACE_FIELDS = ("name", "symbol", "params", "constants", "inputs", "results", "written",
                    "result_tuple", "result_structure", "globals")


def interface_digest(manifest: dict) -> str:
    """The SHA-256 (hex) of what decides how the entries are called and what they return:
    the target and, per entry, ``INTERFACE_FIELDS`` and the kind and message of each status
    code. Source locations are left out: they move with the source (``compiler.aot
    .sources.relocate``) without changing the code."""
    entries = [{**{k: e[k] for k in INTERFACE_FIELDS},
                "errors": [[x["kind"], x["message"]] for x in e["errors"]]}
               for e in manifest["entries"]]
    text = json.dumps({"target": manifest["target"], "entries": entries}, sort_keys=True,
                      separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


@dataclass(frozen=True)
class LibrarySymbol:
    """A symbol the library must export: ``kind`` "function" or "object"; for objects their
    ``size`` in bytes and whether the loader writes them (``writable``)."""

    name: str
    kind: str
    size: int = 0
    writable: bool = False


# The data the library exports besides its entries: always, or when the manifest's
# ``native`` record names it in the given field.
LIBRARY_DATA = (
    (None, LibrarySymbol(ABI_SYMBOL, "object", 4)),
    (None, LibrarySymbol(INTERFACE_SYMBOL, "object", 65)),
    ("threads_symbol", LibrarySymbol(THREADS_SYMBOL, "object", 8, writable=True)),
    ("interrupt_symbol", LibrarySymbol(INTERRUPT_SYMBOL, "object", 8, writable=True)),
    ("interrupt_handler", LibrarySymbol(INTERRUPT_HANDLER, "function")),
)


def library_symbols(manifest: dict) -> list[LibrarySymbol]:
    """Every ``grafo_*`` symbol the shared library of a validated ``manifest`` exports: the
    entries' functions and ``LIBRARY_DATA``."""
    symbols = [LibrarySymbol(e["symbol"], "function") for e in manifest["entries"]]
    return symbols + [s for field, s in LIBRARY_DATA
                      if field is None or manifest["native"].get(field) == s.name]
