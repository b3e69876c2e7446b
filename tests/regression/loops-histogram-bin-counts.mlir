// RUN: grafo ir %S/inputs/histograms.py:edge_histogram --signature "f64[?], f64[5]" --stage loops | filecheck %s

/// np.histogram with given edges counts its bin indices (from a binary search) with
/// np.bin_counts: the index expression is fused into one loop that adds one at an index in
/// range and zero at bin 0 otherwise, with neither np.bincount's largest-value pass nor its
/// checks.

// CHECK-NOT: 'list' argument must have no negative elements
// CHECK: %[[COUNTS:.*]] = "memref.alloc"() {{.*}} -> memref<4xi64>
// CHECK: "scf.for"
// CHECK: "memref.store"(%{{.*}}, %[[COUNTS]]
// CHECK: "scf.for"
// CHECK: %[[BIN:[0-9a-z]+]] = "arith.index_cast"(%{{.*}}) : (i64) -> index
// CHECK-NEXT: %[[STEP:.*]] = "arith.extui"(%{{.*}}) : (i1) -> i64
// CHECK-NEXT: %[[OLD:.*]] = "memref.load"(%[[COUNTS]], %[[BIN]])
// CHECK-NEXT: %[[NEW:.*]] = "arith.addi"(%[[OLD]], %[[STEP]])
// CHECK-NEXT: "memref.store"(%[[NEW]], %[[COUNTS]], %[[BIN]])
// CHECK-NOT: 'list' argument must have no negative elements
// CHECK: "func.return"(%[[COUNTS]]
// CHECK-LABEL: sym_name = "edge_histogram"
