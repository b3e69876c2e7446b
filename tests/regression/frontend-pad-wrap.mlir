// RUN: grafo ir %S/inputs/manipulation.py:pad_wrap --signature "f64[?]" --stage frontend | filecheck %s

/// np.pad(x, (1, 2), mode="wrap") of a dynamic axis: NumPy's empty-axis ValueError as a
/// run-time check, then one np.gather of x at (arange(n + 3) - 1) % max(n, 1).

// CHECK: ^bb0(%[[X:.*]]: tensor<?xf64>):
// CHECK: %[[N:.*]] = "np.dim"(%[[X]]) {index = 0 : i64}
// CHECK: "grafo.check"(%{{.*}}) {kind = "ValueError", message = "can't extend empty axis 0 using modes other than 'constant' or 'empty'"}
// CHECK: %[[L:.*]] = "np.add"(%[[N]], %{{.*}}) : (!py.int, !py.int) -> !py.int
// CHECK: %[[R:.*]] = "np.arange"(%{{.*}}, %{{.*}}, %[[L]]) : (i64, i64, !py.int) -> tensor<?xi64>
// CHECK: %[[S:.*]] = "np.subtract"(%[[R]], %{{.*}}) : (tensor<?xi64>, i64) -> tensor<?xi64>
// CHECK: %[[M:.*]] = "np.maximum"(%[[N]], %{{.*}}) : (!py.int, !py.int) -> !py.int
// CHECK: %[[W:.*]] = "np.remainder"(%[[S]], %{{.*}}) : (tensor<?xi64>, i64) -> tensor<?xi64>
// CHECK: %[[G:.*]] = "np.gather"(%[[X]], %[[W]]) {axis = 0 : i64} : (tensor<?xf64>, tensor<?xi64>) -> tensor<?xf64>
// CHECK: "func.return"(%[[G]])
