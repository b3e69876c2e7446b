// RUN: grafo ir %S/inputs/constructs.py:for_range --signature "f64, i64" --stage frontend | filecheck %s

/// for i in range(n) with a run-time n is an scf.for carrying s as an iter arg; its counter
/// is a signless i64 (as upstream scf.for requires) that the body reads as a Python int.

// CHECK: ^bb0(%[[X:.*]]: f64, %[[N:.*]]: i64):
// CHECK: %[[UB:.*]] = "np.astype"(%[[N]]) : (i64) -> !py.int
// CHECK: %[[UB64:.*]] = "np.astype"(%[[UB]]) : (!py.int) -> i64
// CHECK: %[[S:.*]] = "scf.for"(%{{.*}}, %[[UB64]], %{{.*}}, %[[X]]) ({
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[IP:.*]] = "np.astype"(%[[I]]) : (i64) -> !py.int
// CHECK-NEXT: %[[IF:.*]] = "np.astype"(%[[IP]]) : (!py.int) -> f64
// CHECK-NEXT: %[[NEXT:.*]] = "np.add"(%[[ACC]], %[[IF]])
// CHECK-NEXT: "scf.yield"(%[[NEXT]])
// CHECK: "func.return"(%[[S]])
// CHECK-LABEL: sym_name = "for_range"
