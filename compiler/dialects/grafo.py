"""The ``grafo`` dialect: run-time effects that have no upstream MLIR op.

- ``grafo.check(%ok, %params...) {kind, message}``: if ``%ok`` (i1) is false, the compiled
  function stops and the caller raises Python exception ``kind`` (e.g. "IndexError") with
  ``message`` formatted by ``str.format`` from the i64 ``%params``; the error names the source
  location of this op. Never removed by DCE.
- ``grafo.print(%values...) {pieces, conversions, kinds}``: writes
  ``pieces[0] + f(values[0]) + pieces[1] + ... + pieces[n]`` to ``sys.stdout``, where ``f``
  is ``str`` or ``repr`` (``conversions[k]`` is "s" or "r") of the value rebuilt as the
  Python/NumPy object of kind ``kinds[k]`` (a NumPy dtype name, or "int"/"float"/"bool" for
  a Python scalar); tensors/memrefs print as NumPy arrays. Python's ``print`` semantics. Used
  at both levels (operands are tensors and scalars, then memrefs and scalars). Never removed
  by DCE.
- ``grafo.libm(%x...) {callee}``: the C math library's ``callee`` (``exp``, ``log1p``; the
  float32 variant ``expf`` for f32 operands) where the bits must be those NumPy's C loops get
  (``npy_logaddexp`` calls ``npy_exp``), not the inline ``math`` expansions. Pure.
- ``grafo.cmath(%z...) {callee}``: NumPy's complex ufunc ``callee`` (``exp``, ``power``) of
  one or two ``complex<f32|f64>`` operands of the result's type (upstream's ``complex`` ops do
  not promise NumPy's branch cuts and special values). Pure.
- ``grafo.constant {value = dense<...>}``: a read-only buffer (contiguous static memref)
  holding the elements of ``value``, emitted once as constant data of the module (MLIR's
  ``memref.global`` + ``memref.get_global`` in one op). Pure; never stored into or freed.
- ``grafo.stride(%m, %k)``: the element stride of dim ``%k`` (an ``index``) of memref ``%m``,
  the distance in elements between neighbours along that dim (negative for reversed views,
  0 for broadcast ones). The single-value form of upstream
  ``memref.extract_strided_metadata``, whose stride results are the same numbers; like
  ``memref.dim``, it reads the descriptor and no element. Pure.
"""

from .. import types as T
from ..ir.attributes import DenseAttr
from ..ir.constraints import (
    Complex,
    Dense,
    Float,
    Index,
    LoopScalar,
    MemRef,
    NpBool,
    NpInteger,
    NpValue,
    SignlessInteger,
    Variadic,
    array_of,
    attr,
    named,
    str_attr,
)
from ..ir.opdef import Op, Pure, SameOperandsAndResultType, register_ops
from .memref import verify_dim_index

# The C math library's functions that ``grafo.libm`` calls, and their operand counts.
LIBM = {**dict.fromkeys(("exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt",
                         "cbrt", "sin", "cos", "tan", "asin", "acos", "atan", "sinh", "cosh",
                         "tanh", "asinh", "acosh", "atanh", "floor", "ceil", "trunc", "erf"),
                        1),
        "atan2": 2, "copysign": 2}
# At most this many message parameters fit the status block (``backend/llvm/types.py``).
MAX_CHECK_PARAMS = 4


def kind_type(kind: str) -> T.Type | None:
    """The element type a ``grafo.print`` kind (a NumPy dtype name, or "int"/"float"/
    "complex"/"bool" for a Python scalar) stands for; None for a name that is neither."""
    weak = {"int": T.py_int, "float": T.py_float, "complex": T.py_complex, "bool": T.py_bool}
    if kind in weak:
        return weak[kind]
    try:
        return T.from_dtype(kind)
    except TypeError:
        return None


class CheckOp(Op):
    """Verified: at most ``MAX_CHECK_PARAMS`` integer parameters, and a ``message`` that
    ``str.format`` fills from that many integers."""

    name = "grafo.check"
    operand_defs = named(condition=NpBool, params=Variadic(SignlessInteger | Index | NpInteger))
    result_defs = ()
    attr_defs = {"kind": attr(str_attr()), "message": attr(str_attr())}

    @classmethod
    def infer(cls, operand_types, attributes):
        return []

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        n = len(self.params)
        if n > MAX_CHECK_PARAMS:
            raise VerifyError(self, f"has {n} message parameters; the status block holds at "
                                    f"most {MAX_CHECK_PARAMS}")
        try:
            self.message.format(*[0] * n)
        except (IndexError, KeyError, ValueError) as e:
            raise VerifyError(self, f"'message' is not a format string of {n} integer "
                                    f"parameter(s): {type(e).__name__}: {e}") from None


class LibmOp(Op):
    name = "grafo.libm"
    traits = frozenset({Pure})
    operand_defs = named(args=Variadic(Float, 1))
    result_defs = (Float,)
    attr_defs = {"callee": attr(str_attr(tuple(LIBM)))}

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        callee = self.callee
        types = {v.type for v in (*self.args, self.result)}
        if len(self.args) != LIBM[callee] or len(types) != 1:
            raise VerifyError(self, f"'{callee}' takes {LIBM[callee]} operand(s) of the "
                                    f"result's type")


# The NumPy complex ufuncs that ``grafo.cmath`` calls, and their operand counts.
CMATH = {**dict.fromkeys((
    "exp", "exp2", "expm1", "log", "log2", "log10", "log1p", "sqrt", "square", "reciprocal",
    "sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh", "arcsinh",
    "arccosh", "arctanh", "sign"), 1), "power": 2}


class CMathOp(Op):
    """``grafo.cmath(%z...) {callee = "exp"}``: the NumPy complex ufunc ``callee`` of one or
    two complex operands of the result's type (``backend/llvm/complexmath.py``)."""

    name = "grafo.cmath"
    traits = frozenset({Pure, SameOperandsAndResultType})
    operand_defs = named(args=Variadic(Complex, 1))
    result_defs = (Complex,)
    attr_defs = {"callee": attr(str_attr(tuple(CMATH)))}

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        if len(self.args) != CMATH[self.callee]:
            raise VerifyError(self, f"'{self.callee}' takes {CMATH[self.callee]} operand(s)")


class PrintOp(Op):
    """Verified: ``n + 1`` pieces, ``n`` conversions ("s" or "r") and ``n`` kinds for ``n``
    operands, each kind standing for the operand's element type (as lowered)."""

    name = "grafo.print"
    operand_defs = named(values=Variadic(NpValue | MemRef | LoopScalar))
    result_defs = ()
    attr_defs = {"pieces": attr(array_of(str_attr())), "conversions": attr(str_attr()),
                 "kinds": attr(array_of(str_attr()))}

    @classmethod
    def infer(cls, operand_types, attributes):
        return []

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        n = len(self.values)
        conversions = self.conversions
        if len(self.pieces) != n + 1 or len(conversions) != n or len(self.kinds) != n:
            raise VerifyError(self, f"needs {n + 1} pieces, {n} conversions and {n} kinds "
                                    f"for {n} operands")
        if set(conversions) - set("sr"):
            raise VerifyError(self, f"conversions are 's' (str) or 'r' (repr), got "
                                    f"'{conversions}'")
        for k, (kind, v) in enumerate(zip(self.kinds, self.values, strict=True)):
            t = kind_type(kind)
            if t is None or T.lowered(t) != T.lowered(T.element_type(v.type)):
                raise VerifyError(self, f"kind '{kind}' of operand #{k} does not name its "
                                        f"element type {T.element_type(v.type)}")


class ConstantOp(Op):
    name = "grafo.constant"
    traits = frozenset({Pure})
    operand_defs = ()
    result_defs = (MemRef,)
    attr_defs = {"value": attr(Dense)}

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        a, t = self.attributes.get("value"), self.result.type
        if not (isinstance(a, DenseAttr) and not t.strided and a.type.shape == t.shape
                and T.lowered(a.type.element) == t.element):
            raise VerifyError(self, f"needs a dense 'value' of the shape and element type of "
                                    f"its result {t}")


class StrideOp(Op):
    name = "grafo.stride"
    traits = frozenset({Pure})
    operand_defs = named(source=MemRef, index=Index)
    result_defs = (Index,)

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.index]

    def verify(self) -> None:
        super().verify()
        verify_dim_index(self, self.source, self.index)


register_ops("grafo", (CheckOp, LibmOp, CMathOp, PrintOp, ConstantOp, StrideOp))
