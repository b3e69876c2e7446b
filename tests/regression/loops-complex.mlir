// RUN: grafo ir %S/inputs/constructs.py:complex_ops --signature "c128[?], c128[?]" --stage loops | filecheck %s

/// Complex arrays lower to complex ops on complex<f64> elements: multiplication as NumPy's
/// FMA loop on the parts, division as complex.div, abs as NumPy's SIMD formula (no hypot).

// CHECK: "memref.alloc"{{.*}} -> memref<?xcomplex<f64>>
// CHECK: %[[A:.*]] = "memref.load"{{.*}} -> complex<f64>
// CHECK: %[[B:.*]] = "memref.load"{{.*}} -> complex<f64>
// CHECK: "complex.re"(%[[A]]) : (complex<f64>) -> f64
// CHECK: "math.fma"
// CHECK: %[[PROD:.*]] = "complex.create"
// CHECK: %[[QUO:.*]] = "complex.div"
// CHECK: "complex.add"(%[[PROD]], %[[QUO]])
// CHECK: "memref.store"{{.*}} : (complex<f64>, memref<?xcomplex<f64>>, index) -> ()
// CHECK: "memref.alloc"{{.*}} -> memref<?xf64>
// CHECK: "math.sqrt"
// CHECK-NOT: "complex.abs"
// CHECK-LABEL: sym_name = "complex_ops"
