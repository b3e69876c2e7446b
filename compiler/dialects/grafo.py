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
from ..ir.opdef import Op, Pure


class CheckOp(Op):
    name = "grafo.check"
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class LibmOp(Op):
    name = "grafo.libm"
    traits = frozenset({Pure})
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        return [operand_types[0]]


class PrintOp(Op):
    name = "grafo.print"
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        n = len(self.operands)
        if len(self.attr("pieces", ())) != n + 1 or len(self.attr("conversions", "")) != n \
                or len(self.attr("kinds", ())) != n:
            raise VerifyError(self, f"needs {n + 1} pieces, {n} conversions and {n} kinds "
                                    f"for {n} operands")


class ConstantOp(Op):
    name = "grafo.constant"
    traits = frozenset({Pure})
    num_operands = 0
    num_results = 1

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        a, t = self.attributes.get("value"), self.result.type
        if not (isinstance(a, DenseAttr) and isinstance(t, T.MemRefType) and not t.strided
                and a.type.shape == t.shape and T.lowered(a.type.element) == t.element):
            raise VerifyError(self, f"needs a dense 'value' of the shape and element type of "
                                    f"its result {t}")


class StrideOp(Op):
    name = "grafo.stride"
    traits = frozenset({Pure})
    num_operands = 2
    num_results = 1

    @classmethod
    def infer(cls, operand_types, attributes):
        return [T.index]

    def verify(self) -> None:
        from ..ir.verifier import VerifyError
        super().verify()
        m, k = (v.type for v in self.operands)
        if not (isinstance(m, T.MemRefType) and k == T.index and self.result.type == T.index):
            raise VerifyError(self, f"needs a memref and an index dim and gives an index, "
                                    f"got ({m}, {k}) -> {self.result.type}")
