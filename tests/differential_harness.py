"""Run a function eagerly (CPython + NumPy) and compiled on copies of the same inputs and
compare everything observable: results (type, dtype, shape, values), exceptions, printed text,
mutated inputs and ``compiler.Variable`` state, over two calls each. An error NumPy raises
at run time may be a CompileError with the same message when the compiler finds it from
static shapes."""

import copy
import io
from contextlib import redirect_stdout

import numpy as np
from conftest import assert_same

import compiler


def _observe(call, args, variables, initial):
    for v, init in zip(variables, initial, strict=True):
        v.assign(init)
    args = copy.deepcopy(args)
    out, results = io.StringIO(), []
    with redirect_stdout(out):
        for _ in range(2):
            try:
                results.append(("ok", call(*args)))
            except compiler.CompileError as e:  # NumPy's error, found at compile time
                results.append(("raised", "compile-time", e.reason))
            except Exception as e:  # noqa: BLE001 - the exception is what is compared
                results.append(("raised", type(e), (str(e).splitlines() or [""])[0]))
    return results, out.getvalue(), args, [v.numpy() for v in variables]


def run_both(fn, args, variables=(), rtol=None, compiled=None):
    """Assert that ``fn(*args)`` behaves identically eagerly and compiled (by ``compiled``,
    a ``compiler.function(fn)`` that Hypothesis examples share, else a new one)."""
    initial = [v.numpy() for v in variables]
    want = _observe(fn, args, variables, initial)
    got = _observe(compiled or compiler.function(fn), args, variables, initial)
    for w, g in zip(want[0], got[0], strict=True):
        assert w[0] == g[0], (w, g)
        if w[0] == "ok":
            assert_same(g[1], w[1], rtol)
        else:
            assert w[1:] == g[1:] or g[1] == "compile-time" and g[2] == w[2], (w, g)
    assert got[1] == want[1], f"printed:\n{got[1]!r}\nexpected:\n{want[1]!r}"
    for g, w in zip(got[2], want[2], strict=True):
        if isinstance(w, np.ndarray):
            assert_same(g, w)
    for g, w in zip(got[3], want[3], strict=True):
        assert_same(g, w)
