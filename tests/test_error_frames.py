"""Errors name what the user named, the same on every path (Function, ConcreteFunction, its
ctypes reference entry, a loaded artifact, an unpickled ConcreteFunction): argument errors
name the parameter, and a failed run-time check's traceback ends at the user's source line
(file, line and function, an inlined helper's own), as ``traceback.extract_tb`` reads it."""

import importlib.util
import os
import pickle
import sys
import traceback

import numpy as np
import pytest

import compiler
import runtime

MODULE = "error_frames_kernels"
SOURCE = '''\
import numpy as np


def helper(x, i):
    return x[i] * 2.0


def pick(x, i):
    y = x + 1.0
    return helper(y, i)


def positive(x):
    assert x[0] > 0, "x[0] must be positive"
    return x * 2.0


def scaled_len(x):
    return len(x) * 4611686018427387904


def mse(y_true, y_pred):
    d = y_true - y_pred
    return np.mean(d * d)


def shift(x, n):
    return x + n
'''


def line_of(text: str) -> int:
    """The 1-based line of SOURCE that holds ``text``."""
    return next(k for k, line in enumerate(SOURCE.splitlines(), 1) if text in line)


@pytest.fixture(scope="module")
def kernels(tmp_path_factory):
    path = tmp_path_factory.mktemp("frames") / f"{MODULE}.py"
    path.write_text(SOURCE)
    spec = importlib.util.spec_from_file_location(MODULE, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[MODULE] = module   # importable by name: ConcreteFunctions pickle by reference
    spec.loader.exec_module(module)
    yield module
    del sys.modules[MODULE]


def reference(cf):
    """The ctypes entry (``runtime.abi.NativeFunction``) behind ``cf``'s generated one."""
    return getattr(cf.entry, "__self__", cf.entry)


def callables(fn, signature: str, tmp_path) -> dict:
    """Every way to call ``fn`` compiled: {path name: callable}."""
    cf = compiler.compile(fn, signature)
    cf.save(tmp_path / f"{fn.__name__}.grafo")
    return {"Function": compiler.function(fn), "ConcreteFunction": cf,
            "reference entry": reference(cf), "unpickled": pickle.loads(pickle.dumps(cf)),
            "loaded artifact": runtime.load(tmp_path / f"{fn.__name__}.grafo")}


CASES = [   # function, signature, arguments, exception, its message, the line, its function
    ("pick", "f64[5], i64[3]", lambda: (np.arange(5.0), np.array([1, 7, 2])), IndexError,
     "index 7 is out of bounds for axis 0 with size 5", "return x[i] * 2.0", "helper"),
    ("positive", "f64[?]", lambda: (-np.arange(1.0, 4.0),), AssertionError,
     "x[0] must be positive", "assert x[0] > 0", "positive"),
    ("scaled_len", "f64[?]", lambda: (np.ones(5),), OverflowError,
     "Python int too large for grafo's 64-bit Python ints: 5 * 4611686018427387904",
     "return len(x) *", "scaled_len"),
]


@pytest.mark.parametrize("name, signature, args, kind, message, text, function", CASES,
                         ids=[c[0] for c in CASES])
def test_run_time_errors_end_at_the_users_line(kernels, tmp_path, monkeypatch, name,
                                               signature, args, kind, message, text, function):
    monkeypatch.chdir(os.path.dirname(kernels.__file__))   # where the artifact's name resolves
    paths = callables(getattr(kernels, name), signature, tmp_path)
    if name == "scaled_len":   # a Function folds it at its static shape: a compile error
        paths["Function"] = compiler.function(kernels.scaled_len, input_signature=signature)
    line = line_of(text)
    for path, call in paths.items():
        for _ in range(2):   # the second call of a Function runs its dispatch entry
            with pytest.raises(kind) as info:
                call(*args())
            assert type(info.value) is kind, path
            assert str(info.value).startswith(message), path
            assert f", line {line}, column " in str(info.value), path
            frame = traceback.extract_tb(info.value.__traceback__)[-1]
            assert os.path.abspath(frame.filename) == kernels.__file__, path
            assert (frame.lineno, frame.name) == (line, function), path
            assert text in frame.line, path
    # the artifact names the file by its base name (no project root above the temporary
    # directory); everything else by its path here
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert frame.filename == f"{MODULE}.py"


def test_loaded_frames_show_the_recorded_line_elsewhere(kernels, tmp_path, monkeypatch):
    cf = compiler.compile(kernels.pick, "f64[5], i64[3]")
    cf.save(tmp_path / "pick.grafo")
    monkeypatch.chdir(tmp_path)   # no error_frames_kernels.py here
    f = runtime.load(tmp_path / "pick.grafo")
    with pytest.raises(IndexError) as info:
        f(np.arange(5.0), np.array([9, 0, 0]))
    frame = traceback.extract_tb(info.value.__traceback__)[-1]
    assert (frame.filename, frame.lineno, frame.name) == (f"{MODULE}.py", line_of("x[i]"),
                                                          "helper")
    assert frame.line == "return x[i] * 2.0"
    assert "\n    return x[i] * 2.0\n" in str(info.value)


def test_frames_cost_no_reference_cycle(kernels):
    cf = compiler.compile(kernels.pick, "f64[5], i64[3]")
    x, idx = np.arange(5.0), np.array([1, 7, 2])
    before = sys.getrefcount(x)
    for _ in range(100):
        with pytest.raises(IndexError):
            cf(x, idx)
    assert sys.getrefcount(x) == before


# argument errors name the parameter ------------------------------------------------------

MISMATCH = "mse() argument 'y_true': expected float32[?], got float64[1000]"


def test_argument_errors_name_the_parameter_on_every_path(kernels, tmp_path):
    paths = callables(kernels.mse, "f32[?], f32[?]", tmp_path)
    del paths["Function"]   # a Function compiles another specialization instead
    good, bad = np.ones(1000, np.float32), np.ones(1000)
    for path, call in paths.items():
        with pytest.raises(TypeError) as info:
            call(bad, good)
        assert str(info.value) == MISMATCH, path
        with pytest.raises(TypeError) as info:
            call(good, "y")
        assert str(info.value) == "mse() argument 'y_pred': expected float32[?], got str", path
        with pytest.raises(TypeError) as info:
            call(np.ma.masked_array(good), good)
        assert str(info.value).startswith("mse() argument 'y_true': numpy.ma."
                                          "MaskedArray (an ndarray subclass)"), path
    pinned = compiler.function(kernels.mse, input_signature="f32[?], f32[?]")
    with pytest.raises(TypeError) as info:
        pinned(bad, good)
    assert str(info.value) == ("mse() argument 'y_true': expected float32[?] (its "
                               "input_signature), got float64[1000]")


def test_scalar_and_constant_argument_errors_name_the_parameter(kernels, tmp_path):
    paths = callables(kernels.shift, "f64[?], i64", tmp_path)
    x = np.ones(3)
    for path, call in paths.items():
        if path == "Function":
            continue
        with pytest.raises(TypeError) as info:
            call(x, 1.5)
        assert str(info.value) == "shift() argument 'n': expected an int64 scalar, got float"
        with pytest.raises(OverflowError, match=r"^shift\(\) argument 'n': "):
            call(x, 2 ** 70)
    f = compiler.function(kernels.shift)
    with pytest.raises(TypeError, match=r"^shift\(\) argument 'n' of type list is not "):
        f(x, [1])
    traced = f.get_concrete_function(x, 2)
    with pytest.raises(TypeError, match=r"^shift\(\) argument 'n': this concrete function "
                                        r"was traced with 2, received 3"):
        traced(x, 3)
    traced.save(tmp_path / "traced.grafo")
    with pytest.raises(TypeError, match=r"^shift\(\) argument 'n': this concrete function "
                                        r"was traced with 2, received 3"):
        runtime.load(tmp_path / "traced.grafo")(x, 3)
