// RUN: grafo ir %S/inputs/constructs.py:weak_scalar --signature "f32[?]" --stage frontend | filecheck %s

/// A Python float times a float32 array stays float32 (NEP 50 weak scalars).

// CHECK: %[[C:.*]] = "np.constant"() {value = 2.5 : f32} : () -> f32
// CHECK-NEXT: "np.multiply"(%{{.*}}, %[[C]]) : (tensor<?xf32>, f32) -> tensor<?xf32>
// CHECK-NOT: f64
// CHECK-LABEL: sym_name = "weak_scalar"
