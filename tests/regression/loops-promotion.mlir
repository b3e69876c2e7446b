// RUN: grafo ir %S/inputs/constructs.py:promotion --signature "i32[?], f64[?]" --stage loops | filecheck %s

/// int32 + float64 converts the int32 element with sitofp inside the fused loop, no temporary.

// CHECK: %[[OUT:.*]] = "memref.alloc"
// CHECK-NOT: "memref.alloc"
// CHECK: %[[I:.*]] = "memref.load"(%{{.*}}) : (memref<?xi32, strided<[?], offset: ?>>, index) -> i32
// CHECK-NEXT: %[[F:.*]] = "arith.sitofp"(%[[I]]) : (i32) -> f64
// CHECK: "arith.addf"(%[[F]], %{{.*}})
// CHECK-LABEL: sym_name = "promotion"
