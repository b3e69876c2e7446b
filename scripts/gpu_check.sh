#!/usr/bin/env bash
# Run benches/gpu_check.py on a machine with an NVIDIA GPU and no network: first install what
# its Python lacks (lark) from wheels carried with the working tree in shared-wheels/
# (git-ignored; fill it here with: python3 -m pip download lark -d shared-wheels), then run
# the GPU tests and measurements. Arguments go to gpu_check.py (OUT.md, --dry-run, ...).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "${1:-}" = "-h" ] || [ "${1:-}" = "--help" ]; then
    sed -n '2,5p' "$0" | sed 's/^# \{0,1\}//'
    exec python3 benches/gpu_check.py --help
fi
if ! python3 -c "import lark" 2>/dev/null; then
    if ! ls shared-wheels/lark-*.whl >/dev/null 2>&1; then
        echo "lark is missing and shared-wheels/ holds no lark wheel:" \
             "run 'python3 -m pip download lark -d shared-wheels' where there is a network" >&2
        exit 1
    fi
    python3 -m pip install --no-index --find-links shared-wheels lark
fi
exec python3 benches/gpu_check.py "$@"
