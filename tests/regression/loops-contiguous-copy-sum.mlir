// RUN: grafo ir %S/inputs/creation.py:contiguous_sum0 --signature "f32[64,8]" --stage loops | filecheck %s

/// np.ascontiguousarray of an array whose layout follows an argument's is a C-ordered copy
/// (order = "C"), so np.sum(axis=0) adds row by row into the zero-filled output, NumPy's order for a
/// C-contiguous array, with no run-time choice on the argument's strides.

// CHECK: ^bb0(%[[A:.*]]: memref<64x8xf32, strided<[?, ?], offset: ?>>):
// CHECK-NOT: "grafo.stride"
// CHECK-NOT: grafo.lanes
// CHECK: %[[OUT:.*]] = "memref.alloc"() {{.*}} -> memref<8xf32>
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}})
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: "scf.for"
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: %[[ACC:.*]] = "memref.load"(%[[OUT]], %[[J]])
// CHECK: "memref.load"(%[[A]], %[[I]], %[[J]])
// CHECK: "arith.addf"(%[[ACC]], %{{.*}})
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "contiguous_sum0"
