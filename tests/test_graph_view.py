"""``ConcreteFunction.graph`` and the Jupyter views (``_repr_svg_``, ``_repr_html_``) of
``ConcreteFunction`` and ``Function``: pictures where Graphviz is installed, and where the
``graphviz`` package or the ``dot`` program is missing, a GraphError or a note that says what
to install (with the IR text in its place)."""

from __future__ import annotations

import importlib.util
import shutil
import sys

import numpy as np
import pytest

import compiler

HAS_PACKAGE = importlib.util.find_spec("graphviz") is not None
needs_package = pytest.mark.skipif(not HAS_PACKAGE, reason="the graphviz package is missing "
                                   "(pip install 'grafo[graph]')")
needs_pictures = pytest.mark.skipif(not HAS_PACKAGE or shutil.which("dot") is None,
                                    reason="the graphviz package or Graphviz's dot is missing "
                                    "(pip install 'grafo[graph]'; apt-get install graphviz)")


def double(x):
    return x * 2.0


def add_one(x):
    return x + 1.0


@pytest.fixture
def no_dot(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))


@pytest.fixture
def no_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "graphviz", None)


@needs_pictures
def test_graph_of_each_stage_and_format():
    cf = compiler.compile(double, "f32[?]")
    svg = cf.graph()
    assert svg.startswith("<?xml") and "<svg" in svg and "np.multiply" in svg
    loops = cf.graph("loops")
    assert "arith.mulf" in loops and "memref.store" in loops and "np.multiply" not in loops
    assert cf.graph("frontend", "dot").startswith("digraph grafo {")
    assert cf.graph(format="png").startswith(b"\x89PNG")
    assert cf.graph(format="pdf").startswith(b"%PDF")


def test_graph_rejects_unknown_stages_and_formats():
    cf = compiler.compile(double, "f32[?]")
    with pytest.raises(ValueError, match="no IR of stage 'llvm'; stages: frontend, optimized, "
                                         "loops"):
        cf.graph("llvm")
    with pytest.raises(compiler.GraphError, match="unknown graph format 'gif'"):
        cf.graph(format="gif")


@needs_pictures
def test_jupyter_views_show_the_graph():
    cf = compiler.compile(double, "f32[?]")
    assert "<svg" in cf._repr_svg_() and "np.multiply" in cf._repr_svg_()
    view = cf._repr_html_()
    assert view.startswith("<p><b>&lt;ConcreteFunction double(x: f32[?]) -&gt; f32[?]&gt;</b>")
    assert "<svg" in view and "<?xml" not in view and "<!DOCTYPE" not in view
    assert "np.multiply" in view and "<pre>" not in view


@needs_pictures
def test_function_views_show_every_concrete_function():
    f = compiler.function(double)
    f(np.ones(3, np.float32))
    f(np.ones((2, 2)))
    svg = f._repr_svg_()
    assert "tensor&lt;3xf32&gt;" in svg and "tensor&lt;2x2xf64&gt;" in svg
    view = f._repr_html_()
    assert "<code>double(x: f32[3]) -&gt; f32[3]</code>" in view
    assert "<code>double(x: f64[2,2]) -&gt; f64[2,2]</code>" in view
    assert view.count("<svg") == 2


def test_function_without_concrete_functions_says_so():
    f = compiler.function(double)
    assert f._repr_svg_() is None
    assert "No concrete functions yet: call it, or compile one with get_concrete_function" in (
        f._repr_html_())


@needs_package
def test_missing_dot_says_what_to_install(no_dot):
    cf = compiler.compile(double, "f32[?]")
    with pytest.raises(compiler.GraphError, match="needs Graphviz's 'dot' program .*apt-get "
                                                  "install graphviz"):
        cf.graph()
    assert cf.graph(format="dot").startswith("digraph grafo {")
    assert cf._repr_svg_() is None
    view = cf._repr_html_()
    assert "No graph: rendering .svg needs Graphviz's 'dot' program" in view
    assert "apt-get install graphviz" in view
    assert "<pre>&quot;builtin.module&quot;" not in view
    assert '<pre>"builtin.module"() ({' in view and "np.multiply" in view


def test_missing_package_says_what_to_install(no_package):
    cf = compiler.compile(double, "f32[?]")
    for fmt in ("dot", "svg"):
        with pytest.raises(compiler.GraphError, match=r"pip install 'grafo\[graph\]'"):
            cf.graph(format=fmt)
    assert cf._repr_svg_() is None
    assert "No graph: drawing graphs needs the 'graphviz' Python package" in cf._repr_html_()
    f = compiler.function(add_one)
    f(np.ones(2))
    f(np.ones(2, np.float32))
    assert f._repr_svg_() is None
    view = f._repr_html_()
    assert view.count("No graph:") == 1 and view.count("<pre>") == 2
    assert "np.add" in view
