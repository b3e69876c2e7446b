// RUN: grafo ir %S/inputs/constructs.py:chained_compare --signature "f64" --stage frontend | filecheck %s

/// 0 < x < 1 evaluates the second comparison only when the first holds (scf.if).

// CHECK: ^bb0(%[[X:.*]]: f64):
// CHECK: %[[C1:.*]] = "np.less"(%{{.*}}, %[[X]])
// CHECK-NEXT: %[[R:.*]] = "scf.if"(%[[C1]])
// CHECK: %[[C2:.*]] = "np.less"(%[[X]], %{{.*}})
// CHECK-NEXT: "scf.yield"(%[[C2]])
// CHECK-NEXT: }, {
// CHECK-NEXT: "scf.yield"(%[[C1]])
// CHECK: "func.return"(%[[R]]) : (i1) -> ()
// CHECK-LABEL: sym_name = "chained_compare"
