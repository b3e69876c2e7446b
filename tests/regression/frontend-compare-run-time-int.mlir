// RUN: grafo ir %S/inputs/conversions.py:compare_run_time_int --signature "u8[?], i64" --stage optimized | filecheck %s

/// u < i for a run-time Python int i: the uint8 comparison where 0 <= i <= 255, else the
/// answer of a value above (i > 0) or below every uint8, never a wrapped i.

// CHECK: "scf.for"
// CHECK: ^bb0(%[[I:.*]]: i64, %{{.*}}: tensor<?xi1>):
// CHECK: %[[K:.*]] = "np.astype"(%[[I]]) : (i64) -> !py.int
// CHECK: %[[GE:.*]] = "np.greater_equal"(%[[K]], %{{.*}}) : (!py.int, !py.int) -> !py.bool
// CHECK: %[[LE:.*]] = "np.less_equal"(%[[K]], %{{.*}}) : (!py.int, !py.int) -> !py.bool
// CHECK: %[[FITS:.*]] = "np.logical_and"
// CHECK: %[[ABOVE:.*]] = "np.greater"(%[[I]], %{{.*}}) : (i64, i64) -> i1
// CHECK: %[[K8:.*]] = "np.astype"(%[[K]]) : (!py.int) -> ui8
// CHECK: %[[LT:.*]] = "np.less"(%{{.*}}, %[[K8]]) : (tensor<?xui8>, ui8) -> tensor<?xi1>
// CHECK: "np.where"(%[[FITS]], %[[LT]], %[[ABOVE]]) : (i1, tensor<?xi1>, i1) -> tensor<?xi1>
// CHECK-LABEL: sym_name = "compare_run_time_int"
