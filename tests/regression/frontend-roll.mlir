// RUN: grafo ir %S/inputs/manipulation.py:roll_last --signature "f64[2,?], i64" --stage frontend | filecheck %s

/// np.roll by a run-time shift along a dynamic axis: the cut n - shift % max(n, 1), then
/// the two slices joined in swapped order by one np.concatenate.

// CHECK: ^bb0(%[[X:.*]]: tensor<2x?xf64>, %[[S:.*]]: i64):
// CHECK: %[[N:.*]] = "np.dim"(%[[X]]) {index = 1 : i64}
// CHECK: %[[M:.*]] = "np.maximum"(%[[N]], %{{.*}}) : (!py.int, !py.int) -> !py.int
// CHECK: %[[R:.*]] = "np.remainder"(%{{.*}}, %[[M]]) : (!py.int, !py.int) -> !py.int
// CHECK: %[[C:.*]] = "np.subtract"(%[[N]], %[[R]]) : (!py.int, !py.int) -> !py.int
// CHECK: %[[B:.*]] = "np.subscript"(%[[X]], %[[C]]) {bounds = ["none", "none", "none", "?", "none", "none"], spec = ["s", "s"]}
// CHECK: %[[A:.*]] = "np.subscript"(%[[X]], %[[C]]) {bounds = ["none", "none", "none", "none", "?", "none"], spec = ["s", "s"]}
// CHECK: %[[J:.*]] = "np.concatenate"(%[[B]], %[[A]]) {axis = 1 : i64} : (tensor<2x?xf64>, tensor<2x?xf64>) -> tensor<2x?xf64>
// CHECK: "func.return"(%[[J]])
