// RUN: grafo opt %s --pass-pipeline=cse | filecheck %s

/// Constants merge by bit pattern: NaN with NaN, but never 0.0 with -0.0.

"builtin.module"() ({
  // CHECK: %[[NAN:.*]] = "np.constant"() {value = 0x7FC00000 : f32}
  // CHECK-NEXT: %[[Z:.*]] = "np.constant"() {value = 0.0 : f32}
  // CHECK-NEXT: %[[NZ:.*]] = "np.constant"() {value = -0.0 : f32}
  // CHECK-NEXT: %[[D:.*]] = "np.constant"() {value = dense<[0x7FF8000000000000, 1.0]> : tensor<2xf64>}
  // CHECK-NEXT: "func.return"(%[[NAN]], %[[NAN]], %[[Z]], %[[NZ]], %[[D]], %[[D]])
  // CHECK-LABEL: sym_name = "constants"
  "func.func"() ({
    %0 = "np.constant"() {value = 0x7FC00000 : f32} : () -> f32
    %1 = "np.constant"() {value = 0x7FC00000 : f32} : () -> f32
    %2 = "np.constant"() {value = 0.0 : f32} : () -> f32
    %3 = "np.constant"() {value = -0.0 : f32} : () -> f32
    %4 = "np.constant"() {value = dense<[0x7FF8000000000000, 1.0]> : tensor<2xf64>} : () -> tensor<2xf64>
    %5 = "np.constant"() {value = dense<[0x7FF8000000000000, 1.0]> : tensor<2xf64>} : () -> tensor<2xf64>
    "func.return"(%0, %1, %2, %3, %4, %5) : (f32, f32, f32, f32, tensor<2xf64>, tensor<2xf64>) -> ()
  }) {function_type = () -> (f32, f32, f32, f32, tensor<2xf64>, tensor<2xf64>), sym_name = "constants"} : () -> ()
}) : () -> ()
