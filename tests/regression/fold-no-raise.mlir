// RUN: grafo opt %s --pass-pipeline=fold,dce | filecheck %s

/// Ops whose evaluation raises are not folded: they must still fail at run time.

"builtin.module"() ({
  // CHECK: %[[G:.*]] = "np.subscript"
  // CHECK-NEXT: "func.return"(%[[G]])
  // CHECK-LABEL: sym_name = "out_of_range"
  "func.func"() ({
    %a = "np.constant"() {value = dense<[1, 2, 3]> : tensor<3xi64>} : () -> tensor<3xi64>
    %i = "np.constant"() {value = 5 : i64} : () -> !py.int
    %0 = "np.subscript"(%a, %i) {spec = ["i"]} : (tensor<3xi64>, !py.int) -> i64
    "func.return"(%0) : (i64) -> ()
  }) {function_type = () -> i64, sym_name = "out_of_range"} : () -> ()
  // CHECK: %[[D:.*]] = "np.floor_divide"
  // CHECK-NEXT: "func.return"(%[[D]])
  // CHECK-LABEL: sym_name = "python_division_by_zero"
  "func.func"() ({
    %one = "np.constant"() {value = 1 : i64} : () -> !py.int
    %zero = "np.constant"() {value = 0 : i64} : () -> !py.int
    %0 = "np.floor_divide"(%one, %zero) : (!py.int, !py.int) -> !py.int
    "func.return"(%0) : (!py.int) -> ()
  }) {function_type = () -> !py.int, sym_name = "python_division_by_zero"} : () -> ()
  // CHECK: %[[M:.*]] = "np.reduce"
  // CHECK-NEXT: "func.return"(%[[M]])
  // CHECK-LABEL: sym_name = "max_of_empty"
  "func.func"() ({
    %e = "np.constant"() {value = dense<0.0> : tensor<0xf32>} : () -> tensor<0xf32>
    %0 = "np.reduce"(%e) {axes = [0], keepdims = false, kind = "max"} : (tensor<0xf32>) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = () -> f32, sym_name = "max_of_empty"} : () -> ()
}) : () -> ()
