// RUN: grafo ir %S/inputs/constructs.py:run_time_step --signature "f32[?], i64" --stage loops | filecheck %s

/// a[::s] with a run-time step checks s != 0 and counts (size - 1) // |s| + 1 elements
/// dividing by the signed step (|-2**63| does not fit in 64 bits): 1 - (size - 1) / s for a
/// negative step, (size - 1) / s + 1 for a positive one.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf32, strided<[?], offset: ?>>, %[[S:.*]]: i64):
// CHECK: %[[ONE:.*]] = "arith.constant"() {value = 1 : index}
// CHECK: %[[STEP:.*]] = "arith.index_cast"(%[[S]]) : (i64) -> index
// CHECK: "grafo.check"(%{{.*}}) {kind = "ValueError", message = "slice step cannot be zero"}
// CHECK: %[[NEG:.*]] = "arith.cmpi"(%[[STEP]], %{{.*}}) {predicate = 2 : i64}
// CHECK: %[[Q:.*]] = "arith.divsi"(%{{.*}}, %[[STEP]])
// CHECK-NEXT: %[[DOWN:.*]] = "arith.subi"(%[[ONE]], %[[Q]])
// CHECK-NEXT: %[[UP:.*]] = "arith.addi"(%[[Q]], %[[ONE]])
// CHECK-NEXT: "arith.select"(%[[NEG]], %[[DOWN]], %[[UP]])
// CHECK-LABEL: sym_name = "run_time_step"
