// RUN: grafo opt %s --pass-pipeline=canonicalize | filecheck %s

/// Inside `for i in range(64)` (i64 induction variable, index-cast for addressing), the
/// bounds checks of a[i] are decided by the loop's range: i >= 0 and i < 64 hold, so the
/// negative-index select and the grafo.check go away. A compare the range does not decide
/// (i < 32) stays.
// CHECK-LABEL: "builtin.module"
// CHECK: ^bb0(%[[I:.*]]: i64):
// CHECK-NEXT: %[[J:.*]] = "arith.index_cast"(%[[I]])
// CHECK-NOT: "grafo.check"
// CHECK: %[[HALF:.*]] = "arith.cmpi"(%[[J]], %{{.*}}) {predicate = 2 : i64}
// CHECK: "memref.store"(%{{.*}}, %{{.*}}, %[[J]])
"builtin.module"() ({
  "func.func"() ({
  ^bb0(%a: memref<64xi1>):
    %c0 = "arith.constant"() {value = 0 : i64} : () -> i64
    %c1 = "arith.constant"() {value = 1 : i64} : () -> i64
    %c64 = "arith.constant"() {value = 64 : i64} : () -> i64
    %z = "arith.constant"() {value = 0 : index} : () -> index
    %n = "arith.constant"() {value = 64 : index} : () -> index
    %h = "arith.constant"() {value = 32 : index} : () -> index
    "scf.for"(%c0, %c64, %c1) ({
    ^bb0(%i: i64):
      %j = "arith.index_cast"(%i) : (i64) -> index
      %neg = "arith.cmpi"(%j, %z) {predicate = 2 : i64} : (index, index) -> i1
      %w = "arith.addi"(%j, %n) : (index, index) -> index
      %k = "arith.select"(%neg, %w, %j) : (i1, index, index) -> index
      %lo = "arith.cmpi"(%k, %z) {predicate = 5 : i64} : (index, index) -> i1
      %hi = "arith.cmpi"(%k, %n) {predicate = 2 : i64} : (index, index) -> i1
      %ok = "arith.andi"(%lo, %hi) : (i1, i1) -> i1
      "grafo.check"(%ok, %i) {kind = "IndexError", message = "index {0} is out of bounds"} : (i1, i64) -> ()
      %half = "arith.cmpi"(%k, %h) {predicate = 2 : i64} : (index, index) -> i1
      "memref.store"(%half, %a, %k) : (i1, memref<64xi1>, index) -> ()
      "scf.yield"() : () -> ()
    }) : (i64, i64, i64) -> ()
    "func.return"() : () -> ()
  }) {function_type = (memref<64xi1>) -> (), sym_name = "range"} : () -> ()
}) : () -> ()
