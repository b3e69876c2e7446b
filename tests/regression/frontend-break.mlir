// RUN: grafo ir %S/inputs/constructs.py:break_loop --signature "i64" --stage frontend | filecheck %s

/// break in a for loop carries a !py.bool 'broke' flag that guards the rest of the body.

// CHECK: %[[F:.*]] = "np.constant"() {value = false} : () -> !py.bool
// CHECK: %[[R:.*]]:2 = "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[F]])
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %{{.*}}: !py.int, %[[BROKE:.*]]: !py.bool):
// CHECK: %[[GO:.*]] = "np.logical_not"(%[[BROKE]])
// CHECK-NEXT: %[[GO1:.*]] = "np.astype"(%[[GO]]) : (!py.bool) -> i1
// CHECK-NEXT: "scf.if"(%[[GO1]])
// CHECK: "func.return"(%[[R]]#0) : (!py.int) -> ()
// CHECK-LABEL: sym_name = "break_loop"
