"""Writes go only into arrays NumPy lets a function write, on every calling path (Function,
ConcreteFunction, its generated and ctypes entries, loaded artifacts): a read-only array
passed for a written parameter raises NumPy's ValueError and stays unchanged; an unaligned
one is written as NumPy writes it, also when the call fails midway."""

import os
import subprocess
import sys
import traceback
import warnings

import numpy as np
import pytest
from conftest import assert_same

import compiler
import runtime
from runtime import fastcall

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
READ_ONLY = "assignment destination is read-only"


def set_first(x):
    x[0] = 5.0
    return x.sum()


def add_tail(x, y):
    x[1:] += y
    return x.sum()


def maybe_write(x, flag):
    if flag > 0:
        x[0] = 1.0
    return x.sum()


def total(x):
    return x.sum()


def double_column(m):
    m[:, 1] = m[:, 0] * 2.0
    return m.sum()


def fill_upto(x, n):
    for i in range(n):
        x[i] = i + 1.0
    return x[n]


def _read_only(a):
    a.setflags(write=False)
    return a


def _unaligned(shape, dtype=np.float64):
    """A writable array whose address is not a multiple of its itemsize, holding 0, 1, ..."""
    dtype = np.dtype(dtype)
    n = int(np.prod(shape))
    u = np.zeros(n * dtype.itemsize + 1, np.uint8)[1:].view(dtype).reshape(shape)
    assert not u.flags.aligned and u.flags.writeable
    u[...] = np.arange(n).reshape(shape)
    return u


READ_ONLY_ARRAYS = {
    "setflags": lambda: _read_only(np.arange(4.0)),
    "broadcast_to": lambda: np.broadcast_to(np.array([2.0]), (4,)),
    "broadcast_scalar": lambda: np.broadcast_to(np.float64(1.0), (4,)),
    "view_of_read_only": lambda: _read_only(np.arange(8.0))[::2],
    "frombuffer_bytes": lambda: np.frombuffer(np.arange(4.0).tobytes(), np.float64),
    "unaligned_read_only": lambda: _read_only(_unaligned((4,))),
}


def _paths(fn, signature, directory) -> dict:
    """Every way to call ``fn`` compiled for ``signature``."""
    cf = compiler.compile(fn, signature)
    path = directory / f"{fn.__name__}.grafo"
    cf.save(path)
    paths = {"Function": compiler.function(fn), "ConcreteFunction": cf,
             "artifact": runtime.load(path)}
    if fastcall.LAYOUT is not None:
        entry = cf.compiled.callable   # the generated entry; its self is the ctypes one
        paths.update({"fast entry": entry, "ctypes entry": entry.__self__})
    return paths


@pytest.fixture(scope="module")
def compiled(tmp_path_factory):
    directory = tmp_path_factory.mktemp("writes")
    return {fn.__name__: _paths(fn, sig, directory) for fn, sig in (
        (set_first, "f64[?]"), (add_tail, "f64[?], f64[?]"), (maybe_write, "f64[?], f64"),
        (total, "f64[?]"), (double_column, "f64[?,?]"), (fill_upto, "f64[?], i64"))}


def _eager_error(fn, make, *rest):
    try:
        fn(make(), *rest)
    except Exception as e:   # noqa: BLE001 - NumPy's error is the oracle
        return type(e), str(e)
    raise AssertionError("NumPy wrote into a read-only array")


def _python_runs(path: str) -> bool:
    """Whether the path runs the Python function for read-only arguments (a Function or
    ConcreteFunction has it; entries and artifacts raise before running)."""
    return path in ("Function", "ConcreteFunction")


@pytest.mark.parametrize("kind", READ_ONLY_ARRAYS)
@pytest.mark.parametrize("path", ["Function", "ConcreteFunction", "fast entry", "ctypes entry",
                                  "artifact"])
@pytest.mark.parametrize("name", ["set_first", "add_tail"])
def test_read_only_arguments_raise_numpys_error_and_stay_unchanged(compiled, name, path, kind):
    if path not in compiled[name]:
        pytest.skip("no generated entries without runtime.fastcall.LAYOUT")
    fn = {"set_first": set_first, "add_tail": add_tail}[name]
    rest = () if name == "set_first" else (np.ones(3),)
    make = READ_ONLY_ARRAYS[kind]
    want = _eager_error(fn, make, *rest)
    assert want[0] is ValueError and "read-only" in want[1]
    x = make()
    before = x.copy()
    with pytest.raises(ValueError) as info:
        compiled[name][path](x, *rest)
    got = (type(info.value), str(info.value))
    assert got == (want if _python_runs(path) else (ValueError, READ_ONLY))
    if _python_runs(path):   # raised by NumPy at the write, as eagerly
        assert traceback.extract_tb(info.value.__traceback__)[-1].name == name
        assert info.value.__context__ is None
    np.testing.assert_array_equal(x, before)


def test_read_only_view_leaves_its_writable_base_unchanged(compiled):
    base = np.arange(4.0)
    view = base.view()
    view.setflags(write=False)
    for path, call in compiled["set_first"].items():
        with pytest.raises(ValueError, match=READ_ONLY):
            call(view)
        np.testing.assert_array_equal(base, np.arange(4.0), err_msg=path)


def test_bytes_behind_frombuffer_stay_unchanged(compiled):
    data = np.arange(4.0).tobytes()
    for path, call in compiled["set_first"].items():
        with pytest.raises(ValueError, match=READ_ONLY):
            call(np.frombuffer(data, np.float64))
        assert data == np.arange(4.0).tobytes(), path


def test_a_write_not_reached_runs_as_python_once_warned(compiled):
    """A Function or ConcreteFunction gives NumPy's answer where the write into the read-only
    argument is not reached; a loaded artifact, which has no Python function, raises."""
    calls = compiled["maybe_write"]
    x = _read_only(np.arange(4.0))
    with pytest.warns(RuntimeWarning, match="'x' is a read-only array"):
        assert_same(calls["Function"](x, np.float64(-1.0)), maybe_write(x, np.float64(-1.0)))
    for path in ("Function", "ConcreteFunction"):
        with warnings.catch_warnings():
            warnings.simplefilter("error")   # once per Python function
            assert_same(calls[path](x, np.float64(-1.0)), np.float64(6.0))
        with pytest.raises(ValueError, match=READ_ONLY):
            calls[path](x, np.float64(1.0))
    with pytest.raises(ValueError, match=READ_ONLY):
        calls["artifact"](x, np.float64(-1.0))
    np.testing.assert_array_equal(x, np.arange(4.0))


def test_read_only_arguments_of_parameters_never_written_run_natively(compiled):
    x = _read_only(np.arange(4.0))
    for call in compiled["total"].values():
        assert_same(call(x), np.float64(6.0))
    if fastcall.LAYOUT is None:
        pytest.skip("no generated entries without runtime.fastcall.LAYOUT")
    assert compiled["total"]["ConcreteFunction"].entry is compiled["total"]["fast entry"]


class _Fallback:
    """The ``self`` of a rebound generated entry: counts the calls it is handed."""

    def __init__(self):
        self.calls = 0

    def __call__(self, *args):
        self.calls += 1
        return "fallback"


def test_generated_entry_tests_the_writeable_flag_of_written_parameters_only(compiled):
    if fastcall.LAYOUT is None:
        pytest.skip("no generated entries without runtime.fastcall.LAYOUT")
    writes, reads = _Fallback(), _Fallback()
    write_entry = fastcall.rebind(compiled["set_first"]["fast entry"], writes)
    read_entry = fastcall.rebind(compiled["total"]["fast entry"], reads)
    x = _read_only(np.arange(4.0))
    assert write_entry(x) == "fallback" and writes.calls == 1
    np.testing.assert_array_equal(x, np.arange(4.0))
    assert_same(write_entry(np.arange(4.0)), np.float64(11.0))
    assert_same(read_entry(x), np.float64(6.0))
    assert writes.calls == 1 and reads.calls == 0


UNALIGNED_CASES = [
    ("set_first", set_first, lambda: (_unaligned((4,)),)),
    ("add_tail", add_tail, lambda: (_unaligned((4,)), _unaligned((3,)))),
    ("double_column", double_column, lambda: (_unaligned((3, 4)),)),
    ("double_column", double_column, lambda: (_unaligned((4, 3)).T,)),
]


@pytest.mark.parametrize("path", ["Function", "ConcreteFunction", "fast entry", "ctypes entry",
                                  "artifact"])
@pytest.mark.parametrize(("name", "fn", "make"), UNALIGNED_CASES,
                         ids=[f"{c[0]}-{i}" for i, c in enumerate(UNALIGNED_CASES)])
def test_unaligned_written_arguments_are_written(compiled, path, name, fn, make):
    if path not in compiled[name]:
        pytest.skip("no generated entries without runtime.fastcall.LAYOUT")
    want_args, got_args = make(), make()
    want = fn(*want_args)
    assert_same(compiled[name][path](*got_args), want)
    for g, w in zip(got_args, want_args, strict=True):
        assert not g.flags.aligned
        np.testing.assert_array_equal(g, w)


@pytest.mark.parametrize("path", ["Function", "ConcreteFunction", "fast entry", "ctypes entry",
                                  "artifact"])
def test_unaligned_argument_keeps_the_writes_before_an_error(compiled, path):
    """As with an aligned array (and eagerly), the in-place writes done before a run-time
    error stay in the caller's array."""
    if path not in compiled["fill_upto"]:
        pytest.skip("no generated entries without runtime.fastcall.LAYOUT")
    want = _unaligned((4,))
    with pytest.raises(IndexError):
        fill_upto(want, np.int64(4))
    for x in (np.zeros(4), _unaligned((4,))):
        x[...] = np.arange(4.0)
        with pytest.raises(IndexError, match="index 4 is out of bounds"):
            compiled["fill_upto"][path](x, np.int64(4))
        np.testing.assert_array_equal(x, want)


def test_unaligned_read_only_parameter_is_read(compiled):
    u = _unaligned((5,))
    for call in compiled["total"].values():
        assert_same(call(u), np.float64(10.0))


def test_non_native_byte_order_is_rejected_with_a_clear_error(compiled):
    x = np.arange(4.0).astype(">f8")
    before = x.copy()
    with pytest.raises(compiler.CompileError, match=r"dtype >f8") as info:
        compiled["set_first"]["Function"](x)
    assert "x.astype(x.dtype.newbyteorder('='))" in str(info.value)
    for path in ("ConcreteFunction", "artifact"):
        with pytest.raises(TypeError, match=r"argument 'x': expected float64\[\?\], got >f8\[4\]"):
            compiled["set_first"][path](x)
    np.testing.assert_array_equal(x, before)
    assert x.dtype == np.dtype(">f8")


MEMMAP_CHILD = """
import sys
import numpy as np
import compiler, runtime

def set_first(x):
    x[0] = 5.0
    return x.sum()

path = sys.argv[1]
np.arange(4.0).tofile(path)
m = np.memmap(path, np.float64, mode="r")
cf = compiler.compile(set_first, "f64[?]")
cf.save(path + ".grafo")
calls = {"eager": set_first, "Function": compiler.function(set_first), "ConcreteFunction": cf,
         "artifact": runtime.load(path + ".grafo")}
calls["entry"] = cf.compiled.callable
if hasattr(calls["entry"], "__self__"):
    calls["ctypes entry"] = calls["entry"].__self__
for name, call in calls.items():
    for arg in (np.asarray(m), m):
        try:
            call(arg)
        except Exception as e:
            print(name, type(arg).__name__, type(e).__name__, str(e).splitlines()[0])
print("values", np.asarray(m).tolist())
"""


def test_read_only_memmap_raises_instead_of_crashing(tmp_path):
    """Writing a ``mode="r"`` memory map's pages faults; run where a crash cannot take the
    test process with it."""
    script = tmp_path / "child.py"   # a file: compiling needs the function's source
    script.write_text(MEMMAP_CHILD)
    out = subprocess.run([sys.executable, str(script), str(tmp_path / "m.bin")],
                         capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env={**os.environ, "PYTHONPATH": ROOT})
    assert out.returncode == 0, out.stderr[-2000:]
    lines = out.stdout.splitlines()
    assert lines[-1] == "values [0.0, 1.0, 2.0, 3.0]"
    for name in ("eager", "Function", "ConcreteFunction", "artifact", "entry"):
        assert f"{name} ndarray ValueError {READ_ONLY}" in lines, out.stdout
    assert "eager memmap ValueError " + READ_ONLY in lines
    for name in ("Function", "ConcreteFunction", "artifact", "entry"):   # an ndarray subclass
        assert any(line.startswith(f"{name} memmap TypeError") for line in lines), out.stdout
