"""Complex and float16 functions for the NVPTX lowering tests (ptx-complex.mlir)."""

import numpy as np


def exp_scaled(a):
    return np.exp(a) * a


def complex_total(a):
    return np.sum(a)


def half_axpy(x, y):
    return x * 2.0 + y


def complex_sine(a):
    return np.sin(a)


def complex_scaled(a, z):
    return a * z
