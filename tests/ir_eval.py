"""A tiny reference evaluator of tensor-level IR for frontend tests: ``np`` ops run their
NumPy ``evaluate`` rules, ``scf`` ops run as Python control flow."""

import numpy as np

from compiler import types as T
from compiler.dialects import func, grafo, scf
from compiler.dialects import np as npd

_TERMINATORS = (func.ReturnOp, scf.YieldOp, scf.ConditionOp)
_EFFECTS = (npd.WriteBackOp, grafo.CheckOp, grafo.PrintOp)   # no result, nothing to compute


def run(module, *args):
    """Evaluate the module's single function on ``args``; returns a value or a tuple."""
    fn = module.functions()[0]
    env = dict(zip(fn.body.args, args, strict=True))
    out = _block(fn.body, env)
    return tuple(out) if func.RESULT_TUPLE in fn.attributes else (out[0] if out else None)


def _block(block, env):
    for op in block.ops:
        if isinstance(op, _TERMINATORS):
            return [env[v] for v in op.operands]
        vals = [env[v] for v in op.operands]
        if isinstance(op, scf.IfOp):
            res = _block(op.regions[0 if vals[0] else 1].block, env)
        elif isinstance(op, scf.ForOp):
            lb, ub, step, *carried = vals
            for iv in range(int(lb), int(ub), int(step)):
                env.update(zip(op.body.args, [iv, *carried], strict=True))
                carried = _block(op.body, env)
            res = carried
        elif isinstance(op, scf.WhileOp):
            carried = vals
            while True:
                env.update(zip(op.before.args, carried, strict=True))
                cond, *carried = _block(op.before, env)
                if not cond:
                    break
                env.update(zip(op.after.args, carried, strict=True))
                carried = _block(op.after, env)
            res = carried
        elif isinstance(op, npd.ConstantOp):
            res = [op.value]
        elif isinstance(op, _EFFECTS):
            res = []
        else:
            res = [_fix(op.evaluate(*vals), op.result.type)]
        env.update(zip(op.results, res, strict=True))
    raise AssertionError("block without terminator")


def _fix(v, t):
    """Scalars as the NumPy / Python scalar types the result type names."""
    if isinstance(t, T.TensorType):
        return np.asarray(v, dtype=T.to_dtype(t))
    if T.is_weak(t):
        return {"int": int, "float": float, "bool": bool}[t.kind](v)
    return T.to_dtype(t).type(v)
