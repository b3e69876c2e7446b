#!/usr/bin/env bash
# Installs grafo with its test dependencies (and the system tools the tests use), then runs
# every test: the pytest suites, which include the lit + FileCheck regression suite, on one
# pytest-xdist worker per CPU (pass -n 0 to run them in this process).
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install -q ".[test]"
bash scripts/install-test-deps.sh
python3 -m pytest -q -p no:cacheprovider -n auto tests "$@"
