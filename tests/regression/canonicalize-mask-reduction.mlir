// RUN: grafo opt %s --pass-pipeline=canonicalize,cse,dce | filecheck %s

/// sum(x[m]) and len(x[m]) read x and m directly (no np.mask_select left); one IndexError
/// check of the dims stays; a partial mask (rows of a 2-D x) keeps its selection.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<?xf64>, %[[M:.*]]: tensor<?xi1>):
  // CHECK: "grafo.check"
  // CHECK-SAME: boolean index did not match indexed array along axis 0
  // CHECK-NOT: "grafo.check"
  // CHECK: %[[Z:.*]] = "np.constant"() {value = -0.0 : f64}
  // CHECK: %[[W:.*]] = "np.where"(%[[M]], %[[X]], %[[Z]])
  // CHECK: %[[S:.*]] = "np.reduce"(%[[W]]) {axes = [0 : i64], kind = "sum"}
  // CHECK: %[[C:.*]] = "np.astype"(%[[M]]) : (tensor<?xi1>) -> tensor<?xi64>
  // CHECK: "np.reduce"(%[[C]]) {axes = [0 : i64], kind = "sum"}
  // CHECK-NOT: np.mask_select
  // CHECK-LABEL: sym_name = "masked_mean"
  "func.func"() ({
  ^bb0(%x: tensor<?xf64>, %m: tensor<?xi1>):
    %s = "np.mask_select"(%x, %m) : (tensor<?xf64>, tensor<?xi1>) -> tensor<?xf64>
    %0 = "np.reduce"(%s) {axes = [0 : i64], keepdims = false, kind = "sum"} : (tensor<?xf64>) -> f64
    %1 = "np.dim"(%s) {index = 0 : i64} : (tensor<?xf64>) -> !py.int
    %2 = "np.astype"(%1) : (!py.int) -> f64
    %3 = "np.divide"(%0, %2) : (f64, f64) -> f64
    "func.return"(%3) : (f64) -> ()
  }) {function_type = (tensor<?xf64>, tensor<?xi1>) -> f64, sym_name = "masked_mean"} : () -> ()
  // CHECK: ^bb0(%[[X:.*]]: tensor<8xi32>, %[[M:.*]]: tensor<8xi1>):
  // CHECK-NOT: "grafo.check"
  // CHECK: %[[Z:.*]] = "np.constant"() {value = 0 : i32}
  // CHECK: "np.where"(%[[M]], %[[X]], %[[Z]])
  // CHECK-NOT: np.mask_select
  // CHECK-LABEL: sym_name = "masked_sum_static"
  "func.func"() ({
  ^bb0(%x: tensor<8xi32>, %m: tensor<8xi1>):
    %s = "np.mask_select"(%x, %m) : (tensor<8xi32>, tensor<8xi1>) -> tensor<?xi32>
    %0 = "np.reduce"(%s) {axes = [0 : i64], keepdims = false, kind = "sum"} : (tensor<?xi32>) -> i32
    "func.return"(%0) : (i32) -> ()
  }) {function_type = (tensor<8xi32>, tensor<8xi1>) -> i32, sym_name = "masked_sum_static"} : () -> ()
  // CHECK: "np.mask_select"
  // CHECK: "np.reduce"
  // CHECK-LABEL: sym_name = "row_mask_kept"
  "func.func"() ({
  ^bb0(%x: tensor<?x4xf64>, %m: tensor<?xi1>):
    %s = "np.mask_select"(%x, %m) : (tensor<?x4xf64>, tensor<?xi1>) -> tensor<?x4xf64>
    %0 = "np.reduce"(%s) {axes = [0 : i64], keepdims = false, kind = "sum"} : (tensor<?x4xf64>) -> tensor<4xf64>
    "func.return"(%0) : (tensor<4xf64>) -> ()
  }) {function_type = (tensor<?x4xf64>, tensor<?xi1>) -> tensor<4xf64>, sym_name = "row_mask_kept"} : () -> ()
}) : () -> ()
