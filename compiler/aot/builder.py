"""Writing artifacts: ConcreteFunctions -> manifest, IR text, native code, C header -> one zip
file (the format of ``runtime/artifact.py``)."""

from __future__ import annotations

import json
import linecache
import os
import re
import tempfile

from runtime.artifact import (
    FORMAT,
    FORMAT_VERSION,
    HEADER,
    MANIFEST,
    OBJECT,
    SHARED_LIBRARY,
    constant_record,
    ir_member,
    llvm_member,
    payload_digest,
    write_bytes,
)

from ..api import _written_parameters
from ..backend.llvm.signature import spec
from ..frontend import Constant
from .header import header
from .native import link_command, object_code, shared_library
from .sources import source_spans
from .targets import host

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


def _error_record(kind: str, message: str, loc) -> dict:
    source = linecache.getline(loc.file, loc.line).rstrip() if loc.line > 0 else ""
    return {"kind": kind, "message": message, "file": loc.file, "line": loc.line,
            "col": loc.col, "source": source}


def entry_record(cf) -> dict:
    """The manifest record of ``cf`` (without ``name`` and ``symbol``), and the name of its
    entry function in its LLVM IR as ``llvm_function``."""
    compiled = cf._compiled
    record = getattr(compiled, "record", None)
    if record is not None:   # backed by an artifact already
        return dict(record)
    front = compiled.modules["frontend"].functions()[0]
    loops = {f.sym_name: f for f in compiled.modules["loops"].functions()}[front.sym_name]
    lt, ft = loops.function_type, front.function_type
    inputs = [spec(t, s) for t, s in zip(lt.inputs, ft.inputs, strict=True)]
    results = [spec(t, s) for t, s in zip(lt.results, compiled.result_types, strict=True)]
    keys = front.attributes.get("grafo.globals")
    keys = [k.value for k in keys.value] if keys is not None else []
    names = [*cf.arg_names, *(f"global{k}" for k in range(len(keys)))]
    return {
        "function": cf.name,
        "module": getattr(cf.python_function, "__module__", None),
        "signature": cf.signature,
        "params": list(cf._params),
        "constants": {p: constant_record(a.value) for p, a in zip(cf._params, cf._args,
                                                                   strict=True)
                      if isinstance(a, Constant)},
        "inputs": [_spec_record(s, n) for s, n in zip(inputs, names, strict=True)],
        "results": [_spec_record(s) for s in results],
        "written": _written_parameters(compiled, len(cf.arg_names)),
        "result_tuple": compiled.result_tuple,
        "result_structure": compiled.result_structure,
        "globals": keys,
        "errors": [_error_record(*e) for e in compiled.native.errors],
        "sources": source_spans(cf.python_function, cf._args),
        "llvm_function": compiled.native.symbols[front.sym_name],
    }


def target_of(cf):
    """The Target ``cf`` was compiled for."""
    return getattr(cf._compiled.native, "target", None) or host()


def _named(functions) -> list:
    """[(entry name, ConcreteFunction)]: dict keys, or function names made unique."""
    if isinstance(functions, dict):
        named = list(functions.items())
    else:
        if not isinstance(functions, (list, tuple)):
            functions = [functions]
        named, seen = [], {}
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
    return named


def build(functions) -> bytes:
    """The artifact bytes of ``functions`` (a ConcreteFunction, a list of them, or a dict
    {entry name: ConcreteFunction}); all must be compiled for one target.

    Raises ValueError for mixed targets, a ``cpu_model`` target or invalid entry names,
    TypeError for a function that uses a ``compiler.Variable``, RuntimeError when linking
    the shared library fails."""
    from .. import __version__
    named = _named(functions)
    target = target_of(named[0][1])
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
        if getattr(cf, "variables", None):
            raise TypeError(f"cannot save or pickle {name}: functions that use "
                            f"compiler.Variable cannot be saved yet")
        record = entry_record(cf)
        record.update(name=name, symbol=f"grafo_{name}")
        entries.append(record)
        for stage in STAGES:
            members[ir_member(name, stage)] = cf.ir_stages[stage].encode()
        members[llvm_member(name)] = cf.llvm_ir.encode()
        modules.append((cf.llvm_ir, record["llvm_function"], record["symbol"]))
    obj, exported = object_code(modules, target)
    library = shared_library(obj, target)
    if library is not None:
        native = {"kind": "shared_library", "member": SHARED_LIBRARY}
        members[SHARED_LIBRARY] = library
    else:
        native = {"kind": "object", "member": OBJECT,
                  "note": f"no linker for {target.triple} was found when saving; link it "
                          f"with: {link_command(target)}"}
        members[OBJECT] = obj
    native.update(exported)
    manifest = {"format": FORMAT, "format_version": FORMAT_VERSION,
                "grafo_version": __version__, "target": target.manifest(), "native": native,
                "header": HEADER, "entries": entries}
    members[HEADER] = header(manifest).encode()
    manifest["payload"] = {"members": sorted(members)}
    manifest = json.loads(json.dumps(manifest))   # the form ``read`` sees
    manifest["payload"]["sha256"] = payload_digest(members, manifest)
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
