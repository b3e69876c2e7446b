// RUN: grafo ir %S/inputs/constructs.py:ternary --signature "f64" --stage frontend | filecheck %s

/// x if c else 0.0 is an scf.if whose then region yields x itself.

// CHECK: ^bb0(%[[X:.*]]: f64):
// CHECK: %[[R:.*]] = "scf.if"
// CHECK-NEXT: "scf.yield"(%[[X]]) : (f64) -> ()
// CHECK-NEXT: }, {
// CHECK-NEXT: %[[Z:.*]] = "np.constant"() {value = 0.0 : f64}
// CHECK-NEXT: "scf.yield"(%[[Z]])
// CHECK: "func.return"(%[[R]])
// CHECK-LABEL: sym_name = "ternary"
