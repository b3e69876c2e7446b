// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[40,64], f32[64,40]" --stage loops | filecheck %s

/// (A product under BLAS's threshold.) 40 columns are one 32-wide tile and 8 more: B's packed block is 64 wide, its columns from
/// 40 on zeros, and the tiles write a result padded to 64 columns whose first 40 are copied
/// into the result at the end (no i-k-j loop for the columns past the last full tile).

// CHECK: ^bb0(%[[A:.*]]: memref<40x64xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<64x40xf32, strided<[?, ?], offset: ?>>):
// CHECK: %[[C:.*]] = "memref.alloc"() {{.*}} -> memref<40x40xf32>
// CHECK: %[[W:.*]] = "memref.alloc"() {{.*}} -> memref<40x64xf32>
// CHECK: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<64x80xf32>
// CHECK: "memref.load"(%[[B]]
// CHECK: "memref.store"(%{{.*}}, %[[P]]
// CHECK: "memref.store"(%[[ZERO:.*]], %[[P]]
// CHECK: "math.fma"
// CHECK-NOT: "memref.store"({{.*}}, %[[C]],
// CHECK: "memref.store"(%{{.*}}, %[[W]]
// CHECK: "memref.dealloc"(%[[P]])
// CHECK: %[[X:.*]] = "memref.load"(%[[W]], %[[I:[^,]*]], %[[J:[^)]*]])
// CHECK-NEXT: "memref.store"(%[[X]], %[[C]], %[[I]], %[[J]])
// CHECK: "memref.dealloc"(%[[W]])
// CHECK: "func.return"(%[[C]])
