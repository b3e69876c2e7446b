#!/usr/bin/env bash
# Installs what the tests use beyond pip's test extra: the graphviz Python package (grafo[graph])
# and, where apt-get is available and we are root, the Debian packages mlir-19-tools (mlir-opt,
# for tests/test_mlir_compat.py) and graphviz (the dot program). Missing tools only make the
# tests that need them skip, so every step here is allowed to fail.
set -uo pipefail

python3 -m pip install -q graphviz || echo "install-test-deps: pip install graphviz failed" >&2

need=()
command -v mlir-opt-19 >/dev/null 2>&1 || [ -x /usr/lib/llvm-19/bin/mlir-opt ] || need+=(mlir-19-tools)
command -v dot >/dev/null 2>&1 || need+=(graphviz)
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"; } \
            >/dev/null 2>&1 || echo "install-test-deps: apt-get install ${need[*]} failed" >&2
    else
        echo "install-test-deps: not installing ${need[*]} (needs root and apt-get)" >&2
    fi
fi
exit 0
