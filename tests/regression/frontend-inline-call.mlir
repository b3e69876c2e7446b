// RUN: grafo ir %S/inputs/constructs.py:inline_call --signature "f64" --stage frontend | filecheck %s

/// User functions are inlined, keyword and default arguments bound: no func.call remains.

// CHECK-NOT: func.call
// CHECK: "np.constant"() {value = 2.0 : f64}
// CHECK: "np.constant"() {value = 3.0 : f64}
// CHECK: "np.add"
// CHECK-NOT: func.call
// CHECK-LABEL: sym_name = "inline_call"
