// RUN: grafo ir %S/inputs/constructs.py:if_else --signature "f64" --stage loops | grafo translate - --to=llvm | filecheck %s

/// A scalar function gets a C entry point taking the f64 by value; the branch compares with fcmp ogt.

// CHECK: define {{.*}}@if_else(double
// CHECK: fcmp {{.*}}ogt double
