// RUN: grafo ir %S/inputs/histograms.py:ranged_histogram --signature "f64[?]" --stage loops | filecheck %s

/// np.histogram with equal bins is one loop over the data: the bin by arithmetic
/// ((v - first) / norm * bins, NumPy's fast path), clamped to the last bin, moved down
/// below its left edge and up on its right edge, then counted without a branch (an element
/// outside the range adds zero). No index array, no binary search, no largest-value pass.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf64, {{.*}}>):
// CHECK: %[[COUNTS:.*]] = "memref.alloc"() {{.*}} -> memref<8xi64>
// CHECK: "scf.for"
// CHECK: "memref.store"(%{{.*}}, %[[COUNTS]]
// CHECK: "scf.for"
// CHECK: %[[V:.*]] = "memref.load"(%[[A]]
// CHECK: %[[GE:.*]] = "arith.cmpf"(%[[V]], %{{.*}}) {predicate = 3 : i64}
// CHECK: %[[LE:.*]] = "arith.cmpf"(%[[V]], %{{.*}}) {predicate = 5 : i64}
// CHECK: %[[IN:.*]] = "arith.andi"(%[[GE]], %[[LE]])
// CHECK: "arith.subf"
// CHECK: "arith.divf"
// CHECK: "arith.mulf"
// CHECK: "arith.fptosi"
// CHECK-NOT: "scf.for"
// CHECK: %[[LEFT:.*]] = "memref.load"(%[[EDGES:.*]], %{{.*}}) : (memref<9xf64>, index)
// CHECK: "arith.cmpf"(%{{.*}}, %[[LEFT]]) {predicate = 4 : i64}
// CHECK: %[[RIGHT:.*]] = "memref.load"(%[[EDGES]], %{{.*}}) : (memref<9xf64>, index)
// CHECK: "arith.cmpf"(%{{.*}}, %[[RIGHT]]) {predicate = 3 : i64}
// CHECK: %[[STEP:.*]] = "arith.extui"(%[[IN]]) : (i1) -> i64
// CHECK: %[[OLD:.*]] = "memref.load"(%[[COUNTS]], %[[BIN:[0-9a-z]+]])
// CHECK: %[[NEW:.*]] = "arith.addi"(%[[OLD]], %[[STEP]])
// CHECK: "memref.store"(%[[NEW]], %[[COUNTS]], %[[BIN]])
// CHECK-NOT: grafo.parallel
// CHECK: "func.return"(%[[COUNTS]]
// CHECK-LABEL: sym_name = "ranged_histogram"
