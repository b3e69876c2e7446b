// RUN: grafo ir %S/inputs/constructs.py:mean_all --signature "f64[?]" --stage frontend | filecheck %s

/// np.mean of a dynamic array divides the sum by the run-time element count (np.dim).

// CHECK: ^bb0(%[[A:.*]]: tensor<?xf64>):
// CHECK-NEXT: %[[S:.*]] = "np.reduce"(%[[A]]) {axes = [0 : i64], keepdims = false, kind = "sum"}
// CHECK-NEXT: %[[N:.*]] = "np.dim"(%[[A]]) {index = 0 : i64}
// CHECK: %[[NF:.*]] = "np.astype"(%{{.*}}) : (!py.int) -> f64
// CHECK-NEXT: %[[M:.*]] = "np.divide"(%[[S]], %[[NF]])
// CHECK-NEXT: "func.return"(%[[M]])
// CHECK-LABEL: sym_name = "mean_all"
