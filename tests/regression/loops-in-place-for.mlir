// RUN: grafo ir %S/inputs/constructs.py:triad_loop --signature "f64[?], f64[?], f64[?], f64" --stage loops | filecheck %s

/// A loop writing a[i] of a parameter updates the argument's buffer in place: no copy of
/// it before the loop (memref.alloc and a copy loop), no iteration argument carrying it,
/// no copy back after the loop, in either version of the loop (unchecked and parallel, or
/// with its bounds checks; version-bounds-checks).

// CHECK: ^bb0(%[[A:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %{{.*}}: memref
// CHECK-NOT: "memref.alloc"
// CHECK: "scf.for"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) ({
// CHECK-NEXT: ^bb0(%{{.*}}: i64):
// CHECK-NOT: "memref.alloc"
// CHECK: %[[V:.*]] = "arith.addf"
// CHECK: "memref.store"(%[[V]], %[[A]], %{{.*}})
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }) {grafo.parallel, grafo.poll = 65536 : i64} : (i64, i64, i64) -> ()
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }, {
// CHECK-NEXT: "scf.for"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) ({
// CHECK-NOT: "memref.alloc"
// CHECK: "memref.store"(%{{.*}}, %[[A]], %{{.*}})
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }) {grafo.poll = 65536 : i64} : (i64, i64, i64) -> ()
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }) : (i1) -> ()
// CHECK-NEXT: "func.return"() :
// CHECK-LABEL: sym_name = "triad_loop"
