"""The complex functions of the NVPTX target: ``LIBDEVICE``, a ``complexmath.Library``.

The CPU back end's complex ufuncs (``backend/llvm/complexmath.py``) run unchanged in kernels;
only their library differs. Real functions are libdevice's (``__nv_sin``, ``__nv_sinf``),
which has no complex functions, so the C99 ones NumPy reaches through glibc are written here
with libdevice's real functions, C99 Annex G's special values included (signed zeros,
infinities, NaNs as glibc gives them):

- ``cexp(x + iy) = exp(x) (cos y + i sin y)``; ``y == 0`` gives ``exp(x) + iy``; an
  infinite or NaN ``y`` gives ``+-0`` parts for ``x = -inf``, ``(inf, NaN)`` for ``x = +inf``
  and NaN otherwise;
- ``clog(z) = log(hypot(x, y)) + i atan2(y, x)`` (glibc refines the real part near ``|z| =
  1``: a few ULP apart there);
- ``csqrt``: Kahan's ``t = sqrt((|x| + hypot(x, y)) / 2)``, ``t + i y / 2t`` for ``x >= 0``,
  else ``|y| / 2t + i copysign(t, y)``, scaled by 1/4 where ``hypot`` would overflow;
- ``cpow(z, w) = cexp(w clog(z))``, glibc's definition (after ``npy_cpow``'s special cases).

The trigonometric and hyperbolic ones (``csin``, ``ctanh``, ``casin`` ...) are
``complextrig.py``'s.
"""

from __future__ import annotations

import math

from llvmlite import ir

from ..llvm import complexmath
from ..llvm.complexmath import Library, Real
from ..llvm.rules.complex import make, parts
from .complextrig import FUNCTIONS as TRIG


def _copysign(r: Real, x, sign):
    return r.intrinsic("copysign", x, sign)


def _cmul(r: Real, a: tuple, c: tuple) -> tuple:
    b = r.b
    return (b.fsub(b.fmul(a[0], c[0]), b.fmul(a[1], c[1])),
            b.fadd(b.fmul(a[0], c[1]), b.fmul(a[1], c[0])))


def cexp(r: Real, z: tuple) -> tuple:
    b = r.b
    x, y = z
    e = r.libm("exp", x)
    out = (b.fmul(e, r.libm("cos", y)), b.fmul(e, r.libm("sin", y)))
    nan, inf = r.c(math.nan), r.c(math.inf)
    y_bad = b.or_(r.isinf(y), r.isnan(y))
    minus_inf = b.fcmp_ordered("==", x, r.c(-math.inf))
    plus_inf = b.fcmp_ordered("==", x, inf)
    bad = r.select(minus_inf, (r.c(0.0), r.c(0.0)), r.select(plus_inf, (inf, nan), (nan, nan)))
    out = r.select(y_bad, bad, out)
    return r.select(b.fcmp_ordered("==", y, r.c(0.0)), (e, y), out)


def clog(r: Real, z: tuple) -> tuple:
    x, y = z
    return r.libm("log", r.libm("hypot", x, y)), r.libm("atan2", y, x)


def csqrt(r: Real, z: tuple) -> tuple:
    b = r.b
    x, y = z
    ax, ay = r.intrinsic("fabs", x), r.intrinsic("fabs", y)
    big = r.c(2.0 ** (1000 if r.ty == ir.DoubleType() else 124))
    scaled = b.or_(b.fcmp_ordered(">", ax, big), b.fcmp_ordered(">", ay, big))
    k = b.select(scaled, r.c(0.25), r.c(1.0))
    sx, sy = b.fmul(ax, k), b.fmul(y, k)
    t = r.intrinsic("sqrt", b.fmul(b.fadd(sx, r.libm("hypot", sx, sy)), r.c(0.5)))
    t = b.fmul(t, b.select(scaled, r.c(2.0), r.c(1.0)))
    two_t = b.fmul(t, r.c(2.0))
    out = r.select(b.fcmp_ordered(">=", x, r.c(0.0)), (t, b.fdiv(y, two_t)),
                   (b.fdiv(ay, two_t), _copysign(r, t, y)))
    inf, nan = r.c(math.inf), r.c(math.nan)
    out = r.select(r.isnan(y), (nan, nan), out)
    zero = b.and_(b.fcmp_ordered("==", x, r.c(0.0)), b.fcmp_ordered("==", y, r.c(0.0)))
    out = r.select(zero, (r.c(0.0), y), out)
    minus_inf = r.select(r.isnan(y), (nan, inf), (r.c(0.0), _copysign(r, inf, y)))
    out = r.select(b.fcmp_ordered("==", x, r.c(-math.inf)), minus_inf, out)
    plus_inf = (inf, b.select(r.isnan(y), nan, _copysign(r, r.c(0.0), y)))
    out = r.select(b.fcmp_ordered("==", x, inf), plus_inf, out)
    out = r.select(b.and_(r.isnan(x), b.not_(r.isinf(y))), (nan, nan), out)
    return r.select(r.isinf(y), (inf, y), out)


def cpow(r: Real, z: tuple, w: tuple) -> tuple:
    return cexp(r, _cmul(r, w, clog(r, z)))


class Libdevice(Library):
    """libdevice's real functions (``__nv_<name>``, ``__nv_<name>f`` for float) and the
    complex functions of this module."""

    FUNCTIONS = {"cexp": cexp, "clog": clog, "csqrt": csqrt, "cpow": cpow, **TRIG}

    def real(self, name: str, ty: ir.Type) -> str:
        return "__nv_" + super().real(name, ty)

    def has(self, name: str) -> bool:
        return name in self.FUNCTIONS

    def complex(self, r: Real, name: str, *zs: tuple) -> tuple:
        return self.FUNCTIONS[name](r, *zs)


LIBDEVICE = Libdevice()


# Kernel lowering rules (``kernels.OVERRIDES``) of the ops whose CPU rules call the C library.
def lower_cmath(fe, op):
    """``grafo.cmath`` through ``complexmath`` with ``LIBDEVICE``."""
    name = op.callee
    fe.mod.uses_libdevice = True
    b = fe.b
    args = [parts(b, v) for v in fe.operands(op)]
    if len(args) == 1:
        return [make(b, *complexmath.unary(b, name, *args[0], LIBDEVICE))]
    return [make(b, *complexmath.binary(b, name, *args, LIBDEVICE))]


def _real_call(fe, name: str, *args):
    fe.mod.uses_libdevice = True
    ty = args[0].type
    fn = fe.mod.external(LIBDEVICE.real(name, ty), ty, [ty] * len(args))
    return fe.b.call(fn, list(args))


def lower_abs(fe, op):
    """``complex.abs``: ``hypot``, as on the CPU."""
    return [_real_call(fe, "hypot", *parts(fe.b, fe.operand(op, 0)))]


def lower_angle(fe, op):
    """``complex.angle``: ``atan2(im, re)``, as on the CPU."""
    re, im = parts(fe.b, fe.operand(op, 0))
    return [_real_call(fe, "atan2", im, re)]


__all__ = ["LIBDEVICE", "Libdevice", "cexp", "clog", "cpow", "csqrt", "lower_abs",
           "lower_angle", "lower_cmath"]
