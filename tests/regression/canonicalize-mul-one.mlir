// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// x * 1 is x for integers and floats (x * 1.0 is exact in IEEE 754), on either side.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<2x3xi16>):
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "mul_one_int"
  "func.func"() ({
  ^bb0(%x: tensor<2x3xi16>):
    %c = "np.constant"() {value = dense<1> : tensor<3xi16>} : () -> tensor<3xi16>
    %0 = "np.multiply"(%x, %c) : (tensor<2x3xi16>, tensor<3xi16>) -> tensor<2x3xi16>
    "func.return"(%0) : (tensor<2x3xi16>) -> ()
  }) {function_type = (tensor<2x3xi16>) -> tensor<2x3xi16>, sym_name = "mul_one_int"} : () -> ()
  // CHECK: ^bb0(%[[F:.*]]: f32):
  // CHECK-NEXT: "func.return"(%[[F]])
  // CHECK-LABEL: sym_name = "one_times_float"
  "func.func"() ({
  ^bb0(%f: f32):
    %c = "np.constant"() {value = 1.0 : f32} : () -> f32
    %0 = "np.multiply"(%c, %f) : (f32, f32) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "one_times_float"} : () -> ()
  // CHECK: "np.multiply"
  // CHECK-LABEL: sym_name = "mul_two_kept"
  "func.func"() ({
  ^bb0(%f: f32):
    %c = "np.constant"() {value = 2.0 : f32} : () -> f32
    %0 = "np.multiply"(%f, %c) : (f32, f32) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "mul_two_kept"} : () -> ()
}) : () -> ()
