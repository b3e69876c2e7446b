#!/usr/bin/env bash
# Installs what the tests use beyond pip's test extra: where apt-get is available and we are
# root, the Debian packages mlir-19-tools (mlir-opt, for tests/test_mlir_compat.py), graphviz
# (the dot program), gcc and binutils (artifacts and the C ABI test). Missing tools only make
# the tests that need them skip, so every step here is allowed to fail.
set -uo pipefail

need=()
command -v mlir-opt-19 >/dev/null 2>&1 || [ -x /usr/lib/llvm-19/bin/mlir-opt ] || need+=(mlir-19-tools)
command -v dot >/dev/null 2>&1 || need+=(graphviz)
command -v cc >/dev/null 2>&1 || need+=(gcc)        # links AOT artifacts, builds the C ABI test
command -v readelf >/dev/null 2>&1 || need+=(binutils)  # object-format checks of artifacts
if [ ${#need[@]} -gt 0 ]; then
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
        export DEBIAN_FRONTEND=noninteractive
        { apt-get update -qq && apt-get install -y -qq --no-install-recommends "${need[@]}"; } \
            >/dev/null 2>&1 || echo "install-test-deps: apt-get install ${need[*]} failed" >&2
    else
        echo "install-test-deps: not installing ${need[*]} (needs root and apt-get)" >&2
    fi
fi

# CUDA back end: cuda-python (the driver bindings; imports are tested, GPU tests skip without a
# device) and ptxas (assembles the PTX the tests generate) from the nvidia-cuda-nvcc wheel,
# which puts it under site-packages/nvidia/cuda_nvcc/bin when no CUDA toolkit is installed.
python3 -m pip install -q cuda-python || echo "install-test-deps: pip install cuda-python failed" >&2
if ! command -v ptxas >/dev/null 2>&1 && ! python3 -c "import compiler.backend.ptx.target as t, sys; sys.exit(t.ptxas_path() is None)" 2>/dev/null; then
    python3 -m pip install -q nvidia-cuda-nvcc || echo "install-test-deps: pip install nvidia-cuda-nvcc failed" >&2
fi
exit 0
