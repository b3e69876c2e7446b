// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// x / 1.0 and integer x // 1 are x; float x // 1.0 is floor(x) and stays.

"builtin.module"() ({
  // CHECK: ^bb0(%[[F:.*]]: f64):
  // CHECK-NEXT: "func.return"(%[[F]])
  // CHECK-LABEL: sym_name = "div_one"
  "func.func"() ({
  ^bb0(%f: f64):
    %c = "np.constant"() {value = 1.0 : f64} : () -> f64
    %0 = "np.divide"(%f, %c) : (f64, f64) -> f64
    "func.return"(%0) : (f64) -> ()
  }) {function_type = (f64) -> f64, sym_name = "div_one"} : () -> ()
  // CHECK: ^bb0(%[[X:.*]]: i32):
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "floordiv_one_int"
  "func.func"() ({
  ^bb0(%x: i32):
    %c = "np.constant"() {value = 1 : i32} : () -> i32
    %0 = "np.floor_divide"(%x, %c) : (i32, i32) -> i32
    "func.return"(%0) : (i32) -> ()
  }) {function_type = (i32) -> i32, sym_name = "floordiv_one_int"} : () -> ()
  // CHECK: "np.floor_divide"
  // CHECK-LABEL: sym_name = "floordiv_one_float_kept"
  "func.func"() ({
  ^bb0(%f: f64):
    %c = "np.constant"() {value = 1.0 : f64} : () -> f64
    %0 = "np.floor_divide"(%f, %c) : (f64, f64) -> f64
    "func.return"(%0) : (f64) -> ()
  }) {function_type = (f64) -> f64, sym_name = "floordiv_one_float_kept"} : () -> ()
}) : () -> ()
