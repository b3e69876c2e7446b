// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// Rewrites and folds repeat until nothing changes: ((1 * x) + (2 - 2)) - 0 becomes x.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: i64):
  // CHECK-NEXT: "func.return"(%[[X]])
  // CHECK-LABEL: sym_name = "chain"
  "func.func"() ({
  ^bb0(%x: i64):
    %one = "np.constant"() {value = 1 : i64} : () -> i64
    %two = "np.constant"() {value = 2 : i64} : () -> i64
    %zero = "np.constant"() {value = 0 : i64} : () -> i64
    %0 = "np.multiply"(%one, %x) : (i64, i64) -> i64
    %1 = "np.subtract"(%two, %two) : (i64, i64) -> i64
    %2 = "np.add"(%0, %1) : (i64, i64) -> i64
    %3 = "np.subtract"(%2, %zero) : (i64, i64) -> i64
    "func.return"(%3) : (i64) -> ()
  }) {function_type = (i64) -> i64, sym_name = "chain"} : () -> ()
}) : () -> ()
