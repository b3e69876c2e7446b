"""The manifest schema (runtime/manifest.py) and the library checks: what the builder writes
fits them, and every edit of a manifest whose checksum is recomputed for the edit (so that
only the schema and the library can tell) is refused with an ArtifactError naming the field,
before any native code runs."""

import json
import zipfile

import aot_functions as F
import numpy as np
import pytest

import compiler
import runtime
from compiler.cli import main
from runtime import elf
from runtime.artifact import MANIFEST, payload_digest, read
from runtime.manifest import (
    ABI_SYMBOL,
    ABI_VERSION,
    ERROR_KINDS,
    INTERFACE_SYMBOL,
    SchemaError,
    interface_digest,
    library_symbols,
    validate,
)

GLOBAL_COUNT = 0


def nested(x):
    return x + 1, None, (np.sum(x),)


def counted(x):
    global GLOBAL_COUNT
    GLOBAL_COUNT += 1
    return x * GLOBAL_COUNT


def asserting(x, n):
    assert x[0] > 0, "x[0] must be {positive}"
    return x[n:] * 2


@pytest.fixture(scope="module")
def artifacts(tmp_path_factory):
    """{name: path} of artifacts of many kinds: scalar and tuple results, constants, a
    written argument, parallel loops, a result structure, a rebound global, several
    entries, another CPU level, another architecture."""
    d = tmp_path_factory.mktemp("manifest")
    scaled = compiler.function(F.scaled).get_concrete_function(
        compiler.TensorSpec((None,), "float64"), 3)
    cases = {
        "dot": compiler.compile(F.dot_at, "f32[?], f32[?]"),
        "scaled": scaled,
        "pair": compiler.compile(F.pair, "f32[2,?]"),
        "shift": compiler.compile(F.shift_into, "f64[?], f64[?]"),
        "affine": compiler.compile(F.affine, "f64[?], f64[?]"),
        "nested": compiler.compile(nested, "f32[3]"),
        "counted": compiler.compile(counted, "i64[?]"),
        "asserting": compiler.function(asserting).get_concrete_function(np.ones(4), 1),
        "library": [scaled, compiler.compile(F.smooth, "f64[?]")],
        "v2": compiler.compile(F.smooth, "f64[?]", target="x86-64-v2"),
        "aarch64": compiler.compile(F.smooth, "f64[?]", target="aarch64-linux-gnu"),
    }
    paths = {}
    for name, cf in cases.items():
        paths[name] = d / f"{name}.grafo"
        compiler.save(paths[name], cf)
    return paths


def rewrite(path, out, edit_manifest=None, edit_library=None):
    """A copy of an artifact with its manifest and/or library edited and its checksum
    recomputed for the edit."""
    with zipfile.ZipFile(path) as zf:
        members = {n: zf.read(n) for n in zf.namelist()}
    manifest = json.loads(members[MANIFEST])
    if edit_library:
        members["lib/libgrafo.so"] = edit_library(members["lib/libgrafo.so"])
    if edit_manifest:
        edit_manifest(manifest)
    manifest["payload"]["sha256"] = payload_digest(members, manifest)
    members[MANIFEST] = json.dumps(manifest).encode()
    with zipfile.ZipFile(out, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return out


def entry(m, k=0):
    return m["entries"][k]


# what the builder writes -----------------------------------------------------------------------

def test_builder_output_fits_the_schema(artifacts):
    for path in artifacts.values():
        art = read(path)
        validate(art.manifest)
        if art.manifest["native"]["kind"] == "shared_library":
            art.check_library(art.members["lib/libgrafo.so"])
    kinds = {name: read(p).manifest["native"]["kind"] for name, p in artifacts.items()}
    assert kinds["dot"] == "shared_library" and kinds["aarch64"] in ("object", "shared_library")


def test_library_exports_exactly_the_listed_grafo_symbols(artifacts):
    for name in ("dot", "affine", "library"):
        art = read(artifacts[name])
        image = elf.Library(art.members["lib/libgrafo.so"])
        exported = {n: s.kind for n, s in image.symbols.items() if n.startswith("grafo_")}
        assert exported == {s.name: s.kind for s in library_symbols(art.manifest)}, name
        assert image.read_int(image.symbols[ABI_SYMBOL]) == ABI_VERSION
        digest = interface_digest(art.manifest)
        assert image.read(image.symbols[INTERFACE_SYMBOL]) == digest.encode() + b"\0"
        assert f'#define GRAFO_INTERFACE_SHA256 "{digest}"' in art.header
        assert f"#define GRAFO_ABI_VERSION {ABI_VERSION}" in art.header
    assert "grafo_threads" in elf.Library(
        read(artifacts["affine"]).members["lib/libgrafo.so"]).symbols


def test_messages_with_braces_and_kinds_fit_the_schema(artifacts):
    errors = entry(read(artifacts["asserting"]).manifest)["errors"]
    assert {"kind": "AssertionError", "message": "x[0] must be {{positive}}"}.items() <= \
        next(e for e in errors if e["kind"] == "AssertionError").items()
    f = runtime.load(artifacts["asserting"])
    with pytest.raises(AssertionError, match=r"x\[0\] must be \{positive\}"):
        f(np.zeros(4))


def test_errors_found_while_compiling_are_raised_as_an_allowed_kind(monkeypatch):
    """An error NumPy raised while compiling, raised again at run time, gets the nearest
    class an error table may name and a message that formats to its text."""
    from compiler.frontend import ops
    checks = []

    class Recorder:
        def emit_op(self, op, operands, attributes):
            checks.append({k: a.value for k, a in attributes.items()})

    monkeypatch.setattr(ops, "constant", lambda cx, value, t: value)
    for error in (np.exceptions.AxisError("axis {2} is bad"), KeyboardInterrupt("x"),
                  ZeroDivisionError("division by zero")):
        ops.raise_at_runtime(Recorder(), error)
    assert [c["kind"] for c in checks] == ["ValueError", "RuntimeError", "ZeroDivisionError"]
    assert checks[0]["message"].format() == "axis {2} is bad"
    for c in checks:
        assert c["kind"] in ERROR_KINDS


def test_entry_names_of_the_library_data_are_reserved(tmp_path):
    cf = compiler.compile(F.smooth, "f64[?]")
    for name in ("threads", "abi_version", "interface_sha256"):
        with pytest.raises(ValueError, match=f"entry name '{name}' is reserved"):
            compiler.save(tmp_path / "r.grafo", {name: cf})

    def threads(x):
        return x + 1

    compiler.compile(threads, "f64[?]").save(tmp_path / "t.grafo")
    assert runtime.load(tmp_path / "t.grafo").record["name"] == "threads_2"


# edits the schema refuses ----------------------------------------------------------------------

def _set(path_, value):
    def edit(m):
        obj = m
        for k in path_[:-1]:
            obj = obj[k]
        obj[path_[-1]] = value
    return edit


def _drop(path_):
    def edit(m):
        obj = m
        for k in path_[:-1]:
            obj = obj[k]
        del obj[path_[-1]]
    return edit


INPUT = ("entries", 0, "inputs", 0)
RESULT = ("entries", 0, "results", 0)
ERROR = ("entries", 0, "errors", 1)

# (artifact, edit, the message's field and problem)
SCHEMA_EDITS = [
    # Regression: V8 raised KeyError: dtype('V8') from the loader
    ("dot", _set((*INPUT, "dtype"), "V8"), r"inputs\[0\]\.dtype: expected one of 'bool'"),
    ("dot", _set((*RESULT, "dtype"), "object"), r"results\[0\]\.dtype: expected one of"),
    # Regression: an object input was loaded
    ("dot", _set((*INPUT, "dtype"), "object"), r"inputs\[0\]\.dtype"),
    ("dot", _set((*INPUT, "dtype"), "<U3"), r"inputs\[0\]\.dtype"),
    ("dot", _set((*INPUT, "dtype"), "f4"), r"inputs\[0\]\.dtype"),
    # Regression: a symbol naming abort or free crashed the process
    ("dot", _set(("entries", 0, "symbol"), "abort"), r"symbol 'abort' is not 'grafo_dot_at'"),
    ("dot", lambda m: entry(m).update(name="free", symbol="free"),
     r"symbol 'free' is not 'grafo_free'"),
    ("affine", _set(("native", "threads_symbol"), "malloc"),
     r"native\.threads_symbol: expected one of 'grafo_threads'"),
    ("dot", lambda m: entry(m).update(name="threads", symbol="grafo_threads"),
     r"entry name 'threads' is reserved"),
    ("dot", _set((*INPUT, "shape"), [None] * 65), r"inputs\[0\]\.shape: expected 0 to 64 items"),
    ("dot", _set((*INPUT, "shape"), [-1]), r"shape\[0\]: expected an integer in \[0, "),
    ("dot", _set((*INPUT, "shape"), [2**63]), r"shape\[0\]: expected an integer"),
    ("dot", _set((*INPUT, "shape"), [True]), r"shape\[0\]: expected an integer"),
    ("dot", _set((*INPUT, "shape"), "?"), r"inputs\[0\]\.shape: expected a list"),
    ("dot", _set((*RESULT, "python"), "quaternion"), r"results\[0\]\.python"),
    ("dot", _set((*RESULT, "python"), "complex"),
     r"a Python complex is a complex128, not 'float32'"),
    ("dot", _set((*RESULT, "python"), "int"), r"a Python int is a int64, not 'float32'"),
    ("dot", _set((*ERROR, "kind"), "SystemExit"), r"errors\[1\]\.kind: expected one of"),
    ("dot", _set((*ERROR, "kind"), "KeyboardInterrupt"), r"errors\[1\]\.kind"),
    ("dot", _set((*ERROR, "message"), "index {5}"), r"field \{5\} is not one of the status"),
    ("dot", _set((*ERROR, "message"), "{0.__class__}"), r"field \{0\.__class__\}"),
    ("dot", _set((*ERROR, "message"), "{0:1000000000}"), r"field \{0:1000000000\}"),
    ("dot", _set((*ERROR, "message"), "index {0"), r"errors\[1\]\.message: not a format"),
    ("dot", _set((*ERROR, "line"), 10**12), r"errors\[1\]\.line: expected an integer"),
    ("dot", _set((*ERROR, "col"), -1), r"errors\[1\]\.col"),
    ("dot", _set((*ERROR, "file"), "a\0b"), r"errors\[1\]\.file: .* holds a NUL"),
    ("nested", _set(("entries", 0, "result_structure"), "(" * 5000 + "_" + ")" * 5000),
     r"nested deeper than 64 levels"),
    ("nested", _set(("entries", 0, "result_structure"), "(_,_,_)"),
     r"result structure '\(_,_,_\)' does not take 2 results"),
    ("nested", _set(("entries", 0, "result_structure"), "(_,"), r"malformed result structure"),
    ("counted", _set(("entries", 0, "globals"), []), r"params less constants are not the"),
    ("counted", _set(("entries", 0, "globals"), ["os:system", "builtins:print"]),
     r"the hidden inputs and results of globals must be scalars"),
    ("counted", _set(("entries", 0, "globals"), ["os:system", "builtins:print", "a:b"]),
     r"3 globals need as many hidden inputs and results"),
    ("shift", _set(("entries", 0, "written"), [5]), r"written 5 is not an array input"),
    ("scaled", _set(("entries", 0, "params"), ["x"]), r"constants name parameters that"),
    ("scaled", _set(("entries", 0, "params"), ["x", "n", "m"]), r"params less constants"),
    ("scaled", _set(("entries", 0, "constants"), {"n": {"dtype": "V8", "value": 3}}),
     r"constants\.n\.dtype"),
    ("scaled", _set(("entries", 0, "constants"), {"m": 3}), r"constants name parameters"),
    ("dot", _set(("entries", 0, "extra"), 1), r"entries\[0\]\.extra: unknown field"),
    ("dot", _drop(("entries", 0, "errors")), r"entries\[0\]\.errors: missing"),
    ("dot", _drop(("native", "abi_version")), r"native\.abi_version: missing"),
    ("dot", _set(("native", "abi_version"), 2), r"native\.abi_version: expected one of 1"),
    ("dot", _set(("native", "member"), "/lib/x86_64-linux-gnu/libc.so.6"), r"native\.member"),
    ("dot", _set(("native", "kind"), "elf"), r"native\.kind: expected one of"),
    ("dot", _set(("target", "features"), "sse2"), r"target\.features: expected a list"),
    ("dot", _set(("entries",), []), r"manifest\.entries: expected 1 to"),
    ("library", lambda m: entry(m, 1).update(name="scaled", symbol="grafo_scaled"),
     r"two entries have one name"),
]


@pytest.mark.parametrize("name, edit, message", SCHEMA_EDITS)
def test_edited_manifest_is_refused_by_the_schema(artifacts, tmp_path, name, edit, message):
    bad = rewrite(artifacts[name], tmp_path / "bad.grafo", edit)
    with pytest.raises(runtime.InvalidManifestError, match=message) as info:
        runtime.load(bad)
    assert str(info.value).startswith(f"{bad}: invalid manifest: manifest")


def test_schema_error_names_the_field():
    with pytest.raises(SchemaError) as info:
        validate({"format": "grafo-artifact", "format_version": 3, "grafo_version": 1})
    assert info.value.path == "manifest.grafo_version"
    assert info.value.problem == "expected a string, got 1"


# edits the library refuses ---------------------------------------------------------------------

LIBRARY_EDITS = [
    # Fields that fit the schema but are not what the library was built for.
    ("dot", _set((*RESULT, "dtype"), "float64")),
    ("dot", _set((*INPUT, "shape"), [None, None])),
    ("dot", _set((*INPUT, "shape"), [2])),
    ("dot", _set((*INPUT, "contiguous"), True)),
    ("dot", lambda m: entry(m).update(result_tuple=True)),
    ("dot", _set((*ERROR, "kind"), "ValueError")),
    ("dot", _set(("target", "features"), ["sse2"])),
    ("counted", _set(("entries", 0, "results", 1, "python"), None)),
    ("scaled", _set(("entries", 0, "params"), ["n", "x"])),
    ("scaled", _set(("entries", 0, "constants"), {"n": 4})),
    ("shift", _set(("entries", 0, "written"), [])),
]


@pytest.mark.parametrize("name, edit", LIBRARY_EDITS)
def test_edited_interface_is_refused_by_the_library(artifacts, tmp_path, name, edit):
    bad = rewrite(artifacts[name], tmp_path / "bad.grafo", edit)
    with pytest.raises(runtime.LibraryMismatchError, match="the manifest was edited"):
        runtime.load(bad)


def test_locations_may_move_without_touching_the_library(artifacts, tmp_path):
    def move(m):
        entry(m)["errors"][1].update(file="elsewhere.py", line=40, col=2)
    f = runtime.load(rewrite(artifacts["dot"], tmp_path / "moved.grafo", move))
    with pytest.raises(IndexError, match='File "elsewhere.py", line 40, column 2'):
        f(np.ones(2, np.float32), np.ones(2, np.float32))


def _rename(data: bytes, symbol: str, new: str) -> bytes:
    """The library with ``symbol``'s name in its dynamic string table changed to ``new``
    (of the same length)."""
    return data.replace(symbol.encode() + b"\0", new.encode() + b"\0", 1)


def _patch(data: bytes, symbol: str, new: bytes) -> bytes:
    """The library with the initial bytes of the data symbol ``symbol`` replaced."""
    image = elf.Library(data)
    start = image.offset(image.symbols[symbol])
    return data[:start] + new + data[start + len(new):]


def test_library_symbols_abi_and_form_are_checked(artifacts, tmp_path):
    path = artifacts["affine"]
    cases = [
        (lambda d: _rename(d, "grafo_threads", "grafo_threadz"),
         r"exports grafo_threadz, which the manifest does not list"),
        (lambda d: _rename(d, "grafo_affine", "grafo_affinf"),
         r"exports grafo_affinf, which the manifest does not list"),
        (lambda d: _rename(d, "grafo_affine", "xrafo_affine"),
         r"does not define grafo_affine as its manifest says \(a function\)"),
        (lambda d: _patch(d, ABI_SYMBOL, (2).to_bytes(4, "little")),
         r"was built for ABI version 2; this runtime calls version 1"),
        (lambda d: b"hello", r"is not a shared library for this machine \(not an ELF file\)"),
        (lambda d: d[:200], r"is not a shared library for this machine"),
    ]
    for edit, message in cases:
        bad = rewrite(path, tmp_path / "lib.grafo", edit_library=edit)
        with pytest.raises(runtime.LibraryMismatchError, match=message):
            runtime.load(bad)


def test_a_library_without_the_listed_threads_global_is_refused(artifacts, tmp_path):
    bad = rewrite(artifacts["dot"], tmp_path / "t.grafo",
                  _set(("native", "threads_symbol"), None))
    with pytest.raises(runtime.LibraryMismatchError, match="exports grafo_threads, which"):
        runtime.load(bad)
    bad = rewrite(artifacts["nested"], tmp_path / "n.grafo",
                  _set(("native", "threads_symbol"), "grafo_threads"))
    with pytest.raises(runtime.LibraryMismatchError,
                       match="does not define grafo_threads as its manifest says"):
        runtime.load(bad)


# the command line ------------------------------------------------------------------------------

def test_grafo_run_reports_an_edited_manifest_in_one_line(artifacts, tmp_path, capsys):
    x = tmp_path / "x.npy"
    np.save(x, np.ones(8, np.float32))
    for k, (edit, message) in enumerate([
            (_set((*RESULT, "dtype"), "object"), "invalid manifest"),
            (_set(("entries", 0, "symbol"), "abort"), "invalid manifest"),
            (_set((*RESULT, "dtype"), "float64"), "the manifest was edited")]):
        bad = rewrite(artifacts["dot"], tmp_path / f"bad{k}.grafo", edit)
        assert main(["run", str(bad), "--input", str(x), str(x)]) == 1
        err = capsys.readouterr().err
        assert err.startswith(f"error: {bad}: ") and message in err
        assert err.count("\n") == 1 and "Traceback" not in err
