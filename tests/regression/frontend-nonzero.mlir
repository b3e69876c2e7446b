// RUN: grafo ir %S/inputs/manipulation.py:nonzero_2d --signature "f64[?,3]" --stage frontend | filecheck %s

/// np.nonzero of a 2-d array: one truth mask (x != 0), then per axis an int64 index grid
/// (np.arange broadcast over the array's shape) selected by that mask.

// CHECK: ^bb0(%[[X:.*]]: tensor<?x3xf64>):
// CHECK: %[[M:.*]] = "np.not_equal"(%[[X]], %{{.*}}) : (tensor<?x3xf64>, f64) -> tensor<?x3xi1>
// CHECK: "np.arange"({{.*}}) : (i64, i64, !py.int) -> tensor<?xi64>
// CHECK: %[[R:.*]] = "np.broadcast_to"({{.*}}) : (tensor<?x1xi64>, !py.int) -> tensor<?x3xi64>
// CHECK: %[[I:.*]] = "np.mask_select"(%[[R]], %[[M]]) : (tensor<?x3xi64>, tensor<?x3xi1>) -> tensor<?xi64>
// CHECK: "np.arange"({{.*}}) : (i64, i64) -> tensor<3xi64>
// CHECK: %[[C:.*]] = "np.broadcast_to"({{.*}}) : (tensor<1x3xi64>, !py.int) -> tensor<?x3xi64>
// CHECK: %[[J:.*]] = "np.mask_select"(%[[C]], %[[M]]) : (tensor<?x3xi64>, tensor<?x3xi1>) -> tensor<?xi64>
// CHECK: "func.return"(%[[I]], %[[J]])
