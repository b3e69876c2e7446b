// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// max(x, x), min(x, x), x & x, x | x are x; abs(abs(x)) and floor(floor(x)) are one op.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: f32, %[[I:.*]]: i64):
  // CHECK-NEXT: "func.return"(%[[X]], %[[X]], %[[I]], %[[I]])
  // CHECK-LABEL: sym_name = "same_operands"
  "func.func"() ({
  ^bb0(%x: f32, %i: i64):
    %0 = "np.maximum"(%x, %x) : (f32, f32) -> f32
    %1 = "np.minimum"(%x, %x) : (f32, f32) -> f32
    %2 = "np.bitwise_and"(%i, %i) : (i64, i64) -> i64
    %3 = "np.bitwise_or"(%i, %i) : (i64, i64) -> i64
    "func.return"(%0, %1, %2, %3) : (f32, f32, i64, i64) -> ()
  }) {function_type = (f32, i64) -> (f32, f32, i64, i64), sym_name = "same_operands"} : () -> ()
  // CHECK: ^bb0(%[[Y:.*]]: f64):
  // CHECK-NEXT: %[[A:.*]] = "np.absolute"(%[[Y]])
  // CHECK-NEXT: %[[F:.*]] = "np.floor"(%[[Y]])
  // CHECK-NEXT: "func.return"(%[[A]], %[[F]])
  // CHECK-LABEL: sym_name = "idempotent"
  "func.func"() ({
  ^bb0(%y: f64):
    %0 = "np.absolute"(%y) : (f64) -> f64
    %1 = "np.absolute"(%0) : (f64) -> f64
    %2 = "np.floor"(%y) : (f64) -> f64
    %3 = "np.floor"(%2) : (f64) -> f64
    "func.return"(%1, %3) : (f64, f64) -> ()
  }) {function_type = (f64) -> (f64, f64), sym_name = "idempotent"} : () -> ()
}) : () -> ()
