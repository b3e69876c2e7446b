"""``import`` statements inside compiled functions bind what Python binds (the module, the
top package of a dotted name, a submodule under ``as``, attributes or submodules with
``from``), as compile-time values in the function's local scope; an import that fails when
the function is compiled is a CompileError (an ImportError) at the statement."""

import importlib
import inspect
import sys

import numpy as np
import pytest
from differential_harness import run_both
from hypothesis import given, settings
from hypothesis.extra import numpy as hnp

import compiler

m = 5   # shadowed by ``import math as m`` in ``alias_shadows_a_global``


def import_as(x):
    import numpy as np
    return np.sin(x)


def plain_imports(x):
    import math

    import numpy
    return numpy.cos(x) * math.pi


def from_imports(x):
    from numpy import sin, cos as c  # noqa: I001 - one statement, several names
    from math import pi
    return sin(x) + c(x) + pi


def dotted_imports(x):
    import numpy.linalg
    import numpy.linalg as la
    return numpy.sum(x) + (la is numpy.linalg) + (numpy.__name__ == "numpy")


def from_submodule(x):
    from numpy import linalg
    return x * (linalg.__name__ == "numpy.linalg")


def alias_shadows_a_global(x):
    import math as m
    return x * m.e


def in_a_loop_and_branches(x):
    for _ in range(2):
        import math
        x = x + math.e
    if x[0] > 0:
        from math import tau
    else:
        from math import tau
    return x + tau


def in_a_nested_function(x):
    def inner(y):
        from numpy import exp
        return exp(y)
    return inner(x) + 1.0


@pytest.mark.parametrize("fn", [import_as, plain_imports, from_imports, dotted_imports,
                                from_submodule, alias_shadows_a_global,
                                in_a_loop_and_branches, in_a_nested_function])
@settings(max_examples=5, deadline=None)
@given(x=hnp.arrays(np.float64, 3, elements={"min_value": -10, "max_value": 10}))
def test_imports_bind_as_python_binds_them(fn, x):
    run_both(fn, (x,))


def missing_module(x):
    import grafo_no_such_module  # noqa: F401
    return x


def missing_name(x):
    from numpy import no_such_name  # noqa: F401
    return x


def missing_submodule(x):
    import numpy.no_such_submodule  # noqa: F401
    return x


@pytest.mark.parametrize("fn, message", [
    (missing_module, "No module named 'grafo_no_such_module'"),
    (missing_name, "cannot import name 'no_such_name' from 'numpy'"),
    (missing_submodule, "No module named 'numpy.no_such_submodule'"),
])
def test_a_failed_import_is_a_compile_error_at_the_statement(fn, message):
    with pytest.raises(compiler.CompileError) as info:
        compiler.function(fn)(np.arange(3.0))
    assert isinstance(info.value, ImportError)
    text = str(info.value)
    line = inspect.getsourcelines(fn)[1] + 1
    assert message in text and f":{line}:" in text, text
    with pytest.raises(ImportError, match=message.split(" '")[0]):
        fn(np.arange(3.0))


PACKAGE = {
    "__init__.py": "",
    "helpers.py": "def twice(x):\n    return 2 * x\n",
    "kernels.py": (
        "def relative(x):\n"
        "    from . import helpers\n"
        "    from .helpers import twice\n"
        "    return helpers.twice(x) + twice(x)\n"),
}


def test_relative_imports_resolve_in_the_functions_package(tmp_path, monkeypatch):
    package = tmp_path / "grafo_import_case"
    package.mkdir()
    for name, text in PACKAGE.items():
        (package / name).write_text(text)
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        kernels = importlib.import_module("grafo_import_case.kernels")
        run_both(kernels.relative, (np.arange(4.0),))
    finally:
        for name in [n for n in sys.modules if n.startswith("grafo_import_case")]:
            del sys.modules[name]
