// RUN: not grafo ir %S/inputs/constructs.py:binop --signature "f64, f65[" 2>&1 | filecheck %s

/// A signature that does not parse is a one-line error with its column.

// CHECK: error: --signature 'f64, f65[': invalid signature at column {{[0-9]+}}:
// CHECK-NOT: Traceback
