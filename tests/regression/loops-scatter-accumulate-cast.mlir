// RUN: grafo ir %S/inputs/ufunc_methods.py:maximum_at_int --signature "i32[?], i64[?]" --stage loops | filecheck %s

/// np.maximum.at of an int32 array with a Python float: NumPy's float64 loop, so each
/// element is widened, combined with NaN-propagating maximum and truncated back.

// CHECK: %[[B:.*]] = "arith.constant"() {value = 2.5 : f64}
// CHECK: %[[OLD:.*]] = "memref.load"(%[[A:.*]], %[[W:.*]]) : (memref<?xi32, {{.*}}>, index) -> i32
// CHECK-NEXT: %[[WIDE:.*]] = "arith.sitofp"(%[[OLD]]) : (i32) -> f64
// CHECK: %[[MAX:.*]] = "arith.select"(%{{.*}}, %[[WIDE]], %[[B]])
// CHECK-NEXT: %[[BACK:.*]] = "arith.fptosi"(%[[MAX]]) : (f64) -> i32
// CHECK-NEXT: "memref.store"(%[[BACK]], %[[A]], %[[W]])
// CHECK-LABEL: sym_name = "maximum_at_int"
