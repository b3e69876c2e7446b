"""The ``builtin`` dialect: the top-level module."""

from ..ir.opdef import IsolatedFromAbove, Op


class ModuleOp(Op):
    """``builtin.module``: one region with one block holding functions."""

    name = "builtin.module"
    traits = frozenset({IsolatedFromAbove})
    num_operands = 0
    num_results = 0
    num_regions = 1

    @classmethod
    def empty(cls) -> "ModuleOp":
        m = cls.build()
        m.regions[0].block  # noqa: B018  (creates the body block)
        return m

    @property
    def body(self):
        return self.regions[0].block

    def functions(self) -> list:
        return [op for op in self.body.ops if op.name == "func.func"]

    def lookup(self, sym: str):
        for f in self.functions():
            if f.attr("sym_name") == sym:
                return f
        return None
