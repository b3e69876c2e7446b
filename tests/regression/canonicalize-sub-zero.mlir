// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// x - 0 is x for integers, x - 0.0 is x for floats, but x - (-0.0) is not (-0.0 - -0.0 = +0.0).

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: i64):
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "sub_zero_int"
  "func.func"() ({
  ^bb0(%x: i64):
    %c = "np.constant"() {value = 0 : i64} : () -> i64
    %0 = "np.subtract"(%x, %c) : (i64, i64) -> i64
    "func.return"(%0) : (i64) -> ()
  }) {function_type = (i64) -> i64, sym_name = "sub_zero_int"} : () -> ()
  // CHECK: ^bb0(%[[F:.*]]: f64):
  // CHECK-NEXT: "func.return"(%[[F]])
  // CHECK-LABEL: sym_name = "sub_pos_zero"
  "func.func"() ({
  ^bb0(%f: f64):
    %c = "np.constant"() {value = 0.0 : f64} : () -> f64
    %0 = "np.subtract"(%f, %c) : (f64, f64) -> f64
    "func.return"(%0) : (f64) -> ()
  }) {function_type = (f64) -> f64, sym_name = "sub_pos_zero"} : () -> ()
  // CHECK: %[[S:.*]] = "np.subtract"
  // CHECK-NEXT: "func.return"(%[[S]])
  // CHECK-LABEL: sym_name = "sub_neg_zero_kept"
  "func.func"() ({
  ^bb0(%f: f64):
    %c = "np.constant"() {value = -0.0 : f64} : () -> f64
    %0 = "np.subtract"(%f, %c) : (f64, f64) -> f64
    "func.return"(%0) : (f64) -> ()
  }) {function_type = (f64) -> f64, sym_name = "sub_neg_zero_kept"} : () -> ()
  // CHECK: "np.subtract"
  // CHECK-LABEL: sym_name = "zero_minus_x_kept"
  "func.func"() ({
  ^bb0(%x: i32):
    %c = "np.constant"() {value = 0 : i32} : () -> i32
    %0 = "np.subtract"(%c, %x) : (i32, i32) -> i32
    "func.return"(%0) : (i32) -> ()
  }) {function_type = (i32) -> i32, sym_name = "zero_minus_x_kept"} : () -> ()
}) : () -> ()
