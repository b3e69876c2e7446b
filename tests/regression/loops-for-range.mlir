// RUN: grafo ir %S/inputs/constructs.py:for_range --signature "f64, i64" --stage loops | filecheck %s

/// range(n) lowers to an scf.for over i64 bounds; i is converted with sitofp.

// CHECK: ^bb0(%[[X:.*]]: f64, %[[N:.*]]: i64):
// CHECK: %[[R:.*]] = "scf.for"(%{{.*}}, %[[N]], %{{.*}}, %[[X]])
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64, %[[ACC:.*]]: f64):
// CHECK-NEXT: %[[F:.*]] = "arith.sitofp"(%[[I]]) : (i64) -> f64
// CHECK-NEXT: %[[S:.*]] = "arith.addf"(%[[ACC]], %[[F]])
// CHECK-NEXT: "scf.yield"(%[[S]])
// CHECK: "func.return"(%[[R]])
// CHECK-LABEL: sym_name = "for_range"
