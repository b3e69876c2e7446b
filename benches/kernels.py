"""The benchmark kernels, written once in NumPy style (grafo compiles them as they are; JAX
traces the same source with ``np`` bound to ``jax.numpy``) and, for the explicit-loop cases,
as plain Python loops (grafo and Numba compile those)."""

import numpy as np


def power(x, y):
    return x ** y


def identity(x):
    return x


def fused(a, b, c, d, e):
    return a * b + c * d - e


def mse(y_true, y_pred):
    d = y_true - y_pred
    return np.mean(d * d)


def softmax(x):
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def matmul(a, b):
    return a @ b


def matmul_transposed(a, b):
    return a.T @ b


def matmul_chain(alpha, a, b, c, beta, d):
    return alpha * a @ b @ c + beta * d


def normal_equations(a, x):
    return a.T @ (a @ x)


def solve(a, b):
    return np.linalg.solve(a, b)


def stencil(img):
    return 0.25 * (img[1:-1, 2:] + img[1:-1, :-2] + img[2:, 1:-1] + img[:-2, 1:-1]) \
        - img[1:-1, 1:-1]


def triad(a, b, c, s):
    for i in range(a.shape[0]):
        a[i] = b[i] + s * c[i]


def triad_slice(a, b, c, s):
    a[:] = b + s * c


def dot_loop(a, b):
    acc = 0.0
    for i in range(a.shape[0]):
        acc += a[i] * b[i]
    return acc


def mandelbrot(width, height, max_iter):
    out = np.zeros((height, width), dtype=np.int64)
    for y in range(height):
        for x in range(width):
            cr = -2.0 + 3.0 * x / width
            ci = -1.5 + 3.0 * y / height
            zr = 0.0
            zi = 0.0
            n = 0
            while n < max_iter and zr * zr + zi * zi <= 4.0:
                zr, zi = zr * zr - zi * zi + cr, 2.0 * zr * zi + ci
                n += 1
            out[y, x] = n
    return out
