// RUN: not grafo ir %S/inputs/constructs.py:no_such_function --signature "f32" 2>&1 | filecheck %s

/// A MODULE.py that does not define FUNC is a one-line error.

// CHECK: error: '{{.*}}constructs.py' defines no function 'no_such_function'
// CHECK-NOT: Traceback
