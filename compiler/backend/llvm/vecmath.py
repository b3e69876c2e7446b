"""Vectorizable elementary functions: ``exp``, ``expm1``, ``log`` and ``tanh`` as inline,
branch-free LLVM IR (range reduction + polynomial, special cases by ``select``).

A call to the C library's ``expf`` in a loop keeps LLVM from vectorizing it; these bodies are
straight-line arithmetic that the loop vectorizer widens (``<16 x float>`` with AVX-512).

Algorithms (sources):

- ``exp``: Cody-Waite reduction ``x = q ln2 + s`` (two-part ln 2), minimax polynomial of
  ``e^s`` and scaling by ``2^q`` in two halves, so results in the subnormal range are rounded
  once. float32 uses SLEEF's ``xexpf`` polynomial in float32; float64 SLEEF's ``xexp``.
- ``expm1``: the float64 ``exp`` reduction keeping ``e^s - 1``, then ``(u + 1 - 2^-q) 2^q``.
- ``log``: fdlibm's ``e_log.c`` (mantissa in [sqrt(2)/2, sqrt(2)), ``s = f / (2 + f)``,
  degree-14 polynomial in ``s``), subnormals scaled by ``2^54`` first.
- ``pow`` (float32 only): ``exp(y log|x|)`` with the float64 ``exp`` and ``log`` above,
  rounded once; float64 ``pow`` stays a C library call.
- ``tanh``: ``x + x^3 P(x^2)`` for ``|x| <= 0.35``; else ``t / (t + 2)`` with
  ``t = expm1(2|x|)``, 1 for ``|x| > 22``, sign copied from x.
- float32 ``expm1``, ``log`` and ``tanh`` are computed in float64 and rounded.

Accuracy (measured by ``tests/test_vector_math.py`` against correctly rounded references:
float64 NumPy for float32, ``np.longdouble`` for float64): within ``ULP_BOUND`` units in the
last place. Special values follow NumPy (C99 Annex F): NaN propagates, ``exp(-inf) = 0``,
overflow gives ``inf``, underflow gives subnormals then 0, ``log(0) = -inf``,
``log(x < 0) = nan``, ``tanh(+-inf) = +-1``, ``tanh(-0.0) = -0.0``, ``expm1(-inf) = -1``.
"""

from __future__ import annotations

import math

from llvmlite import ir

F32, F64 = ir.FloatType(), ir.DoubleType()
I32, I64 = ir.IntType(32), ir.IntType(64)

# Largest error (ULP of the result's type) over the test grids and special values.
ULP_BOUND = {("exp", "f32"): 1.0, ("exp", "f64"): 1.0, ("expm1", "f32"): 0.5,
             ("expm1", "f64"): 2.0, ("log", "f32"): 0.5, ("log", "f64"): 1.0,
             ("tanh", "f32"): 0.5, ("tanh", "f64"): 1.5, ("pow", "f32"): 0.5}

_EXP_F32 = (0.000198527617612853646278381, 0.00139304355252534151077271,
            0.00833336077630519866943359, 0.0416664853692054748535156,
            0.166666671633720397949219, 0.5)
_EXP_F64 = (2.081276378237164457e-9, 2.511210703042288022e-8, 2.755762628169491192e-7,
            2.755723402025388239e-6, 2.480158687479686264e-5, 1.984126989855865850e-4,
            1.388888888914497797e-3, 8.333333333314938210e-3, 4.166666666666602598e-2,
            1.666666666666669072e-1, 0.5)
# (tanh(x) - x) / x**3 as a polynomial in x**2 on |x| <= 0.36 (least-squares fit, this
# module's own; relative error 4e-17)
_TANH_F64 = (-0.0001823270452827566, 0.0005740161059072107, -0.001453271863628334,
             0.003591885692513423, -0.00886322226998421, 0.021869488149274977,
             -0.053968253963291676, 0.13333333333331748, -0.33333333333333337)
_LOG_F64 = (1.479819860511658591e-01, 1.531383769920937332e-01, 1.818357216161805012e-01,
            2.222219843214978396e-01, 2.857142874366239149e-01, 3.999999999940941908e-01,
            6.666666666666735130e-01)
# ln 2 split for Cody-Waite: (high part with trailing zero bits, low part)
_LN2_F32 = (0.693145751953125, 1.428606765330187045e-06)
_LN2_F64 = (0.69314718055966295651160180568695068359375,
            0.28235290563031577122588448175013436025525412068e-12)
_LN2_LOG = (6.93147180369123816490e-01, 1.90821492927058770002e-10)  # fdlibm's split


class _Math:
    """Builder helpers for one float type ``ty`` (``float`` or ``double``)."""

    def __init__(self, mod, b: ir.IRBuilder, ty: ir.Type):
        self.mod, self.b, self.ty = mod, b, ty
        self.ity = I32 if ty == F32 else I64
        self.mant = 23 if ty == F32 else 52
        self.bias = 127 if ty == F32 else 1023

    def c(self, v) -> ir.Constant:
        return ir.Constant(self.ty, v)

    def ci(self, v) -> ir.Constant:
        return ir.Constant(self.ity, v)

    def call(self, name: str, *args):
        return self.b.call(self.mod.intrinsic(name, self.ty, len(args)), list(args))

    def fma(self, a, b, c):
        return self.call("fma", a, b, c)

    def poly(self, x, coeffs):
        """Horner evaluation of ``coeffs`` (highest degree first)."""
        acc = self.c(coeffs[0])
        for k in coeffs[1:]:
            acc = self.fma(acc, x, self.c(k))
        return acc

    def clamp(self, x, lo: float, hi: float):
        """``x`` limited to [lo, hi]; NaN becomes ``hi`` (callers select NaN back in)."""
        b = self.b
        x = b.select(b.fcmp_ordered("<", x, self.c(hi)), x, self.c(hi))
        return b.select(b.fcmp_ordered(">", x, self.c(lo)), x, self.c(lo))

    def pow2(self, n):
        """``2.0 ** n`` for an integer ``n`` in the normal exponent range."""
        bits = self.b.shl(self.b.add(n, self.ci(self.bias)), self.ci(self.mant))
        return self.b.bitcast(bits, self.ty)

    def ldexp(self, u, q):
        """``u * 2**q`` for integer ``q`` up to twice the exponent range, scaled in two
        halves so that a subnormal result is rounded once."""
        b = self.b
        n1 = b.ashr(q, self.ci(1))
        return b.fmul(b.fmul(u, self.pow2(n1)), self.pow2(b.sub(q, n1)))

    def reduce(self, x, ln2):
        """(q as a float, q as an integer, s) with ``x = q ln2 + s`` and |s| <= ln2 / 2."""
        b = self.b
        qf = self.call("roundeven", b.fmul(x, self.c(1 / math.log(2))))
        s = self.fma(qf, self.c(-ln2[0]), x)
        s = self.fma(qf, self.c(-ln2[1]), s)
        return qf, b.fptosi(qf, self.ity), s

    def keep_nan(self, x, r):
        """``x`` where ``x`` is NaN, else ``r``."""
        return self.b.select(self.b.fcmp_unordered("uno", x, x), x, r)


def exp(mod, b: ir.IRBuilder, x):
    """``e**x`` (NumPy ``exp``)."""
    m = _Math(mod, b, x.type)
    if x.type == F32:
        xc = m.clamp(x, -110.0, 100.0)
        _, q, s = m.reduce(xc, _LN2_F32)
        u = m.poly(s, _EXP_F32)
        u = b.fadd(m.c(1.0), m.fma(b.fmul(s, s), u, s))
    else:
        xc = m.clamp(x, -760.0, 720.0)
        _, q, s = m.reduce(xc, _LN2_F64)
        u = m.poly(s, _EXP_F64)
        u = b.fadd(m.fma(b.fmul(s, s), u, s), m.c(1.0))
    return m.keep_nan(x, m.ldexp(u, q))


def _expm1_f64(mod, b: ir.IRBuilder, x):
    m = _Math(mod, b, F64)
    xc = m.clamp(x, -40.0, 720.0)
    _, q, s = m.reduce(xc, _LN2_F64)
    u = m.fma(b.fmul(s, s), m.poly(s, _EXP_F64), s)          # e^s - 1
    qc = b.select(b.icmp_signed("<", q, m.ci(1000)), q, m.ci(1000))
    one_minus = b.fsub(m.c(1.0), m.pow2(b.neg(qc)))          # 1 - 2^-q, exact for q <= 53
    r = m.ldexp(b.fadd(u, one_minus), q)
    return m.keep_nan(x, b.select(b.fcmp_ordered("==", x, m.c(0.0)), x, r))  # keeps -0.0


def expm1(mod, b: ir.IRBuilder, x):
    """``e**x - 1`` accurate near 0 (NumPy ``expm1``)."""
    if x.type == F32:
        return b.fptrunc(_expm1_f64(mod, b, b.fpext(x, F64)), F32)
    return _expm1_f64(mod, b, x)


def _log_f64(mod, b: ir.IRBuilder, x):
    m = _Math(mod, b, F64)
    tiny = b.fcmp_ordered("<", x, m.c(2.0 ** -1022))
    xs = b.select(tiny, b.fmul(x, m.c(2.0 ** 54)), x)
    bits = b.bitcast(xs, I64)
    k = b.sub(b.lshr(bits, m.ci(52)), m.ci(1023))
    k = b.sub(k, b.select(tiny, m.ci(54), m.ci(0)))
    mant = b.bitcast(b.or_(b.and_(bits, m.ci((1 << 52) - 1)), m.ci(1023 << 52)), F64)
    big = b.fcmp_ordered(">", mant, m.c(math.sqrt(2.0)))
    mant = b.select(big, b.fmul(mant, m.c(0.5)), mant)
    dk = b.sitofp(b.add(k, b.zext(big, I64)), F64)
    f = b.fsub(mant, m.c(1.0))
    s = b.fdiv(f, b.fadd(f, m.c(2.0)))
    z = b.fmul(s, s)
    r = b.fmul(z, m.poly(z, _LOG_F64))
    hfsq = b.fmul(m.c(0.5), b.fmul(f, f))
    inner = m.fma(s, b.fadd(hfsq, r), b.fmul(dk, m.c(_LN2_LOG[1])))
    out = b.fsub(b.fmul(dk, m.c(_LN2_LOG[0])), b.fsub(b.fsub(hfsq, inner), f))
    special = b.select(b.fcmp_ordered("==", x, m.c(0.0)), m.c(-math.inf),
                       b.select(b.fcmp_ordered("==", x, m.c(math.inf)), x, m.c(math.nan)))
    finite_pos = b.and_(b.fcmp_ordered(">", x, m.c(0.0)),
                        b.fcmp_ordered("<", x, m.c(math.inf)))
    return m.keep_nan(x, b.select(finite_pos, out, special))


def log(mod, b: ir.IRBuilder, x):
    """The natural logarithm (NumPy ``log``)."""
    if x.type == F32:
        return b.fptrunc(_log_f64(mod, b, b.fpext(x, F64)), F32)
    return _log_f64(mod, b, x)


def _tanh_f64(mod, b: ir.IRBuilder, x):
    m = _Math(mod, b, F64)
    ax = m.call("fabs", x)
    t = _expm1_f64(mod, b, b.fmul(ax, m.c(2.0)))
    r = b.select(b.fcmp_ordered(">", ax, m.c(22.0)), m.c(1.0),
                 b.fdiv(t, b.fadd(t, m.c(2.0))))
    r = m.call("copysign", r, x)
    z = b.fmul(x, x)
    small = m.fma(b.fmul(x, z), m.poly(z, _TANH_F64), x)
    small = b.select(b.fcmp_ordered("==", x, m.c(0.0)), x, small)  # keeps -0.0
    return m.keep_nan(x, b.select(b.fcmp_ordered("<=", ax, m.c(0.35)), small, r))


def tanh(mod, b: ir.IRBuilder, x):
    """The hyperbolic tangent (NumPy ``tanh``)."""
    if x.type == F32:
        return b.fptrunc(_tanh_f64(mod, b, b.fpext(x, F64)), F32)
    return _tanh_f64(mod, b, x)


def _exp_f64(mod, b: ir.IRBuilder, x):
    return exp(mod, b, x)


def pow_f32(mod, b: ir.IRBuilder, x, y):
    """``x ** y`` for float32 (NumPy ``power``): ``exp(y log|x|)`` in float64, whose error
    (about 2^-45 relative) is far below float32's half ULP, then rounded once to float32,
    with C99 Annex F's special cases: ``x ** 0 == 1`` and ``1 ** y == 1`` (NaN included),
    ``(-1) ** +-inf == 1``, a negative finite base to a non-integer power is NaN, and an odd
    integer power keeps the base's sign (-0.0 and -inf included)."""
    m = _Math(mod, b, F64)
    xd, yd = b.fpext(x, F64), b.fpext(y, F64)
    ax = m.call("fabs", xd)
    r = _exp_f64(mod, b, b.fmul(yd, _log_f64(mod, b, ax)))
    integer = b.fcmp_ordered("==", m.call("trunc", yd), yd)
    small = b.fcmp_ordered("<", m.call("fabs", yd), m.c(2.0 ** 53))
    half = b.fmul(yd, m.c(0.5))
    odd = b.and_(b.and_(integer, small), b.fcmp_ordered("!=", m.call("trunc", half), half))
    negative = b.icmp_signed("<", b.bitcast(xd, I64), m.ci(0))
    r = b.select(b.and_(negative, odd), b.fneg(r), r)
    finite_neg = b.and_(b.fcmp_ordered("<", xd, m.c(0.0)),
                        b.fcmp_ordered(">", xd, m.c(-math.inf)))
    r = b.select(b.and_(finite_neg, b.and_(b.fcmp_ordered("==", yd, yd), b.not_(integer))),
                 m.c(math.nan), r)
    one = b.or_(b.fcmp_ordered("==", yd, m.c(0.0)), b.fcmp_ordered("==", xd, m.c(1.0)))
    one = b.or_(one, b.and_(b.fcmp_ordered("==", xd, m.c(-1.0)),
                            b.fcmp_ordered("==", m.call("fabs", yd), m.c(math.inf))))
    return b.fptrunc(b.select(one, m.c(1.0), r), F32)

