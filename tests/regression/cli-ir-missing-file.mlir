// RUN: not grafo ir %S/inputs/no-such-file.py:f --signature "f32" 2>&1 | filecheck %s

/// A missing Python file is a one-line error.

// CHECK: error: cannot read '{{.*}}no-such-file.py': No such file
// CHECK-NOT: Traceback
