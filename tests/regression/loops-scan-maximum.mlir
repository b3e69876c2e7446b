// RUN: grafo ir %S/inputs/ufunc_methods.py:maximum_accumulate --signature "f32[?,?]" --stage loops | filecheck %s

/// np.maximum.accumulate along axis 0: a parallel loop over the columns, each running one
/// sequential loop down its column that carries the running maximum (NaN propagates) and
/// stores it; the first element is stored as it is.

// CHECK: %[[OUT:.*]] = "memref.alloc"
// CHECK: "scf.for"
// CHECK: ^bb0(%[[J:.*]]: index):
// CHECK: "scf.for"
// CHECK: ^bb0(%[[I:.*]]: index, %[[ACC:.*]]: f32):
// CHECK: %[[X:.*]] = "memref.load"(%{{.*}}, %[[I]], %[[J]])
// CHECK: %[[FIRST:.*]] = "arith.cmpi"(%[[I]], %{{.*}}) {predicate = 0 : i64}
// CHECK: %[[MAX:.*]] = "arith.select"(%{{.*}}, %[[ACC]], %[[X]])
// CHECK: %[[NEXT:.*]] = "arith.select"(%[[FIRST]], %[[X]], %[[MAX]])
// CHECK: "memref.store"(%[[NEXT]], %[[OUT]], %[[I]], %[[J]])
// CHECK: "scf.yield"(%[[NEXT]])
// CHECK: {grafo.parallel
// CHECK-LABEL: sym_name = "maximum_accumulate"
