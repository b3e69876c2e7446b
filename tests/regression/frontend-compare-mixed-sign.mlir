// RUN: grafo ir %S/inputs/conversions.py:compare_mixed_sign --signature "u64[?], i64" --stage optimized | filecheck %s

/// uint64 < int64 compares exactly (NumPy's Qq->? loop): in uint64 where the int64 is not
/// negative, else false; not in float64, which rounds both.

// CHECK: ^bb0(%[[U:.*]]: tensor<?xui64>, %[[S:.*]]: i64):
// CHECK: %[[FITS:.*]] = "np.greater_equal"(%[[S]], %{{.*}}) : (i64, i64) -> i1
// CHECK: %[[SU:.*]] = "np.astype"(%[[S]]) : (i64) -> ui64
// CHECK: %[[LT:.*]] = "np.less"(%[[U]], %[[SU]]) : (tensor<?xui64>, ui64) -> tensor<?xi1>
// CHECK: %[[NO:.*]] = "np.constant"() {value = false} : () -> i1
// CHECK: "np.where"(%[[FITS]], %[[LT]], %[[NO]]) : (i1, tensor<?xi1>, i1) -> tensor<?xi1>
// CHECK-NOT: f64
// CHECK-LABEL: sym_name = "compare_mixed_sign"
