// RUN: grafo ir %S/inputs/constructs.py:sort_stable --signature "f64[?]" --stage loops | filecheck %s

/// np.sort of float64 is a radix sort: order-preserving i64 keys (NaN the largest, -0.0 as
/// +0.0), six 11-bit digit histograms, then one scatter per digit unless a bucket holds all.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf64, strided<[?], offset: ?>>):
// CHECK: %[[S55:.*]] = "arith.constant"() {value = 55 : i64}
// CHECK: %[[N:.*]] = "memref.dim"(%[[A]], %{{.*}})
// CHECK: %[[OUT:.*]] = "memref.alloc"(%[[N]]) {{.*}} -> memref<?xf64>
// CHECK: %[[KEYS:.*]] = "memref.alloc"(%[[N]]) {{.*}} -> memref<2x?xi64>
// CHECK: %[[COUNTS:.*]] = "memref.alloc"() {{.*}} -> memref<6x2048xindex>
/// The histograms are cleared for long lines only, then counted while the keys are read:
/// digit 0 needs no shift, the last (bits 55..63) no mask.
// CHECK: "arith.cmpi"(%[[N]], %{{.*}}) {predicate = 3 : i64}
// CHECK: "scf.if"
// CHECK: "arith.bitcast"(%{{.*}}) : (f64) -> i64
// CHECK: %[[D0:.*]] = "arith.andi"(%{{.*}}, %{{.*}}) : (i64, i64) -> i64
// CHECK: "arith.index_castui"(%[[D0]]) : (i64) -> index
// CHECK: %[[TOP:.*]] = "arith.shrui"(%{{.*}}, %[[S55]]) : (i64, i64) -> i64
// CHECK-NEXT: "arith.index_castui"(%[[TOP]]) : (i64) -> index
/// Short lines: insertion sort on the keys (unsigned compare).
// CHECK: "scf.if"
// CHECK: "arith.cmpi"(%{{.*}}, %{{.*}}) {predicate = 6 : i64} : (i64, i64) -> i1
/// Prefix sums: a bucket holding all n keys makes the pass trivial.
// CHECK: "scf.for"({{%[^,]+, %[^,]+, %[^,]+, %[^,]+, %[^,)]+}}) ({
// CHECK-NEXT: ^bb0
// CHECK-NEXT: %[[C:.*]] = "memref.load"(%[[COUNTS]], %{{.*}}, %{{.*}})
// CHECK: "arith.cmpi"(%[[C]], %[[N]]) {predicate = 0 : i64}
// CHECK: %[[MOVE:.*]] = "arith.xori"
// CHECK: "scf.if"(%[[MOVE]])
// CHECK: "memref.store"(%{{.*}}, %[[KEYS]], %{{.*}}, %{{.*}}) : (i64, memref<2x?xi64>, index, index)
/// Zeros and NaNs are written again from the input, in input order.
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}})
// CHECK: "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = 1 : i64}
// CHECK: "memref.dealloc"(%[[KEYS]])
// CHECK: "memref.dealloc"(%[[COUNTS]])
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "sort_stable"
