"""Fuzzing of artifact manifests: edited fields with a recomputed checksum, loaded and called.

    python benches/fuzz_artifacts.py [-n N] [--seed S]

Saves a few real artifacts (a scalar result with run-time checks, a tuple of an array and a
scalar with a trace-time constant, a function that writes its argument, parallel loops, a
nested result structure, a rebound module global), then N times (default 400): takes one,
changes fields of its manifest (types, values, dropped and added keys, symbols such as
``abort``, ``free`` and ``malloc``, dtypes such as ``V8``, ``complex128``, ``object`` and
``U``, huge ranks and shapes, error tables, result structures), records the SHA-256 of the
edited manifest as the file's checksum, and loads and calls it in a worker process (limited
to 2 GiB of address space) with the arguments the original takes. Prints how many were
tried, loaded cleanly (same results as the original, or only argument errors: TypeError,
OverflowError), loaded cleanly but computed something else, raised a ``runtime.ArtifactError``,
raised another exception, or crashed (or hung) the worker, then one example of each outcome
but the first two.

The checksum is not a signature, so anyone can edit a manifest this way; ``runtime.load``
must refuse every edit that it cannot run safely, with an ArtifactError.
"""

from __future__ import annotations

import argparse
import base64
import collections
import copy
import io
import json
import os
import random
import select
import subprocess
import sys
import zipfile

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

MEMORY_LIMIT = 2 << 30
TIMEOUT = 60.0
ARGUMENT_ERRORS = ("TypeError", "OverflowError")

COUNT = 0


def dot_at(x, y):
    return np.sum(x * y) + x[3]


def scaled(x, n):
    return x * n, np.max(x)


def shift_into(a, b):
    a[:] = b + 1


def affine(a, b):
    return a * 2.0 + b


def nested(x):
    return x + 1, None, (np.sum(x),)


def counted(x):
    global COUNT
    COUNT += 1
    return x * COUNT


def _array(dtype, shape):
    return {"dtype": dtype, "shape": shape}


# (function, signature: a string or a list of TensorSpec-like (shape, dtype)/constants,
# calls: argument lists of {"dtype", "shape"} arrays; the original's results are the oracle)
SEEDS = [
    (dot_at, "f32[?], f32[?]", [[_array("float32", [8]), _array("float32", [8])],
                                [_array("float32", [2]), _array("float32", [2])]]),
    (scaled, [((None,), "float64"), 3], [[_array("float64", [8])]]),
    (shift_into, "f64[?], f64[?]", [[_array("float64", [8]), _array("float64", [8])]]),
    (affine, "f64[?], f64[?]", [[_array("float64", [70000]), _array("float64", [70000])]]),
    (nested, "f32[3]", [[_array("float32", [3])]]),
    (counted, "i64[?]", [[_array("int64", [4])]]),
]


def seed_artifacts() -> list:
    """[(name, artifact bytes, calls)] of ``SEEDS``, compiled here."""
    import compiler
    from compiler.aot.builder import build
    out = []
    for fn, signature, calls in SEEDS:
        if isinstance(signature, str):
            cf = compiler.compile(fn, signature)
        else:
            args = [compiler.TensorSpec(*a) if isinstance(a, tuple) else a for a in signature]
            cf = compiler.function(fn).get_concrete_function(*args)
        out.append((fn.__name__, build(cf), calls))
    return out


# mutations -------------------------------------------------------------------------------------

SYMBOLS = ["abort", "free", "malloc", "exit", "system", "raise", "dlopen", "grafo_threads",
           "grafo_", "grafo_abort", "grafo_dot_at", "grafo_scaled", "", "grafo_free"]
DTYPES = ["V8", "complex128", "complex64", "object", "U", "<U3", "S5", "float16", "m8[s]",
          "datetime64[s]", "f8", ">f8", "<f4", "int64", "float32", "uint8", "bool", "float64",
          "int8", "q", "|b1", "O", 7, None, ["float32"], {"dtype": "float32"}]
SHAPES = [None, [], [None, None], [None] * 3, [None] * 33, [None] * 65, [None] * 1000,
          [2**62], [2**62, 2**62], [-1], [1.5], [True], [0], [1], [3], [100], [10**30],
          "abc", {"0": None}, [[None]]]
VALUES = [None, True, False, 0, -1, 1, 2, 3, 33, 65, 2**31, 2**63, -2**63, 10**12, 10**30,
          1.5, -0.0, 1e308, "", "x", "abort", "grafo_free", "{0}", "{5}", "{0.__class__}", "{",
          "((((", "_", [], [None], [-1], [2**62, 2**62], {}, {"a": 1}, "\u0000",
          "a" * 100_000]
KINDS = ["SystemExit", "KeyboardInterrupt", "BaseException", "GeneratorExit", "os.system",
         "Exception", "StopIteration", "ValueError", "IndexError", "MemoryError", "Warning",
         "RecursionError", "", "object", "__import__"]
MESSAGES = ["{5}", "{4}", "{0.__class__.__init__.__globals__}", "{0[0]}", "{", "}", "{}{}{}{}{}",
            "{0:1000000000}", "{0:>99999999999999999999}", "{x}", "{0!r:^30}", "{0}{1}{2}{3}",
            "%s %d", "ok"]
LINES = [10**12, 10**9, 2**63, -5, -(2**63), 1.5, "3", None, True]
STRUCTURES = ["(" * 100_000 + ")" * 100_000, "(" * 5000, "[" * 3000 + "_" + "]" * 3000, "_",
              "?", "(_,_)", "(_,_,_,_,_)", "None", "[_]", "", "((_,_),_)", "(_,", "_,_",
              5, None, ["_"]]
GLOBALS = [["os:system"], ["builtins:print"], ["x"], [":"], ["a:b", "a:b", "a:b"],
           ["runtime.abi:_free"], [5], ["__main__:COUNT", "__main__:COUNT"]]
WRITTEN = [[0], [1], [5], [-1], [1, 1], ["a"], [0, 1, 2], None, [2**63]]
CONSTANTS = [{"n": 4}, {"n": 3.0}, {"zz": 1}, {"x": 3}, {"n": {"dtype": "V8", "value": 1}},
             {"n": {"dtype": "float64", "value": "x"}}, [], {"n": [[[[[[1]]]]]] * 10},
             {"n": {"function": 5}}, {"n": None}]
PARAMS = [["x"], ["x", "x"], ["y", "x"], [1], [], ["x", "n", "m"], ["n", "x"]]
FEATURES = [["avx512f"], [], ["x" * 1000], [1], "sse2"]
MEMBERS = ["lib/x.so", "../../etc/passwd", "/lib/x86_64-linux-gnu/libc.so.6", "lib/grafo.o",
           "manifest.json", 5]
TRIPLES = ["aarch64-unknown-linux-gnu", "x86_64-pc-windows-msvc", "", 5, "x86_64"]


def _paths(obj, prefix=()) -> list:
    """Every path (a tuple of keys and indices) into ``obj``, the root excluded."""
    out = []
    items = (obj.items() if isinstance(obj, dict) else enumerate(obj) if isinstance(obj, list)
             else ())
    for k, v in items:
        out.append((*prefix, k))
        if len(out) < 5000:
            out += _paths(v, (*prefix, k))
    return out


def _get(obj, path):
    for k in path:
        obj = obj[k]
    return obj


def _set(obj, path, value):
    _get(obj, path[:-1])[path[-1]] = value


def _records(m: dict, rng: random.Random, key: str) -> list:
    """The entries' ``key`` lists ("inputs", "results", "errors") that exist, as records."""
    out = []
    for e in m.get("entries") or []:
        if isinstance(e, dict) and isinstance(e.get(key), list):
            out += [r for r in e[key] if isinstance(r, dict)]
    return out


def _entry(m: dict, rng: random.Random) -> dict | None:
    entries = [e for e in (m.get("entries") or []) if isinstance(e, dict)]
    return rng.choice(entries) if entries else None


def _mutate_once(m: dict, rng: random.Random) -> str:
    """Change ``m`` in place one way; a description of the change."""
    kind = rng.choice(["value", "value", "delete", "add", "symbol", "symbol", "dtype", "dtype",
                       "shape", "shape", "error", "error", "structure", "globals", "written",
                       "constants", "params", "target", "native", "swap"])
    entry = _entry(m, rng)
    if kind == "value":
        path = rng.choice(_paths(m))
        value = rng.choice(VALUES)
        _set(m, path, copy.deepcopy(value))
        return f"{'.'.join(map(str, path))} = {str(value)[:40]!r}"
    if kind == "delete":
        paths = [p for p in _paths(m) if isinstance(_get(m, p[:-1]), dict)]
        path = rng.choice(paths)
        del _get(m, path[:-1])[path[-1]]
        return f"del {'.'.join(map(str, path))}"
    if kind == "add":
        dicts = [()] + [p for p in _paths(m) if isinstance(_get(m, p), dict)]
        path = rng.choice(dicts)
        key = rng.choice(["x", "symbol", "dtype", "shape", "python", "contiguous", "note",
                          "interrupt_symbol", "abi_version", "lib"])
        value = rng.choice(VALUES)
        _get(m, path)[key] = copy.deepcopy(value)
        return f"{'.'.join(map(str, path)) or 'manifest'}.{key} += {str(value)[:40]!r}"
    if kind == "symbol" and entry is not None:
        symbol = rng.choice(SYMBOLS)
        if rng.random() < 0.3 and isinstance(m.get("native"), dict):
            m["native"]["threads_symbol"] = symbol
            return f"threads_symbol = {symbol!r}"
        entry["symbol"] = symbol
        if rng.random() < 0.5:
            entry["name"] = symbol[6:] if symbol.startswith("grafo_") else symbol
        return f"symbol = {symbol!r}, name = {entry.get('name')!r}"
    if kind in ("dtype", "shape"):
        records = _records(m, rng, "inputs") + _records(m, rng, "results")
        if records:
            r = rng.choice(records)
            value = rng.choice(DTYPES if kind == "dtype" else SHAPES)
            r[kind] = copy.deepcopy(value)
            return f"{kind} = {str(value)[:40]!r}"
    if kind == "error":
        errors = _records(m, rng, "errors")
        if errors:
            e = rng.choice(errors)
            field = rng.choice(["kind", "message", "line", "col", "file", "function", "source"])
            value = rng.choice({"kind": KINDS, "message": MESSAGES, "line": LINES,
                                "col": LINES}.get(field, VALUES))
            e[field] = value
            return f"error {field} = {str(value)[:40]!r}"
    if entry is not None and kind in ("structure", "globals", "written", "constants", "params"):
        key, values = {"structure": ("result_structure", STRUCTURES),
                       "globals": ("globals", GLOBALS), "written": ("written", WRITTEN),
                       "constants": ("constants", CONSTANTS), "params": ("params", PARAMS)}[kind]
        if kind == "structure" and rng.random() < 0.3:
            key, values = "result_tuple", [True, False, 1, None]
        value = rng.choice(values)
        entry[key] = copy.deepcopy(value)
        return f"{key} = {str(value)[:40]!r}"
    if kind == "target" and isinstance(m.get("target"), dict):
        field = rng.choice(["features", "triple", "name", "cpu"])
        value = rng.choice(FEATURES if field == "features" else TRIPLES)
        m["target"][field] = copy.deepcopy(value)
        return f"target.{field} = {str(value)[:40]!r}"
    if kind == "native" and isinstance(m.get("native"), dict):
        field = rng.choice(["kind", "member", "threads_symbol"])
        value = rng.choice({"kind": ["object", "shared_library", "elf", None],
                            "member": MEMBERS, "threads_symbol": SYMBOLS + [None]}[field])
        m["native"][field] = value
        return f"native.{field} = {value!r}"
    if kind == "swap" and entry is not None:
        a, b = rng.sample(["inputs", "results"], 2)
        if isinstance(entry.get(a), list) and isinstance(entry.get(b), list):
            entry[a], entry[b] = entry[b], entry[a]
            return "inputs <-> results"
    path = rng.choice(_paths(m))
    _set(m, path, None)
    return f"{'.'.join(map(str, path))} = None"


def mutate(manifest: dict, rng: random.Random) -> tuple[dict, str]:
    """A copy of ``manifest`` changed one to three ways, and a description of the changes."""
    m = copy.deepcopy(manifest)
    changes = [_mutate_once(m, rng) for _ in range(rng.choice([1, 1, 1, 2, 3]))]
    return m, "; ".join(changes)


def members_of(data: bytes) -> dict:
    """{name: bytes} of an artifact's zip members."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def resigned(members: dict, manifest: dict) -> bytes:
    """The artifact of ``members`` with ``manifest``, whose checksum is recomputed for it."""
    from runtime.artifact import MANIFEST, payload_digest, write_bytes
    members = dict(members)
    if isinstance(manifest.get("payload"), dict):
        try:
            manifest["payload"]["sha256"] = payload_digest(members, manifest)
        except (TypeError, ValueError, AttributeError):
            pass
    members[MANIFEST] = json.dumps(manifest).encode()
    return write_bytes(members)


# the worker ------------------------------------------------------------------------------------

def _arguments(call: list) -> list:
    return [(np.arange(int(np.prod(a["shape"]))) % 7 + 1).astype(a["dtype"]).reshape(a["shape"])
            for a in call]


def _fingerprint(value) -> object:
    """The type, dtype, shape and bytes of a result (recursively for tuples and lists)."""
    if isinstance(value, (tuple, list)):
        return [type(value).__name__, [_fingerprint(v) for v in value]]
    if isinstance(value, (np.ndarray, np.generic)):
        a = np.asarray(value)
        return [type(value).__name__, a.dtype.str, list(a.shape), a.tobytes().hex()[:4096]]
    return [type(value).__name__, repr(value)]


def _reset_globals() -> None:
    """``COUNT`` back to 0 wherever the ``counted`` seed rebinds it (this script run as
    ``__main__``, or imported), so that every job starts as the original's did."""
    for name in ("__main__", "fuzz_artifacts"):
        module = sys.modules.get(name)
        if module is not None and hasattr(module, "COUNT"):
            module.COUNT = 0


def _run_job(job: dict) -> dict:
    import runtime
    _reset_globals()
    try:
        loaded = runtime.load(base64.b64decode(job["data"]))
    except runtime.ArtifactError as e:
        return {"load": "artifact_error", "error": f"{type(e).__name__}: {str(e)[:300]}"}
    except BaseException as e:   # noqa: BLE001 - what escapes is the measurement
        return {"load": "other", "error": f"{type(e).__name__}: {str(e)[:300]}"}
    if isinstance(loaded, runtime.Library):
        loaded = next(iter(loaded.values()))
    calls = []
    for call in job["calls"]:
        args = _arguments(call)
        try:
            out = loaded(*args)
            calls.append(["ok", _fingerprint(out), _fingerprint(args)])
        except BaseException as e:   # noqa: BLE001 - what escapes is the measurement
            calls.append(["raise", type(e).__name__, str(e).split("\n")[0][:300]])
    return {"load": "ok", "calls": calls}


def worker() -> None:
    """Read jobs (JSON lines: artifact bytes in base64, calls) from stdin, answer each with
    one JSON line on the original stdout; compiled code may write to fd 1, so it is stderr."""
    import resource
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)
    sys.setrecursionlimit(10_000)
    for line in sys.stdin:
        out.write(json.dumps(_run_job(json.loads(line))) + "\n")
        out.flush()


class Worker:
    """A worker process, restarted after it dies; ``run(data, calls)`` is its answer, or
    {"load": "crash", ...} when it died or hung."""

    def __init__(self):
        self.proc = None

    def _start(self):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(
            [ROOT, os.path.join(ROOT, "benches"), *filter(None, [os.environ.get("PYTHONPATH")])]))
        self.proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker"],
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, text=True, env=env)

    def run(self, data: bytes, calls: list) -> dict:
        if self.proc is None or self.proc.poll() is not None:
            self._start()
        job = json.dumps({"data": base64.b64encode(data).decode(), "calls": calls})
        try:
            self.proc.stdin.write(job + "\n")
            self.proc.stdin.flush()
        except BrokenPipeError:
            pass
        ready, _, _ = select.select([self.proc.stdout], [], [], TIMEOUT)
        line = self.proc.stdout.readline() if ready else ""
        if line:
            return json.loads(line)
        if ready:
            self.proc.wait()
            return {"load": "crash", "error": f"worker died (exit status {self.proc.returncode})"}
        self.close()
        return {"load": "crash", "error": f"worker hung for {TIMEOUT:.0f} s"}

    def close(self):
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self.proc = None


def outcome(answer: dict, baseline: dict) -> str:
    """"clean", "different", "artifact_error", "other" or "crash" for a worker's answer to a
    mutated artifact, given its answer for the original."""
    if answer["load"] != "ok":
        return answer["load"]
    verdict = "clean"
    for got, want in zip(answer["calls"], baseline["calls"], strict=True):
        if got == want or (got[0] == "raise" and got[1] in ARGUMENT_ERRORS):
            continue
        if got[0] == "raise" and (want[0] != "raise" or got[1] != want[1]):
            return "other"
        verdict = "different"
    return verdict


OUTCOMES = ["clean", "different", "artifact_error", "other", "crash"]
LABELS = {"clean": "clean load (same results or argument errors)",
          "different": "clean load, different results",
          "artifact_error": "ArtifactError", "other": "other exception", "crash": "crash or hang"}


def fuzz(n: int, seed: int, report=print) -> collections.Counter:
    """Run ``n`` mutations; the count of each outcome (and "tried")."""
    rng = random.Random(seed)
    seeds = seed_artifacts()
    worker_ = Worker()
    counts: collections.Counter = collections.Counter()
    examples: dict = {}
    try:
        bases = []
        for name, data, calls in seeds:
            members = members_of(data)
            manifest = json.loads(members["manifest.json"])
            baseline = worker_.run(data, calls)
            if baseline["load"] != "ok":
                raise RuntimeError(f"the unmutated {name} artifact does not load: {baseline}")
            bases.append((name, members, manifest, calls, baseline))
        for _ in range(n):
            name, members, manifest, calls, baseline = rng.choice(bases)
            mutated, change = mutate(manifest, rng)
            answer = worker_.run(resigned(members, mutated), calls)
            kind = outcome(answer, baseline)
            counts["tried"] += 1
            counts[kind] += 1
            examples.setdefault(kind, f"{name}: {change} -> {answer.get('error') or answer}")
    finally:
        worker_.close()
    report(f"tried: {counts['tried']}")
    for kind in OUTCOMES:
        report(f"{LABELS[kind]}: {counts[kind]}")
    for kind in OUTCOMES[1:]:
        if kind in examples:
            report(f"e.g. {kind}: {examples[kind][:400]}")
    return counts


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("-n", type=int, default=400, help="mutations to try (default 400)")
    p.add_argument("--seed", type=int, default=0, help="random seed (default 0)")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        worker()
        return 0
    fuzz(args.n, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
