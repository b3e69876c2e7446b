"""Declarative operation definitions: traits, the op registry and the ``Op`` base class.

An op kind is a small subclass of ``Op`` naming itself (``name = "arith.addf"``), its traits,
its operand/result/region counts and, where it has them, a type-inference rule
(``infer``), a ``verify`` and a ``fold``. Defining the class registers it by name; the parser
and passes find ops only through this registry and their traits.
"""

from __future__ import annotations

from .core import Operation

OPS: dict[str, type] = {}


class Trait:
    """A property of an op kind that passes may rely on."""

    def __init__(self, name: str):
        self.name = name

    def __repr__(self) -> str:
        return self.name


Pure = Trait("Pure")                    # no side effects: removable when unused, CSE-able
Commutative = Trait("Commutative")      # operands may be reordered
Elementwise = Trait("Elementwise")      # applies a scalar function per element (fusible)
Terminator = Trait("Terminator")        # ends a block
ConstantLike = Trait("ConstantLike")    # materializes its ``value`` attribute
IsolatedFromAbove = Trait("IsolatedFromAbove")  # regions use no outer values
Reduction = Trait("Reduction")          # reduces over ``axes``
ReadOnly = Trait("ReadOnly")            # reads memory, writes none (not CSE-safe across writes)


class Op(Operation):
    """Base of declared op kinds. Class attributes describe the kind:

    - ``name``: dialect-qualified name, e.g. ``"np.add"``.
    - ``traits``: a frozenset of ``Trait`` s.
    - ``num_operands`` / ``num_results`` / ``num_regions``: exact counts, or None if variadic.
    - ``infer(operand_types, attributes) -> list[Type]``: result types from operands, raising
      ``TypeError`` with a user-facing message when the operands are invalid.
    - ``default_properties``: properties upstream MLIR prints for the op when it holds their
      default value (``fastmath = #arith.fastmath<none>``); they mean what their absence means,
      so the parser drops them.
    """

    num_operands: int | None = None
    num_results: int | None = None
    num_regions: int = 0
    default_properties: dict = {}

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        if "name" in cls.__dict__:
            if cls.name in OPS:
                raise ValueError(f"op {cls.name} is defined twice")
            OPS[cls.name] = cls

    @classmethod
    def infer(cls, operand_types: list, attributes: dict) -> list:
        if cls.num_results == 0:
            return []
        raise NotImplementedError(f"{cls.name} needs explicit result types")

    @classmethod
    def build(cls, operands=(), attributes=None, result_types=None, regions=None, loc=None):
        """Create an op, inferring result types when none are given."""
        attributes = dict(attributes or {})
        if result_types is None:
            from .attributes import attr_value, to_attr
            plain = {k: attr_value(to_attr(v)) for k, v in attributes.items()}
            result_types = cls.infer([v.type for v in operands], plain)
        if regions is None:
            regions = cls.num_regions
        return cls(operands, result_types, attributes, regions, loc)

    def properties(self) -> dict:
        """Inherent attributes that MLIR keeps as properties and this op derives from its
        operands (``operandSegmentSizes``); printed as ``<{...}>``, not stored."""
        return {}

    def verify(self) -> None:
        from .verifier import VerifyError
        for what, want, have in (("operands", self.num_operands, len(self.operands)),
                                 ("results", self.num_results, len(self.results)),
                                 ("regions", self.num_regions, len(self.regions))):
            if want is not None and want != have:
                raise VerifyError(self, f"expects {want} {what}, has {have}")


def lookup(name: str) -> type | None:
    """The op class registered under ``name`` (dialect modules are imported first)."""
    from .. import dialects  # noqa: F401  (registers every dialect)
    return OPS.get(name)
