// RUN: grafo ir %S/inputs/constructs.py:if_else --signature "f64" --stage loops | filecheck %s

/// A scalar scf.if survives lowering with arith ops: cmpf ogt (predicate 2), mulf and negf.

// CHECK: ^bb0(%[[X:.*]]: f64):
// CHECK: %[[C:.*]] = "arith.cmpf"(%[[X]], %{{.*}}) {predicate = 2 : i64}
// CHECK-NEXT: %[[R:.*]] = "scf.if"(%[[C]])
// CHECK-NEXT: "arith.mulf"(%[[X]]
// CHECK: "arith.negf"(%[[X]])
// CHECK: "func.return"(%[[R]])
// CHECK-LABEL: sym_name = "if_else"
