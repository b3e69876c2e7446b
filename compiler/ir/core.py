"""Core IR data structures in MLIR's model: operations, values, blocks and regions.

An ``Operation`` has operands (``Value`` s it uses), results, attributes and nested regions; a
``Region`` holds ``Block`` s, a block holds operations and block arguments. Every value keeps a
use list, so ``replace_all_uses_with`` is O(uses). Every operation carries a ``Location``
pointing at the Python source line and column it came from.

Operation kinds are subclasses of ``Operation`` registered by name (see ``opdef.py``); their
traits (``Pure``, ``Commutative`` ...) are what passes inspect.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator

from .. import types as T
from .attributes import Attribute, to_attr


@dataclass(frozen=True)
class Location:
    """A source position: file name, 1-based line, 1-based column (``loc("f.py":4:9)``).

    ``function`` names the Python function whose source it is (a helper's when inlined), for
    the traceback frames of run-time errors. MLIR's file-line-column location has no such
    field, so it is neither printed nor compared; parsed IR has "" there."""

    file: str = "-"
    line: int = 0
    col: int = 0
    function: str = field(default="", compare=False)

    def __str__(self) -> str:
        from .attributes import escape_string
        if self == UNKNOWN_LOC:
            return "loc(unknown)"
        return f'loc("{escape_string(self.file)}":{self.line}:{self.col})'


UNKNOWN_LOC = Location()


class Use:
    """One use of a value: operand number ``index`` of ``owner``."""

    __slots__ = ("owner", "index")

    def __init__(self, owner: "Operation", index: int):
        self.owner = owner
        self.index = index


class Value:
    """An SSA value with a type and a use list. Names are assigned by the printer."""

    def __init__(self, type: T.Type, name_hint: str | None = None):
        self.type = type
        self.uses: list[Use] = []
        self.name_hint = name_hint

    @property
    def has_uses(self) -> bool:
        return bool(self.uses)

    def users(self) -> list["Operation"]:
        return [u.owner for u in self.uses]

    def replace_all_uses_with(self, other: "Value") -> None:
        if other is self:
            return
        for use in list(self.uses):
            use.owner._set_operand(use.index, other)

    def owner_op(self) -> "Operation | None":
        return None


class OpResult(Value):
    def __init__(self, type: T.Type, op: "Operation", index: int):
        super().__init__(type)
        self.op = op
        self.index = index

    def owner_op(self) -> "Operation":
        return self.op


class BlockArgument(Value):
    def __init__(self, type: T.Type, block: "Block", index: int, name_hint=None):
        super().__init__(type, name_hint)
        self.block = block
        self.index = index


class Operation:
    """A generic operation. Subclasses set ``name`` and ``traits`` (see ``opdef.Op``)."""

    name: str = "builtin.unregistered"
    traits: frozenset = frozenset()

    def __init__(self, operands=(), result_types=(), attributes=None, regions=0,
                 loc: Location | None = None, successors=()):
        self._operands: list[Value] = []
        self.results = [OpResult(t, self, i) for i, t in enumerate(result_types)]
        self.attributes: dict[str, Attribute] = {
            k: to_attr(v) for k, v in (attributes or {}).items()}
        if isinstance(regions, int):
            regions = [Region() for _ in range(regions)]
        self.regions: list[Region] = []
        for r in regions:
            self.add_region(r)
        self.loc = loc or UNKNOWN_LOC
        self.parent: Block | None = None
        for v in operands:
            self._append_operand(v)

    # operands --------------------------------------------------------------
    @property
    def operands(self) -> tuple:
        return tuple(self._operands)

    def _append_operand(self, v: Value) -> None:
        if not isinstance(v, Value):
            raise TypeError(f"{self.name}: operand {v!r} is not an IR value")
        v.uses.append(Use(self, len(self._operands)))
        self._operands.append(v)

    def _set_operand(self, i: int, v: Value) -> None:
        old = self._operands[i]
        old.uses = [u for u in old.uses if not (u.owner is self and u.index == i)]
        self._operands[i] = v
        v.uses.append(Use(self, i))

    def set_operands(self, values) -> None:
        self.drop_operands()
        for v in values:
            self._append_operand(v)

    def drop_operands(self) -> None:
        for i, old in enumerate(self._operands):
            old.uses = [u for u in old.uses if not (u.owner is self and u.index == i)]
        self._operands = []

    # results / attributes ----------------------------------------------------
    @property
    def result(self) -> OpResult:
        assert len(self.results) == 1, f"{self.name} has {len(self.results)} results"
        return self.results[0]

    def attr(self, key: str, default=None):
        """The Python value of attribute ``key``."""
        from .attributes import attr_value
        a = self.attributes.get(key)
        return default if a is None else attr_value(a)

    # regions -----------------------------------------------------------------
    def add_region(self, r: "Region") -> "Region":
        r.parent = self
        self.regions.append(r)
        return r

    def has_trait(self, trait) -> bool:
        return trait in self.traits

    # structure ---------------------------------------------------------------
    def walk(self) -> Iterator["Operation"]:
        """Pre-order walk over this op and every op nested in its regions. A block's ops are
        listed when the walk reaches it, so ops may be erased or added behind the walk. An
        explicit stack, not recursion: nesting depth costs no Python frames."""
        yield self
        stack = [_nested_ops(self)]
        while stack:
            op = next(stack[-1], None)
            if op is None:
                stack.pop()
                continue
            yield op
            if op.regions:
                stack.append(_nested_ops(op))

    def walk_post(self) -> Iterator["Operation"]:
        """Post-order walk (nested ops before the op holding them), as ``walk`` lists them."""
        stack = [(self, _nested_ops(self))]
        while stack:
            op, ops = stack[-1]
            child = next(ops, None)
            if child is None:
                stack.pop()
                yield op
            else:
                stack.append((child, _nested_ops(child)))

    def parent_op(self) -> "Operation | None":
        if self.parent is None or self.parent.parent is None:
            return None
        return self.parent.parent.parent

    def is_ancestor_of(self, op: "Operation") -> bool:
        while op is not None:
            if op is self:
                return True
            op = op.parent_op()
        return False

    def erase(self) -> None:
        """Detach from the parent block and drop all operand uses (results must be unused)."""
        for r in self.results:
            if r.uses:
                raise ValueError(f"cannot erase {self.name}: its result still has uses")
        for nested in self.walk_post():
            nested.drop_operands()
        if self.parent is not None:
            self.parent.ops.remove(self)
            self.parent = None

    def detach(self) -> None:
        if self.parent is not None:
            self.parent.ops.remove(self)
            self.parent = None

    def replace_with(self, values) -> None:
        """Replace every use of this op's results by ``values`` and erase it."""
        for r, v in zip(self.results, values, strict=False):
            r.replace_all_uses_with(v)
        self.erase()

    def clone(self, mapping: dict | None = None) -> "Operation":
        """A deep copy; ``mapping`` maps old values to new ones and is extended."""
        mapping = {} if mapping is None else mapping
        new = object.__new__(type(self))
        Operation.__init__(new, [mapping.get(v, v) for v in self._operands],
                           [r.type for r in self.results], dict(self.attributes), 0, self.loc)
        new.__dict__.update({k: v for k, v in self.__dict__.items() if k not in new.__dict__})
        for old_r, new_r in zip(self.results, new.results, strict=False):
            mapping[old_r] = new_r
        for r in self.regions:
            new.add_region(r.clone(mapping))
        return new

    def verify(self) -> None:
        """Op-specific checks; raise ``VerifyError`` (see verifier.py)."""

    def fold(self, operands: list):
        """Constant folding: ``operands`` holds an Attribute for constant operands, else None.

        Return None (no fold), or a list with an Attribute or Value per result."""
        return None

    def int_range(self, range_of) -> tuple | None:
        """(low, high) bounds of the integer result, given ``range_of(value)``: an operand's
        bounds or None. None when unknown. MLIR's ``InferIntRangeInterface``; read by
        ``ranges.value_range``."""
        return None

    def __repr__(self) -> str:
        from .printer import print_op
        return print_op(self)


class Block:
    """A list of operations with typed block arguments."""

    def __init__(self, arg_types=(), arg_names=None):
        self.args: list[BlockArgument] = []
        self.ops: list[Operation] = []
        self.parent: Region | None = None
        for i, t in enumerate(arg_types):
            self.add_arg(t, arg_names[i] if arg_names else None)

    def add_arg(self, t: T.Type, name: str | None = None) -> BlockArgument:
        a = BlockArgument(t, self, len(self.args), name)
        self.args.append(a)
        return a

    def erase_arg(self, i: int) -> None:
        a = self.args.pop(i)
        if a.uses:
            raise ValueError("cannot erase a block argument that has uses")
        for j, b in enumerate(self.args):
            b.index = j

    def append(self, op: Operation) -> Operation:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, i: int, op: Operation) -> Operation:
        op.parent = self
        self.ops.insert(i, op)
        return op

    def insert_before(self, anchor: Operation, op: Operation) -> Operation:
        return self.insert(self.ops.index(anchor), op)

    @property
    def terminator(self) -> Operation | None:
        return self.ops[-1] if self.ops else None

    def parent_op(self) -> Operation | None:
        return self.parent.parent if self.parent else None

    def clone(self, mapping: dict) -> "Block":
        b = Block()
        for a in self.args:
            mapping[a] = b.add_arg(a.type, a.name_hint)
        for op in self.ops:
            b.append(op.clone(mapping))
        return b


class Region:
    """A list of blocks owned by an operation."""

    def __init__(self, blocks=()):
        self.blocks: list[Block] = []
        self.parent: Operation | None = None
        for b in blocks:
            self.add_block(b)

    def add_block(self, b: Block) -> Block:
        b.parent = self
        self.blocks.append(b)
        return b

    @property
    def block(self) -> Block:
        """The entry block (created on first access of an empty region)."""
        if not self.blocks:
            self.add_block(Block())
        return self.blocks[0]

    def clone(self, mapping: dict) -> "Region":
        return Region([b.clone(mapping) for b in self.blocks])


def _nested_ops(op: Operation) -> Iterator[Operation]:
    """The ops directly inside ``op``'s regions, each block's listed when reached."""
    for r in op.regions:
        for b in r.blocks:
            yield from list(b.ops)
