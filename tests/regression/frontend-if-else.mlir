// RUN: grafo ir %S/inputs/constructs.py:if_else --signature "f64" --stage frontend | filecheck %s

/// A run-time if/else becomes scf.if yielding the variable assigned in both branches.

// CHECK: ^bb0(%[[X:.*]]: f64):
// CHECK: %[[C:.*]] = "np.greater"(%[[X]], %{{.*}}) : (f64, f64) -> i1
// CHECK-NEXT: %[[Y:.*]] = "scf.if"(%[[C]]) ({
// CHECK: "np.multiply"(%[[X]]
// CHECK: "scf.yield"
// CHECK: }, {
// CHECK-NEXT: %[[N:.*]] = "np.negative"(%[[X]])
// CHECK-NEXT: "scf.yield"(%[[N]])
// CHECK: }) : (i1) -> f64
// CHECK-NEXT: "func.return"(%[[Y]])
// CHECK-LABEL: sym_name = "if_else"
