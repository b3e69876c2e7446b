// RUN: grafo ir %S/inputs/constructs.py:sum_all --signature "f32[?]" --stage loops | filecheck %s

/// A full f32 sum of a dynamic size takes the static rule at run time. Below 2 * 65536
/// elements (the then branch) it needs no buffer: an 8-way unrolled inner loop (its 8
/// partial sums kept in one vector, grafo.lanes) with compensated (Kahan) outer
/// accumulation. From there on the same runs per 65536-element
/// chunk in a parallel loop that writes a buffer of partial sums, reduced after it.

// CHECK: %[[N:.*]] = "memref.dim"
// CHECK: %[[SMALL:.*]] = "arith.cmpi"(%[[N]], %{{.*}}) {predicate = 2 : i64}
// CHECK-NEXT: %[[R:.*]] = "scf.if"(%[[SMALL]]) ({
// CHECK-NOT: "memref.alloc"
// CHECK: }) {grafo.lanes = 8 : i64} : (index, index, index, f32, f32, f32, f32, f32, f32, f32, f32) -> (f32, f32, f32, f32, f32, f32, f32, f32)
// CHECK: "math.absf"
// CHECK: }) {grafo.poll = 2730 : i64} : (index, index, index, f32, f32) -> (f32, f32)
// CHECK: }, {
// CHECK: %[[P:.*]] = "memref.alloc"
// CHECK: "memref.store"(%{{.*}}, %[[P]]
// CHECK: }) {grafo.parallel, grafo.poll = 1 : i64, grafo.work = 65536 : i64}
// CHECK: "memref.load"(%[[P]]
// CHECK: "memref.dealloc"(%[[P]])
// CHECK: "func.return"(%[[R]]) : (f32) -> ()
// CHECK-LABEL: sym_name = "sum_all"
