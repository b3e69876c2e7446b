"""Named accessors of op kinds: ``op.lhs``, ``op.indices``, ``op.predicate``.

``Op.__init_subclass__`` gives each kind a read-only property per name its definitions declare:
operands and results named by ``operand_defs`` / ``result_defs`` (``constraints.named``), the
value at a fixed position or, for the ``Variadic`` entry, a tuple of the values it spans; and
attributes declared in ``attr_defs`` whose name is a Python identifier, their Python value
(``Operation.attr``, None when absent). A member the class defines itself (``ForOp.body``,
``np.ConstantOp.value``) keeps its meaning for attributes; an operand or result name that
would hide one is a TypeError when the class is defined.
"""

from __future__ import annotations

from operator import attrgetter

from .constraints import NamedDefs, Variadic


class Accessor(property):
    """A named accessor of an op's operand, result or attribute, made from its definition."""


def add_accessors(cls) -> None:
    """The accessors of the definitions that ``cls`` itself declares."""
    for defs, what in (("operand_defs", "operand"), ("result_defs", "result")):
        given = cls.__dict__.get(defs)
        if isinstance(given, NamedDefs):
            _value_accessors(cls, given, what)
    for key in cls.__dict__.get("attr_defs", {}):
        if key.isidentifier() and not _explicit_member(cls, key):
            _add(cls, key, _attribute_getter(key),
                 f"The value of attribute ``{key}`` (None when absent).")


def _explicit_member(cls, name: str) -> bool:
    return hasattr(cls, name) and not isinstance(getattr(cls, name), Accessor)


def _add(cls, name: str, get, doc: str) -> None:
    """Give ``cls`` the accessor ``name``; raises TypeError if that would hide a member other
    than a base class's accessor."""
    if _explicit_member(cls, name) or isinstance(cls.__dict__.get(name), Accessor):
        raise TypeError(f"{cls.__name__}: the accessor '{name}' would hide a member of the "
                        f"op class")
    accessor = Accessor(get)
    accessor.__doc__ = doc   # ``property(doc=...)`` does not reach a subclass's instances
    setattr(cls, name, accessor)


def _attribute_getter(key: str):
    def get(op):
        return op.attr(key)
    return get


def _value_getter(values, i: int, k: int | None, after: int):
    """The getter of entry ``i`` of definitions with a variadic entry at ``k`` (None: none)
    followed by ``after`` entries: a value at a fixed position (counted from the end after
    the variadic entry), the variadic entry's values as a tuple."""
    if k is None or i < k:
        return lambda op: values(op)[i]
    if i == k:
        return lambda op: tuple(values(op)[k:len(values(op)) - after])
    return lambda op: values(op)[i - k - 1 - after]


def _value_accessors(cls, defs: NamedDefs, what: str) -> None:
    """Accessors of the operands or results (``what``) that ``defs`` names."""
    values = attrgetter("_operands" if what == "operand" else "results")
    k = next((i for i, d in enumerate(defs) if isinstance(d, Variadic)), None)
    after = 0 if k is None else len(defs) - 1 - k
    for i, name in enumerate(defs.names):
        doc = f"The {what}s ``{name}`` (a tuple)." if i == k else f"The {what} ``{name}``."
        _add(cls, name, _value_getter(values, i, k, after), doc)
