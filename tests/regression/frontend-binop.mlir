// RUN: grafo ir %S/inputs/constructs.py:binop --signature "f64, f64, f64" --stage frontend | filecheck %s

/// a + b * c: multiply first, its result feeds the add.

// CHECK: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64, %[[C:.*]]: f64):
// CHECK-NEXT: %[[M:.*]] = "np.multiply"(%[[B]], %[[C]]) : (f64, f64) -> f64
// CHECK-NEXT: %[[S:.*]] = "np.add"(%[[A]], %[[M]]) : (f64, f64) -> f64
// CHECK-NEXT: "func.return"(%[[S]])
// CHECK-LABEL: sym_name = "binop"
