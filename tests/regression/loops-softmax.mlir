// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage loops | filecheck %s

/// softmax: one parallel loop over the rows (fuse-loops joins the lowering's three): per
/// row, the max (maximumf); exp(x - max) written into the result buffer while the row sum
/// is taken; the divide scales that row in place. The other buffers are freed after it.

// CHECK: "grafo.check"(%{{.*}}) {kind = "ValueError", message = "zero-size array to reduction operation maximum which has no identity"}
// CHECK: %[[MAX:.*]] = "memref.alloc"
// CHECK: %[[E:.*]] = "memref.alloc"
// CHECK: %[[SUM:.*]] = "memref.alloc"
// CHECK-NEXT: "scf.for"
// CHECK: "arith.maximumf"
// CHECK: "memref.store"(%{{.*}}, %[[MAX]]
// CHECK: "arith.subf"
// CHECK-NEXT: %[[X:.*]] = "math.exp"
// CHECK-NEXT: "memref.store"(%[[X]], %[[E]]
// CHECK: "memref.store"(%{{.*}}, %[[SUM]]
// CHECK-NOT: "memref.alloc"
// CHECK: %[[D:.*]] = "arith.divf"
// CHECK-NEXT: "memref.store"(%[[D]], %[[E]]
// CHECK: }) {grafo.parallel, grafo.poll = 1 : i64}
// CHECK-DAG: "memref.dealloc"(%[[MAX]])
// CHECK-DAG: "memref.dealloc"(%[[SUM]])
// CHECK-NOT: "memref.dealloc"(%[[E]])
// CHECK: "func.return"(%[[E]])
// CHECK-LABEL: sym_name = "softmax"
