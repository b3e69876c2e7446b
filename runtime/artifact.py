"""Ahead-of-time artifacts: reading, validating and loading ``.grafo`` files.

An artifact is a zip file with fixed member names:

- ``manifest.json``: format name and version, grafo version, target (triple, CPU name, LLVM
  feature names), the native code's kind, every entry point (C symbol, parameter names, input
  and result dtypes/shapes, Python scalar kinds, ``result_tuple``, ``result_structure`` (see
  ``results.py``), the error table: per status code the exception's kind and message, the
  source file (relative to the project root, or a base name), line, column, Python function
  and source line) and the SHA-256 of the manifest and payload (see ``payload_digest``);
- ``lib/libgrafo.so`` (a shared library) or ``lib/grafo.o`` (a relocatable object, when no
  linker for the target was found at save time);
- ``include/grafo.h``: the C declarations of the entry points;
- ``ir/<entry>.optimized.mlir``, ``ir/<entry>.loops.mlir``, ``llvm/<entry>.ll``: IR text.

``load`` needs only NumPy, ctypes and this package. Every problem with a file raises a subclass
of ``ArtifactError`` naming it. The checksum is no signature: a manifest edited after the
fact, with the checksum recomputed, must not be trusted either, so every field is checked
against the schema of ``manifest.py`` (dtypes, ranks, symbols, error tables ...), and the
library against the manifest (``Artifact.check_library``: its exported ``grafo_*`` symbols,
ABI version and interface digest, read from its bytes) before the dynamic loader opens it.
"""

from __future__ import annotations

import _ctypes
import ctypes
import hashlib
import io
import json
import linecache
import os
import tempfile
import weakref
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from . import cpu, elf, interrupt, lapack, parallel
from .abi import ArraySpec, NativeFunction, ScalarSpec, written_alias
from .manifest import (
    ABI_SYMBOL,
    ABI_VERSION,
    FORMAT,
    FORMAT_VERSION,
    HEADER,
    INTERFACE_SYMBOL,
    MANIFEST,
    SHARED_LIBRARY,
    SYMBOL_PREFIX,
    SchemaError,
    interface_digest,
    library_symbols,
    validate,
)
from .results import bind_globals, namespace, packer

_dlclose = getattr(_ctypes, "dlclose", None)   # POSIX only


class ArtifactError(Exception):
    """A file that cannot be loaded as a grafo artifact on this machine."""


class NotAnArtifactError(ArtifactError):
    """The file is not a grafo artifact (not a zip file, or no grafo manifest)."""


class CorruptArtifactError(ArtifactError):
    """The file is a damaged artifact: truncated, unreadable members, malformed manifest."""


class ChecksumError(CorruptArtifactError):
    """The manifest or payload does not match the SHA-256 recorded in the manifest."""


class InvalidManifestError(CorruptArtifactError):
    """A manifest field holds a value this runtime does not support or one that contradicts
    another field (see ``runtime.manifest``): a manifest edited after it was written."""


class LibraryMismatchError(CorruptArtifactError):
    """The shared library does not match its manifest: it is not an ELF shared library for
    this architecture, exports other ``grafo_*`` symbols, or was built for another ABI
    version or another interface (dtypes, shapes, results) than the manifest describes."""


class FormatVersionError(ArtifactError):
    """The artifact was written in a format version this runtime does not read."""


class TargetMismatchError(ArtifactError):
    """The native code was built for another architecture or operating system."""


class MissingCPUFeaturesError(TargetMismatchError):
    """The native code uses instruction-set features this CPU lacks."""


class MissingLibraryError(ArtifactError):
    """The native code calls a library (NumPy's LAPACK) that this machine lacks."""


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

    def check_library(self, data: bytes) -> None:
        """Raise LibraryMismatchError unless ``data`` is an ELF shared library for this
        machine whose exported ``grafo_*`` symbols are exactly those of the manifest
        (``runtime.manifest.library_symbols``, of their kinds and sizes), holding
        ``ABI_VERSION`` and the manifest's ``interface_digest``. Nothing is loaded."""
        where = f"{self.source}: {SHARED_LIBRARY}"
        try:
            image = elf.Library(data)
            machine = elf.MACHINES.get(cpu.host_arch())
            if machine is not None and image.machine != machine:
                raise elf.ElfError(f"ELF machine {image.machine}, not {cpu.host_arch()}'s")
            wanted = {s.name: s for s in library_symbols(self.manifest)}
            extra = sorted(n for n in image.symbols
                           if n.startswith(SYMBOL_PREFIX) and n not in wanted)
            if extra:
                raise LibraryMismatchError(f"{where} exports {', '.join(extra)}, which the "
                                           f"manifest does not list")
            for s in wanted.values():
                got = image.symbols.get(s.name)
                if got is None or got.kind != s.kind or s.kind == "object" and (
                        got.size != s.size or got.writable != s.writable):
                    raise LibraryMismatchError(
                        f"{where} does not define {s.name} as its manifest says (a "
                        f"{'writable ' if s.writable else ''}{s.kind}"
                        f"{f' of {s.size} bytes' if s.size else ''})")
            abi = image.read_int(image.symbols[ABI_SYMBOL])
            if abi != ABI_VERSION:
                raise LibraryMismatchError(f"{where} was built for ABI version {abi}; this "
                                           f"runtime calls version {ABI_VERSION}")
            interface = image.read(image.symbols[INTERFACE_SYMBOL])
            if interface != interface_digest(self.manifest).encode() + b"\0":
                raise LibraryMismatchError(
                    f"{where} was built for other entry points than its manifest describes "
                    f"(the interface SHA-256 differs): the manifest was edited")
        except elf.ElfError as e:
            raise LibraryMismatchError(f"{where} is not a shared library for this machine "
                                       f"({e})") from None

    def open_dependencies(self) -> None:
        """Open the libraries the manifest lists (NumPy's LAPACK and BLAS) so that the native
        code links to them. Raises MissingLibraryError naming a library or symbol not found."""
        for dep in self.manifest.get("libraries", ()):
            missing = lapack.missing_symbols(dep["symbols"])
            if missing:
                where = lapack.library_path() or f"no numpy.libs/{dep['pattern']}"
                raise MissingLibraryError(
                    f"{self.source}: the native code calls {', '.join(missing)} of NumPy's "
                    f"{'BLAS' if dep['name'] == 'numpy-blas' else 'LAPACK'} ({dep['pattern']} "
                    f"in NumPy's wheel), not found here ({where}); "
                    f"install NumPy from a wheel")

    def open_library(self, namespaces: Mapping | None = None) -> Library:
        """Check the target, load the shared library and return its entry points.

        ``namespaces`` ({module name: globals dict}) are where entry points rebind module
        globals; other modules are imported. Raises TargetMismatchError,
        MissingCPUFeaturesError, NotLinkedError, LibraryMismatchError (see
        ``check_library``), MissingLibraryError (``open_dependencies``), or ArtifactError
        when the dynamic loader rejects the library."""
        self.check_target()
        native = self.manifest["native"]
        if native["kind"] != "shared_library":
            raise NotLinkedError(
                f"{self.source}: holds a relocatable object ({native['member']}), not a "
                f"shared library: {native.get('note', 'link it with cc -shared')}")
        data = self.members[native["member"]]
        self.check_library(data)
        self.open_dependencies()
        lib = _dlopen(data, self.source)
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
    malformed manifest), ChecksumError, FormatVersionError, or InvalidManifestError for a
    manifest that does not fit ``runtime.manifest``'s schema (an unsupported dtype, rank,
    symbol, error kind ...); OSError when the file cannot be read."""
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
    except (ValueError, RecursionError) as e:
        raise CorruptArtifactError(f"{where}: malformed manifest ({e})") from None
    if not isinstance(manifest, dict) or manifest.get("format") != FORMAT:
        raise NotAnArtifactError(f"{where}: not a grafo artifact (manifest format is not "
                                 f"{FORMAT!r})")
    version = manifest.get("format_version")
    if version != FORMAT_VERSION:
        raise FormatVersionError(
            f"{where}: artifact format version {version!r} is not supported (this runtime "
            f"reads version {FORMAT_VERSION}); save it again with a matching grafo")
    payload = manifest.get("payload")
    if not (isinstance(payload, dict) and isinstance(payload.get("sha256"), str)
            and isinstance(payload.get("members"), list)
            and all(isinstance(n, str) for n in payload["members"])):
        raise CorruptArtifactError(f"{where}: malformed manifest (no payload member list and "
                                   f"SHA-256)")
    if set(payload["members"]) != set(members) - {MANIFEST}:
        raise ChecksumError(f"{where}: payload members differ from the manifest's list")
    if payload_digest(members, manifest) != payload["sha256"]:
        raise ChecksumError(f"{where}: manifest or payload checksum mismatch (SHA-256 differs "
                            f"from the manifest's): the file is corrupt")
    try:
        validate(manifest)
    except SchemaError as e:
        raise InvalidManifestError(f"{where}: invalid manifest: {e}") from None
    return Artifact(manifest, members, where)


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
    mapping stays). The library is closed when the CDLL is freed (ctypes never closes one):
    every entry point holds the CDLL, so no code runs after that."""
    with tempfile.TemporaryDirectory(prefix="grafo-") as d:
        path = os.path.join(d, "libgrafo.so")
        with open(path, "wb") as f:
            f.write(data)
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            raise ArtifactError(f"{source}: the dynamic loader rejected the native code "
                                f"({e})") from None
    if _dlclose is not None:
        weakref.finalize(lib, _dlclose, lib._handle).atexit = False
    return lib


def _remember_source(errors: list) -> None:
    """Make the recorded source lines of the error table available to ``linecache`` for files
    that do not exist here, so that run-time errors and their traceback frames show the line
    as on the build machine."""
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
    TypeError naming the parameter for mismatched arguments, the Python exception of a failed
    run-time check (IndexError ...) with the source location in its message and as the last
    frame of its traceback, MemoryError, and ValueError for a written array argument that
    shares memory with another one (``f(a, a[::-1])``) or is read-only (NumPy's
    ``ValueError("assignment destination is read-only")``, before anything runs); the
    ConcreteFunction runs such calls as Python instead. An unaligned written argument is
    copied back after the call, as ``runtime.abi`` does. Module globals the function rebinds
    are assigned in ``namespaces``
    ({module name: globals dict}) when it names their module, else in the imported module.
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
        errors = [(e["kind"], e["message"], (e["file"], int(e["line"]), int(e["col"]),
                                             e.get("function", "")))
                  for e in record["errors"]]
        _remember_source(record["errors"])
        self.native = NativeFunction(address, [spec_of(s) for s in record["inputs"]],
                                     [spec_of(s) for s in record["results"]], errors,
                                     name=self.name, keepalive=lib, arg_names=names,
                                     written=record.get("written", []))
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
                    raise TypeError(f"{self.name}() argument {name!r}: this concrete function "
                                    f"was traced with {self._constants[name]!r}, received "
                                    f"{a!r}")
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
    CorruptArtifactError, ChecksumError, FormatVersionError, InvalidManifestError (a field
    outside ``runtime.manifest``'s schema), TargetMismatchError (another architecture),
    MissingCPUFeaturesError, NotLinkedError (object file only), LibraryMismatchError (the
    library's symbols, ABI version or interface differ from the manifest's)."""
    lib = read(source).open_library()
    return next(iter(lib.values())) if len(lib) == 1 else lib
