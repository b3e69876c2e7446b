// RUN: grafo opt %s --pass-pipeline=fold,dce | filecheck %s

/// Small tensors fold elementwise with broadcasting, and through reductions and matmul.

"builtin.module"() ({
  // CHECK: %[[S:.*]] = "np.constant"() {value = dense<{{\[\[}}11, 22, 33], [14, 25, 36]]> : tensor<2x3xi32>}
  // CHECK-NEXT: %[[R:.*]] = "np.constant"() {value = dense<[66, 75]> : tensor<2xi32>}
  // CHECK-NEXT: %[[M:.*]] = "np.constant"() {value = dense<{{\[\[}}3.0, 1.0], [4.0, 2.0]]> : tensor<2x2xf64>}
  // CHECK-NEXT: "func.return"(%[[S]], %[[R]], %[[M]])
  // CHECK-LABEL: sym_name = "tensors"
  "func.func"() ({
    %a = "np.constant"() {value = dense<[[1, 2, 3], [4, 5, 6]]> : tensor<2x3xi32>} : () -> tensor<2x3xi32>
    %b = "np.constant"() {value = dense<[10, 20, 30]> : tensor<3xi32>} : () -> tensor<3xi32>
    %0 = "np.add"(%a, %b) : (tensor<2x3xi32>, tensor<3xi32>) -> tensor<2x3xi32>
    %1 = "np.reduce"(%0) {axes = [1], keepdims = false, kind = "sum"} : (tensor<2x3xi32>) -> tensor<2xi32>
    %e = "np.constant"() {value = dense<[[0.0, 1.0], [1.0, 0.0]]> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %x = "np.constant"() {value = dense<[[1.0, 2.0], [3.0, 4.0]]> : tensor<2x2xf64>} : () -> tensor<2x2xf64>
    %2 = "np.matmul"(%e, %x) : (tensor<2x2xf64>, tensor<2x2xf64>) -> tensor<2x2xf64>
    %3 = "np.transpose"(%2) {perm = [1, 0]} : (tensor<2x2xf64>) -> tensor<2x2xf64>
    "func.return"(%0, %1, %3) : (tensor<2x3xi32>, tensor<2xi32>, tensor<2x2xf64>) -> ()
  }) {function_type = () -> (tensor<2x3xi32>, tensor<2xi32>, tensor<2x2xf64>), sym_name = "tensors"} : () -> ()
}) : () -> ()
