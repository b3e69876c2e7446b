// RUN: grafo ir %S/inputs/constructs.py:early_return --signature "f64" --stage frontend | filecheck %s

/// An early return guards the rest of the function with scf.if; sqrt runs only on the fall-through path.

// CHECK: "np.less"
// CHECK: %[[RET:.*]] = "scf.if"
// CHECK: %[[GO:.*]] = "np.logical_not"(%[[RET]])
// CHECK-NEXT: %[[GO1:.*]] = "np.astype"(%[[GO]]) : (!py.bool) -> i1
// CHECK-NEXT: %[[R:.*]]:2 = "scf.if"(%[[GO1]])
// CHECK-NEXT: "np.sqrt"
// CHECK: "func.return"(%[[R]]#1) : (f64) -> ()
// CHECK-LABEL: sym_name = "early_return"
