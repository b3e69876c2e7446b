// RUN: grafo ir %S/inputs/constructs.py:early_return_loop --signature "f64[?], f64" --stage loops | filecheck %s

/// A loop that writes a[i] of a parameter and may `return` midway updates the argument's
/// buffer in place, as the same loop without the return does: the loop carries only the
/// return flag and value, never the array (no memref.alloc, no copy per iteration, no copy
/// of the array at the return or back into the argument after the loop).

// CHECK: ^bb0(%[[A:arg[0-9]+]]: memref<?xf64, strided<[?], offset: ?>>, %[[T:arg[0-9]+]]: f64):
// CHECK-NOT: "memref.alloc"
// CHECK: "scf.for"(%{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}, %{{[0-9]+}}) ({
// CHECK-NEXT: ^bb0(%{{.*}}: i64, %{{.*}}: i1, %{{.*}}: i64):
// CHECK-NOT: "memref.alloc"
// CHECK: %[[V:.*]] = "arith.mulf"
// CHECK-NOT: "memref.alloc"
// CHECK: "memref.store"(%[[V]], %[[A]], %{{.*}})
// CHECK-NOT: "memref.alloc"
// CHECK: "arith.cmpf"(%{{.*}}, %[[T]])
// CHECK-NOT: "memref
// CHECK: }) {grafo.poll = 65536 : i64} : (i64, i64, i64, i1, i64) -> (i1, i64)
// CHECK-NOT: "memref
// CHECK: "func.return"(%{{.*}}) : (i64) -> ()
// CHECK-LABEL: sym_name = "early_return_loop"
