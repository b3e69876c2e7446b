// RUN: grafo ir %S/inputs/constructs.py:while_loop --signature "f64" --stage loops | filecheck %s

/// scf.while at loop level compares with cmpf olt (predicate 4).

// CHECK: "scf.while"
// CHECK: %[[C:.*]] = "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = 4 : i64}
// CHECK-NEXT: "scf.condition"(%[[C]]
// CHECK: "arith.mulf"
// CHECK-LABEL: sym_name = "while_loop"
