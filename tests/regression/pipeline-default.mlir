// RUN: grafo opt %s --pass-pipeline=canonicalize,cse,dce | filecheck %s

/// The default pipeline: (x * 1.0 + exp(x)) + (exp(x) + 2 * 3) keeps one exp and a folded 6.0.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: f64):
  // CHECK-DAG: %[[E:.*]] = "np.exp"(%[[X]])
  // CHECK-DAG: %[[SIX:.*]] = "np.constant"() {value = 6.0 : f64}
  // CHECK: %[[L:.*]] = "np.add"(%[[X]], %[[E]])
  // CHECK-NEXT: %[[R:.*]] = "np.add"(%[[E]], %[[SIX]])
  // CHECK-NEXT: %[[S:.*]] = "np.add"(%[[L]], %[[R]])
  // CHECK-NEXT: "func.return"(%[[S]])
  // CHECK-NOT: np.multiply
  // CHECK-NOT: np.sin
  // CHECK-LABEL: sym_name = "f"
  "func.func"() ({
  ^bb0(%x: f64):
    %one = "np.constant"() {value = 1.0 : f64} : () -> f64
    %two = "np.constant"() {value = 2.0 : f64} : () -> f64
    %three = "np.constant"() {value = 3.0 : f64} : () -> f64
    %e1 = "np.exp"(%x) : (f64) -> f64
    %e2 = "np.exp"(%x) : (f64) -> f64
    %m = "np.multiply"(%one, %x) : (f64, f64) -> f64
    %six = "np.multiply"(%two, %three) : (f64, f64) -> f64
    %l = "np.add"(%m, %e1) : (f64, f64) -> f64
    %r = "np.add"(%e2, %six) : (f64, f64) -> f64
    %unused = "np.sin"(%l) : (f64) -> f64
    %s = "np.add"(%l, %r) : (f64, f64) -> f64
    "func.return"(%s) : (f64) -> ()
  }) {function_type = (f64) -> f64, sym_name = "f"} : () -> ()
}) : () -> ()
