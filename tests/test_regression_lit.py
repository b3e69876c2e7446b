"""Runs the lit + FileCheck regression suite (tests/regression/*.mlir) as one pytest test."""

import os
import subprocess
import sys

import pytest

pytest.importorskip("lit")
pytest.importorskip("filecheck")

REGRESSION = os.path.join(os.path.dirname(os.path.abspath(__file__)), "regression")


def test_lit_regression_suite():
    # ``lit -q tests/regression`` with this interpreter (lit has no ``python -m lit``).
    proc = subprocess.run([sys.executable, "-c", "from lit.main import main; main()",
                           "-q", REGRESSION],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, f"lit failed:\n{proc.stdout}\n{proc.stderr}"
