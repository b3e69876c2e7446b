// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | filecheck %s

/// A full f32 sum of a dynamic size takes the static rule at run time. Below 2 * 65536
/// elements (the then branch) it needs no buffer: 16 lanes, each adding 16 elements of a
/// 256-element block (the inner grafo.lanes loop), accumulate their block sums with Kahan
/// compensation (the outer grafo.lanes loop, 16 totals and 16 compensations); the last
/// n % 16 elements are added in order after it. From 2 * 65536 elements on the same runs per
/// 65536-element chunk in a parallel loop that writes a buffer of partial sums, reduced
/// after it.

// CHECK: %[[N:.*]] = "memref.dim"
// CHECK: %[[SMALL:.*]] = "arith.cmpi"(%[[N]], %{{.*}}) {predicate = 2 : i64}
// CHECK-NEXT: %[[R:.*]] = "scf.if"(%[[SMALL]]) ({
// CHECK-NOT: "memref.alloc"
// CHECK: %{{.*}}:32 = "scf.for"
// CHECK: %{{.*}}:16 = "scf.for"
// CHECK: "arith.addf"
// CHECK: }) {grafo.lanes = 16 : i64}
// CHECK: "math.absf"
// CHECK: }) {grafo.lanes = 16 : i64}
// CHECK: }) : (index, index, index, f32) -> f32
// CHECK: }, {
// CHECK: %[[P:.*]] = "memref.alloc"
// CHECK: "memref.store"(%{{.*}}, %[[P]]
// CHECK: }) {grafo.parallel, grafo.work = 65536 : i64}
// CHECK: "memref.load"(%[[P]]
// CHECK: "memref.dealloc"(%[[P]])
// CHECK: "func.return"(%[[R]]) : (f32) -> ()
// CHECK-LABEL: sym_name = "sum_all"
