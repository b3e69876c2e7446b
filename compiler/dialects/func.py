"""The ``func`` dialect (upstream MLIR semantics): ``func.func``, ``func.return``,
``func.call``."""

from runtime import results as R

from .. import types as T
from ..ir.attributes import StringAttr, SymbolRefAttr, TypeAttr
from ..ir.constraints import (
    FunctionTypeAttr,
    SymbolRef,
    Unit,
    ValueType,
    Variadic,
    array_of,
    attr,
    named,
    opt_attr,
    str_attr,
)
from ..ir.core import Block
from ..ir.opdef import FunctionLike, IsolatedFromAbove, Op, Terminator, register_ops

# The frontend's attributes of ``func.func`` (meanings in ``FuncOp``'s docstring).
RESULT_TUPLE = "grafo.result_tuple"
RESULT_STRUCTURE = "grafo.result_structure"
GLOBALS = "grafo.globals"


class FuncOp(Op):
    """``func.func`` with attributes ``sym_name`` and ``function_type``; one region of one
    block, directly in a ``builtin.module``. The frontend's attributes (docs/architecture.md):
    ``grafo.result_tuple`` (unit), ``grafo.result_structure`` (a structure string of
    ``runtime.results`` taking the results that are not globals), ``grafo.globals``
    (``"module:name"`` strings, one per trailing hidden result)."""

    name = "func.func"
    traits = frozenset({IsolatedFromAbove, FunctionLike})
    operand_defs = ()
    result_defs = ()
    num_regions = 1
    attr_defs = {"sym_name": attr(str_attr()), "function_type": attr(FunctionTypeAttr),
                 RESULT_TUPLE: opt_attr(Unit), RESULT_STRUCTURE: opt_attr(str_attr()),
                 GLOBALS: opt_attr(array_of(str_attr()))}

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
        from .builtin import ModuleOp
        parent = self.parent_op()
        if parent is not None and not isinstance(parent, ModuleOp):
            raise VerifyError(self, "must be directly in a 'builtin.module'")
        ft = self.function_type
        for t in (*ft.inputs, *ft.results):
            if not ValueType.accepts(t):
                raise VerifyError(self, f"function type {ft} holds {t}, which is not "
                                        f"{ValueType}")
        if len(self.regions[0].blocks) != 1:
            raise VerifyError(self, f"needs one block in its body, has "
                                    f"{len(self.regions[0].blocks)}")
        self._verify_frontend_attributes()
        if [a.type for a in self.body.args] != list(ft.inputs):
            raise VerifyError(self, "entry block arguments do not match the function type")
        term = self.body.terminator
        if not isinstance(term, ReturnOp):
            raise VerifyError(self, "body must end with func.return")
        if [v.type for v in term.values] != list(ft.results):
            raise VerifyError(term, "operand types do not match the function's result types")

    def _verify_frontend_attributes(self) -> None:
        from ..ir.verifier import VerifyError
        names = self.attr(GLOBALS, ())
        bad = next((k for k in names if not all(k.partition(":"))), None)
        if bad is not None:
            raise VerifyError(self, f"'{GLOBALS}' entry '{bad}' is not 'module:name'")
        own = len(self.function_type.results) - len(names)
        if own < 0:
            raise VerifyError(self, f"'{GLOBALS}' names {len(names)} globals, but the "
                                    f"function has {own + len(names)} results")
        structure = self.attr(RESULT_STRUCTURE)
        if structure is None:
            return
        try:
            n = R.count(R.parse(structure))
        except ValueError as e:
            raise VerifyError(self, f"'{RESULT_STRUCTURE}': {e}") from None
        if n != own:
            raise VerifyError(self, f"'{RESULT_STRUCTURE}' \"{structure}\" takes {n} "
                                    f"results, the function has {own}")


class ReturnOp(Op):
    """Ends the body of ``func.func`` (which checks the returned types)."""

    name = "func.return"
    traits = frozenset({Terminator})
    operand_defs = named(values=Variadic(ValueType))
    result_defs = ()

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class CallOp(Op):
    """``func.call`` of ``callee`` (a symbol reference); result types are explicit."""

    name = "func.call"
    traits = frozenset()
    operand_defs = named(args=Variadic(ValueType))
    result_defs = (Variadic(ValueType),)
    attr_defs = {"callee": attr(SymbolRef)}

    @property
    def callee(self) -> str:
        a = self.attributes["callee"]
        return a.value if isinstance(a, SymbolRefAttr) else str(a)

    def verify(self):
        """As upstream: ``callee`` is a symbol reference (``@g``) to a function of the
        enclosing module whose type matches the operands and results."""
        super().verify()
        from ..ir.verifier import VerifyError
        from .builtin import ModuleOp
        callee = self.attributes["callee"]
        module = self.parent_op()
        while module is not None and not isinstance(module, ModuleOp):
            module = module.parent_op()
        if module is None:
            return
        target = module.lookup(callee.value)
        if target is None:
            raise VerifyError(self, f"'{callee}' does not reference a function of the module")
        ft = target.function_type
        if [v.type for v in self.args] != list(ft.inputs) or \
                [r.type for r in self.results] != list(ft.results):
            raise VerifyError(self, f"operand and result types do not match the type {ft} of "
                                    f"'{callee}'")


register_ops("func", (FuncOp, ReturnOp, CallOp))
