// RUN: grafo ir %S/inputs/constructs.py:unary_math --signature "f64[?]" --stage loops | grafo translate - --to=llvm | filecheck %s

/// exp(sqrt(a)) on float64 calls the vector sqrt intrinsic on double vectors.

// CHECK: define {{.*}}@unary_math(
// CHECK: <{{[0-9]+}} x double>
// CHECK: sqrt
