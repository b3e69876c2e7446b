"""lit configuration of grafo's regression tests: ``.mlir`` files run through ``grafo opt`` and
checked with FileCheck (the ``filecheck`` package from PyPI); ``grafo ir`` / ``grafo translate``
RUN lines compile the Python functions of ``inputs/``.

``REQUIRES: mlir-opt`` tests pipe grafo's IR through upstream MLIR's ``mlir-opt`` (LLVM 19:
``mlir-opt-19`` on the PATH or ``/usr/lib/llvm-19/bin/mlir-opt``), which RUN lines call
``mlir-opt``; elsewhere they are reported as unsupported.

In RUN lines, ``grafo`` (and ``grafo-opt``, meaning ``grafo opt``) run this checkout's
``compiler.cli`` with the Python that runs lit, so no installation is needed; ``filecheck`` /
``FileCheck`` run the PyPI ``filecheck`` with that Python too. Run with
``lit tests/regression -q`` from the repository root.
"""

import importlib.util
import os
import shutil
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

# ``REQUIRES: mlir-opt``: interop tests with upstream MLIR's mlir-opt (LLVM 19).
MLIR_OPT = shutil.which("mlir-opt-19") or shutil.which("/usr/lib/llvm-19/bin/mlir-opt")
if MLIR_OPT is not None:
    config.available_features.add("mlir-opt")
    config.substitutions.append((WORD.format("mlir-opt"), f'"{MLIR_OPT}"'))
