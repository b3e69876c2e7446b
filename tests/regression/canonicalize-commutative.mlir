// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// Commutative ops get their constant operand second; other ops keep their operand order.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: i32):
  // CHECK-NEXT: %[[C:.*]] = "np.constant"() {value = 5 : i32}
  // CHECK-NEXT: %[[A:.*]] = "np.add"(%[[X]], %[[C]])
  // CHECK-NEXT: %[[M:.*]] = "np.maximum"(%[[A]], %[[C]])
  // CHECK-NEXT: %[[S:.*]] = "np.subtract"(%[[C]], %[[M]])
  // CHECK-NEXT: "func.return"(%[[S]])
  // CHECK-LABEL: sym_name = "commutative"
  "func.func"() ({
  ^bb0(%x: i32):
    %c = "np.constant"() {value = 5 : i32} : () -> i32
    %0 = "np.add"(%c, %x) : (i32, i32) -> i32
    %1 = "np.maximum"(%c, %0) : (i32, i32) -> i32
    %2 = "np.subtract"(%c, %1) : (i32, i32) -> i32
    "func.return"(%2) : (i32) -> ()
  }) {function_type = (i32) -> i32, sym_name = "commutative"} : () -> ()
}) : () -> ()
