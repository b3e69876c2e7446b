"""Functions the histogram lit tests compile."""

import numpy as np


def weighted_counts(x, w):
    return np.bincount(x, weights=w, minlength=4)
