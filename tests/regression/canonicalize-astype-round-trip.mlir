// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// astype(astype(x: i64 -> !py.int) -> i64) is x (lossless round trip); i64 -> i32 -> i64 is
/// not, since int32 cannot hold every int64.

"builtin.module"() ({
  // CHECK: ^bb0(%[[X:.*]]: i64):
  // CHECK-NEXT: %[[N:.*]] = "np.astype"(%[[X]]) : (i64) -> i32
  // CHECK-NEXT: %[[W:.*]] = "np.astype"(%[[N]]) : (i32) -> i64
  // CHECK-NEXT: "func.return"(%[[X]], %[[W]])
  // CHECK-LABEL: sym_name = "round_trip"
  "func.func"() ({
  ^bb0(%x: i64):
    %0 = "np.astype"(%x) : (i64) -> !py.int
    %1 = "np.astype"(%0) : (!py.int) -> i64
    %2 = "np.astype"(%x) : (i64) -> i32
    %3 = "np.astype"(%2) : (i32) -> i64
    "func.return"(%1, %3) : (i64, i64) -> ()
  }) {function_type = (i64) -> (i64, i64), sym_name = "round_trip"} : () -> ()
}) : () -> ()
