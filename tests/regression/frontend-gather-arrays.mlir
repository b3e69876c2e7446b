// RUN: grafo ir %S/inputs/constructs.py:index_points --signature "f32[?,?,?], i64[?], i32[?]" --stage frontend | filecheck %s

/// a[i, :, j]: one np.gather of the whole array by both index arrays (any integer dtype), the
/// broadcast index dim first because a slice separates them (NumPy's placement rule).

// CHECK: ^bb0(%[[A:.*]]: tensor<?x?x?xf32>, %[[I:.*]]: tensor<?xi64>, %[[J:.*]]: tensor<?xi32>):
// CHECK-NEXT: %[[G:.*]] = "np.gather"(%[[A]], %[[I]], %[[J]]) {axes = [0 : i64, 2 : i64], axis = 0 : i64, index_axes = [0 : i64, 2 : i64]} : (tensor<?x?x?xf32>, tensor<?xi64>, tensor<?xi32>) -> tensor<?x?xf32>
// CHECK-NEXT: "func.return"(%[[G]])
// CHECK-LABEL: sym_name = "index_points"
