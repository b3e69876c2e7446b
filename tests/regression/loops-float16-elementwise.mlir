// RUN: grafo ir %S/inputs/float16.py:fused --signature "f16[?], f16[?], f16[?]" --stage loops | filecheck %s

/// float16 a * b + c is two of NumPy's float16 ufuncs: each computes in f32 and rounds to
/// f16 (arith.truncf) before the next one reads it; results are stored as f16.

// CHECK: %[[A:.*]] = "memref.load"(%arg0, {{.*}}) : ({{.*}}) -> f16
// CHECK: %[[B:.*]] = "memref.load"(%arg1, {{.*}}) : ({{.*}}) -> f16
// CHECK: %[[WA:.*]] = "arith.extf"(%[[A]]) : (f16) -> f32
// CHECK: %[[WB:.*]] = "arith.extf"(%[[B]]) : (f16) -> f32
// CHECK: %[[P:.*]] = "arith.mulf"(%[[WA]], %[[WB]]) : (f32, f32) -> f32
// CHECK: %[[P16:.*]] = "arith.truncf"(%[[P]]) : (f32) -> f16
// CHECK: %[[C:.*]] = "memref.load"(%arg2, {{.*}}) : ({{.*}}) -> f16
// CHECK: %[[WP:.*]] = "arith.extf"(%[[P16]]) : (f16) -> f32
// CHECK: %[[WC:.*]] = "arith.extf"(%[[C]]) : (f16) -> f32
// CHECK: %[[S:.*]] = "arith.addf"(%[[WP]], %[[WC]]) : (f32, f32) -> f32
// CHECK: %[[S16:.*]] = "arith.truncf"(%[[S]]) : (f32) -> f16
// CHECK: "memref.store"(%[[S16]], {{.*}}) : (f16, memref<?xf16>, index) -> ()
// CHECK-LABEL: sym_name = "fused"
