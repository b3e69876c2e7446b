// RUN: grafo ir %S/inputs/constructs.py:scatter_points --signature "f64[?,?], i64[?], i64[?]" --stage loops | filecheck %s

/// a[i, j] = 1.0 into an argument: the index shapes are checked to broadcast (IndexError),
/// each index array is checked against its axis unless the broadcast shape is empty, then
/// one sequential loop stores in place at the wrapped index pair.

// CHECK: ^bb0(%[[A:.*]]: memref<?x?xf64, {{.*}}>, %[[I:.*]]: memref<?xi64, {{.*}}>, %[[J:.*]]: memref<?xi64, {{.*}}>):
// CHECK: %[[ONE:.*]] = "arith.constant"() {value = 1.0 : f64}
// CHECK: %[[N:.*]] = "memref.dim"(%[[I]]
// CHECK: %[[M:.*]] = "memref.dim"(%[[J]]
// CHECK: "grafo.check"({{.*}}) {kind = "IndexError", message = "shape mismatch: indexing arrays could not be broadcast together with shapes ({0},) ({1},) "}
// CHECK: %[[EMPTY:.*]] = "arith.cmpi"(%[[B:.*]], %{{.*}}) {predicate = 0 : i64}
// CHECK: %[[OK0:.*]]:2 = "scf.for"
// CHECK: %[[C0:.*]] = "arith.ori"(%[[OK0]]#0, %[[EMPTY]])
// CHECK: "grafo.check"(%[[C0]], %[[OK0]]#1, %{{.*}}) {kind = "IndexError", message = "index {0} is out of bounds for axis 0 with size {1}"}
// CHECK: %[[OK1:.*]]:2 = "scf.for"
// CHECK: %[[C1:.*]] = "arith.ori"(%[[OK1]]#0, %[[EMPTY]])
// CHECK: "grafo.check"(%[[C1]], %[[OK1]]#1, %{{.*}}) {kind = "IndexError", message = "index {0} is out of bounds for axis 1 with size {1}"}
// CHECK: "scf.for"(%{{.*}}, %[[B]], %{{.*}}) ({
// CHECK: %[[RI:.*]] = "memref.load"(%[[I]]
// CHECK: %[[WI:.*]] = "arith.select"
// CHECK: %[[RJ:.*]] = "memref.load"(%[[J]]
// CHECK: %[[WJ:.*]] = "arith.select"
// CHECK-NEXT: "memref.store"(%[[ONE]], %[[A]], %[[WI]], %[[WJ]])
// CHECK-NOT: grafo.parallel
// CHECK-LABEL: sym_name = "scatter_points"
