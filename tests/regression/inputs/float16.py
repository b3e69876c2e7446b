"""float16 functions compiled by the float16 lit tests."""

import numpy as np


def fused(a, b, c):
    return a * b + c


def hypot(a, b):
    return np.hypot(a, b)


def total(a):
    return np.sum(a)


def average(a):
    return np.mean(a)


def widen(a):
    return a.astype(np.float64)
