"""Scalar semantics of every np elementwise op, per dtype, as arith/math ops.

``SCALAR[kind](em, t, *xs)`` emits the element function of ``np.<kind>`` for operands of the
tensor-level element type ``t`` (the result is of ``t``, or ``i1`` for comparisons and
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
from ..dialects import scf
from ..errors import PY_INT_OVERFLOW
from ..ir.attributes import StringAttr
from ..ir.core import Value
from ..ir.ranges import value_range
from .context import Emitter

# np unary float op -> math op
MATH_UNARY = {"exp": "exp", "exp2": "exp2", "expm1": "expm1", "log": "log", "log2": "log2",
              "log10": "log10", "log1p": "log1p", "sqrt": "sqrt", "cbrt": "cbrt",
              "sin": "sin", "cos": "cos", "tan": "tan", "arcsin": "asin", "arccos": "acos",
              "arctan": "atan", "sinh": "sinh", "cosh": "cosh", "tanh": "tanh",
              "arcsinh": "asinh", "arccosh": "acosh", "arctanh": "atanh", "floor": "floor",
              "ceil": "ceil", "trunc": "trunc", "rint": "roundeven"}


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
    if _k(t) == "b":
        return x
    if _k(t) == "f":
        return em.cmpf("une", x, _c(em, 0.0, t))
    return em.cmpi("ne", x, _c(em, 0, t))


def _a(em, name, *xs):
    return em.op("arith." + name, *xs)


def _m(em, name, *xs):
    return em.op("math." + name, *xs)


def _zero_division(em, ok, message):
    em.check(ok, "ZeroDivisionError", message)


# arithmetic ---------------------------------------------------------------------------------

def _py_int_overflow(em, overflow, what, params):
    """OverflowError unless the ``!py.int`` result is exact (``overflow`` is false)."""
    em.check(_a(em, "xori", overflow, em.true()), "OverflowError",
             PY_INT_OVERFLOW + what + " does not fit in 64 bits", params)


def _negative_i64(em, x):
    return em.cmpi("slt", x, _c(em, 0, T.py_int))


def _mul_overflows(em, a, b, r):
    """Whether the 64-bit product ``r`` of ``a * b`` wrapped: ``r / a != b`` (the lowering of
    ``divsi`` never traps), or ``-1 * INT_MIN``."""
    t = T.py_int
    zero, minus_one = _c(em, 0, t), _c(em, -1, t)
    wrong = em.cmpi("ne", _a(em, "divsi", r, em.select(em.cmpi("eq", a, zero), minus_one, a)), b)
    edge = _a(em, "andi", em.cmpi("eq", a, minus_one), em.cmpi("eq", b, _c(em, -2 ** 63, t)))
    return _a(em, "andi", em.cmpi("ne", a, zero), _a(em, "ori", wrong, edge))


def add(em, t, a, b):
    r = _a(em, {"f": "addf", "b": "ori"}.get(_k(t), "addi"), a, b)
    if t == T.py_int and value_range(r) is None:   # a known range never wraps
        # overflow: both operands' signs differ from the result's
        ovf = _negative_i64(em, _a(em, "andi", _a(em, "xori", a, r), _a(em, "xori", b, r)))
        _py_int_overflow(em, ovf, "{0} + {1}", (a, b))
    return r


def subtract(em, t, a, b):
    r = _a(em, {"f": "subf", "b": "xori"}.get(_k(t), "subi"), a, b)
    if t == T.py_int and value_range(r) is None:   # a known range never wraps
        # overflow: operands of different signs and the result's sign is b's
        ovf = _negative_i64(em, _a(em, "andi", _a(em, "xori", a, b), _a(em, "xori", a, r)))
        _py_int_overflow(em, ovf, "{0} - {1}", (a, b))
    return r


def multiply(em, t, a, b):
    r = _a(em, {"f": "mulf", "b": "andi"}.get(_k(t), "muli"), a, b)
    if t == T.py_int:
        _py_int_overflow(em, _mul_overflows(em, a, b, r), "{0} * {1}", (a, b))
    return r


def divide(em, t, a, b):
    if t == T.py_float:
        _zero_division(em, em.cmpf("une", b, _c(em, 0.0, t)), "float division by zero")
    return _a(em, "divf", a, b)


def _float_divmod(em, t, a, b):
    """NumPy's ``npy_divmod`` (also CPython's float floor division / modulo) for ``b != 0``:
    (floor quotient, remainder with the divisor's sign)."""
    zero, one = _c(em, 0.0, t), _c(em, 1.0, t)
    mod = _a(em, "remf", a, b)
    div = _a(em, "divf", _a(em, "subf", a, mod), b)
    nonzero = em.cmpf("une", mod, zero)
    adjust = _a(em, "andi", nonzero,
                _a(em, "xori", em.cmpf("olt", b, zero), em.cmpf("olt", mod, zero)))
    mod = em.select(adjust, _a(em, "addf", mod, b),
                    em.select(nonzero, mod, _m(em, "copysign", zero, b)))
    div = em.select(adjust, _a(em, "subf", div, one), div)
    fl = _m(em, "floor", div)
    fl = em.select(em.cmpf("ogt", _a(em, "subf", div, fl), _c(em, 0.5, t)),
                   _a(em, "addf", fl, one), fl)
    q = em.select(em.cmpf("une", div, zero), fl,
                  _m(em, "copysign", zero, _a(em, "divf", a, b)))
    return q, mod


def _int_divmod(em, t, a, b):
    """Floor quotient and remainder of integers with a safe divisor: ``x // 0 == 0``,
    ``x % 0 == 0``, ``INT_MIN // -1 == INT_MIN`` (wraps), ``x % -1 == 0``."""
    zero, one = _c(em, 0, t), _c(em, 1, t)
    is_zero = em.cmpi("eq", b, zero)
    if _k(t) in "ub":
        safe = em.select(is_zero, one, b)
        q, r = _a(em, "divui", a, safe), _a(em, "remui", a, safe)
        return em.select(is_zero, zero, q), em.select(is_zero, zero, r)
    minus_one = em.cmpi("eq", b, _c(em, -1, t))
    safe = em.select(_a(em, "ori", is_zero, minus_one), one, b)
    q, r = _a(em, "divsi", a, safe), _a(em, "remsi", a, safe)
    adjust = _a(em, "andi", em.cmpi("ne", r, zero),
                em.cmpi("slt", _a(em, "xori", r, safe), zero))
    q = _a(em, "subi", q, em.cast("arith.extui", adjust, T.lowered(t)))
    r = em.select(adjust, _a(em, "addi", r, safe), r)
    q = em.select(is_zero, zero, em.select(minus_one, _a(em, "subi", zero, a), q))
    return q, r


def floor_divide(em, t, a, b):
    if _k(t) == "f":
        if t == T.py_float:
            _zero_division(em, em.cmpf("une", b, _c(em, 0.0, t)),
                           "float floor division by zero")
        q, _ = _float_divmod(em, t, a, b)
        return em.select(em.cmpf("oeq", b, _c(em, 0.0, t)), _a(em, "divf", a, b), q)
    if t == T.py_int:
        _zero_division(em, em.cmpi("ne", b, _c(em, 0, t)), "integer division or modulo by zero")
    return _int_divmod(em, t, a, b)[0]


def remainder(em, t, a, b):
    if _k(t) == "f":
        if t == T.py_float:
            _zero_division(em, em.cmpf("une", b, _c(em, 0.0, t)), "float modulo")
        _, r = _float_divmod(em, t, a, b)
        return em.select(em.cmpf("oeq", b, _c(em, 0.0, t)), _a(em, "remf", a, b), r)
    if t == T.py_int:
        _zero_division(em, em.cmpi("ne", b, _c(em, 0, t)), "integer division or modulo by zero")
    return _int_divmod(em, t, a, b)[1]


def fmod(em, t, a, b):
    """C ``fmod``; integers truncate, ``x fmod 0 == 0`` (NumPy)."""
    if _k(t) == "f":
        return _a(em, "remf", a, b)
    zero, one = _c(em, 0, t), _c(em, 1, t)
    is_zero = em.cmpi("eq", b, zero)
    if _k(t) in "ub":
        return em.select(is_zero, zero, _a(em, "remui", a, em.select(is_zero, one, b)))
    unit = _a(em, "ori", is_zero, em.cmpi("eq", b, _c(em, -1, t)))
    return _a(em, "remsi", a, em.select(unit, one, b))  # x % 1 == 0 == x % -1


def power(em, t, a, b):
    """Floats: ``math.powf``. Integers: repeated squaring (wraps, ``0 ** 0 == 1``); a negative
    signed exponent raises ValueError like NumPy (also for Python ints, which would return a
    float). ``!py.float``: ``0.0 ** negative`` raises ZeroDivisionError as Python does."""
    if _k(t) == "f":
        if t == T.py_float:
            zero = _c(em, 0.0, t)
            bad = _a(em, "andi", em.cmpf("oeq", a, zero), em.cmpf("olt", b, zero))
            _zero_division(em, _a(em, "xori", bad, em.true()),
                           "0.0 cannot be raised to a negative power")
        return _m(em, "powf", a, b)
    if _k(t) == "b":  # True ** x == True, False ** x == not x
        return _a(em, "ori", a, _a(em, "xori", b, em.true()))
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
        odd = em.cmpi("ne", _a(em, "andi", e, one), zero)
        rest = _a(em, "shrui", e, _c(em, 1, lt))
        product, square = multiply(em, wrap, acc, base), multiply(em, wrap, base, base)
        if t == T.py_int:
            ovf = _a(em, "ori", _a(em, "andi", odd, _mul_overflows(em, acc, base, product)),
                     _a(em, "andi", em.cmpi("ne", rest, zero),
                        _mul_overflows(em, base, base, square)))
            _py_int_overflow(em, ovf, "{0} ** {1}", (a, b))
        em.b.create(scf.YieldOp, [em.select(odd, product, acc), square, rest])
    return loop.results[0]


def maximum(em, t, a, b):
    """``np.maximum``: NaN propagates; between equal values (``+0.0``, ``-0.0``) NumPy's
    loops return ``b``, on every layout."""
    if _k(t) == "f":
        return em.select(_a(em, "ori", em.cmpf("ogt", a, b), em.cmpf("uno", a, a)), a, b)
    return _a(em, "maxsi" if _k(t) == "s" else "maxui", a, b)


def minimum(em, t, a, b):
    """``np.minimum``: NaN propagates; equal values give ``b``, as ``np.maximum``."""
    if _k(t) == "f":
        return em.select(_a(em, "ori", em.cmpf("olt", a, b), em.cmpf("uno", a, a)), a, b)
    return _a(em, "minsi" if _k(t) == "s" else "minui", a, b)


def fmax(em, t, a, b):
    return _a(em, "maxnumf", a, b) if _k(t) == "f" else maximum(em, t, a, b)


def fmin(em, t, a, b):
    return _a(em, "minnumf", a, b) if _k(t) == "f" else minimum(em, t, a, b)


def arctan2(em, t, a, b):
    return _m(em, "atan2", a, b)


def copysign(em, t, a, b):
    return _m(em, "copysign", a, b)


def hypot(em, t, a, b):
    """``m * sqrt(1 + (n/m)**2)`` with m = max(|a|, |b|): no overflow; inf beats NaN (C99)."""
    zero, one, inf = _c(em, 0.0, t), _c(em, 1.0, t), _c(em, _math.inf, t)
    x, y = _m(em, "absf", a), _m(em, "absf", b)
    big, small = _a(em, "maximumf", x, y), _a(em, "minimumf", x, y)
    safe = em.select(em.cmpf("oeq", big, zero), one, big)
    r = _a(em, "divf", small, safe)
    h = _a(em, "mulf", big, _m(em, "sqrt", _a(em, "addf", one, _a(em, "mulf", r, r))))
    any_inf = _a(em, "ori", em.cmpf("oeq", x, inf), em.cmpf("oeq", y, inf))
    return em.select(any_inf, inf, em.select(em.cmpf("oeq", big, zero), zero, h))


def logaddexp(em, t, a, b):
    """NumPy's ``npy_logaddexp``: ``x == y`` (also same-sign infinities) gives ``x + ln 2``,
    else ``max + log1p(exp(-|x - y|))`` with the C library's ``exp`` and ``log1p``, the calls
    NumPy makes, so the cancellation near a zero result rounds as NumPy's does."""
    zero = _c(em, 0.0, t)
    libm = lambda name, x: em.op("grafo.libm", x, callee=StringAttr(name))  # noqa: E731
    tmp = _a(em, "subf", a, b)
    hi = _a(em, "addf", a, libm("log1p", libm("exp", _a(em, "negf", tmp))))
    lo = _a(em, "addf", b, libm("log1p", libm("exp", tmp)))
    out = em.select(em.cmpf("ogt", tmp, zero), hi, em.select(em.cmpf("ole", tmp, zero), lo, tmp))
    return em.select(em.cmpf("oeq", a, b), _a(em, "addf", a, _c(em, _math.log(2.0), t)), out)


# bitwise ------------------------------------------------------------------------------------

def bitwise_and(em, t, a, b):
    return _a(em, "andi", a, b)


def bitwise_or(em, t, a, b):
    return _a(em, "ori", a, b)


def bitwise_xor(em, t, a, b):
    return _a(em, "xori", a, b)


def _shift_amount(em, t, b):
    """(in range, amount): NumPy treats the amount as unsigned; >= width shifts everything
    out. Python ints raise ValueError on negative amounts."""
    if t == T.py_int:
        em.check(em.cmpi("sge", b, _c(em, 0, t)), "ValueError", "negative shift count")
    ok = em.cmpi("ult", b, _c(em, _width(t), t))
    return ok, em.select(ok, b, _c(em, 0, t))


def left_shift(em, t, a, b):
    ok, amount = _shift_amount(em, t, b)
    r = em.select(ok, _a(em, "shli", a, amount), _c(em, 0, t))
    if t == T.py_int:   # exact when shifting back gives ``a``
        back = _a(em, "shrsi", r, amount)
        ovf = _a(em, "andi", em.cmpi("ne", a, _c(em, 0, t)),
                 _a(em, "ori", _a(em, "xori", ok, em.true()), em.cmpi("ne", back, a)))
        _py_int_overflow(em, ovf, "{0} << {1}", (a, b))
    return r


def right_shift(em, t, a, b):
    ok, amount = _shift_amount(em, t, b)
    if _k(t) == "s":  # shifting by width - 1 gives the sign fill (0 or -1)
        return _a(em, "shrsi", a, em.select(ok, b, _c(em, _width(t) - 1, t)))
    return em.select(ok, _a(em, "shrui", a, amount), _c(em, 0, t))


def invert(em, t, a):
    return _a(em, "xori", a, _c(em, -1, t))


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
    return _a(em, "andi", truthy(em, t, a), truthy(em, t, b))


def logical_or(em, t, a, b):
    return _a(em, "ori", truthy(em, t, a), truthy(em, t, b))


def logical_xor(em, t, a, b):
    return _a(em, "xori", truthy(em, t, a), truthy(em, t, b))


def logical_not(em, t, a):
    return _a(em, "xori", truthy(em, t, a), em.true())


# unary --------------------------------------------------------------------------------------

def _math_unary(name):
    def fn(em, t, x):
        return _m(em, name, x)
    return fn


def deg2rad(em, t, x):
    return _a(em, "mulf", x, _c(em, _math.pi / 180.0, t))


def rad2deg(em, t, x):
    return _a(em, "mulf", x, _c(em, 180.0 / _math.pi, t))


def negative(em, t, x):
    if _k(t) == "f":
        return _a(em, "negf", x)
    if t == T.py_int:
        _py_int_overflow(em, em.cmpi("eq", x, _c(em, -2 ** 63, t)), "-({0})", (x,))
    return _a(em, "subi", _c(em, 0, t), x)


def positive(em, t, x):
    return x


def absolute(em, t, x):
    if _k(t) == "f":
        return _m(em, "absf", x)
    if t == T.py_int:
        _py_int_overflow(em, em.cmpi("eq", x, _c(em, -2 ** 63, t)), "abs({0})", (x,))
    if _k(t) == "s":  # INT_MIN stays INT_MIN, as in NumPy
        return em.select(em.cmpi("slt", x, _c(em, 0, t)),
                         _a(em, "subi", _c(em, 0, t), x), x)
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
        return _a(em, "divf", _c(em, 1.0, t), x)
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
    return em.cmpf("oeq", _m(em, "absf", x), _c(em, _math.inf, t))


def isfinite(em, t, x):
    if _k(t) != "f":
        return em.true()
    return em.cmpf("olt", _m(em, "absf", x), _c(em, _math.inf, t))


def signbit(em, t, x):
    k = _k(t)
    if k == "f":
        bits = em.op("arith.bitcast", x, type=T.IntegerType(_width(t)))
        return em.cmpi("slt", bits, em.const(0, bits.type))
    if k == "s":
        return em.cmpi("slt", x, _c(em, 0, t))
    return em.false()


# casts --------------------------------------------------------------------------------------

def astype(em: Emitter, src: T.Type, dst: T.Type, x: Value) -> Value:
    """``ndarray.astype(dst)`` of one element (unsafe casting). To bool: ``x != 0``. Float to
    int: ``fptosi``/``fptoui`` (the backend gives NumPy's x86 results for NaN/inf/out of
    range). To ``!py.int`` (Python's ``int(x)``): NaN raises ValueError, inf OverflowError."""
    ks, kd = _k(src), _k(dst)
    ls, ld = T.lowered(src), T.lowered(dst)
    if kd == "b":
        return truthy(em, src, x)
    if ks == "f" and kd == "f":
        if ls.width == ld.width:
            return x
        return em.cast("arith.extf" if ld.width > ls.width else "arith.truncf", x, ld)
    if ks == "f":
        if dst == T.py_int:
            em.check(em.cmpf("ord", x, x), "ValueError", "cannot convert float NaN to integer")
            em.check(isfinite(em, src, x), "OverflowError",
                     "cannot convert float infinity to integer")
        return em.cast("arith.fptoui" if kd == "u" else "arith.fptosi", x, ld)
    if kd == "f":
        return em.cast("arith.sitofp" if ks == "s" else "arith.uitofp", x, ld)
    if ld.width > ls.width:
        return em.cast("arith.extsi" if ks == "s" else "arith.extui", x, ld)
    return em.cast("arith.trunci", x, ld) if ld.width < ls.width else x


def where(em, t, c, a, b):
    return em.select(c, a, b)


SCALAR = {
    "add": add, "subtract": subtract, "multiply": multiply, "divide": divide,
    "floor_divide": floor_divide, "remainder": remainder, "fmod": fmod, "power": power,
    "maximum": maximum, "minimum": minimum, "fmax": fmax, "fmin": fmin, "arctan2": arctan2,
    "hypot": hypot, "copysign": copysign, "logaddexp": logaddexp,
    "bitwise_and": bitwise_and, "bitwise_or": bitwise_or, "bitwise_xor": bitwise_xor,
    "left_shift": left_shift, "right_shift": right_shift, "invert": invert,
    "equal": equal, "not_equal": not_equal, "less": less, "less_equal": less_equal,
    "greater": greater, "greater_equal": greater_equal,
    "logical_and": logical_and, "logical_or": logical_or, "logical_xor": logical_xor,
    "logical_not": logical_not, "deg2rad": deg2rad, "rad2deg": rad2deg,
    "negative": negative, "positive": positive, "absolute": absolute, "square": square,
    "sign": sign, "reciprocal": reciprocal, "isnan": isnan, "isinf": isinf,
    "isfinite": isfinite, "signbit": signbit, "where": where,
    **{n: _math_unary(m) for n, m in MATH_UNARY.items()},
}

# Estimated scalar ops per element (default 1), for the recompute-or-materialize choice.
COST = {"divide": 4, "floor_divide": 16, "remainder": 16, "fmod": 8, "power": 20,
        "arctan2": 20, "hypot": 12, "logaddexp": 40, "reciprocal": 4, "sign": 3,
        "floor": 2, "ceil": 2, "trunc": 2, "rint": 2, "sqrt": 4,
        **{n: 20 for n in MATH_UNARY if n not in ("floor", "ceil", "trunc", "rint", "sqrt")}}
