// RUN: grafo ir %S/inputs/histograms.py:weighted_counts --signature "i64[?], f64[?]" --stage loops | filecheck %s

/// np.bincount with weights: one pass finds the smallest and largest value, the negative
/// and length checks come before any write, a buffer of max(max + 1, minlength) zeros is
/// allocated, and one sequential loop adds each weight at its value (NumPy's order).

// CHECK: ^bb0(%[[X:.*]]: memref<?xi64, {{.*}}>, %[[W:.*]]: memref<?xf64, {{.*}}>):
// CHECK: %[[N:.*]] = "memref.dim"(%[[X]]
// CHECK: %[[M:.*]] = "memref.dim"(%[[W]]
// CHECK: %[[EXT:.*]]:2 = "scf.for"(%{{.*}}, %[[N]], %{{.*}}, %{{.*}}, %{{.*}})
// CHECK: %[[OK:.*]] = "arith.cmpi"(%[[EXT]]#0, %{{.*}}) {predicate = 5 : i64}
// CHECK: "grafo.check"(%[[OK]]) {kind = "ValueError", message = "'list' argument must have no negative elements"}
// CHECK: "grafo.check"(%{{.*}}) {kind = "ValueError", message = "The weights and list don't have the same length."}
// CHECK: %[[TOP:.*]] = "arith.addi"(%[[EXT]]#1, %{{.*}})
// CHECK: %[[SIZE:.*]] = "arith.select"
// CHECK: %[[OUT:.*]] = "memref.alloc"(%[[SIZE]])
// CHECK: "scf.for"(%{{.*}}, %[[SIZE]], %{{.*}})
// CHECK: "memref.store"(%{{.*}}, %[[OUT]]
// CHECK: }) {grafo.parallel
// CHECK: "scf.for"(%{{.*}}, %[[N]], %{{.*}})
// CHECK: %[[V:.*]] = "memref.load"(%[[X]]
// CHECK: %[[AT:.*]] = "arith.index_cast"(%[[V]])
// CHECK: %[[WV:.*]] = "memref.load"(%[[W]]
// CHECK: %[[OLD:.*]] = "memref.load"(%[[OUT]], %[[AT]])
// CHECK: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[WV]])
// CHECK: "memref.store"(%[[NEW]], %[[OUT]], %[[AT]])
// CHECK-NOT: grafo.parallel
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "weighted_counts"
