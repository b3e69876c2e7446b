"""Sibling loop fusion (compiler/passes/fuse_loops.py) on real row-wise kernels: the loops
fuse, and the results stay NumPy's on 1 and 2 threads, static and dynamic shapes."""

import numpy as np
import pytest
from test_backend_parallel import needs_gomp, threads  # noqa: F401 (fixture)

import compiler


def layer_norm(x):
    mu = np.mean(x, axis=-1, keepdims=True)
    d = x - mu
    var = np.mean(d * d, axis=-1, keepdims=True)
    return d / np.sqrt(var + 1e-5)


def center_rows(x):
    return x - np.max(x, axis=1, keepdims=True) + np.min(x, axis=1, keepdims=True)


def log_softmax(x):
    m = np.max(x, axis=-1, keepdims=True)
    return x - m - np.log(np.sum(np.exp(x - m), axis=-1, keepdims=True))


def column_then_rows(x):
    """A column reduction between row loops: its loop reads every row, so it stays apart."""
    return x / np.sum(x, axis=0) - np.max(x, axis=1, keepdims=True)


CASES = [layer_norm, center_rows, log_softmax, column_then_rows]


def _top_loops(ir: str, names=("scf.for",)) -> int:
    """The function body's own ops named ``names`` (4-space indent in the printed IR)."""
    top = [line for line in ir.splitlines() if line.startswith("    ")
           and not line.startswith("     ")]
    return sum(1 for line in top for n in names
               if line.startswith(f'    "{n}"') or f'= "{n}"' in line)


@needs_gomp
@pytest.mark.parametrize("fn", CASES, ids=[f.__name__ for f in CASES])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_fused_row_kernels_match_numpy(fn, dtype, threads):  # noqa: F811
    x = np.random.default_rng(11).standard_normal((300, 257)).astype(dtype)
    x[3, 5] = np.nan
    x[7] = -0.0
    with np.errstate(all="ignore"):
        want = fn(x)
    rtol = 2e-5 if dtype == np.float32 else 1e-12
    for sig in (None, "f32[?,?]" if dtype == np.float32 else "f64[?,?]"):
        f = compiler.function(fn) if sig is None else compiler.compile(fn, sig)
        got = []
        for n in (1, 2):
            threads(n)
            got.append(f(x))
        assert got[0].tobytes() == got[1].tobytes()
        assert got[0].dtype == want.dtype and got[0].shape == want.shape
        np.testing.assert_allclose(got[0], want, rtol=rtol, atol=rtol, equal_nan=True)


def test_row_kernels_become_one_loop_and_column_reduction_stays_apart():
    assert _top_loops(compiler.compile(layer_norm, "f32[300,257]").ir_stages["loops"]) == 1
    assert _top_loops(compiler.compile(center_rows, "f32[300,257]").ir_stages["loops"]) == 1
    # The column sum's two loop orders sit in an scf.if that picks one from the strides.
    column = compiler.compile(column_then_rows, "f32[300,257]").ir_stages["loops"]
    assert _top_loops(column, ("scf.for", "scf.if")) > 1
