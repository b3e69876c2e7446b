"""Declarative operation definitions: traits, the op registry and the ``Op`` base class.

An op kind is a small subclass of ``Op`` naming itself (``name = "arith.addf"``), its traits,
its operands, results and attributes with their constraints and accessor names
(``constraints.py``), its regions and, where it has them, a type-inference rule (``infer``), a
``verify`` and a ``fold``. Each dialect module registers its kinds by name (``register_ops``,
at the end of the module) when it is imported; ``compiler.dialects`` imports every dialect and
``import compiler`` imports that package. The parser and the verifier find kinds by name
through this registry (``lookup``).
"""

from __future__ import annotations

from .. import types as T
from .accessors import add_accessors
from .constraints import AttrDef, Variadic
from .core import Operation

OPS: dict[str, type] = {}   # op name -> op class, filled by the dialects (``register_ops``)


def register_ops(namespace: str, ops) -> dict[str, type]:
    """Register the op classes ``ops`` of dialect ``namespace`` under their names; returns
    them by name. Raises ValueError for a name outside ``namespace.`` or taken by another
    class."""
    out = {}
    for cls in ops:
        if not cls.name.startswith(namespace + "."):
            raise ValueError(f"op {cls.name} is not in the '{namespace}' namespace")
        if OPS.setdefault(cls.name, cls) is not cls:
            raise ValueError(f"op {cls.name} is defined twice")
        out[cls.name] = cls
    return out


def lookup(name: str) -> type | None:
    """The op class registered under ``name``, None if no imported dialect defines it."""
    return OPS.get(name)


class Trait:
    """A property of an op kind that passes may rely on. ``verify(op)``, when given, checks
    that an op of the kind has the property (raising ``VerifyError``)."""

    def __init__(self, name: str, verify=None):
        self.name = name
        self.verify = verify

    def __repr__(self) -> str:
        return self.name


def _same_types(op, values, what: str) -> None:
    if len({v.type for v in values}) > 1:
        from .verifier import VerifyError
        raise VerifyError(op, f"requires the same type for all {what}, got "
                              + ", ".join(str(v.type) for v in values))


def _inferred_types(op) -> None:
    """The result types are those ``infer`` gives, up to dynamic dims (``types.compatible``)."""
    from .attributes import attr_value
    from .verifier import VerifyError
    plain = {k: attr_value(op.attributes[k]) for k in op.attr_defs if k in op.attributes}
    try:
        want = type(op).infer([v.type for v in op.operands], plain)
    except (TypeError, ValueError, IndexError) as e:
        raise VerifyError(op, str(e)) from None
    have = [r.type for r in op.results]
    if len(want) != len(have) or not all(T.compatible(h, w) for h, w in zip(have, want,
                                                                           strict=False)):
        raise VerifyError(op, f"result type {', '.join(map(str, have))} does not match the "
                              f"inferred {', '.join(map(str, want))}")


Pure = Trait("Pure")                    # no side effects: removable when unused, CSE-able
Commutative = Trait("Commutative")      # operands may be reordered
Elementwise = Trait("Elementwise")      # applies a scalar function per element (fusible)
Terminator = Trait("Terminator")        # ends a block
ConstantLike = Trait("ConstantLike")    # materializes its ``value`` attribute
IsolatedFromAbove = Trait("IsolatedFromAbove")  # regions use no outer values
Reduction = Trait("Reduction")          # reduces over ``axes``
ReadOnly = Trait("ReadOnly")            # reads memory, writes none (not CSE-safe across writes)
TensorLevel = Trait("TensorLevel")      # NumPy-semantics ops on tensors (lowered to loops)
SameOperandsAndResultType = Trait("SameOperandsAndResultType", lambda op: _same_types(
    op, (*op.operands, *op.results), "operands and results"))
SameTypeOperands = Trait("SameTypeOperands", lambda op: _same_types(op, op.operands,
                                                                      "operands"))
InferredTypes = Trait("InferredTypes", _inferred_types)  # results as ``infer`` gives them
# An integer cast that sign-extends: it keeps the signed value unless its result is narrower.
SignExtendingCast = Trait("SignExtendingCast")
# A loop with operands ``lower``, ``upper``, ``step`` whose body's first argument runs from
# lower to upper (exclusive) by step (MLIR's ``LoopLikeOpInterface``, one induction variable).
CountedLoop = Trait("CountedLoop")
# A function: ``sym_name`` names it (MLIR's ``FunctionOpInterface``).
FunctionLike = Trait("FunctionLike")


class Op(Operation):
    """Base of declared op kinds. Class attributes describe the kind:

    - ``name``: dialect-qualified name, e.g. ``"np.add"``.
    - ``traits``: a frozenset of ``Trait`` s.
    - ``num_operands`` / ``num_results`` / ``num_regions``: exact counts, or None if variadic.
    - ``operand_defs`` / ``result_defs``: a type constraint per operand / result (one entry
      may be a ``Variadic``); when given, they set ``num_operands`` / ``num_results``. Given
      as ``named(lhs=..., rhs=...)``, each name becomes a read-only accessor of its value
      (a tuple for the variadic entry).
    - ``attr_defs``: attribute name -> ``attr(constraint)`` / ``opt_attr(constraint)``. An
      attribute of the ``grafo.`` namespace that the kind does not declare is an error;
      other undeclared attributes are kept and mean nothing to grafo. A declared name that
      is a Python identifier becomes an accessor of the attribute's value, unless the class
      defines that member itself.
    - ``infer(operand_types, attributes) -> list[Type]``: result types from operands, raising
      ``TypeError`` with a user-facing message when the operands are invalid.
    - ``default_properties``: properties upstream MLIR prints for the op when it holds their
      default value (``fastmath = #arith.fastmath<none>``); they mean what their absence means,
      so the parser drops them.
    """

    num_operands: int | None = None
    num_results: int | None = None
    num_regions: int = 0
    operand_defs: tuple | None = None
    result_defs: tuple | None = None
    attr_defs: dict[str, AttrDef] = {}
    default_properties: dict = {}

    def __init_subclass__(cls, **kw):
        super().__init_subclass__(**kw)
        for defs, count in (("operand_defs", "num_operands"), ("result_defs", "num_results")):
            given = cls.__dict__.get(defs)
            if given is not None:
                fixed = not any(isinstance(d, Variadic) for d in given)
                setattr(cls, count, len(given) if fixed else None)
        add_accessors(cls)

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
        """Check the op against its kind's definition: counts, operand and result
        constraints, attributes (required ones present, each accepted by its constraint, no
        undeclared ``grafo.`` one) and the traits that verify. Raises ``VerifyError``."""
        from .verifier import VerifyError
        for what, want, have in (("operands", self.num_operands, len(self.operands)),
                                 ("results", self.num_results, len(self.results)),
                                 ("regions", self.num_regions, len(self.regions))):
            if want is not None and want != have:
                raise VerifyError(self, f"expects {want} {what}, has {have}")
        _check_values(self, "operand", self.operand_defs, self.operands)
        _check_values(self, "result", self.result_defs, self.results)
        for key, d in self.attr_defs.items():
            a = self.attributes.get(key)
            if a is None:
                if not d.optional:
                    raise VerifyError(self, f"requires attribute '{key}' ({d.constraint})")
            elif not d.constraint.accepts(a):
                raise VerifyError(self, f"attribute '{key}' must be {d.constraint}, got {a}")
        for key in self.attributes:
            if key.startswith("grafo.") and key not in self.attr_defs:
                raise VerifyError(self, f"'{key}' is not an attribute of '{self.name}'")
        for trait in sorted(self.traits, key=lambda t: t.name):
            if trait.verify is not None:
                trait.verify(self)


def _check_values(op: Operation, what: str, defs, values) -> None:
    """Each of ``values`` against its constraint in ``defs`` (None: not declared)."""
    if defs is None:
        return
    from .verifier import VerifyError
    k = next((i for i, d in enumerate(defs) if isinstance(d, Variadic)), None)
    fixed = len(defs) - (k is not None)
    if k is None and len(values) != fixed:
        raise VerifyError(op, f"expects {fixed} {what}s, has {len(values)}")
    if k is not None and len(values) < fixed + defs[k].min:
        raise VerifyError(op, f"expects at least {fixed + defs[k].min} {what}s, has "
                              f"{len(values)}")
    n_var = len(values) - fixed
    for i, v in enumerate(values):
        if k is None or i < k:
            c = defs[i]
        elif i < k + n_var:
            c = defs[k].constraint
        else:
            c = defs[i - n_var + 1]
        if not c.accepts(v.type):
            raise VerifyError(op, f"{what} #{i} must be {c}, got {v.type}")

