// RUN: grafo ir %S/inputs/constructs.py:clip_loop --signature "f64[?], f64" --stage loops | filecheck %s

/// A conditional write a[i] = hi inside a loop stores into the argument's buffer under a
/// result-less scf.if: neither the loop nor the branch copies the array, in either version
/// of the loop (unchecked and parallel, or with its bounds checks).

// CHECK: ^bb0(%[[A:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %[[HI:arg[0-9]+]]: f64):
// CHECK-NOT: "memref.alloc"
// CHECK: "scf.for"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) ({
// CHECK: %[[X:.*]] = "memref.load"(%[[A]]
// CHECK: %[[C:.*]] = "arith.cmpf"(%[[X]], %[[HI]])
// CHECK: "scf.if"(%[[C]]) ({
// CHECK-NOT: "memref.alloc"
// CHECK: "memref.store"(%[[HI]], %[[A]], %{{.*}})
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }, {
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }) : (i1) -> ()
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }) {grafo.parallel, grafo.poll = 65536 : i64} : (i64, i64, i64) -> ()
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }, {
// CHECK-NEXT: "scf.for"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) ({
// CHECK-NOT: "memref.alloc"
// CHECK: "memref.store"(%[[HI]], %[[A]], %{{.*}})
// CHECK: }) {grafo.poll = 65536 : i64} : (i64, i64, i64) -> ()
// CHECK-NEXT: "scf.yield"() :
// CHECK-NEXT: }) : (i1) -> ()
// CHECK-NEXT: "func.return"() :
// CHECK-LABEL: sym_name = "clip_loop"
