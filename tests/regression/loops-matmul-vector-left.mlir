// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[90], f32[90,96]" --stage loops | filecheck %s

/// A 1-D left operand under BLAS's gemv threshold is one row for the blocked kernel: it fills a 1 x 96 buffer with 1-row
/// tiles (32 accumulators) from packed B, and the result vector reads row 0 of it.

// CHECK: ^bb0(%[[V:.*]]: memref<90xf32, strided<[?], offset: ?>>, %[[B:.*]]: memref<90x96xf32, strided<[?, ?], offset: ?>>):
// CHECK: %[[ROW:.*]] = "memref.alloc"() {{.*}} -> memref<1x96xf32>
// CHECK: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<90x112xf32>
// CHECK: %{{.*}}:32 = "scf.for"
// CHECK: "memref.load"(%[[V]]
// CHECK: "math.fma"
// CHECK: %[[R:.*]] = "memref.alloc"() {{.*}} -> memref<96xf32>
// CHECK: %[[X:.*]] = "memref.load"(%[[ROW]], %{{.*}}, %[[J:[^)]*]])
// CHECK-NEXT: "memref.store"(%[[X]], %[[R]], %[[J]])
// CHECK: "func.return"(%[[R]])
