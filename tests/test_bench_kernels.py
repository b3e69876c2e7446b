"""The benchmark kernels of benches/kernels.py that stand for issue-sized workloads (a weather
stencil into an argument, mask reductions in a loop, a CRC on Python ints), compiled against
the same functions run eagerly by CPython + NumPy."""

import importlib.util
import os
import sys
import warnings

import numpy as np
import pytest

import compiler

# Loaded under its own name: examples/kernels.py is the ``kernels`` other tests import.
_PATH = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "benches",
                     "kernels.py")
_SPEC = importlib.util.spec_from_file_location("bench_kernels", _PATH)
kernels = importlib.util.module_from_spec(_SPEC)
sys.modules["bench_kernels"] = kernels
_SPEC.loader.exec_module(kernels)


def _eager(fn, *args):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)   # the mean of an empty bin is NaN
        return fn(*args)


@pytest.mark.parametrize("shape", [(8, 6, 3), (1, 1, 1), (5, 4, 0)])
def test_hdiff_matches_numpy(shape):
    rng = np.random.default_rng(1)
    ni, nj, nk = shape
    grid = rng.standard_normal((ni + 4, nj + 4, nk))
    coeff = rng.random(shape)
    want, got = np.full(shape, -1.0), np.full(shape, -1.0)
    kernels.hdiff(want, grid, coeff)
    compiler.function(kernels.hdiff)(got, grid, coeff)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_hdiff_on_a_strided_view_of_the_grid():
    rng = np.random.default_rng(2)
    grid = rng.standard_normal((12, 20, 6))[:, ::2, :]
    coeff = rng.random((8, 6, 6))
    want, got = np.empty((8, 6, 6)), np.empty((8, 6, 6))
    kernels.hdiff(want, grid, coeff)
    compiler.function(kernels.hdiff)(got, grid, coeff)
    np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-12)


def test_mask_bins_matches_numpy_with_empty_bins_nan_and_inf():
    rng = np.random.default_rng(3)
    r = rng.random(1000) * 0.8          # the last bins stay empty: their mean is NaN
    v = rng.standard_normal(1000)
    v[[3, 500]] = np.nan, np.inf
    r[7] = np.nan                       # in no bin: every comparison with NaN is False
    edges = np.linspace(0.0, 1.0, 11)
    want, got = np.full(10, 7.0), np.full(10, 7.0)
    _eager(kernels.mask_bins, r, v, edges, want)
    compiler.function(kernels.mask_bins)(r, v, edges, got)
    np.testing.assert_allclose(got, want, rtol=1e-12, equal_nan=True)
    assert np.isnan(got[-1]) and np.isnan(want[-1])


def test_mask_bins_on_an_empty_input():
    want, got = np.full(3, 1.0), np.full(3, 1.0)
    edges = np.array([0.0, 0.5, 1.0, 2.0])
    _eager(kernels.mask_bins, np.empty(0), np.empty(0), edges, want)
    compiler.function(kernels.mask_bins)(np.empty(0), np.empty(0), edges, got)
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("data", [b"123456789", b"", bytes(range(256)) * 3])
def test_crc16_matches_python(data):
    a = np.frombuffer(data, dtype=np.uint8)
    got = compiler.function(kernels.crc16)(a)
    assert int(got) == kernels.crc16(a)
    if data == b"123456789":   # the check value of CRC-16/CCITT-FALSE
        assert int(got) == 0x29B1
