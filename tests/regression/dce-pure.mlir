// RUN: grafo opt %s --pass-pipeline=dce | filecheck %s

/// Unused pure ops go, whole chains in one sweep, including an out-of-range gather (non-strict).

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<3xf32>, %[[I:.*]]: !py.int):
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "dead_chain"
  "func.func"() ({
  ^bb0(%x: tensor<3xf32>, %i: !py.int):
    %c = "np.constant"() {value = 2.0 : f32} : () -> f32
    %0 = "np.multiply"(%x, %c) : (tensor<3xf32>, f32) -> tensor<3xf32>
    %1 = "np.exp"(%0) : (tensor<3xf32>) -> tensor<3xf32>
    %2 = "np.subscript"(%1, %i) {spec = ["i"]} : (tensor<3xf32>, !py.int) -> f32
    "func.return"(%x) : (tensor<3xf32>) -> ()
  }) {function_type = (tensor<3xf32>, !py.int) -> tensor<3xf32>, sym_name = "dead_chain"} : () -> ()
}) : () -> ()
