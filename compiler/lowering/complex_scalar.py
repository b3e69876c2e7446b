"""Scalar semantics of the np elementwise ops on complex elements, as ``complex`` ops.

``COMPLEX[cls](em, t, *xs)`` emits the element function of the np op class ``cls`` for
operands of the complex element type ``t`` (``complex<f32>``, ``complex<f64>`` or
``!py.complex``), as ``scalar.SCALAR`` does for the other types; ``COMPLEX_ARRAY`` is the
table for elements of arrays, where NumPy's SIMD loops fuse multiply-adds (``multiply``,
``square``) and compute ``absolute`` without ``hypot``. Semantics source: NumPy 2's
complex loops (``loops.c.src``): arithmetic and division are ``complex.*`` ops (see
``dialects/complex.py``); comparisons are NumPy's lexicographic ``CLT``/``CLE``/... macros
(a NaN part makes ``<`` false but for equal real parts); ``maximum``/``minimum`` propagate
a NaN operand (NumPy's complex ``maximum``); ``isnan``/``isinf`` hold when a part is
NaN/infinite, ``isfinite`` when both parts are finite; ``reciprocal`` is NumPy's
``nc_reciprocal``-style Smith division of 1. A weak ``!py.complex`` divisor of zero raises
ZeroDivisionError, as Python does.
"""

from __future__ import annotations

import math as _math

from .. import types as T
from ..dialects import arith, grafo, math
from ..dialects import complex as cx
from ..dialects import np as npd
from ..ir.attributes import StringAttr


def part_type(t: T.Type) -> T.Type:
    """The loop-level float type of the parts of the complex element type ``t``."""
    return T.lowered(t).element


def parts(em, z):
    return em.op(cx.ReOp, z), em.op(cx.ImOp, z)


def create(em, re, im):
    return em.op(cx.CreateOp, re, im)


def create_from_parts(em, t, re, im):
    """``np.complex`` of float parts of type ``t``."""
    return create(em, re, im)


def _zero(em, t):
    return em.const(0.0, part_type(t))


def _binary(cls):
    def fn(em, t, a, b):
        return em.op(cls, a, b)
    return fn


def divide(em, t, a, b):
    if t == T.py_complex:
        nonzero = em.op(arith.OrIOp, *(em.cmpf("une", p, _zero(em, t)) for p in parts(em, b)))
        em.check(nonzero, "ZeroDivisionError", "complex division by zero")
    return em.op(cx.DivOp, a, b)


def _has_nan(em, z):
    r, i = parts(em, z)
    return em.op(arith.OrIOp, em.cmpf("uno", r, r), em.cmpf("uno", i, i))


def _lexicographic(strict_pred: str, tie_pred: str):
    """NumPy's ``CLT``-style macro: ``(xr < yr && !isnan(xi) && !isnan(yi)) || (xr == yr &&
    xi < yi)`` with ``<`` the ordered ``strict_pred`` and ``tie_pred`` on the imaginary
    parts."""
    def fn(em, t, a, b):
        (ar, ai), (br, bi) = parts(em, a), parts(em, b)
        ordered = em.op(arith.AndIOp, em.cmpf("ord", ai, ai), em.cmpf("ord", bi, bi))
        first = em.op(arith.AndIOp, em.cmpf(strict_pred, ar, br), ordered)
        tie = em.op(arith.AndIOp, em.cmpf("oeq", ar, br), em.cmpf(tie_pred, ai, bi))
        return em.op(arith.OrIOp, first, tie)
    return fn


less = _lexicographic("olt", "olt")
less_equal = _lexicographic("olt", "ole")
greater = _lexicographic("ogt", "ogt")
greater_equal = _lexicographic("ogt", "oge")


def sort_before(em, t, a, b):
    """NumPy's sort order of complex values (``npysort``'s ``CDOUBLE_LT``): lexicographic,
    with ``R + Rj, R + nanj, nan + Rj, nan + nanj`` last in that order."""
    (ar, ai), (br, bi) = parts(em, a), parts(em, b)
    a_im, b_im_nan = em.cmpf("ord", ai, ai), em.cmpf("uno", bi, bi)
    both_nan = em.op(arith.AndIOp, em.cmpf("uno", ar, ar), em.cmpf("uno", br, br))
    same_real = em.op(arith.OrIOp, em.cmpf("oeq", ar, br), both_nan)
    on_imag = em.op(arith.OrIOp, em.cmpf("olt", ai, bi), em.op(arith.AndIOp, b_im_nan, a_im))
    out = em.select(same_real, on_imag, em.cmpf("uno", br, br))
    out = em.select(em.cmpf("ogt", ar, br), em.op(arith.AndIOp, b_im_nan, a_im), out)
    return em.select(em.cmpf("olt", ar, br), em.op(arith.OrIOp, a_im, b_im_nan), out)


def _extremum(compare, keep_nan_first: bool):
    """NumPy's complex ``maximum`` (``keep_nan_first``: a NaN in either operand wins, the
    first one's first) and ``fmax`` (a NaN loses to a number)."""
    def fn(em, t, a, b):
        better = compare(em, t, a, b)
        if keep_nan_first:
            keep_a = em.op(arith.OrIOp, _has_nan(em, a), better)
        else:
            keep_a = em.op(arith.OrIOp, _has_nan(em, b), better)
        return em.select(keep_a, a, b)
    return fn


def truthy(em, t, z):
    """``bool(z)``: a part is nonzero (NaN is true)."""
    r, i = parts(em, z)
    zero = _zero(em, t)
    return em.op(arith.OrIOp, em.cmpf("une", r, zero), em.cmpf("une", i, zero))


def _logical(cls):
    def fn(em, t, a, b):
        return em.op(cls, truthy(em, t, a), truthy(em, t, b))
    return fn


def logical_not(em, t, a):
    return em.op(arith.XOrIOp, truthy(em, t, a), em.true())


def negative(em, t, x):
    return em.op(cx.NegOp, x)


def positive(em, t, x):
    return x


def conjugate(em, t, x):
    return em.op(cx.ConjOp, x)


def absolute(em, t, x):
    return em.op(cx.AbsOp, x)


def square(em, t, x):
    return em.op(cx.MulOp, x, x)


def reciprocal(em, t, x):
    """NumPy's complex ``reciprocal``: ``1 / x`` by Smith's method on the larger part."""
    r, i = parts(em, x)
    pt = part_type(t)
    one = em.const(1.0, pt)
    real_larger = em.cmpf("ole", em.op(math.AbsFOp, i), em.op(math.AbsFOp, r))
    q1 = em.op(arith.DivFOp, i, r)
    d1 = em.op(arith.AddFOp, r, em.op(arith.MulFOp, i, q1))
    q2 = em.op(arith.DivFOp, r, i)
    d2 = em.op(arith.AddFOp, em.op(arith.MulFOp, r, q2), i)
    re = em.select(real_larger, em.op(arith.DivFOp, one, d1), em.op(arith.DivFOp, q2, d2))
    im = em.select(real_larger, em.op(arith.DivFOp, em.op(arith.NegFOp, q1), d1),
                   em.op(arith.NegFOp, em.op(arith.DivFOp, one, d2)))
    return create(em, re, im)


def isnan(em, t, x):
    return _has_nan(em, x)


def isinf(em, t, x):
    inf = em.const(_math.inf, part_type(t))
    r, i = parts(em, x)
    return em.op(arith.OrIOp, em.cmpf("oeq", em.op(math.AbsFOp, r), inf),
                 em.cmpf("oeq", em.op(math.AbsFOp, i), inf))


def isfinite(em, t, x):
    inf = em.const(_math.inf, part_type(t))
    r, i = parts(em, x)
    return em.op(arith.AndIOp, em.cmpf("olt", em.op(math.AbsFOp, r), inf),
                 em.cmpf("olt", em.op(math.AbsFOp, i), inf))


def multiply_fused(em, t, a, b):
    """NumPy's SIMD complex multiply on arrays (X86_V3 and later, which have FMA):
    ``(fma(ar, br, -(ai*bi)), fma(ar, bi, ai*br))``."""
    (ar, ai), (br, bi) = parts(em, a), parts(em, b)
    re = em.op(math.FmaOp, ar, br, em.op(arith.NegFOp, em.op(arith.MulFOp, ai, bi)))
    im = em.op(math.FmaOp, ar, bi, em.op(arith.MulFOp, ai, br))
    return create(em, re, im)


def square_fused(em, t, x):
    return multiply_fused(em, t, x, x)


def absolute_simd(em, t, x):
    """NumPy's SIMD complex ``absolute`` on arrays: an infinite part makes both infinite, then
    a NaN part both NaN; ``big * sqrt(fma(r, r, 1))`` with ``r = small / big`` (0 when ``big``
    is 0 or ``small`` infinite)."""
    pt = part_type(t)
    inf, nan = em.const(_math.inf, pt), em.const(_math.nan, pt)
    zero, one = em.const(0.0, pt), em.const(1.0, pt)
    r, i = (em.op(math.AbsFOp, p) for p in parts(em, x))
    r_inf, i_inf = em.cmpf("oeq", r, inf), em.cmpf("oeq", i, inf)
    i = em.select(r_inf, inf, i)
    r = em.select(i_inf, inf, r)
    r_num, i_num = em.cmpf("ord", r, r), em.cmpf("ord", i, i)
    i = em.select(r_num, i, nan)
    r = em.select(i_num, r, nan)
    big, small = em.op(arith.MaximumFOp, r, i), em.op(arith.MinimumFOp, i, r)
    divide = em.op(arith.XOrIOp, em.op(arith.OrIOp, em.cmpf("oeq", big, zero),
                                       em.cmpf("oeq", small, inf)), em.true())
    ratio = em.select(divide, em.op(arith.DivFOp, small, em.select(divide, big, one)), zero)
    root = em.op(math.SqrtOp, em.op(math.FmaOp, ratio, ratio, one))
    return em.op(arith.MulFOp, root, big)


def real(em, t, x):
    return em.op(cx.ReOp, x)


def imag(em, t, x):
    return em.op(cx.ImOp, x)


def cmath(name: str):
    """NumPy's complex ufunc ``name`` (``grafo.cmath``)."""
    def fn(em, t, *xs):
        return em.op(grafo.CMathOp, *xs, callee=StringAttr(name))
    return fn


def astype(em, src: T.Type, dst: T.Type, x, real_astype):
    """``astype`` where ``src`` or ``dst`` is complex: parts converted as floats; a real
    source is the real part (imaginary 0); a complex source to a real type converts its real
    part (NumPy's ComplexWarning cast), to bool tests both parts. ``real_astype(src, dst, x)``
    converts reals."""
    if T.is_bool(dst):
        return truthy(em, src, x)
    if not T.is_complex(src):
        pt = T.real_type(dst)
        re = real_astype(src, pt, x)
        return create(em, re, em.const(0.0, T.lowered(pt)))
    r, i = parts(em, x)
    src_part = T.real_type(src)
    if not T.is_complex(dst):
        return real_astype(src_part, dst, r)
    dst_part = T.real_type(dst)
    if T.lowered(src_part) == T.lowered(dst_part):
        return x
    return create(em, real_astype(src_part, dst_part, r), real_astype(src_part, dst_part, i))


COMPLEX = {
    npd.AddOp: _binary(cx.AddOp), npd.SubtractOp: _binary(cx.SubOp),
    npd.MultiplyOp: _binary(cx.MulOp), npd.DivideOp: divide,
    npd.EqualOp: _binary(cx.EqualOp), npd.NotEqualOp: _binary(cx.NotEqualOp),
    npd.LessOp: less, npd.LessEqualOp: less_equal, npd.GreaterOp: greater,
    npd.GreaterEqualOp: greater_equal,
    npd.MaximumOp: _extremum(greater_equal, True), npd.MinimumOp: _extremum(less_equal, True),
    npd.FmaxOp: _extremum(greater_equal, False), npd.FminOp: _extremum(less_equal, False),
    npd.LogicalAndOp: _logical(arith.AndIOp), npd.LogicalOrOp: _logical(arith.OrIOp),
    npd.LogicalXorOp: _logical(arith.XOrIOp), npd.LogicalNotOp: logical_not,
    npd.NegativeOp: negative, npd.PositiveOp: positive, npd.AbsoluteOp: absolute,
    npd.SquareOp: square, npd.ReciprocalOp: reciprocal, npd.IsnanOp: isnan,
    npd.IsinfOp: isinf, npd.IsfiniteOp: isfinite, npd.ConjugateOp: conjugate,
    npd.RealOp: real, npd.ImagOp: imag, npd.SignOp: cmath("sign"),
    npd.PowerOp: cmath("power"),
    **{cls: cmath(cls.numpy) for cls in (
        npd.ExpOp, npd.Exp2Op, npd.Expm1Op, npd.LogOp, npd.Log2Op, npd.Log10Op, npd.Log1POp,
        npd.SqrtOp, npd.SinOp, npd.CosOp, npd.TanOp, npd.ArcsinOp, npd.ArccosOp,
        npd.ArctanOp, npd.SinhOp, npd.CoshOp, npd.TanhOp, npd.ArcsinhOp, npd.ArccoshOp,
        npd.ArctanhOp)},
}
# Where NumPy's array loops (SIMD) compute otherwise than its scalar math.
COMPLEX_ARRAY = {**COMPLEX, npd.MultiplyOp: multiply_fused, npd.SquareOp: square_fused,
                 npd.AbsoluteOp: absolute_simd}
