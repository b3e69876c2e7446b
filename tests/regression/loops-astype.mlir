// RUN: grafo ir %S/inputs/constructs.py:astype_call --signature "f64[?]" --stage loops | filecheck %s

/// float64 -> int32 astype is an fptosi per element into an i32 buffer.

// CHECK: %[[OUT:.*]] = "memref.alloc"{{.*}} -> memref<?xi32>
// CHECK: %[[V:.*]] = "memref.load"
// CHECK: "arith.fptosi"
// CHECK: "memref.store"(%{{.*}}, %[[OUT]]
// CHECK-LABEL: sym_name = "astype_call"
