// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// astype to the operand's own type is removed; a real conversion stays, and so does a copy
/// into C or Fortran order (ndarray.copy of a possibly transposed array, np.asfortranarray:
/// a float sum's order reads it).

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
  // CHECK: ^bb0(%[[Y:.*]]: tensor<2x3xf32>):
  // CHECK-NEXT: %[[C:.*]] = "np.astype"(%[[Y]]) {order = "C"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: "func.return"(%[[C]])
  // CHECK-LABEL: sym_name = "c_copy"
  "func.func"() ({
  ^bb0(%y: tensor<2x3xf32>):
    %0 = "np.astype"(%y) {order = "C"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%0) : (tensor<2x3xf32>) -> ()
  }) {function_type = (tensor<2x3xf32>) -> tensor<2x3xf32>, sym_name = "c_copy"} : () -> ()
  // CHECK: ^bb0(%[[Z:.*]]: tensor<2x3xf32>):
  // CHECK-NEXT: %[[F:.*]] = "np.astype"(%[[Z]]) {order = "F"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  // CHECK-NEXT: "func.return"(%[[F]])
  // CHECK-LABEL: sym_name = "f_copy"
  "func.func"() ({
  ^bb0(%z: tensor<2x3xf32>):
    %0 = "np.astype"(%z) {order = "F"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
    "func.return"(%0) : (tensor<2x3xf32>) -> ()
  }) {function_type = (tensor<2x3xf32>) -> tensor<2x3xf32>, sym_name = "f_copy"} : () -> ()
}) : () -> ()
