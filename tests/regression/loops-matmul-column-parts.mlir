// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "i32[5,512], i32[512,4096]" --stage loops | filecheck %s

/// Five rows by a wide B (integers: floats this large call BLAS): too few rows for blocks of them on the threads, so the outer loop
/// over column parts is the parallel one, and each part allocates, packs and frees its own
/// buffer of B (no parallel loop nested inside it). The rows under no 8-row tile take a 4-row
/// tile (32 accumulators: 4 x 8 integers) and a 1-row tile (8).

// CHECK: ^bb0(%[[A:.*]]: memref<5x512xi32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<512x4096xi32, strided<[?, ?], offset: ?>>):
// CHECK: %[[C:.*]] = "memref.alloc"() {{.*}} -> memref<5x4096xi32>
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[JP:[^:]*]]: index):
// CHECK: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<32x256x8xi32>
// CHECK-NOT: grafo.parallel
// CHECK-NOT: :256 = "scf.for"
// CHECK: "memref.load"(%[[B]]
// CHECK: "memref.store"(%{{.*}}, %[[P]]
// CHECK-NOT: grafo.parallel
// CHECK: %{{.*}}:32 = "scf.for"
// CHECK-NOT: grafo.parallel
// CHECK: %{{.*}}:8 = "scf.for"
// CHECK-NOT: grafo.parallel
// CHECK: "memref.dealloc"(%[[P]])
// CHECK-NEXT: "scf.yield"
// CHECK-NEXT: }) {grafo.parallel, grafo.poll = 1 : i64, grafo.work = {{[0-9]+}} : i64}
// CHECK: "func.return"(%[[C]])
