// RUN: not grafo ir %S/inputs/constructs.py --signature "f64" 2>&1 | filecheck %s

/// MODULE.py without :FUNC is a usage error (argparse, exit status 2).

// CHECK: usage: grafo ir
// CHECK: error: argument MODULE.py:FUNC: expected MODULE.py:FUNC
