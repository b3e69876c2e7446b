// RUN: grafo ir %S/inputs/constructs.py:search_right --signature "f64[?], f64" --stage loops | filecheck %s

/// np.searchsorted(side="right") halves [base, base + size) at most 64 times, comparing the
/// sort's unsigned keys (NaN last): the value's key once, the probed element's each step.

// CHECK: ^bb0(%[[A:.*]]: memref<?xf64, strided<[?], offset: ?>>, %[[V:.*]]: f64):
// CHECK: %[[ONES:.*]] = "arith.constant"() {value = -1 : i64}
// CHECK: %[[N:.*]] = "memref.dim"(%[[A]], %{{.*}})
// CHECK: "arith.bitcast"(%[[V]]) : (f64) -> i64
// CHECK: %[[KEY:.*]] = "arith.select"(%{{.*}}, %[[ONES]], %{{.*}})
// CHECK: %[[R:.*]]:2 = "scf.for"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}, %[[N]])
// CHECK: ^bb0(%{{.*}}: index, %[[BASE:.*]]: index, %[[SIZE:.*]]: index):
// CHECK: "arith.cmpi"(%[[SIZE]], %{{.*}}) {predicate = 4 : i64}
// CHECK: %[[HALF:.*]] = "arith.divsi"(%[[SIZE]], %{{.*}})
// CHECK: %[[AT:.*]] = "arith.addi"(%[[BASE]], %[[HALF]])
// CHECK: "memref.load"(%[[A]], %[[AT]])
/// "right": an element equal to the value is passed (ule).
// CHECK: %[[AFTER:.*]] = "arith.cmpi"(%{{.*}}, %[[KEY]]) {predicate = 7 : i64}
// CHECK: "arith.select"(%[[AFTER]]
// CHECK: %[[POS:.*]] = "arith.index_cast"(%[[R]]#0) : (index) -> i64
// CHECK: "func.return"(%[[POS]])
// CHECK-LABEL: sym_name = "search_right"
