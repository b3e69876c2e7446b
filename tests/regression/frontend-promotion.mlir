// RUN: grafo ir %S/inputs/constructs.py:promotion --signature "i32[?], f64[?]" --stage frontend | filecheck %s

/// int32 + float64 promotes with an explicit np.astype of the int operand.

// CHECK: ^bb0(%[[A:.*]]: tensor<?xi32>, %[[B:.*]]: tensor<?xf64>):
// CHECK-NEXT: %[[C:.*]] = "np.astype"(%[[A]]) : (tensor<?xi32>) -> tensor<?xf64>
// CHECK-NEXT: "np.add"(%[[C]], %[[B]]) : (tensor<?xf64>, tensor<?xf64>) -> tensor<?xf64>
// CHECK-LABEL: sym_name = "promotion"
