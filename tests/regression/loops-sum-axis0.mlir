// RUN: grafo ir %S/inputs/constructs.py:sum_axis0 --signature "f32[?,?]" --stage loops | filecheck %s

/// np.sum(axis=0) zero-fills the result, then accumulates rows in a nest whose inner loop runs along the row.

// CHECK: ^bb0(%[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>):
// CHECK: %[[OUT:.*]] = "memref.alloc"
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
