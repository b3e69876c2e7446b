// RUN: grafo ir %S/inputs/conversions.py:compare_out_of_range --signature "u8[?]" --stage optimized | filecheck %s

/// A uint8 array against a Python int outside uint8 (== 256, < 1000) is decided without
/// reading it (NumPy 2 compares by value); one in range (> 7) compares in uint8.

// CHECK: ^bb0(%[[U:.*]]: tensor<?xui8>):
// CHECK: %[[N:.*]] = "np.dim"(%[[U]]) {index = 0 : i64}
// CHECK: %[[F:.*]] = "np.constant"() {value = false} : () -> i1
// CHECK: %[[EQ:.*]] = "np.full"(%[[F]], %[[N]]) : (i1, !py.int) -> tensor<?xi1>
// CHECK: %[[T:.*]] = "np.constant"() {value = true} : () -> i1
// CHECK: %[[LT:.*]] = "np.full"(%[[T]], %[[N]]) : (i1, !py.int) -> tensor<?xi1>
// CHECK: %[[SEVEN:.*]] = "np.constant"() {value = 7 : ui8} : () -> ui8
// CHECK: %[[GT:.*]] = "np.greater"(%[[U]], %[[SEVEN]]) : (tensor<?xui8>, ui8) -> tensor<?xi1>
// CHECK: "func.return"(%[[EQ]], %[[LT]], %[[GT]])
// CHECK-LABEL: sym_name = "compare_out_of_range"
