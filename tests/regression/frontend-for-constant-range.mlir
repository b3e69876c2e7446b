// RUN: grafo ir %S/inputs/constructs.py:for_unrolled --signature "f64" --stage frontend | filecheck %s

/// range(3) with constant bounds is an scf.for from 0 to 3 step 1.

// CHECK-DAG: %[[LB:.*]] = "np.constant"() {value = 0 : i64} : () -> !py.int
// CHECK-DAG: %[[UB:.*]] = "np.constant"() {value = 3 : i64} : () -> !py.int
// CHECK-DAG: %[[ST:.*]] = "np.constant"() {value = 1 : i64} : () -> !py.int
// CHECK-DAG: %[[LB64:.*]] = "np.astype"(%[[LB]]) : (!py.int) -> i64
// CHECK-DAG: %[[UB64:.*]] = "np.astype"(%[[UB]]) : (!py.int) -> i64
// CHECK-DAG: %[[ST64:.*]] = "np.astype"(%[[ST]]) : (!py.int) -> i64
// CHECK: "scf.for"(%[[LB64]], %[[UB64]], %[[ST64]], %{{.*}})
// CHECK: "np.multiply"
// CHECK-LABEL: sym_name = "for_unrolled"
