"""Upstream MLIR accepts everything grafo prints, and grafo reads back what upstream prints of
it. Each IR text is fed to the real ``mlir-opt`` (LLVM 19, Debian package mlir-19-tools) with
``--allow-unregistered-dialect``, which parses it and runs upstream's verifiers of func, arith,
math, scf and memref ops; what ``mlir-opt --mlir-print-op-generic`` prints back (with and
without ``--mlir-print-debuginfo``) must parse and verify in grafo and print as the original
text (without locations when upstream dropped them); round-tripped loop IR must compute what
the compiled function computes.

The texts: every regression input after ``grafo opt`` with no passes, every ``grafo ir`` RUN line
of the regression suite, and the frontend / optimized / loops stages of every function in
examples/kernels.py for a few signatures. Skipped when mlir-opt is not installed
(scripts/install-test-deps.sh installs it).
"""

from __future__ import annotations

import contextlib
import functools
import glob
import inspect
import io
import os
import re
import shlex
import shutil
import subprocess
import sys

import numpy as np
import pytest

import compiler
from compiler.backend.llvm import compile_module
from compiler.cli import main
from compiler.ir.parser import parse
from compiler.ir.printer import print_op
from compiler.ir.verifier import verify
from compiler.signature import to_specs

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
REGRESSION = os.path.join(ROOT, "tests", "regression")
KERNELS = os.path.join(ROOT, "examples", "kernels.py")

KERNEL_SIGNATURES = {
    "a_regular_function": ["f32[?,?], f32[?,?], f32[?]"],
    "inner_function": ["f64[2,2], f64[2,2], f64[2]"],
    "outer_function": ["f64[?,2]"],
    "simple_relu": ["f32", "f64"],
    "my_relu": ["f32[?]", "f64[3,4]"],
    "get_MSE": ["f32[?], f32[?]", "i32[?], i32[?]"],
    "power": ["i32[10,10], i64"],
    "unused_return": ["f32[?]"],
    "rosenbrock": ["f64[?]"],
    "row_l2_norm": ["f64[?,?]", "f32[8,4]"],
    "softmax": ["f32[?,?]", "f64[4,8]"],
    "laplacian": ["f64[?,?]"],
    "go_fast": ["f64[?,?]"],
    "gemm": ["f64, f64[?,?], f64[?,?], f64, f64[?,?]"],
    "mse": ["f32[?], f32[?]", "u8[?], u8[?]"],
}

def _mlir_opt() -> str | None:
    for candidate in ("mlir-opt-19", "/usr/lib/llvm-19/bin/mlir-opt"):
        path = shutil.which(candidate) or (candidate if os.access(candidate, os.X_OK) else None)
        if path:
            return path
    return None


MLIR_OPT = _mlir_opt()
pytestmark = pytest.mark.skipif(MLIR_OPT is None, reason="mlir-opt (LLVM 19) is not installed; "
                                "run scripts/install-test-deps.sh")


def _grafo(argv: list[str]) -> str:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(argv)
    assert rc == 0, f"grafo {' '.join(argv)} failed:\n{err.getvalue()}"
    return out.getvalue()


def _upstream(text: str, *flags: str) -> str:
    """What ``mlir-opt --allow-unregistered-dialect FLAGS`` prints of ``text``."""
    proc = subprocess.run([MLIR_OPT, "--allow-unregistered-dialect", *flags, "-"], input=text,
                          capture_output=True, text=True, timeout=60)
    if proc.returncode != 0:
        pytest.fail(f"mlir-opt rejects grafo's IR:\n{proc.stderr}\n{text}")
    return proc.stdout


def _check_upstream(text: str) -> None:
    _upstream(text)


GENERIC = ("--mlir-print-op-generic",)
DEBUGINFO = ("--mlir-print-op-generic", "--mlir-print-debuginfo")


def _check_round_trip(text: str) -> None:
    """grafo parses and verifies what mlir-opt prints of ``text`` in the generic form, and
    prints it as ``text``: exactly with upstream's debug info, without locations without it."""
    original = parse(text)
    for flags in (GENERIC, DEBUGINFO):
        back = _upstream(text, *flags)
        module = parse(back)
        verify(module)
        locs = flags == DEBUGINFO
        assert print_op(module, locs) == print_op(original, locs), \
            f"mlir-opt {' '.join(flags)} changed the meaning of:\n{text}\nit printed:\n{back}"


def _run_lines() -> list[tuple[str, list[str]]]:
    """(test file, grafo argv) for every RUN line of the regression suite that succeeds (its
    first command, before any pipe or redirection): ``grafo opt`` without passes over the file
    itself, and ``grafo ir``."""
    cases = []
    for path in sorted(glob.glob(os.path.join(REGRESSION, "*.mlir"))):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        if "// XFAIL:" in text:
            continue
        name = os.path.basename(path)
        for run in re.findall(r"^// RUN: (.*)$", text, re.M):
            first = re.split(r"\||&&|\s\d?>", run)[0].strip()
            if not first.startswith("grafo "):
                continue
            argv = shlex.split(first.replace("%S", REGRESSION).replace("%s", path))[1:]
            if argv[0] == "opt" and argv[1] == path:
                split = ["--split-input-file"] if "--split-input-file" in argv else []
                cases.append((name, ["opt", path, *split]))
            elif argv[0] == "ir":
                cases.append((name, argv))
    return cases


@pytest.mark.parametrize("argv", [c[1] for c in _run_lines()],
                         ids=[f"{c[0]}:{c[1][0]}" for c in _run_lines()])
def test_regression_inputs_parse_and_verify_upstream(argv):
    for case in _grafo(argv).split("// -----\n"):
        _check_upstream(case)


@pytest.mark.parametrize("argv", [c[1] for c in _run_lines()],
                         ids=[f"{c[0]}:{c[1][0]}" for c in _run_lines()])
def test_regression_inputs_round_trip_through_upstream(argv):
    for case in _grafo(argv).split("// -----\n"):
        _check_round_trip(case)


def _kernel_functions() -> dict:
    sys.path.insert(0, os.path.dirname(KERNELS))
    try:
        import kernels
    finally:
        sys.path.remove(os.path.dirname(KERNELS))
    return {n: f for n, f in inspect.getmembers(kernels, inspect.isfunction)
            if f.__module__ == kernels.__name__}


def test_every_kernel_has_signatures():
    assert sorted(_kernel_functions()) == sorted(KERNEL_SIGNATURES)


@functools.lru_cache(maxsize=None)
def _stage_text(name: str, signature: str, stage: str) -> str:
    return _grafo(["ir", f"{KERNELS}:{name}", "--signature", signature, "--stage", stage])


STAGES = ["frontend", "optimized", "loops"]
KERNEL_CASES = [(n, s) for n, sigs in KERNEL_SIGNATURES.items() for s in sigs]


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("name,signature", KERNEL_CASES)
def test_kernel_stages_parse_and_verify_upstream(name, signature, stage):
    _check_upstream(_stage_text(name, signature, stage))


@pytest.mark.parametrize("stage", STAGES)
@pytest.mark.parametrize("name,signature", KERNEL_CASES)
def test_kernel_stages_round_trip_through_upstream(name, signature, stage):
    _check_round_trip(_stage_text(name, signature, stage))


def _inputs(signature: str, shapes: list) -> list:
    """Random arguments of ``signature`` with these shapes (``None`` for a scalar)."""
    rng = np.random.default_rng(0)
    return [spec.dtype.type(rng.uniform(0.5, 2.0)) if shape is None
            else rng.uniform(-2.0, 2.0, shape).astype(spec.dtype)
            for spec, shape in zip(to_specs(signature), shapes, strict=True)]


@pytest.mark.parametrize("name,signature,shapes", [
    ("softmax", "f32[?,?]", [(5, 19)]),
    ("mse", "f32[?], f32[?]", [(37,), (37,)]),
    ("laplacian", "f64[?,?]", [(9, 11)]),
    ("go_fast", "f64[?,?]", [(6, 6)]),
    ("gemm", "f64, f64[?,?], f64[?,?], f64, f64[?,?]", [None, (4, 6), (6, 3), None, (4, 3)])])
def test_round_tripped_loop_ir_computes_what_the_function_does(name, signature, shapes):
    """The loop IR mlir-opt printed back, compiled by grafo's backend, returns bit for bit what
    the compiled function returns, and what NumPy returns within float tolerance."""
    fn = _kernel_functions()[name]
    module = parse(_upstream(_stage_text(name, signature, "loops"), *GENERIC))
    verify(module)
    entry = compile_module(module).entry(name)
    args = _inputs(signature, shapes)
    got = entry(*args)
    np.testing.assert_array_equal(got, compiler.compile(fn, signature)(*args))
    np.testing.assert_allclose(got, fn(*args), rtol=1e-5)
