"""Tests of ``grafo translate``, ``grafo ir``, ``grafo graph``, ``ConcreteFunction._repr_svg_``
and of ``grafo opt`` on fuzzed input, through ``compiler.cli.main`` (exit status, stdout,
stderr: faults are one line, or a CompileError with its source line, and never a traceback)."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import os
import shutil
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import compiler
from compiler.cli import main

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KERNELS = os.path.join(ROOT, "examples", "kernels.py")
CONSTRUCTS = os.path.join(ROOT, "tests", "regression", "inputs", "constructs.py")

LOOP_IR = '''"builtin.module"() ({
  "func.func"() ({
  ^bb0(%n: index, %x: f32):
    %c0 = "arith.constant"() {value = 0 : index} : () -> index
    %c1 = "arith.constant"() {value = 1 : index} : () -> index
    %r = "scf.for"(%c0, %n, %c1, %x) ({
    ^bb0(%i: index, %acc: f32):
      %s = "arith.addf"(%acc, %acc) : (f32, f32) -> f32
      "scf.yield"(%s) : (f32) -> ()
    }) : (index, index, index, f32) -> f32
    "func.return"(%r) : (f32) -> ()
  }) {function_type = (index, f32) -> f32, sym_name = "double_n"} : () -> ()
}) : () -> ()
'''

TENSOR_IR = '''"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
    %0 = "np.multiply"(%a, %b) : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    "func.return"(%0) : (tensor<?xf32>) -> ()
  }) {function_type = (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>, sym_name = "mul"} : () -> ()
}) : () -> ()
'''


def run(argv, stdin: str | None = None) -> tuple[int, str, str]:
    """``grafo argv`` in-process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                rc = main(argv)
            except SystemExit as e:  # argparse: --help and usage errors
                rc = e.code
    finally:
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


def one_line_error(rc, err, status=1):
    assert rc == status
    assert err.count("\n") == 1 and "error:" in err and "Traceback" not in err, err


@pytest.mark.parametrize("command", ["opt", "translate", "ir", "graph"])
def test_every_subcommand_has_help(command):
    rc, out, _ = run([command, "--help"])
    assert rc == 0 and out.startswith(f"usage: grafo {command}")


# grafo translate -------------------------------------------------------------------------------

def test_translate_loop_ir_to_llvm_and_asm():
    rc, out, _ = run(["translate", "-", "--to=llvm"], LOOP_IR)
    assert rc == 0 and "define" in out and "@double_n(" in out
    rc, out, _ = run(["translate", "-", "--to=asm"], LOOP_IR)
    assert rc == 0 and "double_n:" in out


def test_translate_lowers_tensor_level_ir_first():
    rc, out, _ = run(["translate", "-", "--to=llvm"], TENSOR_IR)
    assert rc == 0 and "@mul(" in out and "fmul" in out and " x float>" in out


def test_translate_to_ptx():
    rc, out, _ = run(["translate", "-", "--to=ptx"], TENSOR_IR)
    assert rc == 0 and ".entry" in out and ".target sm_" in out


def test_translate_errors(tmp_path):
    one_line_error(*run(["translate", str(tmp_path / "none.mlir"), "--to=llvm"])[::2])
    rc, _, err = run(["translate", "-", "--to=llvm"], LOOP_IR.replace("%acc, %acc", "%acc, %q"))
    one_line_error(rc, err)
    assert err.startswith("<stdin>:8:") and "%q" in err
    rc, _, err = run(["translate", "-", "--to=llvm"],
                     LOOP_IR.replace("-> f32, sym_name", "-> f64, sym_name"))
    one_line_error(rc, err)
    assert "'func.return' op operand types do not match" in err and "in func @double_n" in err
    rc, _, err = run(["translate", "-", "--to=wasm"], LOOP_IR)
    assert rc == 2 and "invalid choice" in err


class _Broken:
    """A pass that fails as a compiler bug would."""

    name = "broken"

    def run(self, module):
        raise KeyError(None)


def test_internal_errors_are_one_line(monkeypatch):
    """A compiler fault on IR that verified is reported as an internal compiler error that
    names the pass or the stage, not as a traceback."""
    from compiler.passes import PASSES
    monkeypatch.setitem(PASSES, "broken", _Broken)
    for extra in ([], ["--verify-each", "--split-input-file"]):
        rc, out, err = run(["opt", "-", "--pass-pipeline=cse,broken,dce", *extra], LOOP_IR)
        one_line_error(rc, err)
        assert err == ("<stdin>: error: internal compiler error while running pass 'broken': "
                       "KeyError: None\n") and out == ""

    def fail(module):
        raise IndexError("list index out of range")
    monkeypatch.setattr("compiler.backend.llvm.compile_module", fail)
    rc, _, err = run(["translate", "-", "--to=llvm"], LOOP_IR)
    one_line_error(rc, err)
    assert err == ("<stdin>: error: internal compiler error while translating to llvm: "
                   "IndexError: list index out of range\n")


# -o / --output ---------------------------------------------------------------------------------

@pytest.mark.parametrize("flag", ["-o", "--output"])
def test_opt_and_translate_write_their_output_file(tmp_path, flag):
    out_ir, out_ll = tmp_path / "out.mlir", tmp_path / "out.ll"
    rc, out, _ = run(["opt", "-", "--pass-pipeline=canonicalize", flag, str(out_ir)], LOOP_IR)
    assert rc == 0 and out == ""
    assert out_ir.read_text() == run(["opt", "-", "--pass-pipeline=canonicalize"], LOOP_IR)[1]
    rc, out, _ = run(["translate", str(out_ir), "--to=llvm", flag, str(out_ll)])
    assert rc == 0 and out == "" and "@double_n(" in out_ll.read_text()


def test_output_dash_is_stdout():
    rc, out, _ = run(["opt", "-", "-o", "-"], LOOP_IR)
    assert rc == 0 and '"scf.for"' in out


def test_opt_output_keeps_the_cases_that_succeed(tmp_path):
    bad = LOOP_IR.replace("%acc, %acc", "%acc, %q")
    out = tmp_path / "out.mlir"
    rc, _, err = run(["opt", "-", "--split-input-file", "-o", str(out)],
                     LOOP_IR + "// -----\n" + bad)
    assert rc == 1 and "%q" in err
    assert out.read_text().count('"func.func"') == 1


@pytest.mark.parametrize("command", [["opt", "-"], ["translate", "-", "--to=llvm"]])
def test_unwritable_output_is_one_line_error(tmp_path, command):
    for target in (tmp_path / "missing" / "out.txt", tmp_path):
        rc, out, err = run([*command, "-o", str(target)], LOOP_IR)
        one_line_error(rc, err)
        assert err.startswith(f"error: cannot write '{target}': ") and out == ""


def test_a_failed_translation_leaves_the_output_file_alone(tmp_path):
    out = tmp_path / "out.ll"
    out.write_text("old")
    rc, _, err = run(["translate", "-", "--to=llvm", "-o", str(out)],
                     LOOP_IR.replace("%acc, %acc", "%acc, %q"))
    one_line_error(rc, err)
    assert out.read_text() == "old"


# grafo ir --------------------------------------------------------------------------------------

@pytest.mark.parametrize("stage,marker", [("frontend", '"np.subtract"'),
                                          ("optimized", '"np.reduce"'),
                                          ("loops", '"scf.for"')])
def test_ir_prints_each_stage(stage, marker):
    rc, out, err = run(["ir", f"{KERNELS}:mse", "--signature", "f32[?], f32[?]",
                        "--stage", stage])
    assert rc == 0, err
    assert out.startswith('"builtin.module"') and marker in out and 'sym_name = "mse"' in out


def test_ir_default_stage_is_optimized():
    assert run(["ir", f"{KERNELS}:mse", "--signature", "f32[?], f32[?]"])[1] == \
        run(["ir", f"{KERNELS}:mse", "--signature", "f32[?], f32[?]", "--stage",
             "optimized"])[1]


def test_ir_accepts_a_compiler_function(tmp_path):
    path = tmp_path / "decorated.py"
    path.write_text("import compiler\n\n@compiler.function\ndef f(x):\n    return x + 1.0\n")
    rc, out, _ = run(["ir", f"{path}:f", "--signature", "f64"])
    assert rc == 0 and '"np.add"' in out


def test_ir_input_errors(tmp_path):
    bad_syntax = tmp_path / "bad.py"
    bad_syntax.write_text("def f(x:\n")
    raising = tmp_path / "raises.py"
    raising.write_text("raise RuntimeError('at import')\n")
    cases = [
        ([f"{tmp_path}/missing.py:f", "--signature", "f32"], "cannot read"),
        ([f"{CONSTRUCTS}:no_such_function", "--signature", "f32"], "defines no function"),
        ([f"{CONSTRUCTS}:CONSTANT", "--signature", "f32"], "is a int, not a function"),
        ([f"{CONSTRUCTS}:binop", "--signature", "f32[?"], "invalid signature at column"),
        ([f"{CONSTRUCTS}:binop", "--signature", "f17"], "unknown dtype 'f17'"),
        ([f"{CONSTRUCTS}:binop", "--signature", "f32"], "binop takes 3 argument(s)"),
        ([f"{bad_syntax}:f", "--signature", "f32"], "SyntaxError"),
        ([f"{raising}:f", "--signature", "f32"], "RuntimeError: at import"),
    ]
    for argv, message in cases:
        rc, _, err = run(["ir", *argv])
        one_line_error(rc, err)
        assert message in err, (argv, err)


def test_ir_compile_error_shows_the_source_line():
    rc, out, err = run(["ir", f"{CONSTRUCTS}:unsupported_try", "--signature", "f64"])
    assert rc == 1 and out == "" and "Traceback" not in err
    head, line, caret = err.splitlines()[:3]
    assert head.startswith(f"{CONSTRUCTS}:") and "unsupported syntax 'try' statement" in head
    assert line.strip() == "try:" and caret.strip() == "^"


def test_ir_loops_for_cuda_is_the_loop_ir_compile_builds():
    """``--target cuda`` runs the CUDA backend's stages (its tensor-level rewrites, none of
    the CPU's loop passes such as interrupt polls) through the runner ``compile`` uses, on a
    machine without a GPU."""
    from compiler.cli import load_function
    sig = "f32[?,?]"
    rc, cuda, err = run(["ir", f"{KERNELS}:softmax", "--signature", sig, "--stage", "loops",
                         "--target", "cuda"])
    assert rc == 0, err
    rc, cpu, err = run(["ir", f"{KERNELS}:softmax", "--signature", sig, "--stage", "loops"])
    assert rc == 0, err
    fn = load_function(KERNELS, "softmax")
    assert cuda == compiler.compile(fn, sig, target="cuda").ir_stages["loops"]
    assert cpu == compiler.compile(fn, sig).ir_stages["loops"]
    assert "grafo.poll" in cpu and "grafo.poll" not in cuda
    rc, device_1, _ = run(["ir", f"{KERNELS}:softmax", "--signature", sig, "--stage", "loops",
                           "--target", "cuda:1"])
    assert rc == 0 and device_1 == cuda


def test_ir_matmul_for_cuda_shows_the_gpu_kernel_loops():
    """The CUDA backend's matmul rewrite shows in its loop IR; the optimized tensor-level
    IR, before any backend step, is the same for every target."""
    argv = ["ir", f"{KERNELS}:gemm", "--signature", "f32, f32[?,?], f32[?,?], f32, f32[?,?]"]
    outs = {}
    for stage in ("optimized", "loops"):
        for target in ("cpu", "cuda"):
            rc, outs[stage, target], err = run([*argv, "--stage", stage, "--target", target])
            assert rc == 0, err
    assert "grafo.matmul" in outs["loops", "cuda"] and "grafo.matmul" not in outs["loops", "cpu"]
    assert outs["optimized", "cuda"] == outs["optimized", "cpu"]


def test_ir_rejects_an_unknown_target():
    for target in ("sparc", "cuda:x"):
        rc, out, err = run(["ir", f"{KERNELS}:mse", "--signature", "f32[?], f32[?]",
                            "--target", target])
        one_line_error(rc, err)
        kind = "device" if target.startswith("cuda") else "target"
        assert f"--target: unknown {kind} '{target}'" in err and out == ""


def test_ir_usage_errors():
    for argv in (["ir", CONSTRUCTS, "--signature", "f64"],
                 ["ir", f"{CONSTRUCTS}:binop"],
                 ["ir", f"{CONSTRUCTS}:binop", "--signature", "f64", "--stage", "llvm"]):
        rc, _, err = run(argv)
        assert rc == 2 and err.startswith("usage: grafo ir") and "Traceback" not in err


# grafo graph -----------------------------------------------------------------------------------

HAS_GRAPHVIZ = importlib.util.find_spec("graphviz") is not None
needs_graphviz = pytest.mark.skipif(not HAS_GRAPHVIZ, reason="the graphviz package is missing "
                                    "(pip install 'grafo[graph]')")


@needs_graphviz
def test_graph_dot_needs_no_dot_program(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    out = tmp_path / "g.dot"
    rc, _, err = run(["graph", f"{KERNELS}:softmax", "--signature", "f32[?,?]", "-o", str(out)])
    assert rc == 0, err
    dot = out.read_text()
    assert dot.startswith("digraph grafo {")
    assert "subgraph cluster_func_" in dot and 'label="func @softmax"' in dot
    assert 'label="%arg0"' in dot and 'label="result 0"' in dot
    assert 'kind = \\"max\\"' in dot and '[label="tensor<?x?xf32>"]' in dot


@needs_graphviz
def test_graph_regions_are_clusters(tmp_path):
    out = tmp_path / "g.dot"
    assert run(["graph", f"{CONSTRUCTS}:while_loop", "--signature", "f64", "--stage", "loops",
                "-o", str(out)])[0] == 0
    dot = out.read_text()
    assert dot.count("subgraph cluster_") == 4  # the function, scf.while and its 2 regions
    assert 'label="scf.condition"' in dot and "^bb0 arg 0" in dot


@needs_graphviz
@pytest.mark.skipif(shutil.which("dot") is None, reason="Graphviz's dot program is missing")
def test_graph_svg(tmp_path):
    out = tmp_path / "g.svg"
    rc, _, err = run(["graph", f"{KERNELS}:mse", "--signature", "f32[?], f32[?]", "-o",
                      str(out)])
    assert rc == 0, err
    assert "<svg" in out.read_text() and "np.reduce" in out.read_text()


@needs_graphviz
def test_graph_errors(tmp_path, monkeypatch):
    argv = ["graph", f"{CONSTRUCTS}:binop", "--signature", "f64, f64, f64", "-o"]
    rc, _, err = run([*argv, str(tmp_path / "g.gif")])
    one_line_error(rc, err)
    assert "unknown graph format 'gif'" in err
    rc, _, err = run([*argv, str(tmp_path / "no" / "g.dot")])
    one_line_error(rc, err)
    assert "cannot write" in err
    monkeypatch.setenv("PATH", str(tmp_path))
    rc, _, err = run([*argv, str(tmp_path / "g.png")])
    one_line_error(rc, err)
    assert "needs Graphviz's 'dot' program" in err
    monkeypatch.setitem(sys.modules, "graphviz", None)
    rc, _, err = run([*argv, str(tmp_path / "g.dot")])
    one_line_error(rc, err)
    assert "pip install 'grafo[graph]'" in err


def test_concrete_function_repr_svg(monkeypatch, tmp_path):
    cf = compiler.compile(lambda x: x * 2.0, "f32[?]")
    svg = cf._repr_svg_()
    if HAS_GRAPHVIZ and shutil.which("dot"):
        assert svg is not None and "<svg" in svg and "np.multiply" in svg
    monkeypatch.setenv("PATH", str(tmp_path))
    assert cf._repr_svg_() is None
    monkeypatch.setitem(sys.modules, "graphviz", None)
    assert cf._repr_svg_() is None


# grafo opt on fuzzed input ---------------------------------------------------------------------

SEEDS = [LOOP_IR, TENSOR_IR, '''"builtin.module"() ({
  "func.func"() ({
  ^bb0(%c: i1, %x: f64, %n: index):
    %a = "memref.alloc"(%n) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf64>
    %r:2 = "scf.if"(%c) ({
      %e = "math.exp"(%x) : (f64) -> f64
      "scf.yield"(%e, %x) : (f64, f64) -> ()
    }, {
      %k = "np.constant"() {value = dense<[1.5, -0.0]> : tensor<2xf64>} : () -> tensor<2xf64>
      "scf.yield"(%x, %x) : (f64, f64) -> ()
    }) : (i1) -> (f64, f64)
    "memref.dealloc"(%a) : (memref<?xf64>) -> ()
    "func.return"(%r#1) : (f64) -> ()
  }) {function_type = (i1, f64, index) -> f64, sym_name = "g"} : () -> ()
}) : () -> ()
''']
TOKENS = ['"', "(", ")", "{", "}", "<", ">", "[", "]", ",", ":", "=", "%", "#", "^bb0", "@g",
          "%x", "%0", "f32", "i1", "index", "tensor<?xf32>", "memref<4xf32>", "array<i32: 1>",
          "dense<1>", "0x7FC00000", "-", "1.0e+400", "99999999999999999999", "\\", "\n",
          '"func.call"() {callee = @g} : () -> ()', '"scf.yield"() : () -> ()', "// -----"]


@st.composite
def mutated_ir(draw):
    """A seed text with a few characters or tokens deleted, inserted or replaced."""
    text = draw(st.sampled_from(SEEDS))
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 12)))
        insert = draw(st.one_of(st.sampled_from(TOKENS), st.text(max_size=3)))
        text = text[:i] + insert + text[j:]
    return text


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=mutated_ir(), pipeline=st.sampled_from(["", "canonicalize,cse,dce"]),
       split=st.booleans())
def test_opt_never_crashes_on_mutated_ir(text, pipeline, split):
    argv = ["opt", "-", f"--pass-pipeline={pipeline}", "--verify-each"]
    rc, out, err = run(argv + (["--split-input-file"] if split else []), text)
    assert rc in (0, 1) and "Traceback" not in err
    if rc == 0:
        assert err == "" and out
    else:
        assert all("error:" in line for line in err.splitlines()), err
