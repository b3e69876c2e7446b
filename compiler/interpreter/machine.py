"""The interpreter: runs a loop-level module's functions op by op, each op by the rule of its
class (``registry.RULES``; a subclass may override some in ``rules``)."""

from __future__ import annotations

import numpy as np

from .. import types as T
from ..dialects import func, scf
from .registry import RULES
from .values import Buffer, UndefinedBehavior, scalar, storage_dtype

# Terminators hand their operands to the op running the block.
_TERMINATORS = (scf.YieldOp, scf.ConditionOp, func.ReturnOp)


class Interpreter:
    """Runs functions of a loop-level module. ``allocated`` / ``freed`` count buffers."""

    rules = RULES

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
        ins = [_arg(a, t) for a, t in zip(args, fn.function_type.inputs, strict=True)]
        results = self.run_function(fn, ins)
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

    def run_function(self, fn, args: list) -> list:
        """The results of ``func.func`` ``fn`` on interpreter values ``args``."""
        return self.run_block(fn.body, args, {})

    def run_block(self, block, args: list, env: dict) -> list:
        """Bind ``block``'s arguments to ``args`` in ``env`` and run its ops; the values its
        terminator hands on (none if it has none)."""
        for a, v in zip(block.args, args, strict=True):
            env[a] = v
        for op in block.ops:
            if isinstance(op, _TERMINATORS):
                return [env[v] for v in op.operands]
            for r, v in zip(op.results, self.evaluate(op, env), strict=True):
                env[r] = v
        return []

    def evaluate(self, op, env: dict) -> list:
        """The result values of ``op`` (not a terminator), its operands' values read from
        ``env``. Raises ``UndefinedBehavior`` for an op without a rule."""
        xs = [env[v] for v in op.operands]
        rule = self.rules.get(type(op))
        if rule is None:
            raise UndefinedBehavior(f"the interpreter does not know {op.name}")
        return rule(self, op, xs, env)


def _arg(a, t: T.Type):
    if isinstance(t, T.MemRefType):
        arr = np.asarray(a)
        dt = storage_dtype(t.element)
        return Buffer(arr.view(dt) if arr.dtype != dt else arr, owned=False)
    return scalar(t, a)


def run(module, name: str, *args) -> list:
    """Interpret function ``name`` of loop-level ``module`` on ``args`` (see
    ``Interpreter.call``)."""
    return Interpreter(module).call(name, *args)
