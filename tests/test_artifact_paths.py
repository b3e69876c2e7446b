"""Artifacts do not name the build machine's paths: source files are recorded relative to the
project root (the nearest directory above them with pyproject.toml, setup.py or .git), else by
base name, in the manifest, the C header and the IR; a loaded artifact's errors still lead to
the source, and objects rebuilt from artifacts here (unpickled, disk cache) name the files by
their paths here."""

import importlib.util
import io
import json
import os
import pickle
import sys
import tempfile
import traceback
import zipfile

import numpy as np
import pytest

import compiler
import runtime
from compiler.aot.sources import portable_path

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SOURCE = '''\
import numpy as np


def at(x, i):
    return x[i]


def gather_sum(x, idx):
    assert x.shape[0] > 1, "too short"
    return np.sum(at(x, idx) * 2.0)
'''
LINE = 5   # return x[i]


def import_file(path, name: str):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture
def loose(tmp_path):
    """A module in a directory with no project root above it."""
    yield import_file(tmp_path / "src" / "loose_kernels.py", "loose_kernels")
    del sys.modules["loose_kernels"]


@pytest.fixture
def packaged(tmp_path):
    """A module of a project: proj/pyproject.toml, proj/pkg/packaged_kernels.py."""
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    yield import_file(tmp_path / "proj" / "pkg" / "packaged_kernels.py", "packaged_kernels")
    del sys.modules["packaged_kernels"]


def members(path) -> dict:
    with zipfile.ZipFile(path) as zf:
        return {name: zf.read(name) for name in zf.namelist()}


def build_machine_paths(tmp_path) -> set:
    return {str(tmp_path), os.path.realpath(tmp_path), os.path.expanduser("~"), "/work",
            ROOT, tempfile.gettempdir()}


def test_no_absolute_path_of_the_build_machine_in_the_artifact(loose, tmp_path):
    cf = compiler.compile(loose.gather_sum, "f64[?], i64[?]")
    assert loose.__file__ in cf.ir   # the JIT's IR names the file by its path here
    cf.save(tmp_path / "k.grafo")
    files = members(tmp_path / "k.grafo")
    assert "lib/libgrafo.so" in files   # its strings are searched too
    for name, data in files.items():
        for path in build_machine_paths(tmp_path):
            assert path.encode() not in data, (name, path)
    manifest = json.loads(files["manifest.json"])
    assert {e["file"] for e in manifest["entries"][0]["errors"]} == {"loose_kernels.py"}
    assert f"(loose_kernels.py:{LINE}:12)" in files["include/grafo.h"].decode()
    for stage in ("optimized", "loops"):
        assert f'loc("loose_kernels.py":{LINE}:12)' in files[f"ir/gather_sum.{stage}.mlir"]\
            .decode()


def test_project_files_are_named_relative_to_the_project_root(packaged, tmp_path,
                                                              monkeypatch):
    cf = compiler.compile(packaged.gather_sum, "f64[?], i64[?]")
    cf.save(tmp_path / "k.grafo")
    files = members(tmp_path / "k.grafo")
    errors = json.loads(files["manifest.json"])["entries"][0]["errors"]
    assert {e["file"] for e in errors} == {"pkg/packaged_kernels.py"}
    assert f'loc("pkg/packaged_kernels.py":{LINE}:12)' in files["ir/gather_sum.loops.mlir"]\
        .decode()
    monkeypatch.chdir(tmp_path / "proj")   # run from the project root: the name resolves
    f = runtime.load(tmp_path / "k.grafo")
    with pytest.raises(IndexError) as info:
        f(np.arange(3.0), np.array([0, 5]))
    assert f'File "pkg/packaged_kernels.py", line {LINE}, column 12' in str(info.value)
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno, frame.name) == ("pkg/packaged_kernels.py", LINE,
                                                          "at")
    assert os.path.samefile(frame.filename, packaged.__file__)
    assert frame.line == "return x[i]"


def test_errors_elsewhere_show_the_recorded_source(packaged, tmp_path, monkeypatch):
    compiler.compile(packaged.gather_sum, "f64[?], i64[?]").save(tmp_path / "k.grafo")
    data = (tmp_path / "k.grafo").read_bytes()
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)   # pkg/packaged_kernels.py does not resolve here
    f = runtime.load(data)
    with pytest.raises(AssertionError) as info:
        f(np.arange(1.0), np.array([0]))
    assert str(info.value).startswith("too short")
    assert "\n    assert x.shape[0] > 1" in str(info.value)
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno, frame.name) == ("pkg/packaged_kernels.py", LINE + 4,
                                                          "gather_sum")
    assert frame.line.startswith("assert x.shape[0] > 1")


def test_rebuilt_functions_name_the_files_here(packaged, tmp_path, monkeypatch):
    cf = compiler.compile(packaged.gather_sum, "f64[?], i64[?]")
    monkeypatch.chdir(tmp_path)
    back = pickle.loads(pickle.dumps(cf))   # rebuilt from its artifact, as the disk cache does
    assert back.ir == cf.ir
    x, idx = np.arange(3.0), np.array([4])
    with pytest.raises(IndexError) as want:
        cf(x, idx)
    with pytest.raises(IndexError) as got:
        back(x, idx)
    assert str(got.value) == str(want.value)
    frame = traceback.extract_tb(got.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno, frame.name) == (packaged.__file__, LINE, "at")
    back.save(tmp_path / "again.grafo")   # and saving it again names no path here
    manifest = members(tmp_path / "again.grafo")["manifest.json"]
    assert str(tmp_path).encode() not in manifest


def test_portable_path_rule(tmp_path, monkeypatch):
    assert portable_path(os.path.join(ROOT, "tests", "aot_functions.py")) == \
        "tests/aot_functions.py"
    assert portable_path(str(tmp_path / "a" / "k.py")) == "k.py"
    assert portable_path("<stdin>") == "<stdin>"
    monkeypatch.chdir(os.path.join(ROOT, "tests"))
    assert portable_path("aot_functions.py") == "tests/aot_functions.py"
    assert portable_path(io.__file__) != io.__file__ and not os.path.isabs(
        portable_path(io.__file__))
