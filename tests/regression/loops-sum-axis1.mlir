// RUN: grafo ir %S/inputs/constructs.py:sum_axis --signature "f32[?,?]" --stage loops | filecheck %s

/// np.sum(axis=1) of a strided float argument adds in NumPy's order, which its strides decide
/// at run time (grafo.stride): when the rows are contiguous in memory, each row is reduced in
/// an inner scf.for of pairwise blocks (grafo.lanes) carrying the sum, stored once per row;
/// otherwise (a column-major matrix) the zero-filled result accumulates one column at a time,
/// the inner loop running down the column (load %arg0[i, j] with j from the outer loop).

// CHECK: ^bb0(%[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>):
// CHECK: "grafo.stride"(%[[A]], %{{.*}})
// CHECK: %[[OUT:.*]] = "memref.alloc"
// CHECK-NOT: "memref.alloc"
// CHECK: "scf.if"(%{{.*}}) ({
// CHECK: "scf.for"
// CHECK: {grafo.lanes = 8 : i64}
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}}) : (f32, memref<?xf32>, index) -> ()
// CHECK: }, {
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}})
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: "scf.for"
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: %[[ACC:.*]] = "memref.load"(%[[OUT]], %[[I]])
// CHECK-NEXT: %[[X:.*]] = "memref.load"(%[[A]], %[[I]], %[[J]])
// CHECK-NEXT: %[[S:.*]] = "arith.addf"(%[[ACC]], %[[X]])
// CHECK-NEXT: "memref.store"(%[[S]], %[[OUT]], %[[I]])
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "sum_axis"
