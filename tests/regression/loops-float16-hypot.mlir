// RUN: grafo ir %S/inputs/float16.py:hypot --signature "f16[?], f16[?]" --stage loops | filecheck %s

/// float16 hypot is NumPy's hypotf rounded to f16: sqrt(a*a + b*b) in f64 (exact for
/// halves), rounded to f32, then to f16.

// CHECK: "arith.extf"(%{{.*}}) : (f16) -> f64
// CHECK: "arith.extf"(%{{.*}}) : (f16) -> f64
// CHECK: %[[H:.*]] = "math.sqrt"(%{{.*}}) : (f64) -> f64
// CHECK: %[[F:.*]] = "arith.truncf"(%{{.*}}) : (f64) -> f32
// CHECK: %[[R:.*]] = "arith.truncf"(%[[F]]) : (f32) -> f16
// CHECK: "memref.store"(%[[R]]
// CHECK-LABEL: sym_name = "hypot"
