// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// where(c, x, x) is x; where(True, x, y) is x; a non-constant condition stays.

"builtin.module"() ({
  // CHECK: ^bb0(%[[C:.*]]: tensor<4xi1>, %[[X:.*]]: tensor<4xf32>, %[[Y:.*]]: tensor<4xf32>):
  // CHECK-NEXT: %[[W:.*]] = "np.where"(%[[C]], %[[X]], %[[Y]])
  // CHECK-NEXT: "func.return"(%[[X]], %[[X]], %[[W]])
  // CHECK-LABEL: sym_name = "where"
  "func.func"() ({
  ^bb0(%c: tensor<4xi1>, %x: tensor<4xf32>, %y: tensor<4xf32>):
    %t = "np.constant"() {value = true} : () -> i1
    %0 = "np.where"(%c, %x, %x) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "np.where"(%t, %x, %y) : (i1, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2 = "np.where"(%c, %x, %y) : (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "func.return"(%0, %1, %2) : (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> ()
  }) {function_type = (tensor<4xi1>, tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>), sym_name = "where"} : () -> ()
}) : () -> ()
