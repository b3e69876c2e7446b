// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[?,?], f32[?,?]" --stage frontend | filecheck %s

/// The @ operator is np.matmul.

// CHECK: ^bb0(%[[A:.*]]: tensor<?x?xf32>, %[[B:.*]]: tensor<?x?xf32>):
// CHECK-NEXT: %[[C:.*]] = "np.matmul"(%[[A]], %[[B]]) : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
// CHECK-LABEL: sym_name = "matmul_op"
