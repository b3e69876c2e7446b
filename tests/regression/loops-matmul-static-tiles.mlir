// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[32,64], f32[64,32]" --stage loops | filecheck %s

/// A static 32x64 by 64x32 f32 matmul (under BLAS's threshold) is one packed block: B is copied into a row-major buffer padded by 64 bytes (16 floats) per row, down its columns when B's k stride is the smaller (a transposed B, read along memory) and row by row otherwise; the result is not zero-filled first, and each 8x32 tile starts its 256 accumulators from literal zeros, loads A and the packed B, accumulates with math.fma and stores into the result.

// CHECK: ^bb0(%[[A:.*]]: memref<32x64xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<64x32xf32, strided<[?, ?], offset: ?>>):
// CHECK: %[[ZERO:.*]] = "arith.constant"() {value = 0.0 : f32}
// CHECK: %[[C:.*]] = "memref.alloc"() {{.*}} -> memref<32x32xf32>
// CHECK-NOT: "memref.store"(%[[ZERO]], %[[C]]
// CHECK: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<64x48xf32>
// CHECK-NEXT: "scf.if"
// CHECK: ^bb0(%[[J:[^:]*]]: index):
// CHECK: ^bb0(%[[K:[^:]*]]: index):
// CHECK-NEXT: %[[X:.*]] = "memref.load"(%[[B]], %[[K]], %[[J]])
// CHECK-NEXT: "memref.store"(%[[X]], %[[P]], %[[K]], %[[J]])
// CHECK: }, {
// CHECK: ^bb0(%[[K2:[^:]*]]: index):
// CHECK: ^bb0(%[[J2:[^:]*]]: index):
// CHECK-NEXT: %[[Y:.*]] = "memref.load"(%[[B]], %[[K2]], %[[J2]])
// CHECK-NEXT: "memref.store"(%[[Y]], %[[P]], %[[K2]], %[[J2]])
// CHECK: %{{.*}}:256 = "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}, %[[ZERO]], %[[ZERO]],
// CHECK: "memref.load"(%[[A]], %{{.*}}, %{{.*}})
// CHECK: "memref.load"(%[[P]], %{{.*}}, %{{.*}})
// CHECK: "math.fma"
// CHECK: "memref.store"(%{{.*}}, %[[C]], %{{.*}}, %{{.*}})
// CHECK: "func.return"(%[[C]])
