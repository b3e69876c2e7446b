// RUN: not grafo ir %S/inputs/constructs.py:unsupported_try --signature "f64" 2>&1 | filecheck %s

/// A CompileError prints its location, the source line with a caret, and a hint, without a traceback.

// CHECK: constructs.py:{{[0-9]+}}:5: error: unsupported syntax 'try' statement
// CHECK-NEXT: try:
// CHECK-NEXT: ^
// CHECK-NOT: Traceback
