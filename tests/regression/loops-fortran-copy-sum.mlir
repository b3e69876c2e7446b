// RUN: grafo ir %S/inputs/creation.py:fortran_sum0 --signature "f32[64,8]" --stage loops | filecheck %s

/// A Fortran-ordered copy (np.asfortranarray of a computed array) has column-major strides,
/// so np.sum(axis=0) reduces each column by its own loop of pairwise blocks (grafo.lanes), as
/// NumPy sums a column that is contiguous in memory, with no run-time choice on strides.

// CHECK: ^bb0(%[[A:.*]]: memref<64x8xf32, strided<[?, ?], offset: ?>>):
// CHECK-NOT: "grafo.stride"
// CHECK: %[[OUT:.*]] = "memref.alloc"() {{.*}} -> memref<8xf32>
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NOT: "scf.if"
// CHECK: "memref.load"(%[[A]], %{{.*}}, %[[J]])
// CHECK: {grafo.lanes = 8 : i64
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %[[J]])
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "fortran_sum0"
