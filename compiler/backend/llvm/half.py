"""Conversions between ``half`` (NumPy's float16) and ``float``/``double`` as integer code.

LLVM turns ``fpext``/``fptrunc`` of ``half`` into the libcalls ``__extendhfsf2``,
``__truncsfhf2`` and ``__truncdfhf2`` on CPUs without F16C (and always for ``double`` ->
``half``); the JIT cannot resolve them and some C libraries lack them. These conversions are
branch-free integer code instead, which LLVM vectorizes, with NumPy's results bit for bit
(``npy_halfbits_to_floatbits``, ``npy_floatbits_to_halfbits``, ``npy_doublebits_to_halfbits``
in NumPy's ``halffloat.cpp``): round to nearest even, overflow to infinity, subnormals, and NaN
payloads kept (the top significand bits, never made quiet; a payload that would vanish
becomes 1).
"""

from __future__ import annotations

from llvmlite import ir

from .types import HALF, I16, I32, I64

FLOAT, DOUBLE = ir.FloatType(), ir.DoubleType()


def _c(ty, v):
    return ir.Constant(ty, v)


def extend(b: ir.IRBuilder, x, ty: ir.Type):
    """``half`` ``x`` as ``float`` or ``double`` ``ty`` (exact)."""
    h = b.zext(b.bitcast(x, I16), I32)
    magnitude = b.shl(b.and_(h, _c(I32, 0x7FFF)), _c(I32, 13))
    exponent = b.and_(magnitude, _c(I32, 0x0F800000))
    normal = b.add(magnitude, _c(I32, (127 - 15) << 23))
    special = b.add(normal, _c(I32, (128 - 16) << 23))       # inf, NaN: exponent 255
    # subnormals and zero: scale the 10 bits as a normal float and subtract the implicit one
    tiny = b.fsub(b.bitcast(b.add(normal, _c(I32, 1 << 23)), FLOAT),
                  b.bitcast(_c(I32, 113 << 23), FLOAT))
    bits = b.select(b.icmp_unsigned("==", exponent, _c(I32, 0x0F800000)), special, normal)
    bits = b.select(b.icmp_unsigned("==", exponent, _c(I32, 0)), b.bitcast(tiny, I32), bits)
    f = b.bitcast(b.or_(bits, b.shl(b.and_(h, _c(I32, 0x8000)), _c(I32, 16))), FLOAT)
    if ty == FLOAT:
        return f
    # NaN by its bits: ``fpext`` would make a signaling NaN quiet
    h64 = b.zext(h, I64)
    nan = b.or_(b.shl(b.and_(h64, _c(I64, 0x8000)), _c(I64, 48)),
                b.or_(_c(I64, 0x7FF << 52), b.shl(b.and_(h64, _c(I64, 0x3FF)), _c(I64, 42))))
    is_nan = b.icmp_unsigned(">", b.and_(h, _c(I32, 0x7FFF)), _c(I32, 0x7C00))
    return b.select(is_nan, b.bitcast(nan, ty), b.fpext(f, ty))


def _nan_bits(b, sign, payload):
    """The half NaN with ``sign`` (i32, 0 or 0x8000) and top payload bits ``payload`` (i32)."""
    payload = b.select(b.icmp_unsigned("==", payload, _c(I32, 0)), _c(I32, 1), payload)
    return b.or_(sign, b.or_(_c(I32, 0x7C00), payload))


def _from_float(b, x):
    """The half bits (i32) of ``float`` ``x``, rounded to nearest even."""
    u = b.bitcast(x, I32)
    sign = b.lshr(b.and_(u, _c(I32, 0x80000000)), _c(I32, 16))
    a = b.and_(u, _c(I32, 0x7FFFFFFF))
    # subnormal results: adding 0.5 aligns the 10 bits at the bottom, rounding as the FPU does
    magic = (127 - 15 + 23 - 10 + 1) << 23
    tiny = b.sub(b.bitcast(b.fadd(b.bitcast(a, FLOAT), b.bitcast(_c(I32, magic), FLOAT)), I32),
                 _c(I32, magic))
    odd = b.and_(b.lshr(a, _c(I32, 13)), _c(I32, 1))
    normal = b.lshr(b.add(b.add(a, _c(I32, ((15 - 127) << 23) + 0xFFF)), odd), _c(I32, 13))
    bits = b.select(b.icmp_unsigned("<", a, _c(I32, 113 << 23)), tiny, normal)
    bits = b.select(b.icmp_unsigned(">=", a, _c(I32, (127 + 16) << 23)), _c(I32, 0x7C00), bits)
    nan = _nan_bits(b, _c(I32, 0), b.lshr(b.and_(a, _c(I32, 0x7FFFFF)), _c(I32, 13)))
    bits = b.select(b.icmp_unsigned(">", a, _c(I32, 0x7F800000)), nan, bits)
    return b.or_(bits, sign)


def _round_to_odd(b, x):
    """``double`` ``x`` as the ``float`` next to it with an odd significand when inexact
    (round to odd), so that rounding that ``float`` to half rounds ``x`` once."""
    r = b.fptrunc(x, FLOAT)
    back = b.fpext(r, DOUBLE)
    bits = b.bitcast(r, I32)
    even = b.icmp_unsigned("==", b.and_(bits, _c(I32, 1)), _c(I32, 0))
    inexact = b.fcmp_ordered("!=", back, x)
    away = b.fcmp_ordered(">", b.call(_fabs(b), [back]), b.call(_fabs(b), [x]))
    step = b.select(away, _c(I32, -1), _c(I32, 1))
    fixed = b.add(bits, step)
    return b.bitcast(b.select(b.and_(inexact, even), fixed, bits), FLOAT)


def _fabs(b):
    module = b.module
    fn = module.globals.get("llvm.fabs.f64")
    if fn is None:
        fn = ir.Function(module, ir.FunctionType(DOUBLE, [DOUBLE]), "llvm.fabs.f64")
    return fn


def truncate(b: ir.IRBuilder, x):
    """``float`` or ``double`` ``x`` as ``half``, rounded once to nearest even."""
    if x.type == FLOAT:
        bits = _from_float(b, x)
    else:
        bits = _from_float(b, _round_to_odd(b, x))
        u = b.bitcast(x, I64)
        sign = b.trunc(b.lshr(b.and_(u, _c(I64, 1 << 63)), _c(I64, 48)), I32)
        payload = b.trunc(b.lshr(b.and_(u, _c(I64, (1 << 52) - 1)), _c(I64, 42)), I32)
        bits = b.select(b.fcmp_unordered("uno", x, x), _nan_bits(b, sign, payload), bits)
    return b.bitcast(b.trunc(bits, I16), HALF)
