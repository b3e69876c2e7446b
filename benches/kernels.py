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


def polynomial(x, y, z):
    """50 terms of degree <= 5 in three arrays (``z`` broadcast), as array code."""
    return (0.125 - 0.250*x + 0.375*y - 0.500*z + 0.625*x*x - 0.750*x*y + 0.875*x*z - 0.125*y*y
            + 0.250*y*z - 0.375*z*z + 0.500*x*x*x - 0.625*x*x*y + 0.750*x*x*z - 0.875*x*y*y
            + 0.125*x*y*z - 0.250*x*z*z + 0.375*y*y*y - 0.500*y*y*z + 0.625*y*z*z - 0.750*z*z*z
            + 0.875*x*x*x*x - 0.125*x*x*x*y + 0.250*x*x*x*z - 0.375*x*x*y*y + 0.500*x*x*y*z
            - 0.625*x*x*z*z + 0.750*x*y*y*y - 0.875*x*y*y*z + 0.125*x*y*z*z - 0.250*x*z*z*z
            + 0.375*y*y*y*y - 0.500*y*y*y*z + 0.625*y*y*z*z - 0.750*y*z*z*z + 0.875*z*z*z*z
            - 0.125*x*x*x*x*x + 0.250*x*x*x*x*y - 0.375*x*x*x*x*z + 0.500*x*x*x*y*y
            - 0.625*x*x*x*y*z + 0.750*x*x*x*z*z - 0.875*x*x*y*y*y + 0.125*x*x*y*y*z
            - 0.250*x*x*y*z*z + 0.375*x*x*z*z*z - 0.500*x*y*y*y*y + 0.625*x*y*y*y*z
            - 0.750*x*y*y*z*z + 0.875*x*y*z*z*z - 0.125*x*z*z*z*z)


def polynomial_loop(xs, ys, zs):
    """``polynomial`` as the loop a Numba user writes (``zs`` of shape (n0, n1, 1))."""
    out = np.empty(xs.shape)
    for i in range(xs.shape[0]):
        for j in range(xs.shape[1]):
            for k in range(xs.shape[2]):
                x, y, z = xs[i, j, k], ys[i, j, k], zs[i, j, 0]
                out[i, j, k] = (0.125 - 0.250*x + 0.375*y - 0.500*z + 0.625*x*x - 0.750*x*y
                    + 0.875*x*z - 0.125*y*y + 0.250*y*z - 0.375*z*z + 0.500*x*x*x - 0.625*x*x*y
                    + 0.750*x*x*z - 0.875*x*y*y + 0.125*x*y*z - 0.250*x*z*z + 0.375*y*y*y
                    - 0.500*y*y*z + 0.625*y*z*z - 0.750*z*z*z + 0.875*x*x*x*x - 0.125*x*x*x*y
                    + 0.250*x*x*x*z - 0.375*x*x*y*y + 0.500*x*x*y*z - 0.625*x*x*z*z + 0.750*x*y*y*y
                    - 0.875*x*y*y*z + 0.125*x*y*z*z - 0.250*x*z*z*z + 0.375*y*y*y*y - 0.500*y*y*y*z
                    + 0.625*y*y*z*z - 0.750*y*z*z*z + 0.875*z*z*z*z - 0.125*x*x*x*x*x
                    + 0.250*x*x*x*x*y - 0.375*x*x*x*x*z + 0.500*x*x*x*y*y - 0.625*x*x*x*y*z
                    + 0.750*x*x*x*z*z - 0.875*x*x*y*y*y + 0.125*x*x*y*y*z - 0.250*x*x*y*z*z
                    + 0.375*x*x*z*z*z - 0.500*x*y*y*y*y + 0.625*x*y*y*y*z - 0.750*x*y*y*z*z
                    + 0.875*x*y*z*z*z - 0.125*x*z*z*z*z)
    return out


def hdiff(out, inp, coeff):
    """Horizontal diffusion (the COSMO weather model's stencil, as in the GT4Py/DaCe
    benchmarks): a Laplacian, two fluxes limited to the gradient's sign, into ``out`` (the
    grid ``inp`` less a halo of 2 in the first two dims)."""
    ni, nj, nk = out.shape
    lap = 4.0 * inp[1:ni + 3, 1:nj + 3, :] - (
        inp[2:ni + 4, 1:nj + 3, :] + inp[0:ni + 2, 1:nj + 3, :]
        + inp[1:ni + 3, 2:nj + 4, :] + inp[1:ni + 3, 0:nj + 2, :])
    res1 = lap[1:, 1:nj + 1, :] - lap[:-1, 1:nj + 1, :]
    flx = np.where(res1 * (inp[2:ni + 3, 2:nj + 2, :] - inp[1:ni + 2, 2:nj + 2, :]) > 0,
                   0, res1)
    res2 = lap[1:ni + 1, 1:, :] - lap[1:ni + 1, :-1, :]
    fly = np.where(res2 * (inp[2:ni + 2, 2:nj + 3, :] - inp[2:ni + 2, 1:nj + 2, :]) > 0,
                   0, res2)
    out[:, :, :] = inp[2:ni + 2, 2:nj + 2, :] - coeff[:, :, :] * (
        flx[1:, :, :] - flx[:-1, :, :] + fly[:, 1:, :] - fly[:, :-1, :])


def mask_bins(r, v, edges, out):
    """The mean of ``v`` over each bin ``[edges[i], edges[i + 1])`` of ``r``, one boolean
    mask per bin (a radial profile as users write it)."""
    for i in range(out.shape[0]):
        lo, hi = edges[i], edges[i + 1]
        m = (lo <= r) & (r < hi)
        out[i] = v[m].mean()


def crc16(data):
    """CRC-16/CCITT-FALSE (polynomial 0x1021, initial value 0xFFFF) of a uint8 array, the
    bitwise loop on Python ints."""
    crc = 0xFFFF
    for i in range(data.shape[0]):
        crc ^= int(data[i]) << 8
        for _ in range(8):
            if crc & 0x8000:
                crc = ((crc << 1) ^ 0x1021) & 0xFFFF
            else:
                crc = (crc << 1) & 0xFFFF
    return crc
