"""Writing artifacts: ConcreteFunctions -> manifest, IR text, native code, C header -> one zip
file (the format of ``runtime/artifact.py``). Source files are named as ``sources.py`` says,
never by the build machine's absolute paths."""

from __future__ import annotations

import json
import linecache
import os
import re
import tempfile

from runtime.artifact import constant_record, payload_digest, write_bytes
from runtime.lapack import LIBRARY_PATTERN
from runtime.manifest import (
    ABI_SYMBOL,
    ABI_VERSION,
    FORMAT,
    FORMAT_VERSION,
    HEADER,
    INTERFACE_SYMBOL,
    INTERRUPT_HANDLER,
    INTERRUPT_SYMBOL,
    MANIFEST,
    OBJECT,
    SHARED_LIBRARY,
    THREADS_SYMBOL,
    interface_digest,
    ir_member,
    llvm_member,
    validate,
)

from ..backend.llvm.signature import spec
from ..frontend import Constant
from ..targets import CudaTarget
from ..version import __version__
from .header import header
from .native import link_command, object_code, shared_library
from .sources import portable_ir, portable_path, portable_record, source_spans

_C_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")
STAGES = ("optimized", "loops")


def _spec_record(s, name: str | None = None) -> dict:
    rec = {} if name is None else {"name": name}
    rec["dtype"] = s.dtype.name
    if hasattr(s, "shape"):
        rec.update(shape=list(s.shape), contiguous=s.contiguous)
    else:
        rec.update(shape=None, python=s.python)
    return rec


def _error_record(kind: str, message: str, loc, function: str) -> dict:
    """The manifest record of one error-table entry; ``function``: the entry's Python function,
    named where the location does not say whose it is."""
    source = linecache.getline(loc.file, loc.line).rstrip() if loc.line > 0 else ""
    return {"kind": kind, "message": message, "file": portable_path(loc.file),
            "line": loc.line, "col": loc.col, "function": loc.function or function,
            "source": source}


def entry_record(cf) -> dict:
    """The manifest record of ``cf`` (without ``name`` and ``symbol``), and the name of its
    entry function in its LLVM IR as ``llvm_function``."""
    compiled = cf.compiled
    if compiled.record is not None:   # backed by an artifact already, its locations moved here
        return portable_record(compiled.record)
    lt, ft = compiled.types["loops"], compiled.types["frontend"]
    inputs = [spec(t, s) for t, s in zip(lt.inputs, ft.inputs, strict=True)]
    results = [spec(t, s) for t, s in zip(lt.results, compiled.result_types, strict=True)]
    keys = list(compiled.global_keys)
    names = [*cf.arg_names, *(f"global{k}" for k in range(len(keys)))]
    return {
        "function": cf.name,
        "module": getattr(cf.python_function, "__module__", None),
        "signature": cf.signature,
        "params": list(cf.params),
        "constants": {p: constant_record(a.value) for p, a in zip(cf.params, cf.args,
                                                                   strict=True)
                      if isinstance(a, Constant)},
        "inputs": [_spec_record(s, n) for s, n in zip(inputs, names, strict=True)],
        "results": [_spec_record(s) for s in results],
        "written": cf.written,
        "result_tuple": compiled.result_tuple,
        "result_structure": compiled.result_structure,
        "globals": keys,
        "errors": [_error_record(*e, cf.name) for e in compiled.native.errors],
        "sources": [dict(s, file=portable_path(s["file"]))
                    for s in source_spans(cf.python_function, cf.args)],
        "llvm_function": compiled.native.symbols[compiled.function],
    }


def target_of(cf):
    """The Target ``cf`` was compiled for."""
    return cf.compiled.target


# Entry names whose symbols are the library's own data (``runtime.manifest.LIBRARY_DATA``).
_RESERVED = {s[len("grafo_"):] for s in (ABI_SYMBOL, INTERFACE_SYMBOL, THREADS_SYMBOL,
                                         INTERRUPT_SYMBOL, INTERRUPT_HANDLER)}


def _named(functions) -> list:
    """[(entry name, ConcreteFunction)]: dict keys, or function names made unique (a name
    reserved for the library's data, ``threads``, gets a suffix as a second one would)."""
    if isinstance(functions, dict):
        named = list(functions.items())
    else:
        if not isinstance(functions, (list, tuple)):
            functions = [functions]
        named, seen = [], dict.fromkeys(_RESERVED, 1)
        for cf in functions:
            n = seen[cf.name] = seen.get(cf.name, 0) + 1
            named.append((cf.name if n == 1 else f"{cf.name}_{n}", cf))
    if not named:
        raise ValueError("nothing to save: give at least one ConcreteFunction")
    names = [n for n, _ in named]
    for n in names:
        if not isinstance(n, str) or not _C_NAME.match(n):
            raise ValueError(f"entry name {n!r} is not a C identifier: save a dict "
                             f"{{'name': concrete_function}} with ASCII identifier names")
    if len(set(names)) != len(names):
        raise ValueError(f"duplicate entry names in {names}")
    for n in names:
        if n in _RESERVED:
            raise ValueError(f"entry name {n!r} is reserved: its symbol grafo_{n} is the "
                             f"library's own; save the function under another name")
    return named


# A LAPACK routine the LLVM module declares (``runtime.lapack.symbol``).
LAPACK_SYMBOL = re.compile(r"^declare [^\n]*@(scipy_d[a-z]+_64_)\(", re.MULTILINE)
# A CBLAS routine it declares (``runtime.blas.symbol``), of the same library.
BLAS_SYMBOL = re.compile(r"^declare [^\n]*@(scipy_cblas_[sd][a-z]+64_)\(", re.MULTILINE)


def _libraries(llvm_irs) -> list:
    """The manifest's ``libraries``: NumPy's LAPACK and BLAS (one OpenBLAS) with the routines
    the code calls (the declared external functions that are their symbols), or none."""
    texts = list(llvm_irs)
    out = []
    for name, pattern in (("numpy-lapack", LAPACK_SYMBOL), ("numpy-blas", BLAS_SYMBOL)):
        symbols = set()
        for text in texts:
            symbols.update(pattern.findall(text))
        if symbols:
            out.append({"name": name, "pattern": LIBRARY_PATTERN, "symbols": sorted(symbols)})
    return out


def build(functions, cache_key: str | None = None) -> bytes:
    """The artifact bytes of ``functions`` (a ConcreteFunction, a list of them, or a dict
    {entry name: ConcreteFunction}); all must be compiled for one target. ``cache_key``:
    the disk cache's key of the entry (``compiler/cache.py``), recorded in the manifest.

    Raises ValueError for mixed targets, a ``cpu_model`` or CUDA target, invalid or reserved entry
    names, or a manifest that ``runtime.manifest.validate`` would refuse (SchemaError: a
    function the loader could not call, such as one of more than 1023 arguments and
    results), TypeError for a function that uses a ``compiler.Variable``, RuntimeError when
    linking the shared library fails."""
    named = _named(functions)
    target = target_of(named[0][1])
    if isinstance(target, CudaTarget):
        raise ValueError(f"code compiled for {target.name!r} cannot be saved yet: an artifact "
                         f"holds CPU code; compile for 'cpu', an x86-64 level or a triple")
    if target.inspect_only:
        raise ValueError(f"code compiled for CPU model {target.cpu!r} can be read (llvm_ir, "
                         f"asm) but not saved: its feature set is LLVM's, unknown to the "
                         f"artifact's CPU check; compile for an x86-64 level or 'cpu'")
    entries, members, modules = [], {}, []
    for name, cf in named:
        if target_of(cf) != target:
            raise ValueError(f"cannot save functions of different targets in one artifact: "
                             f"{named[0][0]} is for {target.name!r}, {name} for "
                             f"{target_of(cf).name!r}")
        if cf.variables:
            raise TypeError(f"cannot save or pickle {name}: functions that use "
                            f"compiler.Variable cannot be saved yet")
        record = entry_record(cf)
        record.update(name=name, symbol=f"grafo_{name}")
        entries.append(record)
        for stage in STAGES:
            members[ir_member(name, stage)] = portable_ir(cf.ir_stages[stage]).encode()
        members[llvm_member(name)] = cf.llvm_ir.encode()
        modules.append((cf.llvm_ir, record["llvm_function"], record["symbol"]))
    # The form ``read`` sees (lists, not tuples), whose interface the library records.
    interface = interface_digest(json.loads(json.dumps(
        {"target": target.manifest(), "entries": entries})))
    obj, exported = object_code(modules, target, interface)
    library = shared_library(obj, target)
    if library is not None:
        native = {"kind": "shared_library", "member": SHARED_LIBRARY}
        members[SHARED_LIBRARY] = library
    else:
        native = {"kind": "object", "member": OBJECT,
                  "note": f"no linker for {target.triple} was found when saving; link it "
                          f"with: {link_command(target)}"}
        members[OBJECT] = obj
    native.update(abi_version=ABI_VERSION, **exported)
    manifest = {"format": FORMAT, "format_version": FORMAT_VERSION,
                "grafo_version": __version__, "target": target.manifest(), "native": native,
                "header": HEADER, "entries": entries}
    if cache_key is not None:
        manifest["cache_key"] = cache_key
    libraries = _libraries(cf.llvm_ir for _, cf in named)
    if libraries:
        manifest["libraries"] = libraries
    members[HEADER] = header(manifest).encode()
    manifest["payload"] = {"members": sorted(members)}
    manifest = json.loads(json.dumps(manifest))   # the form ``read`` sees
    manifest["payload"]["sha256"] = payload_digest(members, manifest)
    validate(manifest)
    members[MANIFEST] = json.dumps(manifest, indent=1).encode()
    return write_bytes(members)


def atomic_write(path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same directory and
    ``os.replace``, so that readers never see a partial file."""
    path = os.fspath(path)
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".grafo-",
                               suffix=".tmp")
    try:
        os.fchmod(fd, 0o644)
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise


def save(path, functions) -> None:
    """Write the artifact of ``functions`` (see ``build``) to ``path``."""
    atomic_write(path, build(functions))
