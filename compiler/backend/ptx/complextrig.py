"""The C99 complex trigonometric and hyperbolic functions of the NVPTX target, written with
real functions for ``complexlib.Libdevice`` (libdevice has no complex functions; NumPy's
``sin`` ... ``arctanh`` of complex numbers call glibc's ``csin`` ... ``catanh``).

Each takes and returns (re, im) pairs of one float type (``complexmath.Real``). Special
values (infinities, NaNs, signed zeros) are C99 Annex G's (G.6.1-G.6.2) as glibc gives them;
``csin``, ``ccos``, ``ctan``, ``casin`` and ``catan`` are Annex G's definitions ``-i
csinh(iz)``, ``ccosh(iz)``, ``-i ctanh(iz)``, ``-i casinh(iz)``, ``-i catanh(iz)``:

- ``csinh = sinh x cos y + i cosh x sin y``, ``ccosh = cosh x cos y + i sinh x sin y``;
- ``ctanh = (sinh x cosh x + i sin y cos y) / (sinh^2 x + cos^2 y)`` (the denominator is
  ``(cosh 2x + cos 2y) / 2`` without cancellation), ``sign(x) + i 4 sin y cos y e^-2|x|``
  where ``tanh x`` rounds to +-1;
- ``casinh``, ``cacos``: Kahan's formulas ("Branch cuts for complex elementary functions",
  1987) over ``csqrt(1 - z)``, ``csqrt(1 + z)`` (``complexlib.csqrt``), free of
  cancellation; ``z`` itself where ``|z|`` is below the square root of the epsilon;
  ``cacosh`` is ``+-i cacos(z)`` with the sign that makes the real part nonnegative;
- ``catanh = log1p(4x / ((1 - x)^2 + y^2)) / 4 + i atan2(2y, (1 - x)(1 + x) - y^2) / 2``,
  ``x / |z|^2 + i sign(y) pi/2`` for ``|z|`` beyond the square root of the largest float.

The odd functions are computed on ``(|x|, |y|)`` and given the signs of ``x`` and ``y``.
"""

from __future__ import annotations

import math

from llvmlite import ir

from ..llvm.complexmath import Real


def _sign(r: Real, x, like):
    return r.intrinsic("copysign", x, like)


def _abs(r: Real, x):
    return r.intrinsic("fabs", x)


def _double(r: Real) -> bool:
    return r.ty == ir.DoubleType()


def _times_minus_i(z: tuple, b) -> tuple:
    return z[1], b.fneg(z[0])


def _times_i(z: tuple, b) -> tuple:
    return b.fneg(z[1]), z[0]


def csinh(r: Real, z: tuple) -> tuple:
    b = r.b
    x, y = z
    out = (b.fmul(r.libm("sinh", x), r.libm("cos", y)), b.fmul(r.libm("cosh", x), r.libm("sin", y)))
    y_bad = b.or_(r.isinf(y), r.isnan(y))
    nan = r.c(math.nan)
    # +-0 + i(inf or NaN) -> +-0 + i NaN; +-inf + i(inf or NaN) -> +inf + i NaN (glibc)
    out = r.select(b.and_(y_bad, b.fcmp_ordered("==", x, r.c(0.0))), (x, nan), out)
    out = r.select(b.and_(y_bad, r.isinf(x)), (r.c(math.inf), nan), out)
    return r.select(b.fcmp_ordered("==", y, r.c(0.0)), (r.libm("sinh", x), y), out)


def ccosh(r: Real, z: tuple) -> tuple:
    b = r.b
    x, y = z
    out = (b.fmul(r.libm("cosh", x), r.libm("cos", y)), b.fmul(r.libm("sinh", x), r.libm("sin", y)))
    y_bad = b.or_(r.isinf(y), r.isnan(y))
    nan, inf = r.c(math.nan), r.c(math.inf)
    zero_x = b.fcmp_ordered("==", x, r.c(0.0))
    out = r.select(b.and_(y_bad, zero_x), (nan, r.c(0.0)), out)
    out = r.select(b.and_(y_bad, r.isinf(x)), (inf, nan), out)
    # x + i0: cosh x + i0 with the sign of x y (a NaN x keeps y, whatever the NaN's sign)
    zero_im = b.select(r.isnan(x), y, b.fmul(_sign(r, r.c(0.0), x), y))
    return r.select(b.fcmp_ordered("==", y, r.c(0.0)), (r.libm("cosh", x), zero_im), out)


def ctanh(r: Real, z: tuple) -> tuple:
    b = r.b
    x, y = z
    s, c = r.libm("sin", y), r.libm("cos", y)
    sh = r.libm("sinh", x)
    d = b.fadd(b.fmul(sh, sh), b.fmul(c, c))
    out = (b.fdiv(b.fmul(sh, r.libm("cosh", x)), d), b.fdiv(b.fmul(s, c), d))
    ax = _abs(r, x)
    finite_y = b.fcmp_ordered("<", _abs(r, y), r.c(math.inf))
    far = b.and_(finite_y, b.fcmp_ordered(">", ax, r.c(20.0 if _double(r) else 9.0)))
    tail = b.fmul(b.fmul(r.c(4.0), b.fmul(s, c)), r.libm("exp", b.fmul(r.c(-2.0), ax)))
    out = r.select(far, (_sign(r, r.c(1.0), x), tail), out)
    # +-inf + iy: +-1 + i0 with the sign of sin 2y (of y for a non-finite or small y)
    big_y = b.and_(finite_y, b.fcmp_ordered(">", _abs(r, y), r.c(1.0)))
    zero_sign = b.select(big_y, b.fmul(s, c), y)
    out = r.select(r.isinf(x), (_sign(r, r.c(1.0), x), _sign(r, r.c(0.0), zero_sign)), out)
    y_bad = b.not_(finite_y)
    out = r.select(b.and_(y_bad, b.fcmp_ordered("==", x, r.c(0.0))), (x, r.c(math.nan)), out)
    return r.select(b.and_(r.isnan(x), b.fcmp_ordered("==", y, r.c(0.0))), (x, y), out)


def csin(r: Real, z: tuple) -> tuple:
    b = r.b
    x, y = z
    out = _times_minus_i(csinh(r, _times_i(z, b)), b)
    # glibc: (inf or NaN) + i(+-inf) -> NaN + i inf, the imaginary part always positive
    x_bad = b.or_(r.isinf(x), r.isnan(x))
    return r.select(b.and_(x_bad, r.isinf(y)), (r.c(math.nan), r.c(math.inf)), out)


def ccos(r: Real, z: tuple) -> tuple:
    return ccosh(r, _times_i(z, r.b))


def ctan(r: Real, z: tuple) -> tuple:
    return _times_minus_i(ctanh(r, _times_i(z, r.b)), r.b)


def _sqrt_pair(r: Real, x, y) -> tuple:
    """``(csqrt(1 - z), csqrt(1 + z))`` for ``z = x + iy``, the library's ``csqrt``."""
    b = r.b
    one = r.c(1.0)
    return r.c99("csqrt", (b.fsub(one, x), b.fneg(y))), r.c99("csqrt", (b.fadd(one, x), y))


def _small(r: Real, ax, ay):
    """``|x|`` and ``|y|`` below the square root of the epsilon: ``f(z)`` rounds to ``z``."""
    limit = r.c(2.0 ** (-26 if _double(r) else -12))
    return r.b.and_(r.b.fcmp_ordered("<", ax, limit), r.b.fcmp_ordered("<", ay, limit))


def casin(r: Real, z: tuple) -> tuple:
    return _times_minus_i(casinh(r, _times_i(z, r.b)), r.b)


def casinh(r: Real, z: tuple) -> tuple:
    """``-i arcsin(iz)`` on ``(|x|, |y|)`` with Kahan's ``arcsin(w) = atan2(u, Re(s1 s2)) +
    i asinh(Im(conj(s1) s2))``, ``w = iz = u + iv``, ``s1, s2 = csqrt(1 - w), csqrt(1 + w)``;
    then the signs of ``x`` and ``y``."""
    b = r.b
    x, y = z
    ax, ay = _abs(r, x), _abs(r, y)
    u, v = b.fneg(ay), ax
    s1, s2 = _sqrt_pair(r, u, v)
    re_w = r.libm("atan2", u, b.fsub(b.fmul(s1[0], s2[0]), b.fmul(s1[1], s2[1])))
    im_w = r.libm("asinh", b.fsub(b.fmul(s1[0], s2[1]), b.fmul(s1[1], s2[0])))
    re, im = im_w, b.fneg(re_w)
    re, im = r.select(_small(r, ax, ay), (ax, ay), (re, im))
    inf, nan = r.c(math.inf), r.c(math.nan)
    x_inf, y_inf = r.isinf(ax), r.isinf(ay)
    im_inf = b.select(b.and_(x_inf, y_inf), r.c(math.pi / 4),
                      b.select(y_inf, b.select(r.isnan(ax), nan, r.c(math.pi / 2)),
                               b.select(r.isnan(ay), nan, r.c(0.0))))
    re, im = r.select(b.or_(x_inf, y_inf), (inf, im_inf), (re, im))
    no_inf = b.not_(b.or_(x_inf, y_inf))
    nan_x0 = b.and_(r.isnan(ax), b.fcmp_ordered("==", ay, r.c(0.0)))
    re, im = r.select(b.and_(no_inf, b.or_(r.isnan(ax), r.isnan(ay))),
                      r.select(nan_x0, (nan, r.c(0.0)), (nan, nan)), (re, im))
    return _sign(r, re, x), _sign(r, im, y)


def cacos(r: Real, z: tuple) -> tuple:
    """Kahan's ``2 atan2(Re s1, Re s2) + i asinh(Im(conj(s2) s1))``, ``s1, s2 = csqrt(1 - z),
    csqrt(1 + z)``, on ``x + i|y|``; then the imaginary part's sign (``cacos(conj z) =
    conj(cacos z)``)."""
    b = r.b
    x, y = z
    ay = _abs(r, y)
    s1, s2 = _sqrt_pair(r, x, ay)
    re = b.fmul(r.c(2.0), r.libm("atan2", s1[0], s2[0]))
    im = r.libm("asinh", b.fsub(b.fmul(s2[0], s1[1]), b.fmul(s2[1], s1[0])))
    inf, nan = r.c(math.inf), r.c(math.nan)
    x_inf, y_inf = r.isinf(x), r.isinf(ay)
    neg = b.fcmp_ordered("<", x, r.c(0.0))
    re_y_inf = b.select(x_inf, b.select(neg, r.c(3 * math.pi / 4), r.c(math.pi / 4)),
                        b.select(r.isnan(x), nan, r.c(math.pi / 2)))
    re_x_inf = b.select(r.isnan(ay), nan, b.select(neg, r.c(math.pi), r.c(0.0)))
    im_x_inf = b.select(r.isnan(ay), inf, b.fneg(inf))
    re, im = r.select(x_inf, (re_x_inf, im_x_inf), (re, im))
    re, im = r.select(y_inf, (re_y_inf, b.fneg(inf)), (re, im))
    no_inf = b.not_(b.or_(x_inf, y_inf))
    zero_x = b.and_(b.fcmp_ordered("==", x, r.c(0.0)), r.isnan(ay))
    re, im = r.select(b.and_(no_inf, b.or_(r.isnan(x), r.isnan(ay))),
                      r.select(zero_x, (r.c(math.pi / 2), nan), (nan, nan)), (re, im))
    return re, b.fneg(_sign(r, im, y))


def cacosh(r: Real, z: tuple) -> tuple:
    u, v = cacos(r, z)
    return _abs(r, v), _sign(r, u, z[1])


def catanh(r: Real, z: tuple) -> tuple:
    b = r.b
    x, y = z
    ax, ay = _abs(r, x), _abs(r, y)
    one = r.c(1.0)
    ox = b.fsub(one, ax)
    d = b.fadd(b.fmul(ox, ox), b.fmul(ay, ay))
    re = b.fmul(r.c(0.25), r.libm("log1p", b.fdiv(b.fmul(r.c(4.0), ax), d)))
    # near z = +-1, d may underflow: log(4x / d) = log(4x) - 2 log|1 - x + iy|
    h1 = r.libm("hypot", ox, ay)
    near = b.fcmp_ordered("<", h1, r.c(2.0 ** (-26 if _double(r) else -12)))
    near_re = b.fmul(r.c(0.25), b.fsub(r.libm("log", b.fmul(r.c(4.0), ax)),
                                       b.fmul(r.c(2.0), r.libm("log", h1))))
    re = b.select(near, near_re, re)
    im = b.fmul(r.c(0.5), r.libm("atan2", b.fmul(r.c(2.0), ay),
                                  b.fsub(b.fmul(ox, b.fadd(one, ax)), b.fmul(ay, ay))))
    big = r.c(2.0 ** (500 if _double(r) else 60))
    far = b.or_(b.fcmp_ordered(">", ax, big), b.fcmp_ordered(">", ay, big))
    h = r.libm("hypot", ax, ay)
    re, im = r.select(far, (b.fdiv(b.fdiv(ax, h), h), r.c(math.pi / 2)), (re, im))
    nan = r.c(math.nan)
    x_inf, y_inf = r.isinf(ax), r.isinf(ay)
    re, im = r.select(b.or_(x_inf, y_inf),
                      (r.c(0.0), b.select(r.isnan(ay), nan, r.c(math.pi / 2))), (re, im))
    no_inf = b.not_(b.or_(x_inf, y_inf))
    zero_x = b.and_(b.fcmp_ordered("==", ax, r.c(0.0)), r.isnan(ay))
    re, im = r.select(b.and_(no_inf, b.or_(r.isnan(ax), r.isnan(ay))),
                      r.select(zero_x, (r.c(0.0), nan), (nan, nan)), (re, im))
    return _sign(r, re, x), _sign(r, im, y)


def catan(r: Real, z: tuple) -> tuple:
    return _times_minus_i(catanh(r, _times_i(z, r.b)), r.b)


FUNCTIONS = {"csin": csin, "ccos": ccos, "ctan": ctan, "csinh": csinh, "ccosh": ccosh,
             "ctanh": ctanh, "casin": casin, "cacos": cacos, "casinh": casinh,
             "cacosh": cacosh, "catanh": catanh, "catan": catan}
