"""The ``scf`` dialect (upstream MLIR semantics): structured control flow.

- ``scf.if(%cond) ({then}, {else}) -> results``: both regions end in ``scf.yield``.
- ``scf.for(%lb, %ub, %step, %init...) ({^bb0(%iv, %iter...): ... scf.yield})``: the bounds
  are ``index`` or signless integers of one type; results are the final iter values. The
  discardable unit attribute ``grafo.parallel`` marks a loop whose iterations are independent
  (run on threads by the CPU backend); the integer attribute ``grafo.work`` on such a loop
  gives the elements one iteration processes (else the backend counts nested loops).
- ``scf.while(%init...) ({before: ... scf.condition(%c, %args...)}, {after: ... scf.yield})``.
"""

from ..ir.core import Block
from ..ir.opdef import Op, Pure, Terminator


class YieldOp(Op):
    name = "scf.yield"
    traits = frozenset({Terminator, Pure})
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class ConditionOp(Op):
    """``scf.condition(%cond, %args...)``: ends the ``before`` region of ``scf.while``."""

    name = "scf.condition"
    traits = frozenset({Terminator, Pure})
    num_results = 0

    @classmethod
    def infer(cls, operand_types, attributes):
        return []


class IfOp(Op):
    name = "scf.if"
    num_operands = 1
    num_regions = 2

    @classmethod
    def create(cls, cond, result_types, loc=None) -> "IfOp":
        op = cls.build([cond], {}, list(result_types), loc=loc)
        for r in op.regions:
            r.add_block(Block())
        return op

    @property
    def then_block(self) -> Block:
        return self.regions[0].block

    @property
    def else_block(self) -> Block:
        return self.regions[1].block


class ForOp(Op):
    name = "scf.for"
    num_regions = 1

    @classmethod
    def create(cls, lb, ub, step, inits=(), loc=None) -> "ForOp":
        op = cls.build([lb, ub, step, *inits], {}, [v.type for v in inits], loc=loc)
        op.regions[0].add_block(Block([lb.type] + [v.type for v in inits]))
        return op

    @property
    def body(self) -> Block:
        return self.regions[0].block

    @property
    def induction_var(self):
        return self.body.args[0]

    @property
    def iter_inits(self) -> tuple:
        return self.operands[3:]


class WhileOp(Op):
    name = "scf.while"
    num_regions = 2

    @classmethod
    def create(cls, inits, after_types=None, loc=None) -> "WhileOp":
        types = [v.type for v in inits]
        after_types = types if after_types is None else list(after_types)
        op = cls.build(list(inits), {}, after_types, loc=loc)
        op.regions[0].add_block(Block(types))
        op.regions[1].add_block(Block(after_types))
        return op

    @property
    def before(self) -> Block:
        return self.regions[0].block

    @property
    def after(self) -> Block:
        return self.regions[1].block
