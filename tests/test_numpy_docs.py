"""docs/numpy_support.md against the frontend: every function of its "Function index" table
is in the registry, and the notable unsupported ones raise a CompileError naming them."""

import os
import re

import numpy as np
import pytest

import compiler
from compiler.frontend.registry import NUMPY

DOC = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "docs",
                   "numpy_support.md")


def _section(title: str) -> str:
    text = open(DOC, encoding="utf-8").read()
    return text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]


def documented() -> list:
    rows = [line for line in _section("Function index").splitlines() if line.startswith("| `")]
    return sorted({n for row in rows for n in re.findall(r"`np\.(\w+)`", row.split("|")[1])})


def test_index_lists_every_registered_function():
    names = documented()
    assert len(names) > 100
    missing = [n for n in names if getattr(np, n, None) not in NUMPY]
    assert not missing, f"documented but not accepted: {missing}"
    registered = {f.__name__ for f in NUMPY}
    assert registered <= set(names), f"accepted but not documented: {registered - set(names)}"


def _unique(a):
    return np.unique(a)


def _median(a):
    return np.median(a)


def _isclose(a):
    return np.isclose(a, a)


def _allclose(a):
    return np.allclose(a, a)


@pytest.mark.parametrize("fn,name", [(_unique, "np.unique"), (_median, "np.median"),
                                     (_isclose, "np.isclose"), (_allclose, "np.allclose")])
def test_unsupported_functions_are_named(fn, name):
    assert name in _section("Function index")
    with pytest.raises(compiler.CompileError, match=re.escape(f"{name} is not supported")):
        compiler.compile(fn, "f64[?]")
