// RUN: grafo ir %S/inputs/constructs.py:lambda_fn --signature "f32[4]" --stage frontend | filecheck %s

/// A module-level lambda compiles like a def; its name is <lambda>.

// CHECK: ^bb0(%[[X:.*]]: tensor<4xf32>):
// CHECK-NEXT: %[[M:.*]] = "np.multiply"(%[[X]], %[[X]]) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
// CHECK-NEXT: "func.return"(%[[M]])
// CHECK-LABEL: sym_name = "<lambda>"
