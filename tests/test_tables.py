"""Decorator-filled dispatch tables (``compiler/tables.py``): a key gets one entry."""

import ast

import pytest

from compiler.dialects import arith
from compiler.tables import registrar


def test_a_rule_maps_each_key_and_returns_the_function():
    table = {}
    rule = registrar(table, "test rules")

    def f():
        return 1
    assert rule(arith.AddFOp, arith.MulFOp)(f) is f
    assert table == {arith.AddFOp: f, arith.MulFOp: f}


@pytest.mark.parametrize("key, shown", [(arith.AddFOp, "arith.addf"), (ast.If, "If")])
def test_a_second_rule_for_a_key_names_it(key, shown):
    rule = registrar({}, "test rules")
    rule(key)(len)
    with pytest.raises(ValueError, match=f"two test rules for {shown}$"):
        rule(key)(abs)
