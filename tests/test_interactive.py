"""Functions defined outside a .py file: IPython cells (run by IPython's ``InteractiveShell``
in a subprocess, as Jupyter's kernel runs them) compile, report errors at the cell's line,
show their graphs through the display protocol and hit the disk cache in a later session
with that session's locations; ``python -c``, ``exec`` and the plain prompt, where no source
can be read, raise a CompileError that says what to do."""

from __future__ import annotations

import importlib.util
import json
import linecache
import os
import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import compiler

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
HAS_IPYTHON = importlib.util.find_spec("IPython") is not None
HAS_PICTURES = importlib.util.find_spec("graphviz") is not None and shutil.which("dot")
needs_ipython = pytest.mark.skipif(not HAS_IPYTHON, reason="IPython is missing (pip install "
                                   "'grafo[test]')")

# Runs the cells of argv[1] (JSON) in one InteractiveShell; cells store what the test reads
# in ``report``, and the last line printed is {"cells": [...], "report": {...}}.
SESSION = """
import json, sys
from IPython.core.interactiveshell import InteractiveShell
from traitlets.config import Config
config = Config()
config.HistoryManager.hist_file = ":memory:"
config.InteractiveShell.colors = "NoColor"
shell = InteractiveShell.instance(config=config)
shell.user_ns["report"] = {}
cells = []
for cell in json.loads(sys.argv[1]):
    result = shell.run_cell(cell, store_history=True)
    error = result.error_in_exec or result.error_before_exec
    cells.append(None if error is None else [type(error).__name__, str(error)])
print(json.dumps({"cells": cells, "report": shell.user_ns["report"]}, default=str))
"""

CELLS = [
    "import numpy as np\nimport compiler",
    # 2: a compiled function; a comment line above it moves it down in the second session
    "{note}@compiler.function(cache=True)\ndef pick(x, i):\n    return x[i] * 2.0 + 1.0\n",
    "report['pick'] = pick(np.arange(3.0), np.int64(1)).item()\n"
    "report['pick_file'] = pick.python_function.__code__.co_filename\n"
    "report['timings'] = sorted(pick.concrete_functions()[0].timings)\n"
    "report['ir'] = pick.concrete_functions()[0].ir",
    "pick(np.arange(3.0), np.int64(7))",   # 4: an IndexError at cell 2's line 3
    # 5: unsupported syntax at line 4 of this cell
    "def retry(x):\n    y = x + 1\n    if y > 0:\n        try:\n            y = y * 2\n"
    "        except ValueError:\n            pass\n    return y\n"
    "report['retry_file'] = retry.__code__.co_filename",
    "compiler.compile(retry, 'f64')",
    "cf = compiler.compile(pick, 'f64[?], i64')\n"
    "fresh = compiler.function(lambda x: x + 1.0)\n"
    "formats = get_ipython().display_formatter.format\n"
    "report['cf_formats'] = sorted(formats(cf)[0])\n"
    "report['cf_html'] = formats(cf)[0]['text/html']\n"
    "report['fresh_html'] = formats(fresh)[0]['text/html']\n"
    "report['function_formats'] = sorted(formats(pick)[0])",
]


def run_session(cache_dir, note: str = "") -> dict:
    cells = [c.replace("{note}", note) for c in CELLS]
    env = {**os.environ, "PYTHONPATH": ROOT, "GRAFO_CACHE_DIR": str(cache_dir),
           "IPYTHONDIR": str(cache_dir / "ipython")}
    out = subprocess.run([sys.executable, "-c", SESSION, json.dumps(cells)], env=env,
                         capture_output=True, text=True, timeout=600)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.splitlines()[-1])


@pytest.fixture(scope="module")
def sessions(tmp_path_factory):
    """Two IPython sessions sharing a disk cache; in the second, cell 2 starts with two
    comment lines."""
    cache = tmp_path_factory.mktemp("cache")
    return run_session(cache), run_session(cache, "# a note\n# another\n")


@needs_ipython
def test_cell_functions_compile_and_run(sessions):
    first, _ = sessions
    assert first["cells"][:3] == [None, None, None]
    report = first["report"]
    assert report["pick"] == 3.0
    assert report["pick_file"].startswith("<ipython-input-2-")
    assert report["timings"] != ["load"]
    assert f'loc("{report["pick_file"]}":3:12)' in report["ir"]


@needs_ipython
def test_errors_show_the_cell_line(sessions):
    first, _ = sessions
    kind, message = first["cells"][3]
    assert kind == "IndexError"
    assert f'File "{first["report"]["pick_file"]}", line 3, column 12' in message
    assert "return x[i] * 2.0 + 1.0" in message
    kind, message = first["cells"][5]
    assert kind == "CompileError"
    lines = message.splitlines()
    assert lines[0] == (f"{first['report']['retry_file']}:4:9: error: unsupported syntax "
                        f"'try' statement")
    assert lines[1] == "            try:"


@needs_ipython
def test_cache_hit_in_a_later_session_names_its_cell(sessions):
    first, second = sessions
    report = second["report"]
    assert second["cells"][:3] == [None, None, None]
    assert report["pick"] == 3.0 and report["timings"] == ["load"]
    assert report["pick_file"] != first["report"]["pick_file"]
    assert f'loc("{report["pick_file"]}":5:12)' in report["ir"]
    assert first["report"]["pick_file"] not in report["ir"]
    kind, message = second["cells"][3]
    assert kind == "IndexError"
    assert f'File "{report["pick_file"]}", line 5, column 12' in message


@needs_ipython
def test_display_protocol(sessions):
    report = sessions[0]["report"]
    assert "text/html" in report["cf_formats"]
    assert "No concrete functions yet" in report["fresh_html"]
    if HAS_PICTURES:
        assert "image/svg+xml" in report["cf_formats"]
        assert "image/svg+xml" in report["function_formats"]
        assert "<svg" in report["cf_html"]
    else:
        assert "No graph:" in report["cf_html"]


# Where no source can be read ---------------------------------------------------------------

DEFINE_AND_CALL = ("import numpy as np, compiler\n"
                   "@compiler.function\n"
                   "def f(x):\n"
                   "    return x + 1.0\n"
                   "\n"
                   "f(np.ones(2))\n")


def run_python(args, stdin: str | None = None) -> str:
    out = subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": ROOT}, timeout=300)
    return out.stderr


def test_python_c_says_what_to_do():
    err = run_python(["-c", DEFINE_AND_CALL])
    assert ("<string>:2:1: error: cannot read the source code of 'f': it was compiled from a "
            "string (python -c, exec") in err
    assert "define 'f' in a .py file and import it, or in a Jupyter or IPython cell" in err


def test_interactive_prompt_says_what_to_do():
    err = run_python(["-i", "-q"], stdin=DEFINE_AND_CALL)
    assert "it was typed at the interactive prompt, which keeps no source" in err
    assert "define 'f' in a .py file and import it, or work in IPython or Jupyter" in err


def test_exec_says_what_to_do_and_that_works():
    text = "def g(x):\n    return x * 3.0\n"
    namespace = {}
    exec(compile(text, "<kernels>", "exec"), namespace)
    with pytest.raises(compiler.CompileError) as e:
        compiler.compile(namespace["g"], "f64[?]")
    assert "it was compiled from a string" in str(e.value)
    assert "first put its text in linecache under the file name given to compile()" in str(
        e.value)
    linecache.cache["<kernels>"] = (len(text), None, text.splitlines(True), "<kernels>")
    try:
        namespace = {}
        exec(compile(text, "<kernels>", "exec"), namespace)
        cf = compiler.compile(namespace["g"], "f64[?]")
        np.testing.assert_array_equal(cf(np.arange(3.0)), [0.0, 3.0, 6.0])
        assert 'loc("<kernels>":2:12)' in cf.ir
    finally:
        del linecache.cache["<kernels>"]


def test_unreadable_file_says_so(tmp_path):
    path = tmp_path / "gone.py"
    path.write_text(textwrap.dedent("""\
        def h(x):
            return x
        """))
    namespace = {}
    exec(compile(path.read_text(), str(path), "exec"), namespace)
    path.unlink()
    with pytest.raises(compiler.CompileError) as e:
        compiler.compile(namespace["h"], "f64")
    assert f"grafo compiles from source: keep '{path}' readable" in str(e.value)
