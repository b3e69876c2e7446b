"""lit configuration of grafo's regression tests: ``.mlir`` files run through ``grafo opt`` and
checked with FileCheck (the ``filecheck`` package from PyPI); ``grafo ir`` / ``grafo translate``
RUN lines compile the Python functions of ``inputs/``.

In RUN lines, ``grafo`` (and ``grafo-opt``, meaning ``grafo opt``) run this checkout's
``compiler.cli`` with the Python that runs lit, so no installation is needed; ``filecheck`` /
``FileCheck`` run the PyPI ``filecheck`` with that Python too. Run with
``lit tests/regression -q`` from the repository root.
"""

import importlib.util
import os
import sys

import lit.formats

config = globals()["config"]  # lit runs this file with its ``config`` object in globals

config.name = "grafo"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".mlir"]
config.excludes = ["inputs", "Output"]  # inputs/ holds the Python files RUN lines compile
config.test_source_root = os.path.dirname(os.path.abspath(__file__))
config.test_exec_root = os.path.join(config.test_source_root, "Output")

ROOT = os.path.dirname(os.path.dirname(config.test_source_root))
config.environment["PYTHONPATH"] = os.pathsep.join(
    p for p in (ROOT, os.environ.get("PYTHONPATH")) if p)

PYTHON = f'"{sys.executable}"'
# A tool name is a whole word: not part of a path (.../grafo/tests/...) or of another name.
WORD = r"(?<![\w./-]){}(?![\w./-])"
config.substitutions.append((WORD.format("grafo-opt"), f"{PYTHON} -m compiler.cli opt"))
config.substitutions.append((WORD.format("grafo"), f"{PYTHON} -m compiler.cli"))
config.substitutions.append((WORD.format("(FileCheck|filecheck)"), f"{PYTHON} -m filecheck"))

# ``REQUIRES: graphviz``: tests of ``grafo graph`` need the graphviz package (grafo[graph]).
if importlib.util.find_spec("graphviz") is not None:
    config.available_features.add("graphviz")
