"""Complex functions on (re, im) pairs of LLVM floats, computed as NumPy 2.4's complex loops do.

A complex value is a pair of llvmlite values of one float type: ``float`` (complex64) or
``double`` (complex128); every function computes in that type, as NumPy's ``complex64`` and
``complex128`` loops do::

    unary(builder, name, re, im, library=GLIBC) -> (re, im)   # one real value for "absolute"
    binary(builder, name, (a_re, a_im), (b_re, b_im), library=GLIBC) -> (re, im)

``name`` is a NumPy ufunc name from ``UNARY`` or ``BINARY``. Helpers are declared in
``builder.module``. The formulas are target-independent; the ``library`` (a ``Library``)
says what the real C functions are called and how the C99 complex functions are reached:
``GLIBC`` here, libdevice for the NVPTX target (``backend/ptx/complexlib.py``).

Where NumPy calls the C library, so does the generated code, which therefore gives NumPy's
bits: ``exp sin cos tan arcsin arccos arctan sinh cosh tanh arcsinh arccosh arctanh log
sqrt`` are glibc's ``cexp csin ... clog csqrt`` (``cexpf`` ... for complex64; NumPy's
``nc_exp`` & co. call them), and ``power`` is glibc's ``cpow`` after NumPy's special cases.
The other functions reimplement NumPy's own formulas with the same real C library calls and
the same operation order (no contraction into FMA where NumPy's loop has none):

- ``exp2``, ``log2``, ``log10``: ``cexp(z ln 2)``, ``clog(z) log2(e)``, ``clog(z) log10(e)``
  (``funcs.inc.src`` ``nc_exp2``, ``nc_log2``, ``nc_log10``).
- ``expm1``: ``expm1(x) cos(y) - 2 sin(y/2)^2 + i exp(x) sin(y)`` (``nc_expm1``).
- ``log1p``: ``log(hypot(x + 1, y)) + i atan2(y, x + 1)`` (``nc_log1p``).
- ``square``: ``fma(x, x, -y*y) + i fma(x, y, y*x)``, as the FMA (``fmaddsub``) path of
  ``loops_arithm_fp.dispatch.c.src`` that NumPy takes for arrays on AVX2 and AVX-512 CPUs
  (its scalars and 0-d arrays round otherwise; ``docs/numpy_support.md``).
- ``absolute``: ``loops_unary_complex.dispatch.c.src``'s SIMD formula ``max * sqrt(1 +
  (min/max)^2)`` (an infinite part gives inf, else a NaN part gives NaN), not ``hypot``.
- ``reciprocal``, ``divide``: Smith's method as ``loops.c.src`` writes it (a zero divisor
  divides each part by the absolute value of the divisor's part: complex inf or NaN).
- ``sign`` (NumPy 2): ``z / hypot(z)``; 0 for 0, NaN for a NaN modulus or two infinite parts,
  ``+-1`` for one infinite part.
- ``power``: ``npy_cpow``: ``z**0 == 1``; ``0**w`` is 0 for ``w.real > 0``, else NaN; a real
  integer exponent with ``|n| < 100`` multiplies by squaring (``1/z**-n`` for ``n < 0``).

ABI assumption: the C library's complex functions are called with the x86-64 System V
convention as clang emits it (``{double, double} @cexp(double, double)``, ``<2 x float>
@cexpf(<2 x float>)``); a module whose triple is another target raises a CompileError.
The JIT resolves them from the libm that ``target.py`` loads.
"""

from __future__ import annotations

import math

from llvmlite import ir

from ...errors import unsupported
from .support import internal_function

F32, F64 = ir.FloatType(), ir.DoubleType()
I1 = ir.IntType(1)

# C library complex functions NumPy 2.4 calls on glibc (npy_math_complex.c.src with HAVE_C*).
_C99 = {"exp": "cexp", "log": "clog", "sqrt": "csqrt", "sin": "csin", "cos": "ccos",
        "tan": "ctan", "arcsin": "casin", "arccos": "cacos", "arctan": "catan",
        "sinh": "csinh", "cosh": "ccosh", "tanh": "ctanh", "arcsinh": "casinh",
        "arccosh": "cacosh", "arctanh": "catanh"}
# NumPy's NPY_LOGE2, NPY_LOG2E and NPY_LOG10E (rounded once to the float type).
_LN2, _LOG2E, _LOG10E = math.log(2.0), 1.4426950408889634, 0.4342944819032518


class Library:
    """Where the real and complex C functions come from: ``real(name, ty)`` is the symbol of
    the real function ``name`` (``sin``) for float type ``ty``; ``complex(r, name, *zs)``
    computes the C99 complex function ``name`` (``cexp``, ``cpow``; see ``_C99``) of the
    (re, im) pairs ``zs`` with the real arithmetic ``r``; ``has(name)`` says whether it can."""

    def real(self, name: str, ty: ir.Type) -> str:
        return name + ("f" if ty == F32 else "")

    def has(self, name: str) -> bool:
        return True

    def complex(self, r: Real, name: str, *zs: tuple) -> tuple:
        return _c99(r, name, *zs)


class Real:
    """Real arithmetic of one float type ``ty`` on ``builder``, and its C library calls
    through ``library``."""

    def __init__(self, b: ir.IRBuilder, ty: ir.Type, library: Library):
        if ty not in (F32, F64):
            raise TypeError(f"complex parts must be float or double, not {ty}")
        self.b, self.ty, self.mod, self.lib = b, ty, b.module, library

    def c(self, v: float) -> ir.Constant:
        return ir.Constant(self.ty, v)

    def intrinsic(self, name: str, *args):
        """``llvm.<name>.f32/f64`` of ``args`` (all of type ``ty``)."""
        suffix = "f32" if self.ty == F32 else "f64"
        fn = _declare(self.mod, f"llvm.{name}.{suffix}", self.ty, [self.ty] * len(args))
        return self.b.call(fn, list(args))

    def libm(self, name: str, *args):
        """The library's real ``name`` (``namef`` for float in the C library)."""
        cname = self.lib.real(name, self.ty)
        return self.b.call(_declare(self.mod, cname, self.ty, [self.ty] * len(args)),
                           list(args))

    def c99(self, name: str, *zs: tuple) -> tuple:
        """The library's C99 complex function ``name`` of the (re, im) pairs ``zs``."""
        return self.lib.complex(self, name, *zs)

    def isnan(self, x):
        return self.b.fcmp_unordered("uno", x, x)

    def isinf(self, x):
        return self.b.fcmp_ordered("==", self.intrinsic("fabs", x), self.c(math.inf))

    def select(self, cond, t: tuple, f: tuple) -> tuple:
        return tuple(self.b.select(cond, x, y) for x, y in zip(t, f, strict=True))


def _declare(m: ir.Module, name: str, ret: ir.Type, args: list) -> ir.Function:
    fn = m.globals.get(name)
    if fn is None:
        fn = ir.Function(m, ir.FunctionType(ret, args), name)
    return fn


def _check_abi(m: ir.Module) -> None:
    arch, _, rest = m.triple.partition("-")
    if arch != "x86_64" or any(s in rest for s in ("windows", "win32", "msvc", "mingw")):
        raise unsupported(
            f"complex functions call the C library with the x86-64 System V calling "
            f"convention, which target '{m.triple}' does not use",
            hint="compile complex functions for an x86-64 Linux or macOS target")


def _c99(r: Real, name: str, *zs: tuple) -> tuple:
    """The C library's complex function ``name`` (``cexp``; ``cexpf`` for float) of the
    complex values ``zs`` ((re, im) pairs), called with the x86-64 System V convention:
    ``double complex`` as two doubles (returned as ``{double, double}``), ``float complex``
    as one ``<2 x float>``."""
    b = r.b
    _check_abi(r.mod)
    if r.ty == F64:
        fn = _declare(r.mod, name, ir.LiteralStructType([F64, F64]), [F64, F64] * len(zs))
        out = b.call(fn, [p for z in zs for p in z])
        return b.extract_value(out, 0), b.extract_value(out, 1)
    vec = ir.VectorType(F32, 2)
    args = []
    for re, im in zs:
        v = b.insert_element(ir.Constant(vec, ir.Undefined), re, ir.Constant(ir.IntType(32), 0))
        args.append(b.insert_element(v, im, ir.Constant(ir.IntType(32), 1)))
    out = b.call(_declare(r.mod, name + "f", vec, [vec] * len(zs)), args)
    return (b.extract_element(out, ir.Constant(ir.IntType(32), 0)),
            b.extract_element(out, ir.Constant(ir.IntType(32), 1)))


def _scaled(r: Real, z: tuple, k: float) -> tuple:
    return r.b.fmul(z[0], r.c(k)), r.b.fmul(z[1], r.c(k))


def _exp2(r: Real, re, im):
    return r.c99("cexp", _scaled(r, (re, im), _LN2))


def _log2(r: Real, re, im):
    return _scaled(r, r.c99("clog", (re, im)), _LOG2E)


def _log10(r: Real, re, im):
    return _scaled(r, r.c99("clog", (re, im)), _LOG10E)


def _expm1(r: Real, re, im):
    b = r.b
    a = r.libm("sin", b.fdiv(im, r.c(2.0)))
    real = b.fsub(b.fmul(r.libm("expm1", re), r.libm("cos", im)),
                  b.fmul(b.fmul(r.c(2.0), a), a))
    return real, b.fmul(r.libm("exp", re), r.libm("sin", im))


def _log1p(r: Real, re, im):
    x1 = r.b.fadd(re, r.c(1.0))
    return r.libm("log", r.libm("hypot", x1, im)), r.libm("atan2", im, x1)


def _square(r: Real, re, im):
    b = r.b
    return (r.intrinsic("fma", re, re, b.fneg(b.fmul(im, im))),
            r.intrinsic("fma", re, im, b.fmul(im, re)))


def _absolute(r: Real, re, im):
    b, inf = r.b, r.c(math.inf)
    re, im = r.intrinsic("fabs", re), r.intrinsic("fabs", im)
    re_inf, im_inf = b.fcmp_ordered("==", re, inf), b.fcmp_ordered("==", im, inf)
    im = b.select(re_inf, inf, im)
    re = b.select(im_inf, inf, re)
    re_nan, im_nan = r.isnan(re), r.isnan(im)
    im = b.select(re_nan, r.c(math.nan), im)
    re = b.select(im_nan, r.c(math.nan), re)
    larger = b.select(b.fcmp_ordered(">", re, im), re, im)
    smaller = b.select(b.fcmp_ordered("<", im, re), im, re)
    skip = b.or_(b.fcmp_ordered("==", larger, r.c(0.0)), b.fcmp_ordered("==", smaller, inf))
    ratio = b.select(skip, r.c(0.0), b.fdiv(smaller, larger))
    return b.fmul(r.intrinsic("sqrt", r.intrinsic("fma", ratio, ratio, r.c(1.0))), larger)


def _reciprocal(r: Real, re, im):
    b = r.b
    t = b.fdiv(im, re)
    d = b.fadd(re, b.fmul(im, t))
    u = b.fdiv(re, im)
    e = b.fadd(b.fmul(re, u), im)
    real_wins = b.fcmp_ordered("<=", r.intrinsic("fabs", im), r.intrinsic("fabs", re))
    return r.select(real_wins, (b.fdiv(r.c(1.0), d), b.fdiv(b.fneg(t), d)),
                    (b.fdiv(u, e), b.fdiv(r.c(-1.0), e)))


def _sign(r: Real, re, im):
    b = r.b
    mod = r.libm("hypot", re, im)
    one = lambda x: b.select(b.fcmp_ordered(">", x, r.c(0.0)), r.c(1.0), r.c(-1.0))  # noqa: E731
    nan, zero = (r.c(math.nan),) * 2, (r.c(0.0),) * 2
    infinite = r.select(r.isinf(re), r.select(r.isinf(im), nan, (one(re), r.c(0.0))),
                        (r.c(0.0), one(im)))
    out = r.select(b.fcmp_ordered("==", mod, r.c(0.0)), zero,
                   (b.fdiv(re, mod), b.fdiv(im, mod)))
    out = r.select(r.isinf(mod), infinite, out)
    return r.select(r.isnan(mod), nan, out)


def _divide(r: Real, a: tuple, d: tuple) -> tuple:
    """``a / d`` by Smith's method with NumPy's zero-divisor case (``loops.c.src``)."""
    b = r.b
    (ar, ai), (br, bi) = a, d
    abr, abi = r.intrinsic("fabs", br), r.intrinsic("fabs", bi)
    rat = b.fdiv(bi, br)
    scl = b.fdiv(r.c(1.0), b.fadd(br, b.fmul(bi, rat)))
    real_wins = (b.fmul(b.fadd(ar, b.fmul(ai, rat)), scl),
                 b.fmul(b.fsub(ai, b.fmul(ar, rat)), scl))
    zero = b.and_(b.fcmp_ordered("==", abr, r.c(0.0)), b.fcmp_ordered("==", abi, r.c(0.0)))
    real_wins = r.select(zero, (b.fdiv(ar, abr), b.fdiv(ai, abi)), real_wins)
    rat2 = b.fdiv(br, bi)
    scl2 = b.fdiv(r.c(1.0), b.fadd(bi, b.fmul(br, rat2)))
    imag_wins = (b.fmul(b.fadd(b.fmul(ar, rat2), ai), scl2),
                 b.fmul(b.fsub(b.fmul(ai, rat2), ar), scl2))
    return r.select(b.fcmp_ordered(">=", abr, abi), real_wins, imag_wins)


def _cmul(r: Real, a: tuple, c: tuple) -> tuple:
    b = r.b
    return (b.fsub(b.fmul(a[0], c[0]), b.fmul(a[1], c[1])),
            b.fadd(b.fmul(a[0], c[1]), b.fmul(a[1], c[0])))


def _integer_power(r: Real, a: tuple, n) -> tuple:
    """``a ** n`` for an integer ``0 < |n| < 100`` (``n`` an i32), as ``npy_cpow``: ``n``
    of 1, 2, 3 unrolled, else squaring over the bits of ``|n|`` (seven, unrolled with
    selects), then ``1 / a**-n`` for ``n < 0``."""
    b = r.b
    i32 = lambda v: ir.Constant(n.type, v)  # noqa: E731
    m = b.select(b.icmp_signed("<", n, i32(0)), b.neg(n), n)
    acc, p, active = (r.c(1.0), r.c(0.0)), a, ir.Constant(I1, 1)
    for k in range(7):
        take = b.and_(active, b.icmp_unsigned("!=", b.and_(m, i32(1 << k)), i32(0)))
        acc = r.select(take, _cmul(r, acc, p), acc)
        active = b.and_(active, b.icmp_signed(">=", m, i32(2 << k)))
        p = r.select(active, _cmul(r, p, p), p)
    out = r.select(b.icmp_signed("<", n, i32(0)), _divide(r, (r.c(1.0), r.c(0.0)), acc), acc)
    square = _cmul(r, a, a)
    out = r.select(b.icmp_signed("==", n, i32(3)), _cmul(r, a, square), out)
    out = r.select(b.icmp_signed("==", n, i32(2)), square, out)
    return r.select(b.icmp_signed("==", n, i32(1)), a, out)


def _power_function(m: ir.Module, ty: ir.Type, lib: Library) -> ir.Function:
    """``grafo.rt.cpow.<ty>(ar, ai, br, bi) -> {re, im}``: ``npy_cpow``'s special cases
    inline, else the C library's ``cpow``."""
    pair = ir.LiteralStructType([ty, ty])
    fn, new = internal_function(m, f"grafo.rt.cpow.{ty}", ir.FunctionType(pair, [ty] * 4))
    if not new:
        return fn
    entry, formula, library = (fn.append_basic_block(s) for s in ("entry", "formula", "libm"))
    b = ir.IRBuilder(entry)
    r = Real(b, ty, lib)
    ar, ai, br, bi = fn.args
    zero = lambda x, y: b.and_(b.fcmp_ordered("==", x, r.c(0.0)),  # noqa: E731
                               b.fcmp_ordered("==", y, r.c(0.0)))
    w_zero, a_zero = zero(br, bi), zero(ar, ai)
    integer = b.and_(b.fcmp_ordered("==", bi, r.c(0.0)),
                     b.fcmp_ordered("==", r.intrinsic("trunc", br), br))
    integer = b.and_(integer, b.fcmp_ordered("<", r.intrinsic("fabs", br), r.c(100.0)))
    b.cbranch(b.or_(b.or_(w_zero, a_zero), integer), formula, library)
    b.position_at_end(formula)
    n = b.fptosi(b.select(integer, br, r.c(1.0)), ir.IntType(32))   # no poison off range
    out = _integer_power(r, (ar, ai), n)
    a_zero_out = r.select(b.fcmp_ordered(">", br, r.c(0.0)), (r.c(0.0), r.c(0.0)),
                          (r.c(math.nan), r.c(math.nan)))
    out = r.select(a_zero, a_zero_out, out)
    out = r.select(w_zero, (r.c(1.0), r.c(0.0)), out)
    b.ret(b.insert_value(b.insert_value(ir.Constant(pair, ir.Undefined), out[0], 0), out[1], 1))
    b.position_at_end(library)
    re, im = r.c99("cpow", (ar, ai), (br, bi))
    b.ret(b.insert_value(b.insert_value(ir.Constant(pair, ir.Undefined), re, 0), im, 1))
    return fn


def _power(r: Real, a: tuple, w: tuple) -> tuple:
    b = r.b
    out = b.call(_power_function(r.mod, r.ty, r.lib), [*a, *w])
    return b.extract_value(out, 0), b.extract_value(out, 1)


def _libm_function(cname: str):
    return lambda r, re, im: r.c99(cname, (re, im))


_UNARY = {name: _libm_function(cname) for name, cname in _C99.items()}
_UNARY.update(exp2=_exp2, log2=_log2, log10=_log10, expm1=_expm1, log1p=_log1p,
              square=_square, reciprocal=_reciprocal, absolute=_absolute, sign=_sign)
_BINARY = {"divide": _divide, "power": _power}

UNARY = frozenset(_UNARY)
BINARY = frozenset(_BINARY)
GLIBC = Library()
# The C99 complex function each ufunc calls, where it calls one.
C_FUNCTION = {**_C99, "exp2": "cexp", "log2": "clog", "log10": "clog", "power": "cpow"}


def available(name: str, library: Library) -> bool:
    """Whether ``library`` provides what NumPy's complex ufunc ``name`` needs."""
    return name not in C_FUNCTION or library.has(C_FUNCTION[name])


def unary(builder: ir.IRBuilder, name: str, re, im, library: Library = GLIBC):
    """NumPy's complex ufunc ``name`` (one of ``UNARY``) of ``re + i im`` (two values of one
    float type): ``(re, im)`` of the result, a single value of that type for ``absolute``.
    Raises KeyError for another name, a CompileError (NotImplementedError) for a C library
    function on a target other than x86-64 System V."""
    return _UNARY[name](Real(builder, re.type, library), re, im)


def binary(builder: ir.IRBuilder, name: str, a: tuple, b: tuple,
           library: Library = GLIBC) -> tuple:
    """NumPy's complex ufunc ``name`` (one of ``BINARY``: ``power``, ``divide``) of the
    complex values ``a`` and ``b`` ((re, im) pairs of one float type): ``(re, im)``.
    Raises as ``unary``."""
    return _BINARY[name](Real(builder, a[0].type, library), a, b)
