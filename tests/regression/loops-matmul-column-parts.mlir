// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[5,512], f32[512,4096]" --stage loops | filecheck %s

/// Five rows by a wide B: too few rows for blocks of them on the threads, so the outer loop
/// over column parts is the parallel one, and each part allocates, packs and frees its own
/// buffer of B (no parallel loop nested inside it). The rows under no 8-row tile take a 4-row
/// tile (128 accumulators) and a 1-row tile (32); no 8-row tile loop is emitted.

// CHECK: ^bb0(%[[A:.*]]: memref<5x512xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<512x4096xf32, strided<[?, ?], offset: ?>>):
// CHECK: %[[C:.*]] = "memref.alloc"() {{.*}} -> memref<5x4096xf32>
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[JP:[^:]*]]: index):
// CHECK: %[[P:.*]] = "memref.alloc"() {{.*}} -> memref<256x272xf32>
// CHECK-NOT: grafo.parallel
// CHECK-NOT: :256 = "scf.for"
// CHECK: "memref.load"(%[[B]]
// CHECK-NEXT: "memref.store"(%{{.*}}, %[[P]]
// CHECK-NOT: grafo.parallel
// CHECK: %{{.*}}:128 = "scf.for"
// CHECK-NOT: grafo.parallel
// CHECK: %{{.*}}:32 = "scf.for"
// CHECK-NOT: grafo.parallel
// CHECK: "memref.dealloc"(%[[P]])
// CHECK-NEXT: "scf.yield"
// CHECK-NEXT: }) {grafo.parallel, grafo.poll = 1 : i64, grafo.work = {{[0-9]+}} : i64}
// CHECK: "func.return"(%[[C]])
