"""A reference interpreter of loop-level IR (func, scf, arith, math, memref, grafo).

The oracle for lowering tests: it runs what ``lowering.lower_to_loops`` produces without the
LLVM backend. Integers are Python ints holding the signed value of their width (``i1`` is 0
or 1, ``index`` is 64-bit); floats are NumPy ``float32``/``float64`` scalars; memrefs are
``Buffer`` s over NumPy arrays (signless dtypes: int32 for i32, bool for i1) and may be strided
views. ``grafo.check`` raises its Python exception (``kind(message.format(*params))``);
``grafo.print`` writes to ``sys.stdout`` as the compiled code does.

Behaviour that is undefined or poison in LLVM raises ``UndefinedBehavior``: a division by zero
or INT_MIN / -1 (``divsi``, ``remsi``...), a shift by at least the bit width, a load or store
out of bounds or into a freed buffer, freeing a buffer twice or one the function did not
allocate. ``fptosi``/``fptoui`` convert as NumPy's ``astype`` does on this machine (the
backend's contract).
"""

from __future__ import annotations

import builtins
import math

import numpy as np

from runtime.printing import from_kind, write

from .. import types as T
from ..dialects import arith

_CMPI = {v: k for k, v in arith.CMPI.items()}
_CMPF = {v: k for k, v in arith.CMPF.items()}


class UndefinedBehavior(Exception):
    """The interpreted IR did something the loop level leaves undefined."""


class Buffer:
    """A memref value: a NumPy array (possibly a strided view) and whether it is live."""

    def __init__(self, array: np.ndarray, owned: bool):
        self.array = array
        self.owned = owned
        self.live = True


def _width(t: T.Type) -> int:
    return 64 if isinstance(t, T.IndexType) else t.width


def _signed(v: int, w: int) -> int:
    if w == 1:
        return v & 1
    v &= (1 << w) - 1
    return v - (1 << w) if v >> (w - 1) else v


def _unsigned(v: int, w: int) -> int:
    return v & ((1 << w) - 1)


def storage_dtype(t: T.Type) -> np.dtype:
    """The NumPy dtype holding loop-level elements of type ``t``."""
    if isinstance(t, T.FloatType):
        return np.dtype(np.float32 if t.width == 32 else np.float64)
    if t == T.i1:
        return np.dtype(np.bool_)
    return np.dtype(f"int{_width(t)}")


def _float(t: T.Type):
    return np.float32 if t.width == 32 else np.float64


def _trunc_div(a: int, b: int) -> int:
    q = abs(a) // abs(b)
    return q if (a < 0) == (b < 0) else -q


def _int_binary(fn, unsigned=False, trap=False):
    def run(op, a, b):
        w = _width(op.results[0].type)
        if trap and (b == 0 or (not unsigned and b == -1 and a == _signed(1 << (w - 1), w))):
            raise UndefinedBehavior(f"{op.name} of {a} by {b} at {op.loc}")
        if unsigned:
            a, b = _unsigned(a, w), _unsigned(b, w)
        return _signed(fn(a, b), w)
    return run


def _shift(kind):
    def run(op, a, b):
        w = _width(op.results[0].type)
        if _unsigned(b, w) >= w:
            raise UndefinedBehavior(f"{op.name} by {b} >= {w} bits at {op.loc}")
        if kind == "shl":
            return _signed(a << b, w)
        return _signed((a if kind == "ashr" else _unsigned(a, w)) >> b, w)
    return run


def _float_binary(fn):
    def run(op, a, b):
        with np.errstate(all="ignore"):
            return _float(op.results[0].type)(fn(a, b))
    return run


def _maximumf(a, b, big=True):
    if np.isnan(a) or np.isnan(b):
        return a + b
    if a == b:  # -0.0 < +0.0
        return a if (np.signbit(a) != big) else b
    return max(a, b) if big else min(a, b)


def _cmpi(op, a, b):
    pred = _CMPI[op.attr("predicate")]
    w = _width(op.operands[0].type)
    if pred[0] == "u":
        a, b = _unsigned(a, w), _unsigned(b, w)
    p = pred[1:] if pred[0] in "su" else pred
    return int({"eq": a == b, "ne": a != b, "lt": a < b, "le": a <= b, "gt": a > b,
                "ge": a >= b}[p])


def _cmpf(op, a, b):
    pred = _CMPF[op.attr("predicate")]
    if pred in ("false", "true"):
        return int(pred == "true")
    unordered = bool(np.isnan(a) or np.isnan(b))
    if pred in ("ord", "uno"):
        return int(unordered == (pred == "uno"))
    rel = {"eq": a == b, "gt": a > b, "ge": a >= b, "lt": a < b, "le": a <= b,
           "ne": a != b}[pred[1:]]
    return int(bool(rel) or (pred[0] == "u" and unordered))


def _convert(op, a):
    """Casts between scalar types."""
    src, dst = op.operands[0].type, op.results[0].type
    name = op.name[len("arith."):]
    if name in ("extsi", "trunci", "index_cast"):
        return _signed(_signed(a, _width(src)), _width(dst))
    if name in ("extui", "index_castui"):
        return _signed(_unsigned(a, _width(src)), _width(dst))
    if name in ("extf", "truncf"):
        return _float(dst)(a)
    if name in ("sitofp", "uitofp"):
        v = a if name == "sitofp" else _unsigned(a, _width(src))
        kind = "int64" if name == "sitofp" else "uint64"
        return _float(dst)(np.array([v], dtype=kind).astype(storage_dtype(dst))[0])
    if name in ("fptosi", "fptoui"):
        kind = ("int" if name == "fptosi" else "uint") + str(_width(dst))
        if _width(dst) == 1:
            return int(bool(a))
        with np.errstate(all="ignore"):
            return _signed(int(np.array([a]).astype(kind)[0]), _width(dst))
    if name == "bitcast":
        if isinstance(dst, T.FloatType):
            raw = np.array([_unsigned(a, dst.width)], dtype=f"uint{dst.width}")
            return raw.view(storage_dtype(dst))[0]
        return _signed(int(np.array([a], dtype=storage_dtype(src)).view(f"uint{src.width}")[0]),
                       dst.width)
    raise UndefinedBehavior(f"unknown cast {op.name}")


_MATH = {"absf": np.abs, "exp": np.exp, "exp2": np.exp2, "expm1": np.expm1, "log": np.log,
         "log2": np.log2, "log10": np.log10, "log1p": np.log1p, "sqrt": np.sqrt,
         "cbrt": np.cbrt, "sin": np.sin, "cos": np.cos, "tan": np.tan, "asin": np.arcsin,
         "acos": np.arccos, "atan": np.arctan, "sinh": np.sinh, "cosh": np.cosh,
         "tanh": np.tanh, "asinh": np.arcsinh, "acosh": np.arccosh, "atanh": np.arctanh,
         "floor": np.floor, "ceil": np.ceil, "trunc": np.trunc, "roundeven": np.rint,
         "erf": np.vectorize(math.erf), "atan2": np.arctan2, "powf": np.power,
         "copysign": np.copysign}


def _math(op, *xs):
    name = op.name[len("math."):]
    t = op.results[0].type
    if name == "absi":
        return _signed(abs(xs[0]), _width(t))
    if name == "ipowi":
        a, b = xs
        if b < 0:
            return _signed({1: 1, -1: -1 if b % 2 else 1}.get(a, 0), _width(t))
        return _signed(pow(a, b, 1 << _width(t)), _width(t))
    if name == "fpowi":
        return _float(t)(np.power(xs[0], float(xs[1])))
    if name == "fma":
        return _float(t)(xs[0] * xs[1] + xs[2])
    with np.errstate(all="ignore"):  # array loops: NumPy's scalar paths differ (pow(-0., .5))
        return _float(t)(_MATH[name](*[np.array([x]) for x in xs])[0])


_SCALAR = {
    "arith.addi": _int_binary(lambda a, b: a + b),
    "arith.subi": _int_binary(lambda a, b: a - b),
    "arith.muli": _int_binary(lambda a, b: a * b),
    "arith.andi": _int_binary(lambda a, b: a & b),
    "arith.ori": _int_binary(lambda a, b: a | b),
    "arith.xori": _int_binary(lambda a, b: a ^ b),
    "arith.maxsi": _int_binary(max), "arith.minsi": _int_binary(min),
    "arith.maxui": _int_binary(max, unsigned=True),
    "arith.minui": _int_binary(min, unsigned=True),
    "arith.divsi": _int_binary(_trunc_div, trap=True),
    "arith.remsi": _int_binary(lambda a, b: a - b * _trunc_div(a, b), trap=True),
    "arith.floordivsi": _int_binary(lambda a, b: a // b, trap=True),
    "arith.ceildivsi": _int_binary(lambda a, b: -((-a) // b), trap=True),
    "arith.divui": _int_binary(lambda a, b: a // b, unsigned=True, trap=True),
    "arith.remui": _int_binary(lambda a, b: a % b, unsigned=True, trap=True),
    "arith.shli": _shift("shl"), "arith.shrsi": _shift("ashr"), "arith.shrui": _shift("lshr"),
    "arith.addf": _float_binary(lambda a, b: a + b),
    "arith.subf": _float_binary(lambda a, b: a - b),
    "arith.mulf": _float_binary(lambda a, b: a * b),
    "arith.divf": _float_binary(lambda a, b: a / b),
    "arith.remf": _float_binary(np.fmod),
    "arith.maximumf": _float_binary(_maximumf),
    "arith.minimumf": _float_binary(lambda a, b: _maximumf(a, b, big=False)),
    "arith.maxnumf": _float_binary(np.fmax), "arith.minnumf": _float_binary(np.fmin),
    "arith.negf": lambda op, a: -a,
    "arith.cmpi": _cmpi, "arith.cmpf": _cmpf,
    "arith.select": lambda op, c, a, b: a if c else b,
}
for _n in ("extsi", "extui", "trunci", "extf", "truncf", "sitofp", "uitofp", "fptosi",
           "fptoui", "index_cast", "index_castui", "bitcast"):
    _SCALAR["arith." + _n] = _convert


class Interpreter:
    """Runs functions of a loop-level module. ``allocated`` / ``freed`` count buffers."""

    def __init__(self, module):
        self.module = module
        self.allocated = 0
        self.freed = 0

    def call(self, name: str, *args) -> list:
        """Run function ``name``; arrays may have any dtype of the right item size (viewed as
        the signless storage dtype), scalars are Python/NumPy numbers. Returns the results:
        arrays (storage dtype), ints, bools (i1) and NumPy floats."""
        fn = self.module.lookup(name)
        if fn is None:
            raise KeyError(f"no function {name!r}")
        ins = [self._arg(a, t) for a, t in zip(args, fn.function_type.inputs, strict=True)]
        results = self._call(fn, ins)
        out = []
        for v, t in zip(results, fn.function_type.results, strict=True):
            if isinstance(v, Buffer):
                if not v.owned or not v.live:
                    raise UndefinedBehavior(f"{name} returned a buffer it does not own")
                v.owned = False  # handed to the caller
                out.append(v.array)
            else:
                out.append(bool(v) if t == T.i1 else v)
        return out

    def _arg(self, a, t):
        if isinstance(t, T.MemRefType):
            arr = np.asarray(a)
            dt = storage_dtype(t.element)
            return Buffer(arr.view(dt) if arr.dtype != dt else arr, owned=False)
        if isinstance(t, T.FloatType):
            return _float(t)(a)
        return _signed(int(a), _width(t))

    def _call(self, fn, args) -> list:
        env = {}
        return self._block(fn.body, args, env)

    def _block(self, block, args, env) -> list:
        for a, v in zip(block.args, args, strict=True):
            env[a] = v
        for op in block.ops:
            if op.name in ("scf.yield", "scf.condition", "func.return"):
                return [env[v] for v in op.operands]
            res = self._op(op, env)
            for r, v in zip(op.results, res, strict=True):
                env[r] = v
        return []

    def _op(self, op, env) -> list:
        name = op.name
        xs = [env[v] for v in op.operands]
        fn = _SCALAR.get(name)
        if fn is not None:
            return [fn(op, *xs)]
        if name == "arith.constant":
            a = op.attributes["value"]
            t = op.results[0].type
            return [_float(t)(a.value) if isinstance(t, T.FloatType) else _signed(a.value,
                                                                                  _width(t))]
        if name.startswith("math."):
            return [_math(op, *xs)]
        if name == "grafo.libm":
            with np.errstate(all="ignore"):
                return [_float(op.results[0].type)(_MATH[op.attr("callee")](*xs))]
        if name.startswith("memref.") or name == "grafo.stride":
            return self._memref(op, xs)
        if name == "grafo.constant":
            a = op.attributes["value"].value.astype(storage_dtype(op.result.type.element))
            a.flags.writeable = False
            return [Buffer(a, owned=False)]
        if name == "grafo.print":
            _print(op, xs)
            return []
        if name == "grafo.check":
            if not xs[0]:
                kind = getattr(builtins, op.attr("kind"))
                raise kind(op.attr("message").format(*xs[1:]))
            return []
        if name == "scf.if":
            region = op.regions[0] if xs[0] else op.regions[1]
            return self._block(region.block, [], env)
        if name == "scf.for":
            lb, ub, step, *iters = xs
            i = lb
            while i < ub:
                iters = self._block(op.body, [i, *iters], env)
                i += step
            return iters
        if name == "scf.while":
            iters = xs
            while True:
                cond, *fwd = self._block(op.regions[0].block, iters, env)
                if not cond:
                    return fwd
                iters = self._block(op.regions[1].block, fwd, env)
        if name == "func.call":
            return self._call(self.module.lookup(op.callee), xs)
        raise UndefinedBehavior(f"the interpreter does not know {name}")

    def _memref(self, op, xs) -> list:
        name = op.name
        if name == "memref.alloc":
            t = op.results[0].type
            sizes = iter(xs)
            shape = tuple(d if d is not None else next(sizes) for d in t.shape)
            dt = storage_dtype(t.element)
            garbage = np.full(int(np.prod(shape)) * dt.itemsize, 0x5A, dtype=np.uint8)
            self.allocated += 1
            return [Buffer(garbage.view(dt).reshape(shape), owned=True)]
        buf = xs[1] if name == "memref.store" else xs[0]
        if not buf.live:
            raise UndefinedBehavior(f"{name} of a freed buffer at {op.loc}")
        if name == "memref.dealloc":
            if not buf.owned:
                raise UndefinedBehavior(f"memref.dealloc of a buffer not allocated here at "
                                        f"{op.loc}")
            buf.live = False
            self.freed += 1
            return []
        if name == "memref.dim":
            return [buf.array.shape[xs[1]]]
        if name == "grafo.stride":
            return [buf.array.strides[xs[1]] // buf.array.itemsize]
        if name == "memref.load":
            idx = self._index(op, buf, xs[1:])
            v = buf.array[idx]
            el = op.operands[0].type.element
            return [_float(el)(v) if isinstance(el, T.FloatType) else _signed(int(v),
                                                                               _width(el))]
        if name == "memref.store":
            idx = self._index(op, buf, xs[2:])
            el = op.operands[1].type.element
            buf.array[idx] = bool(xs[0]) if el == T.i1 else xs[0]
            return []
        raise UndefinedBehavior(f"the interpreter does not know {name}")

    @staticmethod
    def _index(op, buf, idx) -> tuple:
        shape = buf.array.shape
        if len(idx) != len(shape) or any(not 0 <= i < n for i, n in zip(idx, shape, strict=True)):
            raise UndefinedBehavior(f"{op.name} at {list(idx)} outside shape {list(shape)} "
                                    f"at {op.loc}")
        return tuple(idx)


def run(module, name: str, *args) -> list:
    """Interpret function ``name`` of loop-level ``module`` on ``args`` (see
    ``Interpreter.call``)."""
    return Interpreter(module).call(name, *args)


def _print(op, xs) -> None:
    """``grafo.print``: each operand as the NumPy/Python value of its kind, then the text."""
    values = []
    for x, kind in zip(xs, op.attr("kinds"), strict=True):
        if isinstance(x, Buffer):
            dt = np.dtype(from_kind(kind, x.array.ndim))
            values.append(x.array.view(dt) if x.array.dtype.itemsize == dt.itemsize
                          else x.array.astype(dt))
        else:
            t = from_kind(kind, None)
            if isinstance(t, np.dtype):
                values.append(t.type(int(x) % (1 << 8 * t.itemsize) if t.kind == "u" else x))
            else:
                values.append(t(x))
    write((op.attr("pieces"), op.attr("conversions")), values)
