import os
import sys

import numpy as np
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "examples"))


def assert_same(got, want, rtol=None, atol=None):
    """NumPy is the oracle: same type, dtype, shape and values (NaN-equal, sign of zero kept;
    floats within ``rtol`` when given, else a float32/float64 default)."""
    if isinstance(want, tuple):
        assert isinstance(got, tuple) and len(got) == len(want), (got, want)
        for g, w in zip(got, want, strict=False):
            assert_same(g, w, rtol, atol)
        return
    if isinstance(want, np.ndarray):
        assert isinstance(got, np.ndarray), f"expected an ndarray, got {type(got).__name__}"
    else:
        assert type(got) is type(want), f"expected {type(want).__name__}, got {type(got)}"
    g, w = np.asarray(got), np.asarray(want)
    assert g.dtype == w.dtype, (g.dtype, w.dtype)
    assert g.shape == w.shape, (g.shape, w.shape)
    if w.dtype.kind == "c":   # each part as a float array
        for part in ("real", "imag"):
            assert_same(np.array(getattr(g, part)), np.array(getattr(w, part)), rtol, atol)
        return
    if w.dtype.kind == "f":
        if rtol is None:
            rtol = 2e-6 if w.dtype == np.float32 else 1e-13
        atol = rtol * 1e-3 if atol is None else atol
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        exact = w == g
        assert np.array_equal(np.signbit(g[exact]), np.signbit(w[exact])), "sign of zero"
    else:
        np.testing.assert_array_equal(g, w)


@pytest.fixture
def same():
    return assert_same


@pytest.fixture
def two_gpus():
    """A simulated machine with two GPUs (``runtime/cuda/simulator.py``), its driver."""
    from runtime.cuda import driver
    driver.select("simulator")
    driver.simulator().devices = 2
    yield driver.simulator()
    driver.select(None)
