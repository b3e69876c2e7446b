// RUN: grafo ir %S/inputs/manipulation.py:diag_above --signature "f32[4]" --stage frontend | filecheck %s

/// np.diag(v, 1) of a 1-D v: a static (n+1)x(n+1) zero array and one np.scatter of v at
/// rows arange(n) and columns arange(n) + 1.

// CHECK: ^bb0(%[[V:.*]]: tensor<4xf32>):
// CHECK: %[[Z:.*]] = "np.full"(%{{.*}}) : (f32) -> tensor<5x5xf32>
// CHECK: %[[I:.*]] = "np.arange"({{.*}}) : (i64, i64) -> tensor<4xi64>
// CHECK: %[[J:.*]] = "np.add"(%[[I]], %{{.*}}) : (tensor<4xi64>, i64) -> tensor<4xi64>
// CHECK: %[[S:.*]] = "np.scatter"(%[[Z]], %[[I]], %[[J]], %[[V]]) {axes = [0 : i64, 1 : i64], axis = 0 : i64} : (tensor<5x5xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xf32>) -> tensor<5x5xf32>
// CHECK: "func.return"(%[[S]])
