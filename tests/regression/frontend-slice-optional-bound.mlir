// RUN: grafo ir %S/inputs/constructs.py:optional_stop --signature "f64[?], i64" --stage frontend | filecheck %s

/// a[:k or None] picks k or 2**63 - 1 (which slice.indices clamps as it clamps None) at run time.

// CHECK: %[[IF:.*]]:2 = "scf.if"
// CHECK: %[[HAS:.*]] = "np.astype"(%[[IF]]#0) : (!py.bool) -> i1
// CHECK: %[[K:.*]] = "np.astype"(%[[IF]]#1) : (i64) -> !py.int
// CHECK: %[[END:.*]] = "np.constant"() {value = 9223372036854775807 : i64} : () -> !py.int
// CHECK: %[[STOP:.*]] = "np.where"(%[[HAS]], %[[K]], %[[END]])
// CHECK: "np.subscript"(%{{.*}}, %[[STOP]]) {bounds = ["none", "?", "none"], spec = ["s"]}
// CHECK-LABEL: sym_name = "optional_stop"
