// RUN: grafo ir %S/inputs/constructs.py:partition_two --signature "f64[?]" --stage loops | filecheck %s

/// np.partition of float64 is introselect in place in the result: NaNs go to the line's end
/// while it is copied in, then median-of-3 pivots and a branchless Lomuto partition (plain
/// "olt": no NaN is left in the range), heapsort once 2*log2(n) partitions have not reached
/// 16 elements; no scratch line.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf64, strided<[?], offset: ?>>):
// CHECK-DAG: %[[SMALL:.*]] = "arith.constant"() {value = 16 : index}
// CHECK: %[[N:.*]] = "memref.dim"(%[[A]], %{{.*}})
// CHECK: %[[OUT:.*]] = "memref.alloc"(%[[N]]) {{.*}} -> memref<?xf64>
// CHECK-NOT: "memref.alloc"
/// The read: a NaN is stored from the back, a number from the front (counted).
// CHECK: %[[READ:.*]]:2 = "scf.for"
// CHECK: %[[V:.*]] = "memref.load"(%[[A]], %{{.*}})
// CHECK: %[[NAN:.*]] = "arith.cmpf"(%[[V]], %[[V]]) {predicate = 14 : i64}
// CHECK: %[[DST:.*]] = "arith.select"(%[[NAN]], %{{.*}}, %{{.*}})
// CHECK: "memref.store"(%[[V]], %[[OUT]], %[[DST]])
/// The depth limit, then the select of position -1 within the numbers only.
// CHECK: "scf.while"
// CHECK: "arith.subi"(%[[READ]]#0, %{{.*}})
// CHECK: "scf.while"
// CHECK: "arith.cmpi"(%{{.*}}, %[[SMALL]]) {predicate = 5 : i64}
// CHECK: "scf.condition"
/// Lomuto: swap, then advance the boundary on "olt" (no branch on the data).
// CHECK: %[[P:.*]] = "scf.for"
// CHECK: %[[LT:.*]] = "arith.cmpf"(%{{.*}}, %{{.*}}) {predicate = 4 : i64}
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}})
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}})
// CHECK: %[[NEXT:.*]] = "arith.addi"
// CHECK: "arith.select"(%[[LT]], %[[NEXT]], %{{.*}})
/// Fewer than an eighth below the pivot: gather the elements equal to it.
// CHECK: "arith.muli"
// CHECK: "scf.if"
/// Past the loop: insertion sort while depth is left, else heapsort.
// CHECK: "scf.if"
// CHECK-NOT: "memref.dealloc"
// CHECK: "grafo.check"
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "partition_two"
