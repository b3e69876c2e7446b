// RUN: grafo ir %S/inputs/constructs.py:softmax --signature "f32[?,?]" --stage loops | filecheck %s

/// softmax: row max (maximumf), exp(x - max), row sum, divide; temporaries are freed, the last buffer is returned.

// CHECK: "grafo.check"(%{{.*}}) {kind = "ValueError", message = "zero-size array to reduction operation maximum which has no identity"}
// CHECK: %[[MAX:.*]] = "memref.alloc"
// CHECK: "arith.maximumf"
// CHECK: "memref.store"(%{{.*}}, %[[MAX]]
// CHECK: %[[E:.*]] = "memref.alloc"
// CHECK: "arith.subf"
// CHECK-NEXT: %[[X:.*]] = "math.exp"
// CHECK-NEXT: "memref.store"(%[[X]], %[[E]]
// CHECK: %[[SUM:.*]] = "memref.alloc"
// CHECK: "memref.store"(%{{.*}}, %[[SUM]]
// CHECK: %[[OUT:.*]] = "memref.alloc"
// CHECK: %[[D:.*]] = "arith.divf"
// CHECK-NEXT: "memref.store"(%[[D]], %[[OUT]]
// CHECK-DAG: "memref.dealloc"(%[[MAX]])
// CHECK-DAG: "memref.dealloc"(%[[E]])
// CHECK-DAG: "memref.dealloc"(%[[SUM]])
// CHECK-NOT: "memref.dealloc"(%[[OUT]])
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "softmax"
