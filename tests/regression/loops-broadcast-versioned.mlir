// RUN: grafo ir %S/inputs/constructs.py:broadcast_add --signature "f32[?,?], f32[?,?]" --stage loops | filecheck %s
// RUN: grafo ir %S/inputs/constructs.py:fused --signature "f32[?], f32[?], f32[?]" --stage loops | filecheck %s --check-prefix=FUSED
// RUN: grafo ir %S/inputs/constructs.py:broadcast_add --signature "f32[4,8], f32[8]" --stage loops | filecheck %s --check-prefix=STATIC

/// Loop versioning on run-time broadcasting: a dynamic dim of size 1 reads index 0
/// (arith.select on "dim == 1"). When the innermost index goes through such selects, the
/// nest is emitted twice and one scf.if on "some flag holds" picks the general nest, else
/// the fast one that indexes the inner dim directly (which LLVM vectorizes). Outer-dim
/// selects are loop-invariant in the inner loop and stay in both versions.

// CHECK: ^bb0(%[[A:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>, %[[B:.*]]: memref<?x?xf32, strided<[?, ?], offset: ?>>):
// CHECK-DAG: %[[ONE:.*]] = "arith.constant"() {value = 1 : index}
// CHECK-DAG: %[[A1:.*]] = "memref.dim"(%[[A]], %[[ONE]])
// CHECK-DAG: %[[B1:.*]] = "memref.dim"(%[[B]], %[[ONE]])
// CHECK: %[[A0UNIT:.*]] = "arith.cmpi"(%{{.*}}, %[[ONE]]) {predicate = 0 : i64}
// CHECK: %[[B0UNIT:.*]] = "arith.cmpi"(%{{.*}}, %[[ONE]]) {predicate = 0 : i64}
// CHECK: %[[A1UNIT:.*]] = "arith.cmpi"(%[[A1]], %[[ONE]]) {predicate = 0 : i64}
// CHECK: %[[B1UNIT:.*]] = "arith.cmpi"(%[[B1]], %[[ONE]]) {predicate = 0 : i64}
// CHECK: "grafo.check"
// CHECK: %[[OUT:.*]] = "memref.alloc"
// CHECK-NEXT: %[[ANY:.*]] = "arith.ori"(%[[A1UNIT]], %[[B1UNIT]])
// CHECK-NEXT: "scf.if"(%[[ANY]]) ({

/// general: every index is selected
// CHECK: "scf.for"
// CHECK: "scf.for"
// CHECK: "arith.select"(%[[A0UNIT]],
// CHECK: "arith.select"(%[[A1UNIT]],
// CHECK: "memref.load"(%[[A]],
// CHECK: "arith.select"(%[[B0UNIT]],
// CHECK: "arith.select"(%[[B1UNIT]],
// CHECK: "memref.load"(%[[B]],
// CHECK: "arith.addf"
// CHECK: "memref.store"(%{{.*}}, %[[OUT]],
// CHECK: }) {grafo.parallel, grafo.poll = 1 : i64}
// CHECK: }, {

/// fast: the inner induction variable indexes both operands
// CHECK: "scf.for"
// CHECK-NEXT: ^bb0(%[[I:.*]]: index):
// CHECK-NEXT: "scf.for"
// CHECK-NEXT: ^bb0(%[[J:.*]]: index):
// CHECK-NEXT: %[[AI:.*]] = "arith.select"(%[[A0UNIT]], %{{.*}}, %[[I]])
// CHECK-NEXT: "memref.load"(%[[A]], %[[AI]], %[[J]])
// CHECK-NEXT: %[[BI:.*]] = "arith.select"(%[[B0UNIT]], %{{.*}}, %[[I]])
// CHECK-NEXT: "memref.load"(%[[B]], %[[BI]], %[[J]])
// CHECK-NEXT: "arith.addf"
// CHECK-NEXT: "memref.store"(%{{.*}}, %[[OUT]], %[[I]], %[[J]])
// CHECK: }) {grafo.parallel, grafo.poll = 1 : i64}
// CHECK-NEXT: "scf.yield"
// CHECK-NEXT: }) : (i1) -> ()
// CHECK-NOT: "scf.for"
// CHECK: "func.return"(%[[OUT]])
// CHECK-LABEL: sym_name = "broadcast_add"

/// 1-d: the flags of a * b and of (a * b) + c (its intermediate shape too) guard one loop.
// FUSED: "memref.alloc"
// FUSED-NEXT: "arith.ori"
// FUSED-NEXT: "arith.ori"
// FUSED-NEXT: %[[ANY:.*]] = "arith.ori"
// FUSED-NEXT: "scf.if"(%[[ANY]]) ({
// FUSED-NEXT: "scf.for"
// FUSED: "arith.select"
// FUSED: }) {grafo.parallel, grafo.poll = 65536 : i64}
// FUSED: }, {
// FUSED-NEXT: "scf.for"
// FUSED-NEXT: ^bb0(%[[I:.*]]: index):
// FUSED-NEXT: "memref.load"(%{{.*}}, %[[I]])
// FUSED-NEXT: "memref.load"(%{{.*}}, %[[I]])
// FUSED-NEXT: "arith.mulf"
// FUSED-NEXT: "memref.load"(%{{.*}}, %[[I]])
// FUSED-NEXT: "arith.addf"
// FUSED-NEXT: "memref.store"
// FUSED-NEXT: "scf.yield"
// FUSED-NEXT: }) {grafo.parallel, grafo.poll = 65536 : i64}
// FUSED-LABEL: sym_name = "fused"

/// Static shapes broadcast without run-time flags: one nest, no scf.if.
// STATIC-NOT: "scf.if"
// STATIC: "scf.for"
// STATIC-NOT: "scf.if"
// STATIC-LABEL: sym_name = "broadcast_add"
