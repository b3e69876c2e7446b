// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops | filecheck %s

/// a * b + c is one parallel scf.for storing into the only buffer, the result; dynamic
/// sizes that may broadcast version it (loops-broadcast-versioned.mlir): scf.if picks the
/// general loop or the fast one, each fused the same way.

// CHECK: %[[OUT:.*]] = "memref.alloc"(%{{.*}}) <{operandSegmentSizes = array<i32: 1, 0>}> : (index) -> memref<?xf32>
// CHECK-NOT: "memref.alloc"
// CHECK: "scf.if"
// CHECK: "scf.for"
// CHECK: %[[M:.*]] = "arith.mulf"
// CHECK: %[[S:.*]] = "arith.addf"(%[[M]], %{{.*}})
// CHECK-NEXT: "memref.store"(%[[S]], %[[OUT]], %{{.*}})
// CHECK: }) {grafo.parallel, grafo.poll = 65536 : i64}
// CHECK: }, {
// CHECK: "scf.for"
// CHECK: %[[M2:.*]] = "arith.mulf"
// CHECK: %[[S2:.*]] = "arith.addf"(%[[M2]], %{{.*}})
// CHECK-NEXT: "memref.store"(%[[S2]], %[[OUT]], %{{.*}})
// CHECK: }) {grafo.parallel, grafo.poll = 65536 : i64}
// CHECK-NOT: "scf.for"
// CHECK-NOT: "memref.alloc"
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "fused"
