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
    return sorted({n for row in rows for n in re.findall(r"`np\.([\w.]+)`", row.split("|")[1])})


def _numpy(name: str):
    """``np.<name>``, for dotted names too (``linalg.det``)."""
    obj = np
    for part in name.split("."):
        obj = getattr(obj, part, None)
    return obj


def _name(f) -> str:
    """The documented name of registered function ``f`` (``linalg.det`` for np.linalg's,
    ``ufunc.reduce`` for ``np.add.reduce`` and the other ufuncs' methods)."""
    if isinstance(getattr(f, "__self__", None), np.ufunc):
        return f"ufunc.{f.__name__}"
    return f.__name__ if getattr(np, f.__name__, None) is f else f"linalg.{f.__name__}"


def test_index_lists_every_registered_function():
    names = documented()
    assert len(names) > 100
    missing = [n for n in names if _numpy(n) not in NUMPY
               and not (n.startswith("ufunc.") and getattr(np.add, n[6:]) in NUMPY)]
    assert not missing, f"documented but not accepted: {missing}"
    registered = {_name(f) for f in NUMPY}
    assert registered <= set(names), f"accepted but not documented: {registered - set(names)}"


def _histogramdd(a):
    return np.histogramdd(a)


def _nanquantile(a):
    return np.nanquantile(a, 0.5)


def _isclose(a):
    return np.isclose(a, a)


def _allclose(a):
    return np.allclose(a, a)


@pytest.mark.parametrize("fn,name", [(_histogramdd, "np.histogramdd"), (_nanquantile, "np.nanquantile"),
                                     (_isclose, "np.isclose"), (_allclose, "np.allclose")])
def test_unsupported_functions_are_named(fn, name):
    assert name in _section("Function index")
    with pytest.raises(compiler.CompileError, match=re.escape(f"{name} is not supported")):
        compiler.compile(fn, "f64[?]")
