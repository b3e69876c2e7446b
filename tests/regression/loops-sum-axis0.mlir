// RUN: grafo ir %S/inputs/constructs.py:sum_axis0 --signature "f32[?,?]" --stage loops | filecheck %s

/// np.sum(axis=0) of a float argument adds in NumPy's order, which depends on the argument's
/// strides (grafo.stride), so the choice is made at run time: when the rows have the smallest
/// stride (a Fortran-ordered or transposed argument) or the kept axis has size 1, each column
/// is reduced by its own loop of pairwise blocks (grafo.lanes); otherwise the result is
/// zero-filled, then accumulates rows in a nest whose inner loop runs along the row.

// CHECK: ^bb0(%[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>):
// CHECK: "grafo.stride"(%[[A]], %{{.*}})
// CHECK: "grafo.stride"(%[[A]], %{{.*}})
// CHECK: %[[OUT:.*]] = "memref.alloc"
// CHECK: "scf.if"(%{{.*}}) ({
// CHECK: {grafo.lanes = 8 : i64}
// CHECK: }, {
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}})
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: "scf.for"
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: %[[ACC:.*]] = "memref.load"(%[[OUT]], %[[J]])
// CHECK-NEXT: %[[X:.*]] = "memref.load"(%[[A]], %[[I]], %[[J]])
// CHECK-NEXT: %[[S:.*]] = "arith.addf"(%[[ACC]], %[[X]])
// CHECK-NEXT: "memref.store"(%[[S]], %[[OUT]], %[[J]])
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "sum_axis0"
