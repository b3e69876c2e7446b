"""Scalar semantics of every np elementwise op, per dtype, as arith/math ops.

``SCALAR[cls](em, t, *xs)`` emits the element function of the np op class ``cls`` for operands
of the tensor-level element type ``t`` (the result is of ``t``, or ``i1`` for comparisons and
predicates). The same functions lower scalar ops and the bodies of fused loops.

Semantics source: NumPy 2's ufunc loops (``npy_divmod``, ``npy_lshift``, ``logaddexp`` ...);
weak Python scalars follow Python: ``!py.int`` is a 64-bit int whose ``+ - * ** << -x abs``
raise OverflowError when the exact result does not fit (NumPy integer dtypes wrap as NumPy's
do), ``!py.float`` is float64, ``!py.bool`` is NumPy's bool. Division-like ops
never execute a trapping division: divisors are replaced by 1 where NumPy defines the result
(``x // 0 == 0``, ``INT_MIN // -1 == INT_MIN``); shift amounts are clamped so no LLVM poison
shift is emitted. Python errors (ZeroDivisionError, negative shift count) and NumPy's
"Integers to negative integer powers are not allowed." are ``grafo.check`` s.
"""

from __future__ import annotations

import math as _math

from .. import types as T
from ..dialects import arith, grafo, math, scf
from ..dialects import np as npd
from ..errors import PY_INT_OVERFLOW
from ..ir.attributes import StringAttr
from ..ir.core import Value
from ..ir.ranges import value_range
from . import complex_scalar as CS
from .context import Emitter

# np unary float op -> math op
MATH_UNARY = {
    npd.ExpOp: math.ExpOp, npd.Exp2Op: math.Exp2Op, npd.Expm1Op: math.ExpM1Op,
    npd.LogOp: math.LogOp, npd.Log2Op: math.Log2Op, npd.Log10Op: math.Log10Op,
    npd.Log1POp: math.Log1pOp, npd.SqrtOp: math.SqrtOp, npd.CbrtOp: math.CbrtOp,
    npd.SinOp: math.SinOp, npd.CosOp: math.CosOp, npd.TanOp: math.TanOp,
    npd.ArcsinOp: math.AsinOp, npd.ArccosOp: math.AcosOp, npd.ArctanOp: math.AtanOp,
    npd.SinhOp: math.SinhOp, npd.CoshOp: math.CoshOp, npd.TanhOp: math.TanhOp,
    npd.ArcsinhOp: math.AsinhOp, npd.ArccoshOp: math.AcoshOp, npd.ArctanhOp: math.AtanhOp,
    npd.FloorOp: math.FloorOp, npd.CeilOp: math.CeilOp, npd.TruncOp: math.TruncOp,
    npd.RintOp: math.RoundEvenOp,
}


def _k(t: T.Type) -> str:
    """The semantic class of an element type: float, bool, unsigned or signed."""
    if T.is_float(t):
        return "f"
    if T.is_bool(t):
        return "b"
    return "u" if T.is_unsigned(t) else "s"


def _c(em: Emitter, value, t: T.Type) -> Value:
    return em.const(value, T.lowered(t))


def _width(t: T.Type) -> int:
    return T.lowered(t).width


def truthy(em: Emitter, t: T.Type, x: Value) -> Value:
    """``bool(x)`` as i1: ``x != 0`` (NaN is true)."""
    if T.is_complex(t):
        return CS.truthy(em, t, x)
    if _k(t) == "b":
        return x
    if _k(t) == "f":
        return em.cmpf("une", x, _c(em, 0.0, t))
    return em.cmpi("ne", x, _c(em, 0, t))


def _zero_division(em, ok, message):
    em.check(ok, "ZeroDivisionError", message)


# arithmetic ---------------------------------------------------------------------------------

def _py_int_overflow(em, overflow, what, params):
    """OverflowError unless the ``!py.int`` result is exact (``overflow`` is false)."""
    em.check(em.op(arith.XOrIOp, overflow, em.true()), "OverflowError",
             PY_INT_OVERFLOW + what + " does not fit in 64 bits", params)


def _negative_i64(em, x):
    return em.cmpi("slt", x, _c(em, 0, T.py_int))


def _mul_overflows(em, a, b, r):
    """Whether the 64-bit product ``r`` of ``a * b`` wrapped: ``r / a != b`` (the lowering of
    ``divsi`` never traps), or ``-1 * INT_MIN``."""
    t = T.py_int
    zero, minus_one = _c(em, 0, t), _c(em, -1, t)
    quotient = em.op(arith.DivSIOp, r, em.select(em.cmpi("eq", a, zero), minus_one, a))
    wrong = em.cmpi("ne", quotient, b)
    edge = em.op(arith.AndIOp, em.cmpi("eq", a, minus_one), em.cmpi("eq", b, _c(em, -2 ** 63, t)))
    return em.op(arith.AndIOp, em.cmpi("ne", a, zero), em.op(arith.OrIOp, wrong, edge))


def add(em, t, a, b):
    if T.is_complex(t):
        return CS.COMPLEX[npd.AddOp](em, t, a, b)
    r = em.op({"f": arith.AddFOp, "b": arith.OrIOp}.get(_k(t), arith.AddIOp), a, b)
    if t == T.py_int and value_range(r) is None:   # a known range never wraps
        # overflow: both operands' signs differ from the result's
        ovf = _negative_i64(em, em.op(arith.AndIOp, em.op(arith.XOrIOp, a, r),
                                      em.op(arith.XOrIOp, b, r)))
        _py_int_overflow(em, ovf, "{0} + {1}", (a, b))
    return r


def subtract(em, t, a, b):
    if T.is_complex(t):
        return CS.COMPLEX[npd.SubtractOp](em, t, a, b)
    r = em.op({"f": arith.SubFOp, "b": arith.XOrIOp}.get(_k(t), arith.SubIOp), a, b)
    if t == T.py_int and value_range(r) is None:   # a known range never wraps
        # overflow: operands of different signs and the result's sign is b's
        ovf = _negative_i64(em, em.op(arith.AndIOp, em.op(arith.XOrIOp, a, b),
                                      em.op(arith.XOrIOp, a, r)))
        _py_int_overflow(em, ovf, "{0} - {1}", (a, b))
    return r


def multiply(em, t, a, b):
    if T.is_complex(t):
        return CS.COMPLEX[npd.MultiplyOp](em, t, a, b)
    r = em.op({"f": arith.MulFOp, "b": arith.AndIOp}.get(_k(t), arith.MulIOp), a, b)
    if t == T.py_int:
        _py_int_overflow(em, _mul_overflows(em, a, b, r), "{0} * {1}", (a, b))
    return r


def divide(em, t, a, b):
    if t == T.py_float:
        _zero_division(em, em.cmpf("une", b, _c(em, 0.0, t)), "float division by zero")
    return em.op(arith.DivFOp, a, b)


def _float_divmod(em, t, a, b):
    """NumPy's ``npy_divmod`` (also CPython's float floor division / modulo) for ``b != 0``:
    (floor quotient, remainder with the divisor's sign)."""
    zero, one = _c(em, 0.0, t), _c(em, 1.0, t)
    mod = em.op(arith.RemFOp, a, b)
    div = em.op(arith.DivFOp, em.op(arith.SubFOp, a, mod), b)
    nonzero = em.cmpf("une", mod, zero)
    adjust = em.op(arith.AndIOp, nonzero,
                   em.op(arith.XOrIOp, em.cmpf("olt", b, zero), em.cmpf("olt", mod, zero)))
    mod = em.select(adjust, em.op(arith.AddFOp, mod, b),
                    em.select(nonzero, mod, em.op(math.CopySignOp, zero, b)))
    div = em.select(adjust, em.op(arith.SubFOp, div, one), div)
    fl = em.op(math.FloorOp, div)
    fl = em.select(em.cmpf("ogt", em.op(arith.SubFOp, div, fl), _c(em, 0.5, t)),
                   em.op(arith.AddFOp, fl, one), fl)
    q = em.select(em.cmpf("une", div, zero), fl,
                  em.op(math.CopySignOp, zero, em.op(arith.DivFOp, a, b)))
    return q, mod


def _int_divmod(em, t, a, b):
    """Floor quotient and remainder of integers with a safe divisor: ``x // 0 == 0``,
    ``x % 0 == 0``, ``INT_MIN // -1 == INT_MIN`` (wraps), ``x % -1 == 0``."""
    zero, one = _c(em, 0, t), _c(em, 1, t)
    is_zero = em.cmpi("eq", b, zero)
    if _k(t) in "ub":
        safe = em.select(is_zero, one, b)
        q, r = em.op(arith.DivUIOp, a, safe), em.op(arith.RemUIOp, a, safe)
        return em.select(is_zero, zero, q), em.select(is_zero, zero, r)
    minus_one = em.cmpi("eq", b, _c(em, -1, t))
    safe = em.select(em.op(arith.OrIOp, is_zero, minus_one), one, b)
    q, r = em.op(arith.DivSIOp, a, safe), em.op(arith.RemSIOp, a, safe)
    adjust = em.op(arith.AndIOp, em.cmpi("ne", r, zero),
                   em.cmpi("slt", em.op(arith.XOrIOp, r, safe), zero))
    q = em.op(arith.SubIOp, q, em.cast(arith.ExtUIOp, adjust, T.lowered(t)))
    r = em.select(adjust, em.op(arith.AddIOp, r, safe), r)
    q = em.select(is_zero, zero, em.select(minus_one, em.op(arith.SubIOp, zero, a), q))
    return q, r


def floor_divide(em, t, a, b):
    if _k(t) == "f":
        if t == T.py_float:
            _zero_division(em, em.cmpf("une", b, _c(em, 0.0, t)),
                           "float floor division by zero")
        q, _ = _float_divmod(em, t, a, b)
        return em.select(em.cmpf("oeq", b, _c(em, 0.0, t)), em.op(arith.DivFOp, a, b), q)
    if t == T.py_int:
        _zero_division(em, em.cmpi("ne", b, _c(em, 0, t)), "integer division or modulo by zero")
    return _int_divmod(em, t, a, b)[0]


def remainder(em, t, a, b):
    if _k(t) == "f":
        if t == T.py_float:
            _zero_division(em, em.cmpf("une", b, _c(em, 0.0, t)), "float modulo")
        _, r = _float_divmod(em, t, a, b)
        return em.select(em.cmpf("oeq", b, _c(em, 0.0, t)), em.op(arith.RemFOp, a, b), r)
    if t == T.py_int:
        _zero_division(em, em.cmpi("ne", b, _c(em, 0, t)), "integer division or modulo by zero")
    return _int_divmod(em, t, a, b)[1]


def fmod(em, t, a, b):
    """C ``fmod``; integers truncate, ``x fmod 0 == 0`` (NumPy)."""
    if _k(t) == "f":
        return em.op(arith.RemFOp, a, b)
    zero, one = _c(em, 0, t), _c(em, 1, t)
    is_zero = em.cmpi("eq", b, zero)
    if _k(t) in "ub":
        return em.select(is_zero, zero, em.op(arith.RemUIOp, a, em.select(is_zero, one, b)))
    unit = em.op(arith.OrIOp, is_zero, em.cmpi("eq", b, _c(em, -1, t)))
    return em.op(arith.RemSIOp, a, em.select(unit, one, b))  # x % 1 == 0 == x % -1


def power(em, t, a, b):
    """Floats: ``math.powf``. Integers: repeated squaring (wraps, ``0 ** 0 == 1``); a negative
    signed exponent raises ValueError like NumPy (also for Python ints, which would return a
    float). ``!py.float``: ``0.0 ** negative`` raises ZeroDivisionError as Python does."""
    if _k(t) == "f":
        if t == T.py_float:
            zero = _c(em, 0.0, t)
            bad = em.op(arith.AndIOp, em.cmpf("oeq", a, zero), em.cmpf("olt", b, zero))
            _zero_division(em, em.op(arith.XOrIOp, bad, em.true()),
                           "0.0 cannot be raised to a negative power")
        return em.op(math.PowFOp, a, b)
    if _k(t) == "b":  # True ** x == True, False ** x == not x
        return em.op(arith.OrIOp, a, em.op(arith.XOrIOp, b, em.true()))
    zero, one = _c(em, 0, t), _c(em, 1, t)
    if _k(t) == "s":
        em.check(em.cmpi("sge", b, zero), "ValueError",
                 "Integers to negative integer powers are not allowed.")
    return _ipow(em, t, a, b, zero, one)


def _ipow(em, t, a, b, zero, one):
    """Repeated squaring; for ``!py.int`` a product that wraps raises OverflowError (the base
    is squared only while exponent bits remain, so no unused square is checked)."""
    lt = T.lowered(t)
    wrap = T.i64 if t == T.py_int else t
    loop = scf.WhileOp.create([one, a, b])
    em.b.insert(loop)
    with em.b.at_end(loop.before):
        acc, base, e = loop.before.args
        em.b.create(scf.ConditionOp, [em.cmpi("ne", e, zero), acc, base, e])
    with em.b.at_end(loop.after):
        acc, base, e = loop.after.args
        odd = em.cmpi("ne", em.op(arith.AndIOp, e, one), zero)
        rest = em.op(arith.ShRUIOp, e, _c(em, 1, lt))
        product, square = multiply(em, wrap, acc, base), multiply(em, wrap, base, base)
        if t == T.py_int:
            ovf = em.op(arith.OrIOp,
                        em.op(arith.AndIOp, odd, _mul_overflows(em, acc, base, product)),
                        em.op(arith.AndIOp, em.cmpi("ne", rest, zero),
                              _mul_overflows(em, base, base, square)))
            _py_int_overflow(em, ovf, "{0} ** {1}", (a, b))
        em.b.create(scf.YieldOp, [em.select(odd, product, acc), square, rest])
    return loop.results[0]


def _pick(em, pred, nan_of, a, b):
    """``a`` where ``cmpf(pred, a, b)`` or ``nan_of`` is NaN, else ``b``."""
    return em.select(em.op(arith.OrIOp, em.cmpf(pred, a, b), em.cmpf("uno", nan_of, nan_of)),
                     a, b)


def maximum(em, t, a, b):
    """``np.maximum``: NaN propagates; between equal values (``+0.0``, ``-0.0``) NumPy's
    loops return ``b``, on every layout, but float16's (``HALF_maximum``) ``a``."""
    if t == T.f16:
        return _pick(em, "oge", a, a, b)
    if _k(t) == "f":
        return _pick(em, "ogt", a, a, b)
    return em.op(arith.MaxSIOp if _k(t) == "s" else arith.MaxUIOp, a, b)


def minimum(em, t, a, b):
    """``np.minimum``: NaN propagates; equal values give ``b`` (float16: ``a``), as
    ``np.maximum``."""
    if t == T.f16:
        return _pick(em, "ole", a, a, b)
    if _k(t) == "f":
        return _pick(em, "olt", a, a, b)
    return em.op(arith.MinSIOp if _k(t) == "s" else arith.MinUIOp, a, b)


def fmax(em, t, a, b):
    """``np.fmax``: NaN ignored; float16 (``HALF_fmax``) returns ``a`` between equals."""
    if t == T.f16:
        return _pick(em, "oge", b, a, b)
    return em.op(arith.MaxNumFOp, a, b) if _k(t) == "f" else maximum(em, t, a, b)


def fmin(em, t, a, b):
    """``np.fmin``: as ``np.fmax``."""
    if t == T.f16:
        return _pick(em, "ole", b, a, b)
    return em.op(arith.MinNumFOp, a, b) if _k(t) == "f" else minimum(em, t, a, b)


def arctan2(em, t, a, b):
    return em.op(math.Atan2Op, a, b)


def copysign(em, t, a, b):
    return em.op(math.CopySignOp, a, b)


def hypot(em, t, a, b):
    """``m * sqrt(1 + (n/m)**2)`` with m = max(|a|, |b|): no overflow; inf beats NaN (C99).
    float16: NumPy's ``hypotf`` rounded to float16, computed as ``sqrt(a*a + b*b)`` in
    float64 (exact squares and sum of halves), rounded to float32 and then to float16."""
    if t == T.f16:
        x, y = (em.op(math.AbsFOp, em.cast(arith.ExtFOp, v, T.f64)) for v in (a, b))
        inf = _c(em, _math.inf, T.f64)
        h = em.op(math.SqrtOp, em.op(arith.AddFOp, em.op(arith.MulFOp, x, x),
                                     em.op(arith.MulFOp, y, y)))
        h = em.select(em.op(arith.OrIOp, em.cmpf("oeq", x, inf), em.cmpf("oeq", y, inf)), inf, h)
        return em.cast(arith.TruncFOp, em.cast(arith.TruncFOp, h, T.f32), T.f16)
    zero, one, inf = _c(em, 0.0, t), _c(em, 1.0, t), _c(em, _math.inf, t)
    x, y = em.op(math.AbsFOp, a), em.op(math.AbsFOp, b)
    big, small = em.op(arith.MaximumFOp, x, y), em.op(arith.MinimumFOp, x, y)
    safe = em.select(em.cmpf("oeq", big, zero), one, big)
    r = em.op(arith.DivFOp, small, safe)
    root = em.op(math.SqrtOp, em.op(arith.AddFOp, one, em.op(arith.MulFOp, r, r)))
    h = em.op(arith.MulFOp, big, root)
    any_inf = em.op(arith.OrIOp, em.cmpf("oeq", x, inf), em.cmpf("oeq", y, inf))
    return em.select(any_inf, inf, em.select(em.cmpf("oeq", big, zero), zero, h))


def logaddexp(em, t, a, b):
    """NumPy's ``npy_logaddexp``: ``x == y`` (also same-sign infinities) gives ``x + ln 2``,
    else ``max + log1p(exp(-|x - y|))`` with the C library's ``exp`` and ``log1p``, the calls
    NumPy makes, so the cancellation near a zero result rounds as NumPy's does."""
    zero = _c(em, 0.0, t)
    libm = lambda name, x: em.op(grafo.LibmOp, x, callee=StringAttr(name))  # noqa: E731
    tmp = em.op(arith.SubFOp, a, b)
    hi = em.op(arith.AddFOp, a, libm("log1p", libm("exp", em.op(arith.NegFOp, tmp))))
    lo = em.op(arith.AddFOp, b, libm("log1p", libm("exp", tmp)))
    out = em.select(em.cmpf("ogt", tmp, zero), hi, em.select(em.cmpf("ole", tmp, zero), lo, tmp))
    return em.select(em.cmpf("oeq", a, b), em.op(arith.AddFOp, a, _c(em, _math.log(2.0), t)), out)


def logaddexp2(em, t, a, b):
    """NumPy's ``npy_logaddexp2``: ``x == y`` gives ``x + 1``, else
    ``max + LOG2E * log1p(exp2(-|x - y|))`` (``npy_log2_1p``) with the C library's ``exp2``
    and ``log1p``, the calls NumPy makes."""
    zero = _c(em, 0.0, t)
    log2e = _c(em, 1.0 / _math.log(2.0), t)
    libm = lambda name, x: em.op(grafo.LibmOp, x, callee=StringAttr(name))  # noqa: E731
    log2_1p = lambda x: em.op(arith.MulFOp, log2e, libm("log1p", x))  # noqa: E731
    tmp = em.op(arith.SubFOp, a, b)
    hi = em.op(arith.AddFOp, a, log2_1p(libm("exp2", em.op(arith.NegFOp, tmp))))
    lo = em.op(arith.AddFOp, b, log2_1p(libm("exp2", tmp)))
    out = em.select(em.cmpf("ogt", tmp, zero), hi, em.select(em.cmpf("ole", tmp, zero), lo, tmp))
    return em.select(em.cmpf("oeq", a, b), em.op(arith.AddFOp, a, _c(em, 1.0, t)), out)


# bitwise ------------------------------------------------------------------------------------

def bitwise_and(em, t, a, b):
    return em.op(arith.AndIOp, a, b)


def bitwise_or(em, t, a, b):
    return em.op(arith.OrIOp, a, b)


def bitwise_xor(em, t, a, b):
    return em.op(arith.XOrIOp, a, b)


def _shift_amount(em, t, b):
    """(in range, amount): NumPy treats the amount as unsigned; >= width shifts everything
    out. Python ints raise ValueError on negative amounts."""
    if t == T.py_int:
        em.check(em.cmpi("sge", b, _c(em, 0, t)), "ValueError", "negative shift count")
    ok = em.cmpi("ult", b, _c(em, _width(t), t))
    return ok, em.select(ok, b, _c(em, 0, t))


def left_shift(em, t, a, b):
    ok, amount = _shift_amount(em, t, b)
    r = em.select(ok, em.op(arith.ShLIOp, a, amount), _c(em, 0, t))
    if t == T.py_int:   # exact when shifting back gives ``a``
        back = em.op(arith.ShRSIOp, r, amount)
        ovf = em.op(arith.AndIOp, em.cmpi("ne", a, _c(em, 0, t)),
                    em.op(arith.OrIOp, em.op(arith.XOrIOp, ok, em.true()),
                          em.cmpi("ne", back, a)))
        _py_int_overflow(em, ovf, "{0} << {1}", (a, b))
    return r


def right_shift(em, t, a, b):
    ok, amount = _shift_amount(em, t, b)
    if _k(t) == "s":  # shifting by width - 1 gives the sign fill (0 or -1)
        return em.op(arith.ShRSIOp, a, em.select(ok, b, _c(em, _width(t) - 1, t)))
    return em.select(ok, em.op(arith.ShRUIOp, a, amount), _c(em, 0, t))


def invert(em, t, a):
    return em.op(arith.XOrIOp, a, _c(em, -1, t))


# comparisons and logic ----------------------------------------------------------------------

def _compare(fpred, spred, upred):
    def fn(em, t, a, b):
        k = _k(t)
        if k == "f":
            return em.cmpf(fpred, a, b)
        return em.cmpi(spred if k == "s" else upred, a, b)
    return fn


equal = _compare("oeq", "eq", "eq")
not_equal = _compare("une", "ne", "ne")
less = _compare("olt", "slt", "ult")
less_equal = _compare("ole", "sle", "ule")
greater = _compare("ogt", "sgt", "ugt")
greater_equal = _compare("oge", "sge", "uge")


def logical_and(em, t, a, b):
    return em.op(arith.AndIOp, truthy(em, t, a), truthy(em, t, b))


def logical_or(em, t, a, b):
    return em.op(arith.OrIOp, truthy(em, t, a), truthy(em, t, b))


def logical_xor(em, t, a, b):
    return em.op(arith.XOrIOp, truthy(em, t, a), truthy(em, t, b))


def logical_not(em, t, a):
    return em.op(arith.XOrIOp, truthy(em, t, a), em.true())


# unary --------------------------------------------------------------------------------------

def _math_unary(cls):
    def fn(em, t, x):
        return em.op(cls, x)
    return fn


def deg2rad(em, t, x):
    return em.op(arith.MulFOp, x, _c(em, _math.pi / 180.0, t))


def rad2deg(em, t, x):
    return em.op(arith.MulFOp, x, _c(em, 180.0 / _math.pi, t))


def negative(em, t, x):
    if _k(t) == "f":
        return em.op(arith.NegFOp, x)
    if t == T.py_int:
        _py_int_overflow(em, em.cmpi("eq", x, _c(em, -2 ** 63, t)), "-({0})", (x,))
    return em.op(arith.SubIOp, _c(em, 0, t), x)


def positive(em, t, x):
    return x


def absolute(em, t, x):
    if _k(t) == "f":
        return em.op(math.AbsFOp, x)
    if t == T.py_int:
        _py_int_overflow(em, em.cmpi("eq", x, _c(em, -2 ** 63, t)), "abs({0})", (x,))
    if _k(t) == "s":  # INT_MIN stays INT_MIN, as in NumPy
        return em.select(em.cmpi("slt", x, _c(em, 0, t)),
                         em.op(arith.SubIOp, _c(em, 0, t), x), x)
    return x


def square(em, t, x):
    return multiply(em, t, x, x)


def sign(em, t, x):
    """-1, 0 or 1 in ``t``; NaN stays NaN (NumPy)."""
    k = _k(t)
    zero, one, minus = _c(em, 0, t), _c(em, 1, t), _c(em, -1, t)
    if k == "f":
        return em.select(em.cmpf("ogt", x, zero), one,
                         em.select(em.cmpf("olt", x, zero), minus,
                                   em.select(em.cmpf("oeq", x, zero), zero, x)))
    if k == "s":
        return em.select(em.cmpi("sgt", x, zero), one,
                         em.select(em.cmpi("slt", x, zero), minus, zero))
    return em.select(em.cmpi("ne", x, zero), one, zero)


def reciprocal(em, t, x):
    """Floats ``1/x``. Integers as NumPy computes them (``1.0/x`` converted back): 1 and -1
    map to themselves, other values to 0, and 0 to INT_MIN for 32/64-bit signed types (the
    x86 conversion of inf) or 0 otherwise."""
    k = _k(t)
    if k == "f":
        return em.op(arith.DivFOp, _c(em, 1.0, t), x)
    if k == "b":
        return x
    zero, one = _c(em, 0, t), _c(em, 1, t)
    out = em.select(em.cmpi("eq", x, one), one, zero)
    if k == "s":
        out = em.select(em.cmpi("eq", x, _c(em, -1, t)), _c(em, -1, t), out)
        if _width(t) >= 32:
            int_min = _c(em, -(1 << (_width(t) - 1)), t)
            out = em.select(em.cmpi("eq", x, zero), int_min, out)
    return out


def isnan(em, t, x):
    return em.cmpf("uno", x, x) if _k(t) == "f" else em.false()


def isinf(em, t, x):
    if _k(t) != "f":
        return em.false()
    return em.cmpf("oeq", em.op(math.AbsFOp, x), _c(em, _math.inf, t))


def isfinite(em, t, x):
    if _k(t) != "f":
        return em.true()
    return em.cmpf("olt", em.op(math.AbsFOp, x), _c(em, _math.inf, t))


def signbit(em, t, x):
    k = _k(t)
    if k == "f":
        bits = em.op(arith.BitcastOp, x, type=T.IntegerType(_width(t)))
        return em.cmpi("slt", bits, em.const(0, bits.type))
    if k == "s":
        return em.cmpi("slt", x, _c(em, 0, t))
    return em.false()


# casts --------------------------------------------------------------------------------------

def astype(em: Emitter, src: T.Type, dst: T.Type, x: Value) -> Value:
    """``ndarray.astype(dst)`` of one element (unsafe casting). To bool: ``x != 0``. Float to
    int: ``fptosi``/``fptoui`` (the backend gives NumPy's x86 results for NaN/inf/out of
    range). To ``!py.int`` (Python's ``int(x)``): NaN raises ValueError, inf OverflowError.
    Complex types: ``complex_scalar.astype``."""
    if T.is_complex(src) or T.is_complex(dst):
        return CS.astype(em, src, dst, x, lambda s, d, v: astype(em, s, d, v))
    ks, kd = _k(src), _k(dst)
    ls, ld = T.lowered(src), T.lowered(dst)
    if kd == "b":
        return truthy(em, src, x)
    if ks == "f" and kd == "f":
        if ls.width == ld.width:
            return x
        return em.cast(arith.ExtFOp if ld.width > ls.width else arith.TruncFOp, x, ld)
    if ks == "f":
        if dst == T.py_int:
            em.check(em.cmpf("ord", x, x), "ValueError", "cannot convert float NaN to integer")
            em.check(isfinite(em, src, x), "OverflowError",
                     "cannot convert float infinity to integer")
        if src == T.f16 and ld == T.i32 and kd == "u":   # NumPy's half casts go through int64
            return em.cast(arith.TruncIOp, em.cast(arith.FPToSIOp, x, T.i64), ld)
        return em.cast(arith.FPToUIOp if kd == "u" else arith.FPToSIOp, x, ld)
    if kd == "f":
        return em.cast(arith.SIToFPOp if ks == "s" else arith.UIToFPOp, x, ld)
    if ld.width > ls.width:
        return em.cast(arith.ExtSIOp if ks == "s" else arith.ExtUIOp, x, ld)
    return em.cast(arith.TruncIOp, x, ld) if ld.width < ls.width else x


def where(em, t, c, a, b):
    return em.select(c, a, b)


def _in_float32(fn):
    """``fn`` as NumPy's float16 loops compute it: the operands converted to float32, the
    float32 function, its result rounded to float16 once (``npy_half_to_float``,
    ``npy_float_to_half``); other types as they are."""
    def wrapped(em, t, *xs):
        if t != T.f16:
            return fn(em, t, *xs)
        r = fn(em, T.f32, *[em.cast(arith.ExtFOp, x, T.f32) for x in xs])
        return em.cast(arith.TruncFOp, r, T.f16) if r.type == T.f32 else r
    return wrapped


_SCALAR = {
    npd.AddOp: add, npd.SubtractOp: subtract, npd.MultiplyOp: multiply, npd.DivideOp: divide,
    npd.FloorDivideOp: floor_divide, npd.RemainderOp: remainder, npd.FmodOp: fmod,
    npd.PowerOp: power, npd.MaximumOp: maximum, npd.MinimumOp: minimum, npd.FmaxOp: fmax,
    npd.FminOp: fmin, npd.Arctan2Op: arctan2, npd.HypotOp: hypot, npd.CopysignOp: copysign,
    npd.LogaddexpOp: logaddexp,
    npd.Logaddexp2Op: logaddexp2, npd.BitwiseAndOp: bitwise_and, npd.BitwiseOrOp: bitwise_or,
    npd.BitwiseXorOp: bitwise_xor, npd.LeftShiftOp: left_shift, npd.RightShiftOp: right_shift,
    npd.InvertOp: invert, npd.EqualOp: equal, npd.NotEqualOp: not_equal, npd.LessOp: less,
    npd.LessEqualOp: less_equal, npd.GreaterOp: greater, npd.GreaterEqualOp: greater_equal,
    npd.LogicalAndOp: logical_and, npd.LogicalOrOp: logical_or, npd.LogicalXorOp: logical_xor,
    npd.LogicalNotOp: logical_not, npd.Deg2RadOp: deg2rad, npd.Rad2DegOp: rad2deg,
    npd.NegativeOp: negative, npd.PositiveOp: positive, npd.AbsoluteOp: absolute,
    npd.SquareOp: square, npd.SignOp: sign, npd.ReciprocalOp: reciprocal, npd.IsnanOp: isnan,
    npd.IsinfOp: isinf, npd.IsfiniteOp: isfinite, npd.SignbitOp: signbit, npd.WhereOp: where,
    npd.ConjugateOp: positive, npd.RealOp: positive, npd.ComplexOp: CS.create_from_parts,
    **{n: _math_unary(m) for n, m in MATH_UNARY.items()},
}
# functions with float16 code of their own (selections of an operand are exact in float16)
_OWN_FLOAT16 = (where, maximum, minimum, fmax, fmin, hypot)
SCALAR = {cls: fn if fn in _OWN_FLOAT16 else _in_float32(fn) for cls, fn in _SCALAR.items()}



def element_function(cls: type, t: T.Type, array: bool):
    """The scalar function of the np op class ``cls`` for operands of element type ``t``, on
    elements of arrays (``array``) or on scalars."""
    if T.is_complex(t):
        return (CS.COMPLEX_ARRAY if array else CS.COMPLEX)[cls]
    return SCALAR[cls]


# Estimated scalar ops per element (default 1), for the recompute-or-materialize choice.
_ROUNDING = (npd.FloorOp, npd.CeilOp, npd.TruncOp, npd.RintOp)
COST = {npd.DivideOp: 4, npd.FloorDivideOp: 16, npd.RemainderOp: 16, npd.FmodOp: 8,
        npd.PowerOp: 20, npd.Arctan2Op: 20, npd.HypotOp: 12, npd.LogaddexpOp: 40,
        npd.Logaddexp2Op: 40,
        npd.ReciprocalOp: 4, npd.SignOp: 3, **dict.fromkeys(_ROUNDING, 2), npd.SqrtOp: 4,
        **{n: 20 for n in MATH_UNARY if n not in (*_ROUNDING, npd.SqrtOp)}}
