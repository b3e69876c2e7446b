// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// x + 0 is x for integers and bools; for floats only x + (-0.0) is (-0.0 + 0.0 is +0.0).

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: tensor<4xi32>):
  // CHECK-NOT: np.add
  // CHECK: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "add_zero_int"
  "func.func"() ({
  ^bb0(%x: tensor<4xi32>):
    %c = "np.constant"() {value = 0 : i32} : () -> i32
    %0 = "np.add"(%x, %c) : (tensor<4xi32>, i32) -> tensor<4xi32>
    "func.return"(%0) : (tensor<4xi32>) -> ()
  }) {function_type = (tensor<4xi32>) -> tensor<4xi32>, sym_name = "add_zero_int"} : () -> ()
  // CHECK: ^bb0(%[[B:.*]]: i1):
  // CHECK-NEXT: "func.return"(%[[B]])
  // CHECK-LABEL: sym_name = "add_false"
  "func.func"() ({
  ^bb0(%b: i1):
    %c = "np.constant"() {value = false} : () -> i1
    %0 = "np.add"(%b, %c) : (i1, i1) -> i1
    "func.return"(%0) : (i1) -> ()
  }) {function_type = (i1) -> i1, sym_name = "add_false"} : () -> ()
  // CHECK: ^bb0(%[[F:.*]]: f32):
  // CHECK-NEXT: "func.return"(%[[F]])
  // CHECK-LABEL: sym_name = "add_neg_zero"
  "func.func"() ({
  ^bb0(%f: f32):
    %c = "np.constant"() {value = -0.0 : f32} : () -> f32
    %0 = "np.add"(%f, %c) : (f32, f32) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "add_neg_zero"} : () -> ()
  // CHECK: ^bb0(%[[G:.*]]: f32):
  // CHECK-NEXT: %[[Z:.*]] = "np.constant"() {value = 0.0 : f32}
  // CHECK-NEXT: %[[S:.*]] = "np.add"(%[[G]], %[[Z]])
  // CHECK-NEXT: "func.return"(%[[S]])
  // CHECK-LABEL: sym_name = "add_pos_zero_kept"
  "func.func"() ({
  ^bb0(%g: f32):
    %c = "np.constant"() {value = 0.0 : f32} : () -> f32
    %0 = "np.add"(%g, %c) : (f32, f32) -> f32
    "func.return"(%0) : (f32) -> ()
  }) {function_type = (f32) -> f32, sym_name = "add_pos_zero_kept"} : () -> ()
}) : () -> ()
