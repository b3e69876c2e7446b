"""The ``builtin`` dialect: the top-level module."""

from ..ir.opdef import IsolatedFromAbove, Op, register_ops
from .func import FuncOp


class ModuleOp(Op):
    """``builtin.module``: one region with one block holding functions (of distinct names)."""

    name = "builtin.module"
    traits = frozenset({IsolatedFromAbove})
    operand_defs = ()
    result_defs = ()
    num_regions = 1

    @classmethod
    def empty(cls) -> "ModuleOp":
        m = cls.build()
        m.regions[0].block  # noqa: B018  (creates the body block)
        return m

    @property
    def body(self):
        return self.regions[0].block

    def verify(self) -> None:
        super().verify()
        from ..ir.verifier import VerifyError
        if len(self.regions[0].blocks) != 1:
            raise VerifyError(self, f"requires one block in its region, has "
                                    f"{len(self.regions[0].blocks)} (an empty module is "
                                    f"written with the block label ^bb0:)")
        names = set()
        for op in self.functions():
            name = op.attributes.get("sym_name")
            if name in names:
                raise VerifyError(op, f"redefines the function @{op.attr('sym_name')}")
            names.add(name)

    def functions(self) -> list:
        return [op for op in self.body.ops if isinstance(op, FuncOp)]

    def lookup(self, sym: str):
        for f in self.functions():
            if f.attr("sym_name") == sym:
                return f
        return None


register_ops("builtin", (ModuleOp,))
