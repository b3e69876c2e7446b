// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// astype to the operand's own type is removed; a real conversion stays.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<3xf32>):
  // CHECK-NEXT: %[[W:.*]] = "np.astype"(%[[X]]) : (tensor<3xf32>) -> tensor<3xf64>
  // CHECK-NEXT: "func.return"(%[[X]], %[[W]])
  // CHECK-LABEL: sym_name = "astype"
  "func.func"() ({
  ^bb0(%x: tensor<3xf32>):
    %0 = "np.astype"(%x) : (tensor<3xf32>) -> tensor<3xf32>
    %1 = "np.astype"(%x) : (tensor<3xf32>) -> tensor<3xf64>
    "func.return"(%0, %1) : (tensor<3xf32>, tensor<3xf64>) -> ()
  }) {function_type = (tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf64>), sym_name = "astype"} : () -> ()
}) : () -> ()
