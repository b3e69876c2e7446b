// RUN: grafo ir %S/inputs/constructs.py:while_loop --signature "f64" --stage frontend | filecheck %s

/// A while loop is scf.while: the test in the before region, the body in the after region.

// CHECK: ^bb0(%[[X:.*]]: f64):
// CHECK-NEXT: %[[R:.*]] = "scf.while"(%[[X]]) ({
// CHECK-NEXT: ^bb0(%[[B:.*]]: f64):
// CHECK: %[[C:.*]] = "np.less"(%[[B]], %{{.*}})
// CHECK-NEXT: "scf.condition"(%[[C]], %[[B]])
// CHECK-NEXT: }, {
// CHECK-NEXT: ^bb0(%[[A:.*]]: f64):
// CHECK: %[[M:.*]] = "np.multiply"(%[[A]], %{{.*}})
// CHECK-NEXT: "scf.yield"(%[[M]])
// CHECK: "func.return"(%[[R]])
// CHECK-LABEL: sym_name = "while_loop"
