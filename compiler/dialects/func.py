"""The ``func`` dialect (upstream MLIR semantics): ``func.func``, ``func.return``,
``func.call``."""

from .. import types as T
from ..ir.attributes import StringAttr, SymbolRefAttr, TypeAttr
from ..ir.core import Block
from ..ir.opdef import IsolatedFromAbove, Op, Terminator


class FuncOp(Op):
    """``func.func`` with attributes ``sym_name`` and ``function_type``; one region."""

    name = "func.func"
    traits = frozenset({IsolatedFromAbove})
    num_operands = 0
    num_results = 0
    num_regions = 1

    @classmethod
    def create(cls, name: str, ftype: T.FunctionType, arg_names=None, loc=None) -> "FuncOp":
        op = cls.build([], {"sym_name": StringAttr(name), "function_type": TypeAttr(ftype)},
                       [], loc=loc)
        op.regions[0].add_block(Block(ftype.inputs, arg_names))
        return op

    @property
    def sym_name(self) -> str:
        return self.attr("sym_name")

    @property
    def function_type(self) -> T.FunctionType:
        return self.attr("function_type")

    @property
    def body(self) -> Block:
        return self.regions[0].block

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        ft = self.function_type
        if not isinstance(ft, T.FunctionType):
            raise VerifyError(self, "requires a 'function_type' attribute of function type")
        if [a.type for a in self.body.args] != list(ft.inputs):
            raise VerifyError(self, "entry block arguments do not match the function type")
        term = self.body.terminator
        if term is None or term.name != "func.return":
            raise VerifyError(self, "body must end with func.return")
        if [v.type for v in term.operands] != list(ft.results):
            raise VerifyError(term, "operand types do not match the function's result types")


class ReturnOp(Op):
    name = "func.return"
    traits = frozenset({Terminator})
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class CallOp(Op):
    """``func.call`` of ``callee`` (a symbol reference); result types are explicit."""

    name = "func.call"
    traits = frozenset()

    @property
    def callee(self) -> str:
        a = self.attributes["callee"]
        return a.value if isinstance(a, SymbolRefAttr) else str(a)

    def verify(self):
        """As upstream: ``callee`` is a symbol reference (``@g``) to a function of the
        enclosing module whose type matches the operands and results."""
        super().verify()
        from ..ir.verifier import VerifyError
        callee = self.attributes.get("callee")
        if not isinstance(callee, SymbolRefAttr):
            raise VerifyError(self, "requires a 'callee' symbol reference attribute (@name)")
        module = self.parent_op()
        while module is not None and module.name != "builtin.module":
            module = module.parent_op()
        if module is None:
            return
        target = module.lookup(callee.value)
        if target is None:
            raise VerifyError(self, f"'{callee}' does not reference a function of the module")
        ft = target.function_type
        if [v.type for v in self.operands] != list(ft.inputs) or \
                [r.type for r in self.results] != list(ft.results):
            raise VerifyError(self, f"operand and result types do not match the type {ft} of "
                                    f"'{callee}'")
