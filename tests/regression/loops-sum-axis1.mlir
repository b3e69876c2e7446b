// RUN: grafo ir %S/inputs/constructs.py:sum_axis --signature "f32[?,?]" --stage loops | filecheck %s

/// np.sum(axis=1) reduces each row in an inner scf.for carrying the sum, stored once per row.

// CHECK: %[[OUT:.*]] = "memref.alloc"
// CHECK-NOT: "memref.alloc"
// CHECK: "scf.for"
// CHECK: "scf.for"(%{{.*}}) ({
// CHECK: "arith.addf"
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %{{.*}}) : (f32, memref<?xf32>, index) -> ()
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "sum_axis"
