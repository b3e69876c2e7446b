// RUN: grafo ir %S/inputs/ufunc_methods.py:add_at --signature "f64[?], i64[?], f64" --stage loops | filecheck %s

/// np.add.at into an argument: the indices are checked first (IndexError), then one
/// sequential loop reads the element at each wrapped index, adds and stores it back in
/// place, so repeated indices accumulate (unbuffered).

// CHECK: ^bb0(%[[A:.*]]: memref<?xf64, {{.*}}>, %[[I:.*]]: memref<?xi64, {{.*}}>, %[[V:.*]]: f64):
// CHECK: "grafo.check"({{.*}}) {kind = "IndexError", message = "index {0} is out of bounds for axis 0 with size {1}"}
// CHECK: "scf.for"
// CHECK: %[[RAW:.*]] = "memref.load"(%[[I]]
// CHECK: %[[W:.*]] = "arith.select"
// CHECK-NEXT: %[[OLD:.*]] = "memref.load"(%[[A]], %[[W]])
// CHECK-NEXT: %[[NEW:.*]] = "arith.addf"(%[[OLD]], %[[V]])
// CHECK-NEXT: "memref.store"(%[[NEW]], %[[A]], %[[W]])
// CHECK-NOT: grafo.parallel
// CHECK-LABEL: sym_name = "add_at"
