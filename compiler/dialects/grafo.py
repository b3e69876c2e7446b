"""The ``grafo`` dialect: run-time effects that have no upstream MLIR op.

- ``grafo.check(%ok, %params...) {kind, message}``: if ``%ok`` (i1) is false, the compiled
  function stops and the caller raises Python exception ``kind`` (e.g. "IndexError") with
  ``message`` formatted by ``str.format`` from the i64 ``%params``; the error names the source
  location of this op. Never removed by DCE.
"""

from ..ir.opdef import Op


class CheckOp(Op):
    name = "grafo.check"
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []
