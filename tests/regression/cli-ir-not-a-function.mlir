// RUN: not grafo ir %S/inputs/constructs.py:CONSTANT --signature "f32" 2>&1 | filecheck %s

/// A FUNC that names something other than a function is a one-line error.

// CHECK: error: 'CONSTANT' in '{{.*}}constructs.py' is a int, not a function
