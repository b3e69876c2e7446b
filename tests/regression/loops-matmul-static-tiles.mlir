// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[64,64], f32[64,64]" --stage loops | filecheck %s

/// A static 64x64 f32 matmul is one packed block: B is copied row by row into a row-major buffer padded by 64 bytes (16 floats) per row, the result is not zero-filled first, and each 8x32 tile starts its 256 accumulators from literal zeros, loads A and the packed B, accumulates with math.fma and stores into the result.

// CHECK: ^bb0(%[[A:.*]]: memref<64x64xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<64x64xf32, strided<[?, ?], offset: ?>>):
// CHECK: %[[ZERO:.*]] = "arith.constant"() {value = 0.0 : f32}
// CHECK: %[[C:.*]] = "memref.alloc"() {{.*}} -> memref<64x64xf32>
// CHECK-NEXT: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<64x80xf32>
// CHECK-NOT: "memref.store"(%[[ZERO]], %[[C]]
// CHECK: %[[X:.*]] = "memref.load"(%[[B]], %{{.*}}, %{{.*}})
// CHECK-NEXT: "memref.store"(%[[X]], %[[P]], %{{.*}}, %{{.*}})
// CHECK: %{{.*}}:256 = "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]], %[[ZERO]],
// CHECK: "memref.load"(%[[A]], %{{.*}}, %{{.*}})
// CHECK: "memref.load"(%[[P]], %{{.*}}, %{{.*}})
// CHECK: "math.fma"
// CHECK: "memref.store"(%{{.*}}, %[[C]], %{{.*}}, %{{.*}})
// CHECK: "func.return"(%[[C]])
