"""Ahead-of-time artifacts: reading, validating and loading ``.grafo`` files.

An artifact is a zip file with fixed member names:

- ``manifest.json``: format name and version, grafo version, target (triple, CPU name, LLVM
  feature names), the native code's kind, every entry point (C symbol, parameter names, input
  and result dtypes/shapes, Python scalar kinds, ``result_tuple``, ``result_structure`` (see
  ``results.py``), the error table) and the SHA-256 of the manifest and payload (see
  ``payload_digest``);
- ``lib/libgrafo.so`` (a shared library) or ``lib/grafo.o`` (a relocatable object, when no
  linker for the target was found at save time);
- ``include/grafo.h``: the C declarations of the entry points;
- ``ir/<entry>.optimized.mlir``, ``ir/<entry>.loops.mlir``, ``llvm/<entry>.ll``: IR text.

``load`` needs only NumPy, ctypes and this package. Every problem with a file raises a subclass
of ``ArtifactError`` naming it; nothing in a damaged file can crash the process before the
checks pass (the shared library is opened last).
"""

from __future__ import annotations

import ctypes
import hashlib
import io
import json
import linecache
import os
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from . import cpu, interrupt, parallel
from .abi import ArraySpec, NativeFunction, ScalarSpec, written_alias
from .results import bind_globals, namespace, packer

FORMAT = "grafo-artifact"
FORMAT_VERSION = 2
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


class ArtifactError(Exception):
    """A file that cannot be loaded as a grafo artifact on this machine."""


class NotAnArtifactError(ArtifactError):
    """The file is not a grafo artifact (not a zip file, or no grafo manifest)."""


class CorruptArtifactError(ArtifactError):
    """The file is a damaged artifact: truncated, unreadable members, malformed manifest."""


class ChecksumError(CorruptArtifactError):
    """The manifest or payload does not match the SHA-256 recorded in the manifest."""


class FormatVersionError(ArtifactError):
    """The artifact was written in a format version this runtime does not read."""


class TargetMismatchError(ArtifactError):
    """The native code was built for another architecture or operating system."""


class MissingCPUFeaturesError(TargetMismatchError):
    """The native code uses instruction-set features this CPU lacks."""


class NotLinkedError(ArtifactError):
    """The artifact holds a relocatable object file, not a loadable shared library."""


def canonical_manifest(manifest: Mapping) -> bytes:
    """The canonical JSON of ``manifest`` without its ``payload.sha256`` field."""
    stripped = dict(manifest)
    payload = stripped.get("payload")
    if isinstance(payload, dict):
        stripped["payload"] = {k: v for k, v in payload.items() if k != "sha256"}
    return json.dumps(stripped, sort_keys=True, separators=(",", ":")).encode()


def payload_digest(members: Mapping, manifest: Mapping) -> str:
    """The SHA-256 (hex) of the canonical manifest (``canonical_manifest``) and of every
    member but the manifest, by name order; each part contributes its name, its length and
    its bytes."""
    h = hashlib.sha256()
    parts = {MANIFEST: canonical_manifest(manifest)}
    parts.update((name, data) for name, data in members.items() if name != MANIFEST)
    for name in sorted(parts, key=lambda n: (n != MANIFEST, n)):
        data = parts[name]
        h.update(name.encode() + b"\0" + len(data).to_bytes(8, "little"))
        h.update(data)
    return h.hexdigest()


def write_bytes(members: Mapping) -> bytes:
    """The zip container of ``members`` ({name: bytes}); the manifest is written first.
    Deflate level 1: IR text with large constants compresses to within a few percent of the
    default level's size in a fifth of the time."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name in sorted(members, key=lambda n: n != MANIFEST):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(info, members[name], compresslevel=1)
    return buf.getvalue()


@dataclass
class Artifact:
    """A validated artifact: ``manifest`` (the parsed JSON) and ``members`` ({name: bytes}).

    ``source`` names the file in messages."""

    manifest: dict
    members: dict
    source: str = "<bytes>"

    @property
    def entries(self) -> list:
        """The manifest records of the entry points, in order."""
        return self.manifest["entries"]

    @property
    def header(self) -> str:
        """The generated C header."""
        return self.members[HEADER].decode()

    def text(self, member: str) -> str:
        """A text member (IR, header); KeyError when absent."""
        return self.members[member].decode()

    def check_target(self) -> None:
        """Raise TargetMismatchError when the code is for another architecture or OS,
        MissingCPUFeaturesError when this CPU lacks features the code uses."""
        target = self.manifest["target"]
        triple = target["triple"]
        arch, here = cpu.arch_of(triple), cpu.host_arch()
        if arch != here or "linux" not in triple:
            raise TargetMismatchError(
                f"{self.source}: native code built for {triple} (target {target['name']!r}) "
                f"cannot run on this {here} Linux machine; compile it again for target "
                f"'cpu' here")
        missing = cpu.missing_features(triple, target["features"])
        if missing:
            raise MissingCPUFeaturesError(
                f"{self.source}: native code built for CPU {target['cpu']!r} uses "
                f"{', '.join(missing)}, which this CPU lacks; compile it for this machine "
                f"(target 'cpu') or for a lower CPU level such as 'x86-64-v2'")

    def open_library(self, namespaces: Mapping | None = None) -> Library:
        """Check the target, load the shared library and return its entry points.

        ``namespaces`` ({module name: globals dict}) are where entry points rebind module
        globals; other modules are imported. Raises TargetMismatchError,
        MissingCPUFeaturesError, NotLinkedError, or ArtifactError when the dynamic loader
        rejects the library."""
        self.check_target()
        native = self.manifest["native"]
        if native["kind"] != "shared_library":
            raise NotLinkedError(
                f"{self.source}: holds a relocatable object ({native['member']}), not a "
                f"shared library: {native.get('note', 'link it with cc -shared')}")
        lib = _dlopen(self.members[native["member"]], self.source)
        try:
            if native.get("threads_symbol"):
                parallel.bind(ctypes.addressof(ctypes.c_void_p.in_dll(
                    lib, native["threads_symbol"])))
            if native.get("interrupt_symbol"):
                interrupt.bind(ctypes.addressof(ctypes.c_void_p.in_dll(
                    lib, native["interrupt_symbol"])))
                interrupt.install(ctypes.cast(getattr(lib, native["interrupt_handler"]),
                                              ctypes.c_void_p).value, lib)
            functions = {e["name"]: LoadedFunction(e, lib, namespaces)
                         for e in self.entries}
        except (AttributeError, ValueError) as e:
            raise CorruptArtifactError(f"{self.source}: missing symbol ({e})") from None
        return Library(functions, self)


def read(source) -> Artifact:
    """Read and validate an artifact from a path or from its bytes; no code is loaded.

    Raises NotAnArtifactError, CorruptArtifactError (truncated file, damaged member,
    malformed manifest), ChecksumError or FormatVersionError; OSError when the file cannot
    be read."""
    if isinstance(source, (bytes, bytearray, memoryview)):
        data, where = bytes(source), "<bytes>"
    else:
        where = os.fspath(source)
        with open(where, "rb") as f:
            data = f.read()
    if not data.startswith(b"PK"):
        raise NotAnArtifactError(f"{where}: not a grafo artifact (not a zip file)")
    try:
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            names = zf.namelist()
            if MANIFEST not in names:
                raise NotAnArtifactError(f"{where}: not a grafo artifact (no {MANIFEST})")
            members = {name: zf.read(name) for name in names}
    except ArtifactError:
        raise
    except Exception as e:   # zipfile reports damage as many exception types
        raise CorruptArtifactError(f"{where}: truncated or damaged artifact ({e})") from None
    try:
        manifest = json.loads(members[MANIFEST])
    except ValueError as e:
        raise CorruptArtifactError(f"{where}: malformed manifest ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise NotAnArtifactError(f"{where}: not a grafo artifact (manifest format is not "
                                 f"{FORMAT!r})")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise FormatVersionError(
            f"{where}: artifact format version {version!r} is not supported (this runtime "
            f"reads version {FORMAT_VERSION}); save it again with a matching grafo")
    try:
        expected = manifest["payload"]["sha256"]
        listed = set(manifest["payload"]["members"])
        _check_manifest(manifest)
    except (KeyError, TypeError, ValueError) as e:
        raise CorruptArtifactError(f"{where}: malformed manifest (bad field {e})") from None
    if listed != set(members) - {MANIFEST}:
        raise ChecksumError(f"{where}: payload members differ from the manifest's list")
    if payload_digest(members, manifest) != expected:
        raise ChecksumError(f"{where}: manifest or payload checksum mismatch (SHA-256 differs "
                            f"from the manifest's): the file is corrupt")
    return Artifact(manifest, members, where)


def _check_manifest(m: dict) -> None:
    """Raise KeyError/TypeError/ValueError when a field ``load`` relies on is malformed."""
    t = m["target"]
    for key in ("name", "triple", "cpu"):
        if not isinstance(t[key], str):
            raise TypeError(f"target.{key}")
    if not all(isinstance(f, str) for f in t["features"]):
        raise TypeError("target.features")
    if m["native"]["member"] not in (SHARED_LIBRARY, OBJECT):
        raise ValueError("native.member")
    for e in m["entries"]:
        for key in ("name", "symbol", "function"):
            if not isinstance(e[key], str):
                raise TypeError(f"entries.{key}")
        for s in e["inputs"] + e["results"]:
            spec_of(s)
        for x in e["errors"]:
            fields = (x["kind"], x["message"], x["file"], x["line"], x["col"])
            kinds = (str, str, str, int, int)
            if not all(isinstance(v, t) for v, t in zip(fields, kinds, strict=True)):
                raise TypeError("entries.errors")


def constant_record(value):
    """A trace-time Python constant as the manifest records it (JSON): a bool/int/float/None
    as it is, a tuple as a list of records, a NumPy scalar as {"dtype", "value"}, a function
    as {"function": its qualified name}. Arguments passed for constants are compared to the
    record in this form."""
    if isinstance(value, tuple):
        return [constant_record(v) for v in value]
    if isinstance(value, np.generic):
        return {"dtype": value.dtype.name, "value": value.item()}
    if value is None or isinstance(value, (bool, int, float)):
        return value
    name = getattr(value, "__qualname__", getattr(value, "__name__", type(value).__name__))
    return {"function": f"{getattr(value, '__module__', None) or ''}.{name}"}


def same_constant(a, b) -> bool:
    """Whether two constant records (``constant_record``'s form) are the same constant: of
    the same type item by item, a float by its bits (``-0.0`` is not ``0.0``, every NaN is
    NaN), as a ``Function`` keys its specializations."""
    if type(a) is not type(b):
        return False
    if isinstance(a, float):
        return a.hex() == b.hex()
    if isinstance(a, list):
        return len(a) == len(b) and all(map(same_constant, a, b))
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_constant(a[k], b[k]) for k in a)
    return a == b


def spec_of(record: dict):
    """The ``runtime.abi`` spec of a manifest input/result record."""
    dtype = np.dtype(record["dtype"])
    if record["shape"] is None:
        return ScalarSpec(dtype, record.get("python"))
    shape = tuple(None if d is None else int(d) for d in record["shape"])
    return ArraySpec(dtype, shape, contiguous=bool(record.get("contiguous", False)))


def _dlopen(data: bytes, source: str) -> ctypes.CDLL:
    """Write the library to a private temporary directory, open it, remove the file (the
    mapping stays)."""
    with tempfile.TemporaryDirectory(prefix="grafo-") as d:
        path = os.path.join(d, "libgrafo.so")
        with open(path, "wb") as f:
            f.write(data)
        try:
            return ctypes.CDLL(path)
        except OSError as e:
            raise ArtifactError(f"{source}: the dynamic loader rejected the native code "
                                f"({e})") from None


def _remember_source(errors: list) -> None:
    """Make the recorded source lines of the error table available to ``linecache`` for files
    that do not exist here, so that run-time errors show the line as on the build machine."""
    for e in errors:
        file, line, text = e["file"], int(e["line"]), e.get("source")
        if not text or line <= 0 or os.path.exists(file):
            continue
        entry = linecache.cache.get(file)
        lines = list(entry[2]) if entry and entry[1] is None else []
        lines += ["\n"] * (line - len(lines))
        lines[line - 1] = text + "\n"
        linecache.cache[file] = (0, None, lines, file)


class LoadedFunction:
    """An entry point of a loaded artifact, called like the ConcreteFunction it was saved from.

    Pass the run-time arguments (arrays and NumPy scalars, in parameter order), or every
    parameter including the trace-time Python constants, which must equal the traced values.
    Attributes: ``name``, ``signature``, ``arg_names``, ``record`` (the manifest entry),
    ``native`` (the ``runtime.abi.NativeFunction``). Raises what the ConcreteFunction raises:
    TypeError for mismatched arguments, the Python exception of a failed run-time check
    (IndexError ...) with the source location, MemoryError, and ValueError for a written
    array argument that shares memory with another one (``f(a, a[::-1])``; the
    ConcreteFunction runs such a call as Python instead). Module globals the function
    rebinds are assigned in ``namespaces`` ({module name: globals dict}) when it names their
    module, else in the imported module.
    """

    def __init__(self, record: dict, lib: ctypes.CDLL, namespaces: Mapping | None = None):
        self.record = record
        self.name = record["function"]
        self.signature = record.get("signature", "")
        keys = record.get("globals") or []
        names = [i["name"] for i in record["inputs"]]
        self.arg_names = names[:len(names) - len(keys)]
        self._params = record.get("params", self.arg_names)
        self._constants = record.get("constants", {})
        self._tuple1 = record["result_tuple"] and len(record["results"]) == 1
        structure = record.get("result_structure")
        self._pack = None if structure is None else packer(structure)
        address = ctypes.cast(getattr(lib, record["symbol"]), ctypes.c_void_p).value
        errors = [(e["kind"], e["message"], (e["file"], int(e["line"]), int(e["col"])))
                  for e in record["errors"]]
        _remember_source(record["errors"])
        self.native = NativeFunction(address, [spec_of(s) for s in record["inputs"]],
                                     [spec_of(s) for s in record["results"]], errors,
                                     name=self.name, keepalive=lib)
        self._run = self.native if not keys else _bind_globals(
            self.native, keys, len(record["results"]) - len(keys), namespaces or {})
        arrays = [k for k, i in enumerate(record["inputs"][:len(self.arg_names)])
                  if i.get("shape") is not None]
        self._aliasing = [(w, k) for w in record.get("written", []) for k in arrays if k != w]

    def _check_aliasing(self, args) -> None:
        """ValueError when a written array argument shares memory with another array
        argument: the compiled code may read that argument after its writes, and a loaded
        artifact has no Python function to run instead (as a ConcreteFunction does)."""
        hit = written_alias(args, self._aliasing)
        if hit is not None:
            w, k = (self.arg_names[i] for i in hit)
            raise ValueError(f"{self.name}: arguments {w!r} and {k!r} share memory and {w!r} "
                             f"is written; pass a copy of {k!r}")

    def __call__(self, *args):
        if self._constants and len(args) == len(self._params) != len(self.arg_names):
            runtime_args = []
            for name, a in zip(self._params, args, strict=True):
                if name not in self._constants:
                    runtime_args.append(a)
                elif not same_constant(constant_record(a), self._constants[name]):
                    raise TypeError(f"{self.name}: this concrete function was traced with "
                                    f"{self._constants[name]!r}, received {a!r}")
            args = runtime_args
        if self._aliasing:
            self._check_aliasing(args)
        out = self._run(*args)
        if self._pack is not None:
            return self._pack(out)
        return (out,) if self._tuple1 else out

    def __repr__(self) -> str:
        return f"<runtime.LoadedFunction {self.name}({self.signature})>"


def _bind_globals(native, keys: list, n_results: int, namespaces: Mapping):
    """``native`` passing and updating the module globals ``keys`` ("module:name", see
    ``results.bind_globals``) in ``namespaces`` or the imported modules; raises ImportError
    on a call when a module is not importable."""
    def slot(key):
        module, name = key.rsplit(":", 1)
        return (namespaces[module] if module in namespaces else namespace(module)), name

    try:
        slots = [slot(k) for k in keys]
    except ImportError as e:
        reason = str(e)

        def missing(*args):
            raise ImportError(f"this function rebinds globals of a module that is not "
                              f"importable here: {reason}")
        return missing
    return bind_globals(native, slots, n_results)


class Library(Mapping):
    """The entry points of a loaded artifact by name (also as attributes); ``artifact`` is
    the validated ``Artifact``."""

    def __init__(self, functions: dict, artifact: Artifact):
        self._functions = functions
        self.artifact = artifact

    def __getitem__(self, name: str) -> LoadedFunction:
        try:
            return self._functions[name]
        except KeyError:
            raise KeyError(f"no entry point {name!r} in {self.artifact.source} (has: "
                           f"{', '.join(self._functions)})") from None

    def __getattr__(self, name: str) -> LoadedFunction:
        if name.startswith("_"):
            raise AttributeError(name)
        try:
            return self[name]
        except KeyError as e:
            raise AttributeError(e.args[0]) from None

    def __iter__(self):
        return iter(self._functions)

    def __len__(self) -> int:
        return len(self._functions)

    def __repr__(self) -> str:
        return f"<runtime.Library {self.artifact.source}: {', '.join(self._functions)}>"


def load(source) -> LoadedFunction | Library:
    """Load an artifact (a path or its bytes) written by ``ConcreteFunction.save`` /
    ``compiler.save``: the ``LoadedFunction`` of its single entry point, or a ``Library``
    (a mapping by entry name) when it has several.

    Raises the ``ArtifactError`` subclass naming the problem: NotAnArtifactError,
    CorruptArtifactError, ChecksumError, FormatVersionError, TargetMismatchError (another
    architecture), MissingCPUFeaturesError, NotLinkedError (object file only)."""
    lib = read(source).open_library()
    return next(iter(lib.values())) if len(lib) == 1 else lib
