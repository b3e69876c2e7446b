// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage loops | filecheck %s

/// softmax: row max (maximumf); exp(x - max) written into the result buffer row by row while
/// the row sums are taken; the divide scales that buffer in place; the other buffers are freed.

// CHECK: "grafo.check"(%{{.*}}) {kind = "ValueError", message = "zero-size array to reduction operation maximum which has no identity"}
// CHECK: %[[MAX:.*]] = "memref.alloc"
// CHECK: "arith.maximumf"
// CHECK: "memref.store"(%{{.*}}, %[[MAX]]
// CHECK: %[[E:.*]] = "memref.alloc"
// CHECK: %[[SUM:.*]] = "memref.alloc"
// CHECK: "arith.subf"
// CHECK-NEXT: %[[X:.*]] = "math.exp"
// CHECK-NEXT: "memref.store"(%[[X]], %[[E]]
// CHECK: "memref.store"(%{{.*}}, %[[SUM]]
// CHECK-NOT: "memref.alloc"
// CHECK: %[[D:.*]] = "arith.divf"
// CHECK-NEXT: "memref.store"(%[[D]], %[[E]]
// CHECK-DAG: "memref.dealloc"(%[[MAX]])
// CHECK-DAG: "memref.dealloc"(%[[SUM]])
// CHECK-NOT: "memref.dealloc"(%[[E]])
// CHECK: "func.return"(%[[E]])
// CHECK-LABEL: sym_name = "softmax"
