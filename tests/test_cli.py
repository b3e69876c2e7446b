"""Tests of ``grafo opt`` through ``compiler.cli.main`` (exit status, stdout, stderr)."""

from compiler.cli import main, split_input

IR = '''"builtin.module"() ({
  "func.func"() ({
  ^bb0(%x: i32):
    %c = "np.constant"() {value = 0 : i32} : () -> i32
    %0 = "np.add"(%x, %c) : (i32, i32) -> i32
    "func.return"(%0) : (i32) -> ()
  }) {function_type = (i32) -> i32, sym_name = "f"} : () -> ()
}) : () -> ()
'''


def write(tmp_path, text=IR):
    p = tmp_path / "in.mlir"
    p.write_text(text)
    return str(p)


def test_opt_runs_pipeline(tmp_path, capsys):
    assert main(["opt", write(tmp_path), "--pass-pipeline=canonicalize,cse,dce"]) == 0
    out = capsys.readouterr().out
    assert '"func.return"(%arg0)' in out and "np.add" not in out and "np.constant" not in out


def test_opt_without_pipeline_prints_input(tmp_path, capsys):
    assert main(["opt", write(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "np.add" in out and "np.constant" in out


def test_opt_unknown_pass(tmp_path, capsys):
    assert main(["opt", write(tmp_path), "--pass-pipeline=nope"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown pass 'nope'" in err and "canonicalize" in err


def test_opt_malformed_ir_points_at_line_and_column(tmp_path, capsys):
    path = write(tmp_path, IR.replace("%0 = \"np.add\"(%x, %c)", "%0 = \"np.add\"(%x, %q)"))
    assert main(["opt", path]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(f"{path}:5:") and "%q" in err


def test_opt_missing_file(tmp_path, capsys):
    assert main(["opt", str(tmp_path / "missing.mlir")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot read" in err and "missing.mlir" in err


def test_split_input_keeps_line_numbers():
    cases = split_input("a\nb\n// -----\nc\n")
    assert cases == ["a\nb\n", "\n\n\nc\n"]
    assert cases[1].splitlines()[3] == "c"
