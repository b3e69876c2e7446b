"""Explicit loops over dynamic shapes whose bounds checks ``version-bounds-checks`` hoists;
the regression tests compile them with ``grafo ir``."""


def triad(out, a, b, s, n):
    for i in range(n):
        out[i] = a[i] + s * b[i]
