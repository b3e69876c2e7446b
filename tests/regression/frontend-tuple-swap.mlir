// RUN: grafo ir %S/inputs/constructs.py:tuple_swap --signature "f64, f64" --stage frontend | filecheck %s

/// a, b = b, a swaps the bindings without any op: a - b subtracts the arguments in swapped order.

// CHECK: ^bb0(%[[A:.*]]: f64, %[[B:.*]]: f64):
// CHECK-NEXT: %[[D:.*]] = "np.subtract"(%[[B]], %[[A]])
// CHECK-NEXT: "func.return"(%[[D]])
// CHECK-LABEL: sym_name = "tuple_swap"
