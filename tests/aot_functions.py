"""Functions compiled by the AOT, cache and pickling tests (the frontend reads their source)."""

import numpy as np

SCALE = 2.0


def helper(x):
    return x * SCALE


def dot_at(x, y):
    return np.sum(x * y) + x[3]


def scaled(x, n):
    return x * n, np.max(x)


def pair(x):
    return (x + 1.0,)


def smooth(x):
    return helper(np.sqrt(x)) + np.tanh(x)


def affine(a, b):
    return a * 2.0 + b


def shift_into(a, b):
    a[:] = b + 1
