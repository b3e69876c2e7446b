"""Functions for the lit tests of array creation (tests/regression/*creation*.mlir)."""

import numpy as np


def fortran_sum0(x):
    return np.asfortranarray(x * 2.0).sum(0)


def contiguous_sum0(x):
    return np.ascontiguousarray(x * 2.0).sum(0)


def array_of_sums(a, b):
    return np.array([a.sum(), b.sum()])


def array_of_rows(a, b):
    return np.array([a, b])
