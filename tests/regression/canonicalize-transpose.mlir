// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// transpose(transpose(x, p), q) is x when p and q cancel, else one transpose by p∘q.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<2x3x4xf32>):
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "cancel"
  "func.func"() ({
  ^bb0(%x: tensor<2x3x4xf32>):
    %0 = "np.transpose"(%x) {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
    %1 = "np.transpose"(%0) {perm = [1, 2, 0]} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
    "func.return"(%1) : (tensor<2x3x4xf32>) -> ()
  }) {function_type = (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>, sym_name = "cancel"} : () -> ()
  // CHECK: ^bb0(%[[Y:.*]]: tensor<2x3x4xf32>):
  // CHECK-NEXT: %[[T:.*]] = "np.transpose"(%[[Y]]) {perm = [1 : i64, 0 : i64, 2 : i64]} : (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>
  // CHECK-NEXT: "func.return"(%[[T]])
  // CHECK-LABEL: sym_name = "compose"
  "func.func"() ({
  ^bb0(%x: tensor<2x3x4xf32>):
    %0 = "np.transpose"(%x) {perm = [2, 0, 1]} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
    %1 = "np.transpose"(%0) {perm = [2, 1, 0]} : (tensor<4x2x3xf32>) -> tensor<3x2x4xf32>
    "func.return"(%1) : (tensor<3x2x4xf32>) -> ()
  }) {function_type = (tensor<2x3x4xf32>) -> tensor<3x2x4xf32>, sym_name = "compose"} : () -> ()
  // CHECK: ^bb0(%[[Z:.*]]: tensor<2x3xf32>):
  // CHECK-NEXT: "func.return"(%[[Z]])
  // CHECK-LABEL: sym_name = "identity_perm"
  "func.func"() ({
  ^bb0(%x: tensor<2x3xf32>):
    %0 = "np.transpose"(%x) {perm = [0, 1]} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%0) : (tensor<2x3xf32>) -> ()
  }) {function_type = (tensor<2x3xf32>) -> tensor<2x3xf32>, sym_name = "identity_perm"} : () -> ()
}) : () -> ()
