// RUN: grafo ir %S/inputs/constructs.py:matmul_op --signature "f32[?,300], f32[300]" --stage loops | filecheck %s

/// A matrix times a vector: when A's rows run across memory (a transpose, decided from its
/// strides at run time), b @ A.T by the blocked kernel as one row; otherwise 4 rows at a time
/// summed with math.fma in 16 vector lanes each (grafo.lanes = 16, 64 values), the threads
/// taking blocks of rows, and single rows after them. The rows are a dynamic dim so that the
/// generated kernel is there, next to the BLAS call (`lowering/blas.py`) taken from
/// GEMV_MIN_ELEMENTS matrix elements.

// CHECK: ^bb0(%[[A:.*]]: memref<?x300xf32, strided<[?, ?], offset: ?>>, %[[V:.*]]: memref<300xf32, strided<[?], offset: ?>>):
// CHECK: %[[Y:.*]] = "memref.alloc"({{.*}}) {{.*}} -> memref<?xf32>
// CHECK: "scf.if"
// CHECK: %[[ROW:.*]] = "memref.alloc"({{.*}}) {{.*}} -> memref<1x?xf32>
// CHECK: "memref.dealloc"(%[[ROW]])
// CHECK: }, {
// CHECK: %{{.*}}:64 = "scf.for"
// CHECK: "math.fma"
// CHECK: }) {grafo.lanes = 16 : i64}
// CHECK: "memref.store"(%{{.*}}, %[[Y]]
// CHECK: }) {grafo.parallel, {{.*}}grafo.work = {{[0-9]+}} : i64}
// CHECK: %{{.*}}:16 = "scf.for"
// CHECK: }) {grafo.lanes = 16 : i64}
// CHECK: "func.return"(%[[Y]])
