// RUN: grafo opt %s --pass-pipeline=cse | filecheck %s

/// Ops differing in operand order (non-commutative), attributes or result type stay apart.

"builtin.module"() ({
  // CHECK: "np.subtract"
  // CHECK-NEXT: "np.subtract"
  // CHECK-NEXT: "np.reduce"{{.*}}kind = "max"
  // CHECK-NEXT: "np.reduce"{{.*}}kind = "min"
  // CHECK-NEXT: "np.astype"{{.*}} -> tensor<4xf64>
  // CHECK-NEXT: "np.astype"{{.*}} -> tensor<4xi32>
  // CHECK-NEXT: "func.return"
  // CHECK-LABEL: sym_name = "distinct"
  "func.func"() ({
  ^bb0(%x: tensor<4xf32>, %y: tensor<4xf32>):
    %0 = "np.subtract"(%x, %y) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %1 = "np.subtract"(%y, %x) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2 = "np.reduce"(%x) {axes = [0], keepdims = false, kind = "max"} : (tensor<4xf32>) -> f32
    %3 = "np.reduce"(%x) {axes = [0], keepdims = false, kind = "min"} : (tensor<4xf32>) -> f32
    %4 = "np.astype"(%x) : (tensor<4xf32>) -> tensor<4xf64>
    %5 = "np.astype"(%x) : (tensor<4xf32>) -> tensor<4xi32>
    "func.return"(%0, %1, %2, %3, %4, %5) : (tensor<4xf32>, tensor<4xf32>, f32, f32, tensor<4xf64>, tensor<4xi32>) -> ()
  }) {function_type = (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, f32, f32, tensor<4xf64>, tensor<4xi32>), sym_name = "distinct"} : () -> ()
}) : () -> ()
