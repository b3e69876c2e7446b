// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[700], f32[700,3000]" --stage loops | filecheck %s

/// A 1-D left operand is one row for the blocked kernel: it fills a 1 x 3000 buffer with 1-row
/// tiles (32 accumulators) from packed B, and the result vector reads row 0 of it.

// CHECK: ^bb0(%[[V:.*]]: memref<700xf32, strided<[?], offset: ?>>, %[[B:.*]]: memref<700x3000xf32, strided<[?, ?], offset: ?>>):
// CHECK: %[[ROW:.*]] = "memref.alloc"() {{.*}} -> memref<1x3000xf32>
// CHECK: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<256x272xf32>
// CHECK: %{{.*}}:32 = "scf.for"
// CHECK: "memref.load"(%[[V]]
// CHECK: "math.fma"
// CHECK: %[[R:.*]] = "memref.alloc"() {{.*}} -> memref<3000xf32>
// CHECK: %[[X:.*]] = "memref.load"(%[[ROW]], %{{.*}}, %[[J:[^)]*]])
// CHECK-NEXT: "memref.store"(%[[X]], %[[R]], %[[J]])
// CHECK: "func.return"(%[[R]])
