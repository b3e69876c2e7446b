// RUN: grafo ir %S/inputs/constructs.py:zeros --signature "f32" --stage frontend | filecheck %s

/// np.zeros(4) is a float64 dense constant; adding a float32 scalar casts it to float64.

// CHECK: %[[Z:.*]] = "np.constant"() {value = dense<0.0> : tensor<4xf64>}
// CHECK-NEXT: %[[X:.*]] = "np.astype"(%{{.*}}) : (f32) -> f64
// CHECK-NEXT: "np.add"(%[[Z]], %[[X]]) : (tensor<4xf64>, f64) -> tensor<4xf64>
// CHECK-LABEL: sym_name = "zeros"
