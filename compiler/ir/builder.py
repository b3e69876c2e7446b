"""``Builder``: creates operations at an insertion point (end of a block, or before an op)."""

from __future__ import annotations

from contextlib import contextmanager

from .core import Block, Location, Operation


class Builder:
    """Inserts new ops into ``block`` (at the end, or before ``before``) with location ``loc``."""

    def __init__(self, block: Block | None = None, before: Operation | None = None,
                 loc: Location | None = None):
        self.block = block
        self.before = before
        self.loc = loc

    def insert(self, op: Operation) -> Operation:
        if op.loc.line == 0 and self.loc is not None:
            op.loc = self.loc
        if self.before is not None:
            self.block.insert_before(self.before, op)
        else:
            self.block.append(op)
        return op

    def create(self, op_cls, operands=(), attributes=None, result_types=None, regions=None,
               loc=None) -> Operation:
        """Build an op of kind ``op_cls`` (result types inferred if omitted) and insert it."""
        op = op_cls.build(list(operands), attributes, result_types, regions, loc or self.loc)
        return self.insert(op)

    @contextmanager
    def at_end(self, block: Block):
        """Temporarily insert at the end of ``block``."""
        saved = self.block, self.before
        self.block, self.before = block, None
        try:
            yield self
        finally:
            self.block, self.before = saved

    @contextmanager
    def at_loc(self, loc: Location):
        saved = self.loc
        self.loc = loc
        try:
            yield self
        finally:
            self.loc = saved
