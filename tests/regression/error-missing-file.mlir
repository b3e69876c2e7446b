// RUN: not grafo opt %s.does-not-exist --pass-pipeline=cse 2>&1 | filecheck %s

/// A missing input file is a one-line error.

// CHECK: error: cannot read '{{.*}}error-missing-file.mlir.does-not-exist': No such file or directory
// CHECK-NOT: Traceback
