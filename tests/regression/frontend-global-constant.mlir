// RUN: grafo ir %S/inputs/constructs.py:global_constant --signature "f64" --stage frontend | filecheck %s

/// A module-level Python float is a compile-time constant.

// CHECK: %[[C:.*]] = "np.constant"() {value = 3.0 : f64} : () -> f64
// CHECK-NEXT: "np.multiply"(%{{.*}}, %[[C]])
// CHECK-LABEL: sym_name = "global_constant"
