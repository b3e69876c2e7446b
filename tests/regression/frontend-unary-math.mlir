// RUN: grafo ir %S/inputs/constructs.py:unary_math --signature "f64[?]" --stage frontend | filecheck %s

/// Nested ufunc calls apply innermost first.

// CHECK: %[[S:.*]] = "np.sqrt"(%{{.*}}) : (tensor<?xf64>) -> tensor<?xf64>
// CHECK-NEXT: %[[E:.*]] = "np.exp"(%[[S]])
// CHECK-NEXT: "func.return"(%[[E]])
// CHECK-LABEL: sym_name = "unary_math"
