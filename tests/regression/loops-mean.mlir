// RUN: grafo ir %S/inputs/constructs.py:mean_all --signature "f64[?]" --stage loops | filecheck %s

/// np.mean divides the sum by the element count converted from index to f64.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf64, strided<[?], offset: ?>>):
// CHECK: %[[N:.*]] = "memref.dim"(%[[A]], %{{.*}})
// CHECK: %[[NI:.*]] = "arith.index_cast"(%[[N]]) : (index) -> i64
// CHECK-NEXT: %[[NF:.*]] = "arith.sitofp"(%[[NI]]) : (i64) -> f64
// CHECK-NEXT: %[[M:.*]] = "arith.divf"(%{{.*}}, %[[NF]])
// CHECK-NEXT: "func.return"(%[[M]])
// CHECK-LABEL: sym_name = "mean_all"
