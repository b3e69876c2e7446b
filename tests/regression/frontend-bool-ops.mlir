// RUN: grafo ir %S/inputs/constructs.py:bool_ops --signature "f64, f64" --stage frontend | filecheck %s

/// `and` short-circuits: b > 0 is evaluated inside scf.if, the false left operand is yielded otherwise.

// CHECK: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64):
// CHECK: %[[L:.*]] = "np.greater"(%[[A]]
// CHECK-NEXT: "scf.if"(%[[L]])
// CHECK: "np.greater"(%[[B]]
// CHECK: }, {
// CHECK-NEXT: "scf.yield"(%[[L]])
// CHECK-LABEL: sym_name = "bool_ops"
