"""The ``scf`` dialect (upstream MLIR semantics): structured control flow.

- ``scf.if(%cond) ({then}, {else}) -> results``: both regions end in ``scf.yield``.
- ``scf.for(%lb, %ub, %step, %init...) ({^bb0(%iv, %iter...): ... scf.yield})``: the bounds
  are ``index`` or signless integers of one type; results are the final iter values. The
  discardable unit attribute ``grafo.parallel`` marks a loop whose iterations are independent
  (run on threads by the CPU backend); the integer attribute ``grafo.work`` on such a loop
  gives the elements one iteration processes (else the backend counts nested loops).
- ``scf.while(%init...) ({before: ... scf.condition(%c, %args...)}, {after: ... scf.yield})``.
"""

from ..ir.constraints import (
    I1,
    IntOrIndex,
    LoopScalar,
    Unit,
    ValueType,
    Variadic,
    int_attr,
    named,
    opt_attr,
)
from ..ir.core import Block
from ..ir.opdef import CountedLoop, Op, Pure, Terminator, register_ops


def _types(values) -> list:
    return [v.type for v in values]


def _text(types) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


def _single_block(op, k: int, what: str) -> Block:
    """The one block of region ``k`` of ``op`` (``what`` names the region in errors)."""
    from ..ir.verifier import VerifyError
    blocks = op.regions[k].blocks
    if len(blocks) != 1:
        raise VerifyError(op, f"needs one block in its {what} region, has {len(blocks)}")
    return blocks[0]


def _verify_region(op, k: int, what: str, args: list, terminator: type, values: list) -> None:
    """Region ``k`` of ``op``: one block with arguments of the types ``args``, ending in a
    ``terminator`` whose forwarded operands have the types ``values``."""
    from ..ir.verifier import VerifyError
    block = _single_block(op, k, what)
    if _types(block.args) != list(args):
        raise VerifyError(op, f"{what} region takes arguments {_text(_types(block.args))}, "
                              f"expected {_text(args)}")
    term = block.ops[-1] if block.ops else None
    if not isinstance(term, terminator):
        raise VerifyError(op, f"{what} region must end with '{terminator.name}'")
    forwarded = term.args if terminator is ConditionOp else term.values
    if _types(forwarded) != list(values):
        raise VerifyError(term, f"forwards {_text(_types(forwarded))}, but the enclosing "
                                f"'{op.name}' expects {_text(values)}")


class YieldOp(Op):
    """``scf.yield``: ends a region of ``scf.if``, ``scf.for`` or ``scf.while`` (whose
    verifier checks the yielded types)."""

    name = "scf.yield"
    traits = frozenset({Terminator, Pure})
    operand_defs = named(values=Variadic(ValueType))
    result_defs = ()

    @classmethod
    def infer(cls, operand_types, attributes):
        return []

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        if not isinstance(self.parent_op(), (IfOp, ForOp, WhileOp)):
            raise VerifyError(self, "must be in a region of 'scf.if', 'scf.for' or "
                                    "'scf.while'")


class ConditionOp(Op):
    """``scf.condition(%cond, %args...)``: ends the ``before`` region of ``scf.while``."""

    name = "scf.condition"
    traits = frozenset({Terminator, Pure})
    operand_defs = named(condition=I1, args=Variadic(ValueType))
    result_defs = ()

    @classmethod
    def infer(cls, operand_types, attributes):
        return []

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        parent = self.parent_op()
        if not (isinstance(parent, WhileOp) and parent.regions[0] is self.parent.parent):
            raise VerifyError(self, "must end the 'before' region of 'scf.while'")


class IfOp(Op):
    name = "scf.if"
    operand_defs = named(condition=I1)
    result_defs = (Variadic(ValueType),)
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

    def verify(self):
        super().verify()
        types = _types(self.results)
        _verify_region(self, 0, "then", [], YieldOp, types)
        _verify_region(self, 1, "else", [], YieldOp, types)


# Loop hints: discardable attributes of ``scf.for`` (``POLL`` also of ``scf.while``) that
# lowering and the passes set and the backends read (meanings in ``ForOp``'s docstring).
PARALLEL = "grafo.parallel"
INDEPENDENT = "grafo.independent"
SERIAL_OUTLINED = "grafo.serial_outlined"
NO_UNROLL = "grafo.no_unroll"
MATMUL = "grafo.matmul"
WORK = "grafo.work"
LANES = "grafo.lanes"
POLL = "grafo.poll"
TASKS = "grafo.tasks"


class ForOp(Op):
    """Discardable attributes (loop hints of lowering and the backends): ``grafo.parallel``,
    ``grafo.independent``, ``grafo.serial_outlined``, ``grafo.no_unroll``, ``grafo.matmul``,
    ``grafo.tasks`` (a task group: iteration ``k`` runs task ``k``, ``passes/task_groups.py``)
    (units), ``grafo.work`` (elements per iteration, >= 0), ``grafo.poll`` (>= 1: poll the
    interrupt flag every that many iterations, ``passes/interrupt_polls.py``) and
    ``grafo.lanes`` (>= 1, a divisor of the number of iteration values, each group of that
    many of one scalar type)."""

    name = "scf.for"
    traits = frozenset({CountedLoop})
    operand_defs = named(lower=IntOrIndex, upper=IntOrIndex, step=IntOrIndex,
                         inits=Variadic(ValueType))
    result_defs = (Variadic(ValueType),)
    num_regions = 1
    attr_defs = {**dict.fromkeys((PARALLEL, INDEPENDENT, SERIAL_OUTLINED, NO_UNROLL, MATMUL,
                                  TASKS), opt_attr(Unit)),
                 WORK: opt_attr(int_attr(0)), LANES: opt_attr(int_attr(1)),
                 POLL: opt_attr(int_attr(1))}

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
        return self.inits

    def verify(self):
        super().verify()
        from ..ir.verifier import VerifyError
        lb, ub, step = _types((self.lower, self.upper, self.step))
        if not lb == ub == step:
            raise VerifyError(self, f"needs bounds and step of one type, got {lb}, {ub}, "
                                    f"{step}")
        inits, types = _types(self.iter_inits), _types(self.results)
        if inits != types:
            raise VerifyError(self, f"iteration values {_text(inits)} differ from its results "
                                    f"{_text(types)}")
        _verify_region(self, 0, "body", [lb, *types], YieldOp, types)
        lanes = self.attr(LANES)
        if lanes is not None and (len(types) % lanes or any(
                len(set(types[g:g + lanes])) != 1 or not LoopScalar.accepts(types[g])
                for g in range(0, len(types), lanes))):
            raise VerifyError(self, f"'{LANES}' = {lanes} needs iteration values in "
                                    f"groups of {lanes} scalars of one type, got "
                                    f"{_text(types)}")


class WhileOp(Op):
    """Discardable attribute ``grafo.poll`` (>= 1): poll the interrupt flag every that many
    iterations (``passes/interrupt_polls.py``)."""

    name = "scf.while"
    operand_defs = named(inits=Variadic(ValueType))
    result_defs = (Variadic(ValueType),)
    num_regions = 2
    attr_defs = {POLL: opt_attr(int_attr(1))}

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

    def verify(self):
        super().verify()
        inits, types = _types(self.inits), _types(self.results)
        _verify_region(self, 0, "before", inits, ConditionOp, types)
        _verify_region(self, 1, "after", types, YieldOp, inits)


register_ops("scf", (YieldOp, ConditionOp, IfOp, ForOp, WhileOp))
