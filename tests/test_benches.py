"""benches/run.py without benchmarking: where it writes, what its rows say, and that the
``bench`` extra installs what the benchmarks import; benches/soak.py for a few seconds."""

import ast
import glob
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tomllib

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BENCHES = os.path.join(ROOT, "benches")
# Measured when installed, never required (benches/run.py: "when importable").
OPTIONAL = {"cupy", "jax", "tensorflow"}   # cupy: benches/gpu_check.py on a GPU machine


@pytest.fixture
def run_py():
    spec = importlib.util.spec_from_file_location("bench_run", os.path.join(BENCHES, "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_quick_rows_name_the_sizes_they_run(run_py):
    checked = 0
    for name, _, args, *_ in run_py._cases(np, quick=True):
        arrays = [a for a in args if isinstance(a, np.ndarray)]
        count = re.search(r"\b(\d)e(\d) (f32|f64)$", name)
        dims = re.search(r"\b(\d+)x(\d+) (f32|f64)$", name)
        if count:
            want = int(count.group(1)) * 10 ** int(count.group(2))
            assert want == 10**6 and all(a.size == want for a in arrays), name
        elif dims:
            want = (int(dims.group(1)), int(dims.group(2)))
            assert all(a.shape == want for a in arrays), name
        else:
            continue
        dtype = {"f32": np.float32, "f64": np.float64}[(count or dims).group(3)]
        assert all(a.dtype == dtype for a in arrays), name
        checked += 1
    assert checked >= 9   # the 1eK rows, softmax, the stencil and the three matmuls


def _report(threads):
    t = lambda s: {"median": s, "min": s, "max": 2 * s}  # noqa: E731
    return {"machine": "x86_64", "cpu": "Test CPU (LLVM: znver4)", "blas": "openblas, Zen kernel",
            "cpu_count": 2, "threads": threads,
            "triad_bandwidth_GBps": 40.0,
            "results": [{"case": "MSE, 1e6 f32", "bytes": None, "flops": None,
                         "times": {"numpy": t(3e-3), "grafo": t(1e-3)}}]}


def test_results_go_to_a_fresh_folder_unless_out_is_given(run_py, tmp_path, monkeypatch,
                                                          capsys):
    docs = {p: open(p, "rb").read() for p in glob.glob(os.path.join(ROOT, "docs", "bench*"))}
    monkeypatch.setattr(run_py, "RESULTS", str(tmp_path / "results"))
    monkeypatch.setattr(run_py, "_run_child", lambda threads, quick, only="": _report(threads))
    run_py.main(["--threads", "2,1"])
    run_py.main(["--threads", "2"])
    folders = sorted(os.listdir(tmp_path / "results"))
    assert len(folders) == 2
    out = capsys.readouterr().out
    for folder in folders:
        path = tmp_path / "results" / folder / "benchmarks.md"
        assert str(path) in out
        assert "| MSE, 1e6 f32 |" in path.read_text() and "| 3.00 |" in path.read_text()
    assert {p: open(p, "rb").read() for p in docs} == docs
    run_py.main(["--threads", "1", "--out", str(tmp_path / "docs")])
    page = (tmp_path / "docs" / "benchmarks.md").read_text()
    assert "`python benches/run.py --threads 1 --out" in page and "## 1 thread(s)" in page
    assert "on Test CPU (LLVM: znver4), 2 CPUs; NumPy's BLAS: openblas, Zen kernel." in page


def test_fresh_folders_do_not_collide(run_py, tmp_path):
    paths = {run_py.fresh_folder(str(tmp_path)) for _ in range(3)}
    assert len(paths) == 3 and all(os.path.isdir(p) for p in paths)


def _imports(path):
    tree = ast.parse(open(path).read())
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            yield from (a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            yield node.module.split(".")[0]


def _names(requirements):
    return {re.match(r"[A-Za-z0-9_.-]+", r).group(0).lower() for r in requirements}


def test_bench_extra_installs_what_the_benchmarks_import():
    with open(os.path.join(ROOT, "pyproject.toml"), "rb") as f:
        project = tomllib.load(f)["project"]
    installed = _names(project["dependencies"]) | _names(
        project["optional-dependencies"]["bench"])
    local = {os.path.splitext(os.path.basename(p))[0]
             for p in glob.glob(os.path.join(BENCHES, "*.py"))} | {"compiler", "runtime", "benches"}
    imported = {m for p in glob.glob(os.path.join(BENCHES, "*.py")) for m in _imports(p)}
    third_party = imported - set(sys.stdlib_module_names) - local - {"__future__"} - OPTIONAL
    assert "numba" in third_party and third_party <= installed, third_party - installed
    assert "scipy" in installed   # Numba's np.dot and @ raise ImportError without SciPy


@pytest.mark.skipif(shutil.which("cc") is None, reason="saving artifacts needs a C compiler")
def test_the_soak_runs_a_few_seconds_and_passes():
    # benches/soak.py for 3 s (plus its warm-up and calibration): its warm-up runs every kind
    # of operation once, nothing fails; the memory check itself needs minutes and is skipped
    out = subprocess.run([sys.executable, os.path.join(BENCHES, "soak.py"), "--minutes", "0.05",
                          "--threads", "2"], capture_output=True, text=True, timeout=120,
                         cwd=ROOT)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1] == "PASS" and "failures: 0" in lines
    counts = dict(re.findall(r"^  (\w+) +(\d+)", out.stdout, re.M))
    assert int(counts["call"]) > 0 and int(counts["error"]) > 0, out.stdout
    assert int(counts["interrupt"]) > 0, out.stdout
    assert "memory check skipped" in out.stdout


def test_gpu_check_help_and_dry_run(tmp_path):
    """benches/gpu_check.py without a GPU: --help through the wrapper, and a dry run (tests
    collected, every measurement on the simulated driver) writing the table of issue 21."""
    env = {k: v for k, v in os.environ.items() if k != "GRAFO_CUDA_SIMULATOR"}
    script = os.path.join(ROOT, "scripts", "gpu_check.sh")
    shown = subprocess.run(["bash", script, "--help"], capture_output=True, text=True, env=env,
                           timeout=120)
    assert shown.returncode == 0 and "--dry-run" in shown.stdout and "lark" in shown.stdout
    out = tmp_path / "gpu.md"
    done = subprocess.run(["bash", script, "--dry-run", str(out)], capture_output=True,
                          text=True, env=env, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    text = out.read_text()
    assert re.search(r"GPU tests: `\d+ tests collected", text), text
    rows = [r for r in text.splitlines() if r.startswith("| ") and "---" not in r][1:]
    names = [r.split(" | ")[0] for r in rows]
    for want in ("host-to-device", "device-to-device copy", "fused a*b+c*d-e", "np.sum",
                 "np.max", "np.mean", "row_sum rows", "softmax rows", "matmul",
                 "launch overhead"):
        assert any(want in n for n in names), (want, names)
    for r in rows:
        assert "not compiled" in r or float(r.split(" | ")[1]) > 0, r
