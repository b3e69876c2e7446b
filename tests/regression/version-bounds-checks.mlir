// RUN: grafo ir %S/inputs/versioned_loops.py:triad --signature "f64[?], f64[?], f64[?], f64, i64" --stage loops | filecheck %s

/// The triad loop over dynamic sizes becomes one check before the loop that every index stays
/// in range (0 <= lb and n - 1 < each size), then the unchecked loop, marked parallel, and
/// otherwise the loop with its three IndexError checks.
// CHECK-LABEL: "builtin.module"
// CHECK: ^bb0(%[[OUT:.*]]: memref<?xf64, {{.*}}>, %[[A:.*]]: memref<?xf64, {{.*}}>, %[[B:.*]]: memref<?xf64, {{.*}}>, %{{.*}}: f64, %[[N:.*]]: i64):
// CHECK-DAG: %[[NA:.*]] = "memref.dim"(%[[A]], %{{.*}})
// CHECK-DAG: %[[NO:.*]] = "memref.dim"(%[[OUT]], %{{.*}})
// CHECK: %[[UB:.*]] = "arith.index_cast"(%[[N]]) : (i64) -> index
// CHECK: %[[LAST:.*]] = "arith.subi"(%[[UB]], %{{.*}})
// CHECK: "arith.cmpi"(%[[LAST]], %[[NA]]) {predicate = 2 : i64}
// CHECK: "arith.cmpi"(%[[LAST]], %[[NO]]) {predicate = 2 : i64}
// CHECK: "arith.andi"
// CHECK: "scf.if"(%{{.*}}) ({
// CHECK-NEXT: "scf.for"
// CHECK-NEXT: ^bb0(%[[I:.*]]: i64):
// CHECK-NEXT: %[[J:.*]] = "arith.index_cast"(%[[I]])
// CHECK-NOT: "grafo.check"
// CHECK: "memref.store"(%{{.*}}, %[[OUT]], %[[J]])
// CHECK-NEXT: "scf.yield"() : () -> ()
// CHECK-NEXT: }) {grafo.parallel, grafo.poll = {{.*}}}
// CHECK: }, {
// CHECK-NEXT: "scf.for"
// CHECK: "grafo.check"({{.*}}) {kind = "IndexError", message = "index {0} is out of bounds for axis 0 with size {1}"}
// CHECK: "grafo.check"
// CHECK: "grafo.check"
// CHECK: "memref.store"
// CHECK-NOT: grafo.parallel
// CHECK: }) {grafo.poll = {{.*}}}
// CHECK: sym_name = "triad"
