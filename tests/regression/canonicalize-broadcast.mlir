// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// x + 0 is not x when the zero broadcasts x to a larger shape.

"builtin.module"() ({
  // CHECK: %[[S:.*]] = "np.add"
  // CHECK-NEXT: "func.return"(%[[S]])
  // CHECK-LABEL: sym_name = "broadcasting_zero"
  "func.func"() ({
  ^bb0(%x: tensor<4xi32>):
    %c = "np.constant"() {value = dense<0> : tensor<3x4xi32>} : () -> tensor<3x4xi32>
    %0 = "np.add"(%x, %c) : (tensor<4xi32>, tensor<3x4xi32>) -> tensor<3x4xi32>
    "func.return"(%0) : (tensor<3x4xi32>) -> ()
  }) {function_type = (tensor<4xi32>) -> tensor<3x4xi32>, sym_name = "broadcasting_zero"} : () -> ()
}) : () -> ()
