"""Fuzzing the IR verifier: mutated real IR fails only with the documented errors.

    python benches/fuzz_ir.py [-n 600] [--seed 0] [--mutations 3] [--show 3] [--timeout 60]

The IR of the functions below at each pipeline stage (``frontend``, ``optimized``,
``loops``) is mutated: attribute values of the wrong kind (strings, floats, huge, negative
and out-of-range integers, arrays, types, unit), attribute keys dropped, renamed or added,
op names misspelled or swapped for another op of the same dialect, operand and result types
changed, operands swapped or replaced, ops dropped or duplicated, block arguments added or
dropped. Each mutant is printed and then run through parse -> verify -> every registered
pass -> lowering (tensor-level IR) -> the loop pipeline -> LLVM IR (``backend.llvm.
lower_module``: LLVM's parser and verifier, no O3). The outcome of a mutant:

- ``clean``: every stage ran;
- ``rejected``: a documented error (``compiler.errors.IR_INPUT_ERRORS``) from parsing,
  verification or a later stage;
- ``internal``: any other exception, or a ``VerifyError`` after a pass (a pass broke valid
  IR); counted by the compiler source line that raised it;
- ``crash``: the process running the mutant died or took longer than ``--timeout`` seconds.

Mutants run in a worker process (restarted after a crash); mutant ``k`` of ``--seed s`` is
the same on every run, so ``--only k`` replays it. The counts are printed as one table.
``tests/test_ir_fuzz.py`` runs the same mutations under hypothesis.
"""

from __future__ import annotations

import argparse
import collections
import json
import math
import os
import queue
import random
import subprocess
import sys
import threading
import time
import traceback

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

from compiler import types as T  # noqa: E402
from compiler.ir import attributes as A  # noqa: E402
from compiler.ir.verifier import VerifyError, verify  # noqa: E402

STAGES = ("frontend", "optimized", "loops")


# the functions whose IR is mutated ------------------------------------------------------------

def mse(a, b):
    d = a - b
    return np.mean(d * d)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def triad(a, b, c, s):
    for i in range(a.shape[0]):
        a[i] = b[i] + s * c[i]


def matmul(a, b):
    return a @ b


def control(x, n):
    total = 0
    i = 0
    while i < n:
        if x[i % x.shape[0]] > 3:
            total += x[i % x.shape[0]] // 2
        else:
            total -= (x[0] << 1) ^ 5
        i += 1
    assert total != 7, "seven"
    print("total", total)
    return total


def data(x, idx):
    y = np.sort(x)
    z = np.cumsum(y)
    w = np.concatenate([z, x[idx]])
    k = np.argmax(w)
    m = w[w > 0.5]
    t = np.where(w > 1.0, w, -w).reshape(-1, 1).T
    return t, k, m.sum()


def casts(a, u):
    b = a.astype(np.float64) / 3
    c = np.arange(4) + np.eye(3, 4, dtype=np.int32)
    d = np.transpose(a)[1:, ::2]
    a[0, 1:3] = 9
    return b + c, d, np.minimum(a, 4) % 3, np.sqrt(np.abs(b)).max(), u > 2


def updates(x, idx, k):
    x[idx] = 1.5
    x[x > 3.0] = -1.0
    y = np.zeros((k, 3)) + np.broadcast_to(x[:3], (2, 3)).sum(axis=0)
    print("y", y, k)
    return np.argmin(x), y ** 2, np.power(x, k), np.reshape(x, (-1, 2))


def points(x, i, j):
    x[i, :, j] += 1.0
    return x[i[:, None], j], x[0, :, j]


def stats(a, b):
    return a.sum(axis=0), np.logaddexp(a, b).max(axis=1), np.cumprod(a, axis=1), np.sort(b, 0)


FUNCTIONS = [(mse, "f32[?], f32[?]"), (softmax, "f32[?,?]"),
             (triad, "f64[?], f64[?], f64[?], f64"), (matmul, "f32[4,4], f32[4,4]"),
             (control, "i64[?], i64"), (data, "f32[?], i64[?]"), (casts, "i32[3,4], u8"),
             (updates, "f64[?], i64[?], i64"), (points, "f64[?,?,?], i64[?], i32[?]"),
             (stats, "f32[?,?], f32[?,?]")]


def seed_texts(functions=FUNCTIONS) -> list[tuple[str, str]]:
    """``(label, IR text)`` of each function at each stage (``"mse/loops"``)."""
    from compiler.ir.printer import print_op
    from compiler.pipeline import stage_module
    from compiler.signature import to_specs
    out = []
    for fn, sig in functions:
        types = [s.to_type() for s in to_specs(sig)]
        for stage in STAGES:
            out.append((f"{fn.__name__}/{stage}", print_op(stage_module(fn, types, stage))))
    return out


# mutations ------------------------------------------------------------------------------------

SCALARS = [T.i1, T.i8, T.i16, T.i32, T.i64, T.u8, T.u32, T.u64, T.f32, T.f64, T.index,
           T.py_int, T.py_float, T.py_bool, T.none]
# Keys that ops of some dialect read: added where they do not belong, or with wrong values.
KEYS = ["value", "predicate", "kind", "axes", "axis", "keepdims", "perm", "spec", "bounds",
        "index", "k", "arg", "index_axes", "callee", "sym_name", "function_type", "message",
        "pieces", "conversions", "kinds", "grafo.parallel", "grafo.lanes", "grafo.work",
        "grafo.no_unroll", "grafo.nsz", "grafo.independent", "grafo.serial_outlined",
        "grafo.matmul", "grafo.result_tuple", "grafo.result_structure", "grafo.globals"]


def random_type(rng: random.Random, near: T.Type | None = None) -> T.Type:
    """A type: a scalar, or a tensor/memref of a few dims (often of ``near``'s shape)."""
    el = rng.choice(SCALARS[:11])
    shape = T.shape_of(near) if near is not None and rng.random() < 0.5 else \
        tuple(rng.choice([None, 0, 1, 2, 3, 4]) for _ in range(rng.randint(0, 3)))
    kind = rng.choice(["scalar", "tensor", "memref", "memref", "same-shape"])
    if kind == "scalar":
        return rng.choice(SCALARS)
    if kind == "tensor":
        return T.TensorType(shape, el)
    if kind == "same-shape" and isinstance(near, (T.TensorType, T.MemRefType)):
        return T.with_element(near, el)
    return T.MemRefType(shape, el, rng.random() < 0.3)


def random_attr(rng: random.Random, old: A.Attribute | None = None, depth: int = 0):
    """An attribute of any kind, often a near miss of ``old`` (one more, negated, the
    same value as another kind)."""
    ints = [0, 1, -1, 2, 3, 7, 8, 16, 77, 2**31, 2**63 - 1, 2**63, 2**64, -2**63 - 1, 10**30]
    choices = [
        lambda: A.StringAttr(rng.choice(["", "max", "sum", "argmax", "x", "ValueError", "i",
                                         "s", "none", "?", "{}", "eq", "r"])),
        lambda: A.FloatAttr(rng.choice([0.5, -1.0, 2.0, math.nan, math.inf, 1e30]),
                            rng.choice([T.f32, T.f64])),
        lambda: A.IntegerAttr(rng.choice(ints), rng.choice([T.i64, T.i64, T.i32, T.i8, T.index])),
        lambda: A.IntegerAttr(rng.randint(0, 1), T.i1),
        lambda: A.UnitAttr(),
        lambda: A.TypeAttr(random_type(rng)),
        lambda: A.TypeAttr(T.FunctionType((random_type(rng),), (random_type(rng),))),
        lambda: A.SymbolRefAttr(rng.choice(["f", "g", "mse"])),
        lambda: A.DenseArrayAttr(T.i32, (1, 0)),
        lambda: A.DialectAttr("#arith.fastmath<fast>"),
        lambda: _dense(rng),
    ]
    if depth < 2:
        choices.append(lambda: A.ArrayAttr(tuple(random_attr(rng, None, depth + 1)
                                                 for _ in range(rng.randint(0, 3)))))
    if old is not None:
        choices += [lambda: _near_miss(rng, old)] * 4
    return rng.choice(choices)()


def _dense(rng):
    t = T.TensorType(tuple(rng.randint(1, 3) for _ in range(rng.randint(0, 2))),
                     rng.choice([T.f32, T.f64, T.i64, T.i32, T.i1, T.u8]))
    arr = np.full(t.shape, rng.randint(0, 3), dtype=T.to_dtype(t.element))
    arr.flags.writeable = False
    return A.DenseAttr(arr, t)


def _near_miss(rng, old):
    if isinstance(old, A.IntegerAttr):
        v = rng.choice([old.value + 1, old.value - 1, -old.value - 1, old.value + 2**32,
                        old.value * 1000, 2**old.value.bit_length() if old.value else 77])
        return rng.choice([A.IntegerAttr(v, old.type), A.FloatAttr(float(old.value)),
                           A.StringAttr(str(old.value)), A.IntegerAttr(old.value, T.i1),
                           A.ArrayAttr((old,))])
    if isinstance(old, A.FloatAttr):
        return rng.choice([A.FloatAttr(old.value, T.f32 if old.type == T.f64 else T.f64),
                           A.IntegerAttr(0 if math.isnan(old.value) or math.isinf(old.value)
                                         else int(old.value), T.i64),
                           A.FloatAttr(math.nan, old.type)])
    if isinstance(old, A.StringAttr):
        s = old.value
        return rng.choice([A.StringAttr(s[:-1]), A.StringAttr(s + "x"), A.StringAttr(s.upper()),
                           A.ArrayAttr((old,)), A.StringAttr("{0}{1}{2}" + s)])
    if isinstance(old, A.ArrayAttr):
        items = list(old.value)
        edits = [lambda: items[:-1], lambda: items + items[:1], lambda: items[::-1],
                 lambda: [random_attr(rng, x, 2) for x in items]]
        if items:
            k = rng.randrange(len(items))
            edits.append(lambda: items[:k] + [random_attr(rng, items[k], 2)] + items[k + 1:])
        return A.ArrayAttr(tuple(rng.choice(edits)()))
    if isinstance(old, A.TypeAttr):
        if isinstance(old.value, T.FunctionType):
            ins, outs = list(old.value.inputs), list(old.value.results)
            target = ins if ins and rng.random() < 0.5 else outs
            if target and rng.random() < 0.7:
                k = rng.randrange(len(target))
                target[k] = random_type(rng, target[k])
            elif target:
                target.pop()
            else:
                target.append(random_type(rng))
            return A.TypeAttr(T.FunctionType(tuple(ins), tuple(outs)))
        return A.TypeAttr(random_type(rng, old.value))
    if isinstance(old, A.DenseAttr):
        return rng.choice([_dense(rng), A.IntegerAttr(1, T.i64), A.FloatAttr(1.0, T.f32)])
    return random_attr(rng, None, 2)


def _misspell(rng, name: str) -> str:
    k = rng.randrange(len(name))
    return rng.choice([name[:k] + name[k + 1:], name[:k] + "x" + name[k:], name + "s",
                       name.replace(".", "..", 1), name.upper()])


def _values_before(op) -> list:
    """Values that dominate ``op``: earlier results and arguments of its block and of the
    blocks around it, up to the enclosing function."""
    out = []
    block = op.parent
    anchor = op
    while block is not None:
        out += list(block.args)
        for other in block.ops:
            if other is anchor:
                break
            out += list(other.results)
        holder = block.parent.parent if block.parent is not None else None
        if holder is None or holder.name in ("func.func", "builtin.module"):
            break
        anchor, block = holder, holder.parent
    return out


def _drop(op, rng) -> bool:
    """Erase ``op``, its results' uses taken over by earlier values of the same types;
    False (and nothing changed) when some result has no such stand-in."""
    earlier = _values_before(op)
    stand_ins = []
    for r in op.results:
        same = [v for v in earlier if v.type == r.type]
        if r.uses and not same:
            return False
        stand_ins.append(rng.choice(same) if r.uses else None)
    for r, v in zip(op.results, stand_ins, strict=True):
        if v is not None:
            r.replace_all_uses_with(v)
    op.erase()
    return True


def mutate(module, rng: random.Random, most: int = 3) -> list[str]:
    """Apply 1 to ``most`` random mutations to ``module`` in place (one most often); returns
    what was done."""
    from compiler.ir.opdef import OPS
    ops = [op for op in module.walk() if op.name != "builtin.module"]
    done = []
    for _ in range(rng.choice([1, 1, 1, *range(2, most + 1)])):
        op = rng.choice(ops)
        kind = rng.choice(["attr-value"] * 5 + ["attr-drop"] * 2 + ["attr-rename"] +
                          ["attr-add"] * 3 + ["op-name"] * 2 + ["result-type"] * 2 +
                          ["arg-type", "operand", "op-drop", "op-clone", "block-arg"])
        keys = sorted(op.attributes)
        if kind == "attr-value" and keys:
            k = rng.choice(keys)
            op.attributes[k] = random_attr(rng, op.attributes[k])
        elif kind == "attr-drop" and keys:
            del op.attributes[rng.choice(keys)]
        elif kind == "attr-rename" and keys:
            k = rng.choice(keys)
            new = rng.choice([_misspell(rng, k), rng.choice(KEYS)])
            op.attributes[new] = op.attributes.pop(k)
        elif kind == "attr-add":
            k = rng.choice(KEYS + keys)
            old = op.attributes.get(k)
            op.attributes[k] = random_attr(rng, old) if old is not None or rng.random() < 0.7 \
                else A.UnitAttr()
        elif kind == "op-name":
            dialect = op.name.split(".")[0]
            same = sorted(n for n in OPS if n.startswith(dialect + ".") and n != op.name)
            op.name = _misspell(rng, op.name) if rng.random() < 0.2 or not same \
                else rng.choice(same)
        elif kind == "result-type" and op.results:
            r = rng.choice(op.results)
            r.type = random_type(rng, r.type)
        elif kind == "arg-type" and any(b.args for reg in op.regions for b in reg.blocks):
            block = rng.choice([b for reg in op.regions for b in reg.blocks if b.args])
            arg = rng.choice(block.args)
            arg.type = random_type(rng, arg.type)
            if op.name == "func.func" and rng.random() < 0.7:  # keep the function type in step
                ft = op.attributes["function_type"].value
                ins = tuple(a.type for a in block.args) if isinstance(ft, T.FunctionType) else ()
                op.attributes["function_type"] = A.TypeAttr(
                    T.FunctionType(ins, ft.results if isinstance(ft, T.FunctionType) else ()))
        elif kind == "op-drop" and op.parent is not None and not _drop(op, rng):
            continue
        elif kind == "op-clone" and op.parent is not None:
            op.parent.insert_before(op, op.clone())
        elif kind == "block-arg" and op.regions and op.regions[0].blocks:
            block = rng.choice([b for reg in op.regions for b in reg.blocks])
            unused = [k for k, a in enumerate(block.args) if not a.uses]
            if unused and rng.random() < 0.5:
                block.erase_arg(rng.choice(unused))
            else:
                block.add_arg(random_type(rng))
        elif kind == "operand" and op.operands:
            k = rng.randrange(len(op.operands))
            others = [v for v in _values_before(op) if v is not op.operands[k]]
            if rng.random() < 0.3 and len(op.operands) > 1:
                j = rng.randrange(len(op.operands))
                a, b = op.operands[k], op.operands[j]
                op._set_operand(k, b)
                op._set_operand(j, a)
            elif others:
                op._set_operand(k, rng.choice(others))
            else:
                continue
        else:
            continue
        done.append(f"{kind} on {op.name}")
    return done


def mutant(seeds: list[tuple[str, str]], seed: int, k: int,
           most: int = 3) -> tuple[str, list[str], str]:
    """Mutant ``k`` of run ``seed`` (``most`` mutations at most): ``(seed label, mutations,
    IR text)``."""
    from compiler.ir.parser import parse
    from compiler.ir.printer import print_op
    rng = random.Random(f"{seed}:{k}")
    label, text = rng.choice(seeds)
    module = parse(text, label)
    done = mutate(module, rng, most)
    return label, done, print_op(module)


# running a mutant -----------------------------------------------------------------------------

def compile_text(text: str, filename: str = "fuzz.mlir") -> None:
    """parse -> verify -> each registered pass (on its own copy) -> lowering (tensor-level
    IR) -> the default and loop pipelines -> LLVM IR, as ``grafo opt`` and ``grafo
    translate`` do. Raises the documented errors (``IR_INPUT_ERRORS``) for input faults and
    ``InternalError`` when a stage broke IR that verified."""
    from compiler.backend.llvm import lower_module
    from compiler.cli import _is_tensor_level
    from compiler.ir.parser import parse
    from compiler.lowering import lower_to_loops
    from compiler.passes import PASSES
    from compiler.pipeline import optimize_loops
    module = parse(text, filename)
    verify(module)
    for name in sorted(PASSES):
        copy = module.clone()
        PASSES[name]().run(copy)
        _verified_after(copy, f"pass {name}")
    if _is_tensor_level(module):
        module = lower_to_loops(module)
    optimize_loops(module)
    _verified_after(module, "the pipelines")
    lower_module(module)


class InternalError(Exception):
    """A stage turned verified IR into IR that does not verify."""


def _verified_after(module, stage: str) -> None:
    try:
        verify(module)
    except VerifyError as e:
        raise InternalError(f"{stage} broke the IR: {e}") from None


def site(e: BaseException) -> str:
    """Where ``e`` was raised in the compiler (its innermost frame under ``compiler/``):
    ``"passes/fold.py:57 ValueError"``."""
    frames = [f for f in traceback.extract_tb(e.__traceback__)
              if f"{os.sep}compiler{os.sep}" in f.filename]
    where = "?"
    if frames:
        f = frames[-1]
        where = f"{os.path.relpath(f.filename, os.path.join(ROOT, 'compiler'))}:{f.lineno}"
    return f"{where} {type(e).__name__}"


def outcome(text: str) -> tuple[str, str]:
    """``(kind, detail)`` of one mutant: ``("clean", "")``, ``("rejected", error class)`` or
    ``("internal", site and message)``."""
    from compiler.errors import IR_INPUT_ERRORS
    try:
        compile_text(text)
    except InternalError as e:
        return "internal", f"{site(e)}: {str(e).splitlines()[0][:300]}"
    except IR_INPUT_ERRORS as e:
        return "rejected", type(e).__name__
    except Exception as e:  # noqa: BLE001 - what the fuzzer looks for
        first = str(e).splitlines()[0] if str(e) else ""
        return "internal", f"{site(e)}: {first[:200]}"
    return "clean", ""


# the driver -----------------------------------------------------------------------------------

def _worker(seed: int, indices: list[int], most: int) -> None:
    seeds = seed_texts()
    for k in indices:
        label, done, text = mutant(seeds, seed, k, most)
        kind, detail = outcome(text)
        print(json.dumps({"k": k, "seed": label, "mutations": done, "kind": kind,
                          "detail": detail}), flush=True)


def _pump(stream, lines: queue.Queue) -> None:
    """Put each line of ``stream`` on ``lines``, then None at its end."""
    for line in stream:
        lines.put(line)
    lines.put(None)


def _run(seed: int, indices: list[int], most: int, timeout: float) -> list[dict]:
    """Outcomes of ``indices`` from worker processes; one restarted after each crash."""
    results, todo = [], list(indices)
    while todo:
        proc = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker",
                                 "--seed", str(seed), "--mutations", str(most),
                                 "--only", ",".join(map(str, todo))],
                                stdout=subprocess.PIPE, text=True)
        lines: queue.Queue = queue.Queue()
        threading.Thread(target=_pump, args=(proc.stdout, lines), daemon=True).start()
        wait = timeout + 120.0    # the worker compiles the seed functions first
        while True:
            try:
                line = lines.get(timeout=wait)
            except queue.Empty:
                proc.kill()
                break
            if line is None:
                break
            r = json.loads(line)
            results.append(r)
            todo.remove(r["k"])
            wait = timeout
        proc.wait()
        if not todo:
            break
        how = "timeout" if proc.returncode == -9 else f"exit status {proc.returncode}"
        results.append({"k": todo[0], "seed": "?", "mutations": [], "kind": "crash",
                        "detail": how})
        todo.pop(0)
    return results


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("-n", type=int, default=600, help="mutants to try (default 600)")
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--mutations", type=int, default=3,
                   help="most mutations per mutant (default 3)")
    p.add_argument("--only", help="comma-separated mutant numbers to run instead of 0..n-1")
    p.add_argument("--show", type=int, default=3,
                   help="mutants to print per internal-error site (default 3)")
    p.add_argument("--timeout", type=float, default=60.0,
                   help="seconds a mutant may take before it counts as a crash")
    p.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    indices = [int(k) for k in args.only.split(",")] if args.only else list(range(args.n))
    if args.worker:
        _worker(args.seed, indices, args.mutations)
        return 0
    t0 = time.perf_counter()
    results = _run(args.seed, indices, args.mutations, args.timeout)
    counts = collections.Counter(r["kind"] for r in results)
    classes = collections.Counter(r["detail"] for r in results if r["kind"] == "rejected")
    sites = collections.defaultdict(list)
    for r in results:
        if r["kind"] == "internal":
            sites[r["detail"].split(": ")[0]].append(r)
    print(f"tried {len(results)}  clean {counts['clean']}  parse-or-verify error "
          f"{counts['rejected']}  internal error {counts['internal']} "
          f"({len(sites)} sites)  crash {counts['crash']}   "
          f"[{time.perf_counter() - t0:.0f} s, seed {args.seed}]")
    print("  documented errors: " + ", ".join(f"{k} {n}" for k, n in sorted(classes.items())))
    for where, rs in sorted(sites.items(), key=lambda kv: -len(kv[1])):
        print(f"  {len(rs):4d}  {where}")
        for r in rs[:args.show]:
            print(f"          #{r['k']} {r['seed']}: {'; '.join(r['mutations'])} -> "
                  f"{r['detail'].split(': ', 1)[-1][:160]}")
    for r in results:
        if r["kind"] == "crash":
            print(f"  crash #{r['k']}: {r['detail']}")
    return 1 if counts["internal"] or counts["crash"] else 0


if __name__ == "__main__":
    sys.exit(main())
