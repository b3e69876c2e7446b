// RUN: grafo ir %S/inputs/creation.py:array_of_sums --signature "f32[?], f64[?]" --stage frontend | filecheck %s

/// np.array([a.sum(), b.sum()]) of run-time scalars: each item is cast to the dtype NumPy
/// discovers (float32 and float64 give float64), made a 0-d array and given a leading unit
/// axis, and the rows are joined by np.concatenate along axis 0.

// CHECK: %[[SA:.*]] = "np.reduce"(%{{.*}}) {{.*}} -> f32
// CHECK: %[[SB:.*]] = "np.reduce"(%{{.*}}) {{.*}} -> f64
// CHECK: %[[CA:.*]] = "np.astype"(%[[SA]]) : (f32) -> f64
// CHECK: %[[ZA:.*]] = "np.reshape"(%[[CA]]) : (f64) -> tensor<f64>
// CHECK: %[[RA:.*]] = "np.subscript"(%[[ZA]]) {bounds = [], spec = ["n"]} : (tensor<f64>) -> tensor<1xf64>
// CHECK: %[[ZB:.*]] = "np.reshape"(%[[SB]]) : (f64) -> tensor<f64>
// CHECK: %[[RB:.*]] = "np.subscript"(%[[ZB]]) {bounds = [], spec = ["n"]} : (tensor<f64>) -> tensor<1xf64>
// CHECK: %[[OUT:.*]] = "np.concatenate"(%[[RA]], %[[RB]]) {axis = 0 : i64} : (tensor<1xf64>, tensor<1xf64>) -> tensor<2xf64>
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "array_of_sums"
