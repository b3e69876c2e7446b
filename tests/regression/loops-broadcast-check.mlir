// RUN: grafo ir %S/inputs/constructs.py:broadcast_add --signature "f32[?], f32[?]" --stage loops | filecheck %s

/// Dynamic shapes are checked at run time: grafo.check raises ValueError with both sizes.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[B:.*]]: memref<?xf32, strided<[?], offset: ?>>):
// CHECK-DAG: "memref.dim"(%[[A]], %{{.*}})
// CHECK-DAG: "memref.dim"(%[[B]], %{{.*}})
// CHECK: "grafo.check"(%{{.*}}, %{{.*}}, %{{.*}}) {kind = "ValueError", message = "operands could not be broadcast together with shapes ({0},) ({1},) "}
// CHECK: "scf.for"
// CHECK: "arith.addf"
// CHECK-LABEL: sym_name = "broadcast_add"
