"""A new array made from an argument is a new array: writing into it leaves the caller's
array alone, even where the compiler folds the expression back to the argument's value
(``a * 1.0``, ``np.copy(a)``, ``a.astype(a.dtype)``). A view (``a[:]``, ``a[...]``) or the
argument itself still writes through to the caller, as NumPy does.

Each case writes its function into a module file, so the compiler can read its source."""

import importlib.util

import numpy as np
import pytest
from differential_harness import run_both

COPIES = ["a * 1.0", "1.0 * a", "a * 1", "a + 0", "a - 0", "a / 1.0", "a ** 1", "+a",
          "np.positive(a)", "np.multiply(a, 1)", "a.astype(a.dtype)", "np.copy(a)",
          "a.copy()", "np.array(a)", "np.where(True, a, a)", "np.maximum(a, a)"]
VIEWS = ["a", "a[:]", "a[...]"]
BODIES = {
    "statement": "    b = {e}\n    b[0] = 5.0\n    return b\n",
    "for": "    b = {e}\n    for i in range(1, b.shape[0]):\n"
           "        b[i] = b[i - 1] + 1.0\n    return b\n",
    "if": "    b = {e}\n    if a[0] > 0:\n        b[1] = 7.0\n    return b\n",
    "while": "    b = {e}\n    i = 0\n    while i < b.shape[0]:\n        b[i] = 3.0\n"
             "        i += 2\n    return b\n",
    "augmented": "    b = {e}\n    b += 1.0\n    return b\n",
    "early return": "    b = {e}\n    for i in range(b.shape[0]):\n        b[i] = -b[i]\n"
                    "        if b[i] < -4.0:\n            return b\n    return b\n",
}


def _function(tmp_path, body: str, expr: str):
    path = tmp_path / "case.py"
    path.write_text("import numpy as np\n\n\ndef f(a):\n" + body.format(e=expr))
    spec = importlib.util.spec_from_file_location("case", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.f


@pytest.mark.parametrize("body", list(BODIES))
@pytest.mark.parametrize("expr", COPIES)
def test_copy_of_argument(tmp_path, body, expr):
    f = _function(tmp_path, BODIES[body], expr)
    run_both(f, (np.arange(1.0, 7.0),))


@pytest.mark.parametrize("body", list(BODIES))
@pytest.mark.parametrize("expr", VIEWS)
def test_view_of_argument(tmp_path, body, expr):
    """Returns a sum: a returned view is a new array in compiled code (see the README)."""
    f = _function(tmp_path, BODIES[body].replace("return b", "return b.sum()"), expr)
    run_both(f, (np.arange(1.0, 7.0),))


@pytest.mark.parametrize("expr", ["a * 1.0", "np.copy(a)", "a.copy()"])
def test_copy_of_mutated_argument(tmp_path, expr):
    """The argument is written too: the caller sees its own writes, not the copy's."""
    body = "    a[2] = 9.0\n    b = {e}\n    b[0] = 5.0\n    a[3] = 8.0\n    return b\n"
    run_both(_function(tmp_path, body, expr), (np.arange(1.0, 7.0),))


@pytest.mark.parametrize("dtype", [np.int32, np.float32, np.uint8])
def test_copy_in_loop_keeps_argument(tmp_path, dtype):
    f = _function(tmp_path, BODIES["for"], "a * 1")
    run_both(f, (np.arange(6).astype(dtype),))
